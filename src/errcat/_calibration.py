"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Written by ``benchmarks/calibrate.py``; do not edit by hand.
Fitted on 5568 corpus exceptions (120990 queries).
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    -0.6895,  # bias
    0.0000,  # mode_prefix
    -3.4940,  # mode_inner
    -0.5972,  # mode_truncated
    -1.8072,  # mode_drift
    0.0000,  # log_literal
    0.0946,  # explained
    -0.5050,  # outside_match
    -0.6850,  # placeholders
    0.2162,  # information
    -1.0693,  # background_common
    -0.1403,  # catalog_common
    -4.5505,  # present_share
    -1.8761,  # builtin_wording
    0.0000,  # class_agree
    -3.7754,  # class_disagree
    6.8542,  # frame_site
    0.0000,  # frame_raise_file
    -1.0974,  # frame_file
    -0.2404,  # frame_package
    -1.2596,  # frame_elsewhere
    3.1865,  # repo_named
    1.4933,  # bare
    1.0792,  # bare_explained
)
#: (logit, share right) knots of the monotone map from the model's logit to the
#: confidence, fitted on the top answers (isotonic regression).
KNOTS: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0005),
    (-1.6044, 0.1968),
    (0.925, 0.7312),
    (3.2242, 0.9654),
    (6.0218, 0.9965),
    (7.9889, 0.9995),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.63
