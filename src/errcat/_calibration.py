"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Written by ``benchmarks/calibrate.py``; do not edit by hand.
Fitted on 5568 corpus exceptions (147268 queries).
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    0.8016,  # bias
    0.0000,  # mode_prefix
    -3.2306,  # mode_inner
    -0.3045,  # mode_truncated
    -1.0286,  # mode_drift
    0.0000,  # log_literal
    0.6035,  # explained
    -1.0460,  # outside_match
    -0.4673,  # placeholders
    0.2009,  # information
    -0.7501,  # background_common
    -0.1581,  # catalog_common
    -4.6822,  # present_share
    -1.5799,  # builtin_wording
    0.0000,  # class_agree
    -3.5849,  # class_disagree
    3.7865,  # frame_site
    0.6607,  # frame_raise_file
    0.0111,  # frame_file
    -0.8083,  # frame_package
    -3.3861,  # frame_elsewhere
    3.1326,  # repo_named
    -0.2639,  # bare
    0.5154,  # bare_explained
)
#: (logit, share right) knots of the monotone map from the model's logit to the
#: confidence, fitted on the top answers (isotonic regression).
KNOTS: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0005),
    (-30.7664, 0.0005),
    (-8.5821, 0.0005),
    (-6.9366, 0.0005),
    (-5.4531, 0.0005),
    (-4.6489, 0.0005),
    (-3.0896, 0.0658),
    (-0.3749, 0.379),
    (0.7037, 0.7241),
    (1.429, 0.7809),
    (2.4041, 0.95),
    (4.1399, 0.9755),
    (5.3768, 0.9916),
    (6.7952, 0.9995),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.53
