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
    (-9.23519, 0.0025),
    (-9.215027, 0.0025),
    (-6.433227, 0.0027),
    (-6.433064, 0.0394),
    (-1.632494, 0.0434),
    (-1.623724, 0.1927),
    (-0.689012, 0.1967),
    (-0.685959, 0.3603),
    (0.421019, 0.3643),
    (0.421996, 0.6222),
    (1.458552, 0.6262),
    (1.458833, 0.8635),
    (3.917323, 0.8675),
    (3.919348, 0.9344),
    (4.464156, 0.9384),
    (4.464782, 0.9501),
    (4.788099, 0.9541),
    (4.789303, 0.971),
    (6.6336, 0.975),
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
    (-2.147201, 0.1129),
    (-0.791612, 0.1169),
    (-0.789304, 0.3518),
    (0.125239, 0.3558),
    (0.125679, 0.7338),
    (1.251898, 0.7378),
    (1.256413, 0.8766),
    (2.246944, 0.8806),
    (2.247375, 0.9416),
    (2.700462, 0.9456),
    (2.70571, 0.9456),
    (3.239686, 0.9494),
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
    (0.327273, 0.0069),
    (0.6875, 0.0109),
    (0.692308, 0.0476),
    (0.777778, 0.0516),
    (0.78125, 0.101),
    (0.875, 0.105),
    (0.884615, 0.4489),
    (1.0, 0.4529),
)
#: The share of answers right among those whose pattern's literal words carry under 6
#: bits of evidence and no frame sits at the raise line (``{label}: {err!r}``): their
#: confidence, fitted on match_all's first answers (``calibrate.py --shipped``).
WORDLESS = 0.0094
#: The share of answers right among those whose pattern has no word at all (``{msg}``)
#: and a frame at their raise line: the frame is all the evidence (``calibrate.py --shipped``).
WORDLESS_SITE = 0.9378
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
