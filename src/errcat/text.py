r"""Small text helpers shared by every layer: whitespace folding, words, short class names.

>>> fold_whitespace("  a\n   b\tc ")
'a b c'
>>> words("DeepEP v2 MoE is not validated for 'X'")
['deepep', 'moe', 'not', 'validated', 'for']
>>> short_class("vllm.exceptions.VLLMValidationError")
'VLLMValidationError'
"""

from __future__ import annotations

import re

__all__ = ["fold_whitespace", "short_class", "words"]

_WS = re.compile(r"\s+")
_LOWER_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")


def fold_whitespace(text: str) -> str:
    r"""Collapse every run of whitespace to one space and strip the ends.

    >>> fold_whitespace("  a\n   b\tc ")
    'a b c'
    """
    return _WS.sub(" ", text).strip()


def words(text: str) -> list[str]:
    """The lowercase words (3+ characters, starting with a letter) of a text, for fuzzy hints.

    >>> words("DeepEP v2 MoE is not validated for 'X'")
    ['deepep', 'moe', 'not', 'validated', 'for']
    """
    return [w.lower() for w in _LOWER_WORD.findall(text)]


def short_class(name: str) -> str:
    """The last dotted part of a class name (``pkg.mod.MyError`` is ``MyError``).

    >>> short_class("builtins.KeyError"), short_class("ValueError")
    ('KeyError', 'ValueError')
    """
    return name.rsplit(".", 1)[-1]
