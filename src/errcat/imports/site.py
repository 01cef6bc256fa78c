"""Records whose raise site a traceback never shows (the import system's).

Python removes its import machinery's frames from the traceback of an import
error: ``import sgl_kernel`` failing prints the frame of the ``import``
statement and ``ModuleNotFoundError``, never ``importlib/_bootstrap.py``. A
record raised there (tagged :data:`HIDDEN_SITE_TAG`) is not to be held down
because the traceback "never passes through" its file; its frames say nothing
either way, as those of a traceback cut before its exception line.

>>> hides_frames(("errcat:generated", HIDDEN_SITE_TAG)), hides_frames(("errcat:generated",))
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["HIDDEN_SITE_TAG", "hides_frames"]

#: The tag of a record raised where tracebacks show no frame (the import system).
HIDDEN_SITE_TAG = "errcat:site:hidden"


def hides_frames(tags: Iterable[str]) -> bool:
    """True when a record with these tags is raised where a traceback shows no frame."""
    return HIDDEN_SITE_TAG in tags
