"""Fitted weights of errcat's confidence model (see :mod:`errcat.confidence`).

Placeholder weights, set by hand before the first fit; rebuilt by
``benchmarks/calibrate.py``.
"""

#: One weight per name in :data:`errcat.confidence.FEATURES`, in that order.
WEIGHTS: tuple[float, ...] = (
    -4.0,  # bias
    -0.3,  # mode_prefix
    -0.5,  # mode_inner
    -1.2,  # mode_truncated
    -1.5,  # mode_drift
    1.0,  # log_literal
    2.0,  # explained
    0.5,  # information
    -0.8,  # background_common
    -0.3,  # catalog_common
    -2.0,  # present_share
    -2.0,  # builtin_wording
    1.0,  # class_agree
    -1.5,  # class_disagree
    2.5,  # frame_site
    0.8,  # frame_file
    0.3,  # frame_package
    -1.2,  # frame_elsewhere
    -0.7,  # shared_unresolved
    0.5,  # repo_named
)
#: match_error answers when the confidence is at least this.
THRESHOLD = 0.5
