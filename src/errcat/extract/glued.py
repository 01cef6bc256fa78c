r"""A colon a writer glued to the message it introduces: ``infer error:Attempted to assign ...``.

An issue title often puts the writer's words and a colon before the message it
quotes; typed fast, the space after the colon goes missing (``[Bug]: InternVL2-26B
infer error:Attempted to assign 7 x 256 = 1792 multimodal tokens to 506
placeholders``). Read as written, the message's first word is glued to the
writer's last one and no pattern opens there. A colon between a lowercase letter
and a capitalised word is such a glue: times (``14:31``), URLs (``http://``),
drive letters (``C:\``) and ``module:attr`` references (lowercase after the colon)
are not. :func:`unglued` puts the space back, so the title's words before the colon
are read past as they are when the space is there (:mod:`errcat.extract.forms`).

>>> unglued("InternVL2-26B infer error:Attempted to assign 7 tokens")
'InternVL2-26B infer error: Attempted to assign 7 tokens'
>>> unglued("at 14:31:48 see http://host:8000/v1 and pkg.mod:main") is None
True
"""

from __future__ import annotations

import re

__all__ = ["unglued"]

#: A colon glued between a lowercase letter and a capitalised word.
_GLUED_COLON = re.compile(r"(?<=[a-z]):(?=[A-Z][a-z])")


def unglued(text: str) -> str | None:
    """The text with a space after each glued colon, or None when it has none.

    >>> unglued("zqa zqb failed:Zqc went wrong")
    'zqa zqb failed: Zqc went wrong'
    >>> unglued("ValueError: already spaced") is None
    True
    """
    spaced = _GLUED_COLON.sub(": ", text)
    return spaced if spaced != text else None
