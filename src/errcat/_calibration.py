"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Written by ``benchmarks/calibrate.py``; do not edit by hand.
Fitted on 5568 corpus exceptions (177720 queries).
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    0.8125,  # bias
    0.0000,  # mode_prefix
    -3.5758,  # mode_inner
    -0.6065,  # mode_truncated
    0.0000,  # mode_drift
    0.0000,  # log_literal
    1.1290,  # explained
    -1.9791,  # outside_match
    -0.1604,  # placeholders
    0.0760,  # information
    0.0000,  # background_common
    -0.4022,  # catalog_common
    -5.9274,  # present_share
    0.0000,  # builtin_wording
    0.0000,  # class_agree
    -4.4175,  # class_disagree
    3.4987,  # frame_site
    0.3640,  # frame_raise_file
    -1.6078,  # frame_file
    -1.0152,  # frame_package
    -2.2181,  # frame_elsewhere
    3.1276,  # repo_named
    0.5660,  # class_custom
    0.9785,  # bare
    1.4614,  # bare_explained
    0.0000,  # bare_log_literal
    -1.5283,  # bare_outside_match
    -0.3962,  # bare_placeholders
    0.3429,  # bare_information
    0.0000,  # bare_background_common
    -0.5351,  # bare_catalog_common
    -2.8609,  # bare_builtin_wording
)
#: (logit, share right) knots of the monotone map from the model's logit to the
#: confidence, fitted on the top answers (isotonic regression) of reports with
#: traceback frames ...
KNOTS: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-2.550761, 0.0025),
    (-2.543379, 0.0547),
    (-1.909741, 0.0587),
    (-1.90786, 0.0761),
    (-1.697871, 0.0801),
    (-1.685585, 0.1964),
    (-0.808721, 0.2004),
    (-0.80192, 0.3708),
    (-0.571294, 0.3748),
    (-0.5654, 0.6923),
    (0.810576, 0.6963),
    (0.82047, 0.7541),
    (1.237206, 0.7581),
    (1.252357, 0.8286),
    (2.257869, 0.8326),
    (2.260051, 0.9214),
    (3.241642, 0.9254),
    (3.241781, 0.9664),
    (3.708893, 0.9704),
    (3.710754, 0.9859),
    (5.173376, 0.9899),
    (5.173912, 0.9899),
    (5.89858, 0.993),
    (5.899054, 0.9975),
    (6.613997, 0.9995),
)
#: ... and of reports without (bare lines, log lines).
KNOTS_BARE: tuple[tuple[float, float], ...] = (
    (-50.0, 0.0),
    (-4.700883, 0.0025),
    (-4.694897, 0.0114),
    (-3.665157, 0.0154),
    (-3.662908, 0.0378),
    (-2.470381, 0.0418),
    (-2.459268, 0.0713),
    (-2.175802, 0.0753),
    (-2.1758, 0.1156),
    (-0.769489, 0.1196),
    (-0.763865, 0.3085),
    (-0.025509, 0.3125),
    (-0.01764, 0.4302),
    (0.213728, 0.4342),
    (0.216444, 0.7188),
    (1.228252, 0.7228),
    (1.233764, 0.8784),
    (2.300072, 0.8824),
    (2.30425, 0.9563),
    (3.287494, 0.9603),
    (3.288586, 0.9856),
    (5.489128, 0.9896),
    (5.50001, 0.9896),
    (7.347809, 0.9916),
    (7.392449, 0.9975),
    (9.689428, 0.9995),
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
