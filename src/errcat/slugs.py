"""The record slug of a message template, shared by the miner and the matcher.

The miner names each record after its template (a bare raise after its statement);
the matcher reads a statement a paste quotes back to that name
(:mod:`errcat.matcher.statement`). Kept apart from :mod:`errcat.mine` so the matcher
need not import the miner.
"""

from __future__ import annotations

import re

__all__ = ["slugify"]

_SLUG_LENGTH = 50
_SLUG_SEP = re.compile(r"[^a-z0-9]+")


def slugify(template: str) -> str:
    """The record slug of a message template: lowercase words joined by ``-``, at most 50 chars.

    >>> slugify("DeepEP v2 MoE is not validated for {architecture!r}; supported")
    'deepep-v2-moe-is-not-validated-for-architecture-r'
    """
    slug = _SLUG_SEP.sub("-", template.lower()).strip("-")
    return slug[:_SLUG_LENGTH].rstrip("-") or "error"
