"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Written by ``benchmarks/calibrate.py``; do not edit by hand.
Fitted on 5568 corpus exceptions (147268 queries).
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    -0.1526,  # bias
    0.0000,  # mode_prefix
    -3.5035,  # mode_inner
    -0.6566,  # mode_truncated
    0.0000,  # mode_drift
    0.3675,  # log_literal
    0.4348,  # explained
    -1.9427,  # outside_match
    -0.0288,  # placeholders
    0.0761,  # information
    0.0000,  # background_common
    -0.3342,  # catalog_common
    -4.3008,  # present_share
    -1.1506,  # builtin_wording
    0.0000,  # class_agree
    -3.6870,  # class_disagree
    3.5825,  # frame_site
    0.5939,  # frame_raise_file
    -0.2302,  # frame_file
    -1.1480,  # frame_package
    -3.7839,  # frame_elsewhere
    3.0655,  # repo_named
    0.1595,  # class_custom
    0.9856,  # bare
    1.1566,  # bare_explained
    0.0000,  # bare_log_literal
    -0.3184,  # bare_outside_match
    -0.6973,  # bare_placeholders
    0.2049,  # bare_information
    -1.0861,  # bare_background_common
    -0.1473,  # bare_catalog_common
    -1.8378,  # bare_builtin_wording
)
#: (logit, share right) knots of the monotone map from the model's logit to the
#: confidence, fitted on the top answers (isotonic regression) of reports with
#: traceback frames ...
KNOTS: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-3.136298, 0.0025),
    (-3.092123, 0.0409),
    (-2.208606, 0.0449),
    (-2.182497, 0.4454),
    (0.345483, 0.4494),
    (0.359402, 0.723),
    (1.525864, 0.727),
    (1.527368, 0.7969),
    (1.968433, 0.8009),
    (1.968918, 0.9359),
    (2.686888, 0.9399),
    (2.689879, 0.9744),
    (3.374069, 0.9784),
    (3.37884, 0.9784),
    (4.04491, 0.9824),
    (4.047511, 0.9827),
    (4.815521, 0.9867),
    (4.815754, 0.9868),
    (5.068377, 0.9908),
    (5.073473, 0.9939),
    (6.391349, 0.9979),
)
#: ... and of reports without (bare lines, log lines).
KNOTS_BARE: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-3.801868, 0.0025),
    (-3.735169, 0.035),
    (-1.831795, 0.039),
    (-1.813944, 0.1714),
    (-1.166029, 0.1754),
    (-1.1639, 0.2732),
    (-0.150786, 0.2772),
    (-0.144249, 0.4643),
    (0.182377, 0.4683),
    (0.183148, 0.5915),
    (0.398779, 0.5955),
    (0.398804, 0.7255),
    (1.478304, 0.7295),
    (1.478733, 0.8659),
    (1.790913, 0.8699),
    (1.793337, 0.9164),
    (2.14913, 0.9204),
    (2.150174, 0.9724),
    (4.358325, 0.9764),
    (4.368318, 0.9898),
    (6.853721, 0.9938),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
