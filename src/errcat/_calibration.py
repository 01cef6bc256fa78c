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
    (-13.177535, 0.0003),
    (-6.433227, 0.0043),
    (-6.433064, 0.0542),
    (-1.632494, 0.0582),
    (-1.623724, 0.4058),
    (0.372194, 0.4098),
    (0.374272, 0.6821),
    (1.458552, 0.6861),
    (1.458833, 0.8852),
    (2.897521, 0.8892),
    (2.900776, 0.9457),
    (3.770858, 0.9497),
    (3.772346, 0.9598),
    (4.482747, 0.9638),
    (4.483015, 0.967),
    (4.823434, 0.971),
    (4.823943, 0.9754),
    (6.6336, 0.9794),
)
#: ... and of reports without (bare lines, log lines).
KNOTS_BARE: tuple[tuple[float, float], ...] = (
    (-12.360888, 0.0),
    (-5.030686, 0.0025),
    (-5.01594, 0.1116),
    (-0.757855, 0.1156),
    (-0.752578, 0.7399),
    (1.251898, 0.7439),
    (1.254395, 0.895),
    (2.1019, 0.899),
    (2.101935, 0.9534),
    (3.389749, 0.9574),
    (3.38989, 0.9815),
    (3.924696, 0.9855),
    (3.924859, 0.991),
    (9.3682, 0.995),
)
#: (share of words, share right) knots of fuzzy hints (no pattern matched), fitted on
#: match_all's first answers (``calibrate.py --shipped``); empty: the cap x share.
KNOTS_FUZZY: tuple[tuple[float, float], ...] = (
    (0.327273, 0.0112),
    (0.6875, 0.0152),
    (0.692308, 0.0629),
    (0.777778, 0.0669),
    (0.78125, 0.2874),
    (1.0, 0.2914),
)
#: The share of answers right among those whose pattern's literal words carry under 6
#: bits of evidence and no frame sits at the raise line (``{label}: {err!r}``): their
#: confidence, fitted on match_all's first answers (``calibrate.py --shipped``).
WORDLESS = 0.0121
#: The share of answers right among those whose pattern has no word at all (``{msg}``)
#: and a frame at their raise line: the frame is all the evidence (``calibrate.py --shipped``).
WORDLESS_SITE = 0.9378
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
