"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Written by ``benchmarks/calibrate.py``; do not edit by hand.
Fitted on 5568 corpus exceptions (147268 queries).
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    0.1527,  # bias
    0.0000,  # mode_prefix
    -3.4205,  # mode_inner
    0.0000,  # mode_truncated
    0.0000,  # mode_drift
    0.1973,  # log_literal
    0.0695,  # explained
    -2.2594,  # outside_match
    -0.1162,  # placeholders
    0.1223,  # information
    0.0000,  # background_common
    -0.2465,  # catalog_common
    -5.4268,  # present_share
    -1.0871,  # builtin_wording
    0.0000,  # class_agree
    -3.8534,  # class_disagree
    3.8347,  # frame_site
    0.7589,  # frame_raise_file
    -1.1783,  # frame_file
    -0.8163,  # frame_package
    -3.4126,  # frame_elsewhere
    3.1314,  # repo_named
    0.2526,  # class_custom
    0.8137,  # bare
    0.9033,  # bare_explained
    0.0000,  # bare_log_literal
    -0.6043,  # bare_outside_match
    -0.6417,  # bare_placeholders
    0.1870,  # bare_information
    -0.9685,  # bare_background_common
    -0.1400,  # bare_catalog_common
    -1.8077,  # bare_builtin_wording
)
#: (logit, share right) knots of the monotone map from the model's logit to the
#: confidence, fitted on the top answers (isotonic regression) of reports with
#: traceback frames ...
KNOTS: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-3.013759, 0.0025),
    (-2.998658, 0.1003),
    (-2.263838, 0.1043),
    (-2.189961, 0.6132),
    (1.257054, 0.6172),
    (1.260399, 0.7854),
    (1.606926, 0.7894),
    (1.612067, 0.8398),
    (1.813599, 0.8438),
    (1.813652, 0.8836),
    (2.175322, 0.8876),
    (2.1764, 0.9042),
    (2.450577, 0.9083),
    (2.45229, 0.9631),
    (3.15887, 0.9671),
    (3.17323, 0.9814),
    (4.671083, 0.9854),
    (4.672904, 0.9854),
    (4.786322, 0.9879),
    (4.786712, 0.9923),
    (5.721038, 0.9963),
    (5.726097, 0.9975),
    (6.211263, 0.9995),
)
#: ... and of reports without (bare lines, log lines).
KNOTS_BARE: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-3.826872, 0.0025),
    (-3.779155, 0.0422),
    (-1.686996, 0.0462),
    (-1.682934, 0.1891),
    (-1.122405, 0.1931),
    (-1.105046, 0.2801),
    (-0.068303, 0.2841),
    (-0.06527, 0.529),
    (0.36531, 0.533),
    (0.365335, 0.7376),
    (1.518228, 0.7416),
    (1.519511, 0.8268),
    (1.6193, 0.8308),
    (1.622035, 0.9387),
    (2.007569, 0.9427),
    (2.012405, 0.961),
    (2.504049, 0.965),
    (2.504386, 0.965),
    (4.523257, 0.969),
    (4.526993, 0.9898),
    (6.749569, 0.9938),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
