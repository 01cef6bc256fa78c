"""Wheel build hook: ship the bundled data's stored index, so the first answer needs no indexing.

Indexing the bundled sglang/vllm catalog takes seconds; a wheel built from this
checkout carries the index already (``errcat/_prebuilt/<name>.gz``, built by
:func:`errcat.bundled.build_prebuilt` with the code being packaged, so its
format always matches). On first use it is decompressed into the user cache
instead of being rebuilt. Editable installs skip it: a checkout indexes its
data on first use.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PrebuiltIndexHook(BuildHookInterface):  # type: ignore[type-arg]
    """Build the stored index of ``data/`` and add it to the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Add ``errcat/_prebuilt/<index>.gz`` to a (non-editable) wheel."""
        if self.target_name != "wheel" or version == "editable":
            return
        sys.path.insert(0, str(Path(self.root) / "src"))
        try:
            from errcat.bundled import build_prebuilt
        finally:
            sys.path.pop(0)
        out = Path(tempfile.mkdtemp(prefix="errcat-prebuilt-"))
        target = build_prebuilt(Path(self.root) / "data", out)
        build_data["force_include"][str(target)] = f"errcat/_prebuilt/{target.name}"
        self.app.display_info(
            f"errcat: prebuilt index {target.name} ({target.stat().st_size:,} bytes)"
        )
