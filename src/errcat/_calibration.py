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
    (-6.433064, 0.052),
    (-1.904878, 0.056),
    (-1.904484, 0.1412),
    (-0.801734, 0.1452),
    (-0.796496, 0.6157),
    (0.858995, 0.6197),
    (0.868273, 0.8009),
    (1.62749, 0.8049),
    (1.627882, 0.8332),
    (2.220177, 0.8372),
    (2.220768, 0.9249),
    (3.203628, 0.9289),
    (3.212867, 0.9774),
    (4.004491, 0.9814),
    (4.008695, 0.9893),
    (6.6336, 0.9933),
)
#: ... and of reports without (bare lines, log lines).
KNOTS_BARE: tuple[tuple[float, float], ...] = (
    (-12.360888, 0.0),
    (-5.083344, 0.0025),
    (-5.01594, 0.0025),
    (-4.554807, 0.0051),
    (-4.503751, 0.0235),
    (-2.47151, 0.0275),
    (-2.462643, 0.1048),
    (-1.272762, 0.1088),
    (-1.253153, 0.3331),
    (0.069757, 0.3371),
    (0.072682, 0.6599),
    (1.243432, 0.6639),
    (1.244502, 0.9094),
    (2.067696, 0.9134),
    (2.067889, 0.949),
    (3.239686, 0.953),
    (3.239688, 0.9917),
    (9.3682, 0.9957),
)
#: (share of words, share right) knots of fuzzy hints (no pattern matched), fitted on
#: match_all's first answers (``calibrate.py --shipped``); empty: the cap x share.
KNOTS_FUZZY: tuple[tuple[float, float], ...] = (
    (0.3375, 0.0132),
    (0.761905, 0.0172),
    (0.766667, 0.0455),
    (0.777778, 0.0495),
    (0.78125, 0.1036),
    (0.875, 0.1076),
    (0.884615, 0.5062),
    (1.0, 0.5102),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
