"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Written by ``benchmarks/calibrate.py``; do not edit by hand.
Fitted on 5568 corpus exceptions (177720 queries).
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    0.8324,  # bias
    0.0000,  # mode_prefix
    -3.7722,  # mode_inner
    -1.0490,  # mode_truncated
    0.0000,  # mode_drift
    0.0000,  # log_literal
    1.1160,  # explained
    -2.0524,  # outside_match
    -0.1579,  # placeholders
    0.0779,  # information
    0.0000,  # background_common
    -0.4021,  # catalog_common
    -5.5835,  # present_share
    0.0000,  # builtin_wording
    0.0000,  # class_agree
    -4.3836,  # class_disagree
    3.5757,  # frame_site
    0.3894,  # frame_raise_file
    -1.5964,  # frame_file
    -1.0255,  # frame_package
    -2.2328,  # frame_elsewhere
    2.8849,  # repo_named
    0.4863,  # class_custom
    0.8897,  # bare
    1.4397,  # bare_explained
    0.0000,  # bare_log_literal
    -0.7000,  # bare_outside_match
    -0.3724,  # bare_placeholders
    0.3544,  # bare_information
    0.0000,  # bare_background_common
    -0.5383,  # bare_catalog_common
    -2.8461,  # bare_builtin_wording
)
#: (logit, share right) knots of the monotone map from the model's logit to the
#: confidence, fitted on the top answers (isotonic regression) of reports with
#: traceback frames ...
KNOTS: tuple[tuple[float, float], ...] = (
    (-13.177535, 0.0),
    (-6.433227, 0.0025),
    (-6.433064, 0.0297),
    (-2.182198, 0.0337),
    (-2.178771, 0.0595),
    (-1.690423, 0.0635),
    (-1.679513, 0.4159),
    (2.041941, 0.4199),
    (2.047047, 0.8589),
    (3.770858, 0.8629),
    (3.78221, 0.9444),
    (4.464156, 0.9484),
    (4.464782, 0.9686),
    (6.6336, 0.9726),
)
#: ... and of reports without (bare lines, log lines).
KNOTS_BARE: tuple[tuple[float, float], ...] = (
    (-12.360888, 0.0),
    (-5.868448, 0.0025),
    (-5.861307, 0.0025),
    (-5.030686, 0.0039),
    (-5.01594, 0.0051),
    (-3.68089, 0.0091),
    (-3.677167, 0.0332),
    (-2.147326, 0.0372),
    (-2.147201, 0.113),
    (-0.791612, 0.117),
    (-0.789304, 0.3518),
    (0.125239, 0.3558),
    (0.125679, 0.7338),
    (1.251898, 0.7378),
    (1.256413, 0.8766),
    (2.246944, 0.8806),
    (2.247375, 0.9415),
    (2.700462, 0.9455),
    (2.70571, 0.948),
    (3.239686, 0.952),
    (3.239688, 0.9763),
    (3.68756, 0.9803),
    (3.687695, 0.9865),
    (4.297817, 0.9905),
    (4.302864, 0.9905),
    (9.3682, 0.9941),
)
#: (share of words, share right) knots of fuzzy hints (no pattern matched), fitted on
#: match_all's first answers (``calibrate.py --shipped``); empty: the cap x share.
KNOTS_FUZZY: tuple[tuple[float, float], ...] = (
    (0.3375, 0.0067),
    (0.6875, 0.0107),
    (0.692308, 0.0476),
    (0.777778, 0.0516),
    (0.78125, 0.1019),
    (0.875, 0.1059),
    (0.884615, 0.4707),
    (1.0, 0.4747),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
