"""Names that moved between the Python versions errcat supports, imported from one place.

>>> from pathlib import Path
>>> isinstance(Path("."), Traversable)
True
"""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

__all__ = ["Traversable"]
