"""Ray's refused resource quantities in errcat-data-distributed (stack_curated.ray_options).

The option validators return their texts and ``Option.validate`` raises them, so the mined
record is a bare placeholder; a node-pinning fraction finer than Ray's 0.0001 got nothing.
"""

from __future__ import annotations

import errcat
from conftest import stack_package_catalog

RAY_OPTIONS = "python/ray/_common/ray_option_utils.py"


def test_a_fraction_finer_than_ray_keeps_gets_the_precision_record() -> None:
    match = errcat.match_error(
        "ValueError: The precision of the fractional quantity of resource node:10.0.0.7"
        " cannot go beyond 0.0001",
        catalog=stack_package_catalog("distributed"),
    )
    assert match is not None
    assert match.record.file_path == RAY_OPTIONS
    assert any("0.001" in s for s in match.record.solutions)


def test_a_negative_quantity_gets_the_negative_record_not_the_precision_one() -> None:
    match = errcat.match_error(
        "ValueError: The quantity of resource num_gpus cannot be negative",
        catalog=stack_package_catalog("distributed"),
    )
    assert match is not None
    assert "negative" in match.record.error_message
