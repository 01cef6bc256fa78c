"""A message quoted after a writer's words in Chinese, Japanese or Korean (an issue title).

Titles and comments often carry the reporter's own sentence before the message they
quote: ``部署gemma-2-2b\uff0copen AI客户端发送请求时\uff0c报错\uff1aSystem role not supported``
("deploying gemma-2-2b, when the OpenAI client sends a request, the error is: ...").
The English forms (``the server says: <message>``) are read by the prose-lead rule of
:mod:`errcat.extract.forms`; that rule wants Latin words before an ASCII colon, so the
CJK sentence, its full-width punctuation and the Latin names glued into it hid the
message. :func:`cjk_tail` gives the text after the last CJK character or full-width
mark, when what follows is long enough to be a message and holds none itself: the
message the writer quoted last.

>>> cjk_tail("部署gemma-2-2b\uff0copen AI客户端发送请求时\uff0c报错\uff1aSystem role not supported")
'System role not supported'
>>> cjk_tail("运行报错 RuntimeError: CUDA error: out of memory")
'RuntimeError: CUDA error: out of memory'
>>> cjk_tail("System role not supported") is None
True
>>> cjk_tail("报错\uff1ashort one") is None
True
"""

from __future__ import annotations

import re

__all__ = ["CJK_TAIL_MIN", "cjk_tail"]

#: The shortest tail read as a message (shorter ones are names or a word of the sentence).
CJK_TAIL_MIN = 20

#: CJK ideographs, kana, hangul and the full-width and CJK punctuation that writers put
#: between their words and a quoted message (the full-width colon and comma, the
#: ideographic full stop, the lenticular brackets).
_CJK = r"\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef"
_TAIL = re.compile(rf"[{_CJK}][\s\"'`]*([A-Za-z_][^{_CJK}]*)$")


def cjk_tail(text: str) -> str | None:
    """The text after the last CJK character or mark, if it may be a quoted message."""
    found = _TAIL.search(text)
    if found is None:
        return None
    tail = found.group(1).rstrip()
    return tail if len(tail) >= CJK_TAIL_MIN else None
