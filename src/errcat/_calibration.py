"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Written by ``benchmarks/calibrate.py``; do not edit by hand.
Fitted on 5568 corpus exceptions (177720 queries).
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    0.4163,  # bias
    0.0000,  # mode_prefix
    -3.4700,  # mode_inner
    -0.4972,  # mode_truncated
    0.0000,  # mode_drift
    0.2239,  # log_literal
    1.0245,  # explained
    -2.0544,  # outside_match
    -0.2729,  # placeholders
    0.0000,  # information
    0.0000,  # background_common
    -0.3736,  # catalog_common
    -5.8281,  # present_share
    -0.0701,  # builtin_wording
    0.0000,  # class_agree
    -4.4136,  # class_disagree
    3.5966,  # frame_site
    0.2865,  # frame_raise_file
    -1.5183,  # frame_file
    -0.9882,  # frame_package
    -2.1540,  # frame_elsewhere
    3.2887,  # repo_named
    0.3689,  # class_custom
    0.7774,  # bare
    1.6817,  # bare_explained
    0.1774,  # bare_log_literal
    -1.3510,  # bare_outside_match
    -0.4195,  # bare_placeholders
    0.2287,  # bare_information
    0.0000,  # bare_background_common
    -0.5194,  # bare_catalog_common
    -2.7745,  # bare_builtin_wording
)
#: (logit, share right) knots of the monotone map from the model's logit to the
#: confidence, fitted on the top answers (isotonic regression) of reports with
#: traceback frames ...
KNOTS: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-2.544344, 0.0025),
    (-2.541707, 0.0397),
    (-2.030104, 0.0437),
    (-2.029875, 0.0593),
    (-1.857548, 0.0633),
    (-1.856024, 0.1908),
    (-0.811522, 0.1948),
    (-0.81012, 0.6381),
    (1.105945, 0.6421),
    (1.107246, 0.7953),
    (1.817523, 0.7993),
    (1.818524, 0.7993),
    (1.999976, 0.802),
    (2.001759, 0.8826),
    (2.18892, 0.8866),
    (2.192595, 0.9292),
    (3.126425, 0.9332),
    (3.127403, 0.9763),
    (3.936758, 0.9803),
    (3.937726, 0.9853),
    (4.833702, 0.9893),
    (4.834172, 0.9893),
    (5.364993, 0.9904),
    (5.365841, 0.9904),
    (5.806521, 0.993),
    (5.807123, 0.9975),
    (6.454534, 0.9995),
)
#: ... and of reports without (bare lines, log lines).
KNOTS_BARE: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-4.741844, 0.0025),
    (-4.686695, 0.0142),
    (-3.904554, 0.0182),
    (-3.904336, 0.0316),
    (-2.538761, 0.0356),
    (-2.526484, 0.0855),
    (-2.248279, 0.0895),
    (-2.246994, 0.1048),
    (-0.836507, 0.1088),
    (-0.82176, 0.3255),
    (0.01773, 0.3295),
    (0.027852, 0.611),
    (0.40213, 0.615),
    (0.402944, 0.723),
    (1.100508, 0.727),
    (1.101891, 0.865),
    (2.048551, 0.869),
    (2.062407, 0.9578),
    (3.116767, 0.9618),
    (3.122897, 0.9864),
    (5.041193, 0.9904),
    (5.047945, 0.9904),
    (7.21043, 0.991),
    (7.262548, 0.9975),
    (9.158397, 0.9995),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
