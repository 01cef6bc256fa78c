"""How common a message shape is across Python at large: the shipped background model.

A catalog that holds ``n must be a positive integer`` once cannot tell, from
its own records, that half the Python ecosystem raises the same words. The
background model can: errcat's own miner ran over the standard library and a
broad set of packages (``benchmarks/build_background.py`` rebuilds it), and
the model keeps two tables, compressed in ``_background.json.gz``:

* **words**: in how many message templates each word occurs (words seen in
  fewer than three templates are left out: they count as rare);
* **shapes**: for each message shape (its literal words in order, placeholders
  as ``{}``) raised by two or more projects, how many projects raise it;
* **builtin**: the wording of messages that CPython's C code raised while the
  standard library's test suite ran (quoted values and numbers left out). A
  pure-Python record whose wording is one of these (``_pyio``, ``_pydecimal``
  and many packages copy C messages) cannot be told from the far more common
  C error by its text alone.

From these, :func:`information` is how many bits of evidence a pattern's
literal text carries (rare words many, common words few), and
:func:`projects` how many projects raise the same shape.

>>> information(["must be a positive integer"]) < information(["checkpoint shard is missing from"])
True
>>> projects(["unknown ", " not supported"]) >= 1
True
"""

from __future__ import annotations

import functools
import gzip
import json
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

__all__ = [
    "Background",
    "builtin_wording",
    "information",
    "load",
    "message_raised_by_builtins",
    "projects",
    "raised_by_builtins",
    "shape_key",
    "shape_words",
]

_RESOURCE = "_background.json.gz"
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|<[^>]*>")
_WORD = re.compile(r"[^\W\d_][^\W_]*")
#: Bits one word can carry at most (a word no template of the background holds).
_MAX_WORD_BITS = 16.0


def shape_words(fragment: str) -> list[str]:
    """The lowercase words of a literal fragment, as the model counts them.

    >>> shape_words("Invalid indices (")
    ['invalid', 'indices']
    """
    return [w.lower() for w in _WORD.findall(fragment)]


def shape_key(fragments: Sequence[str]) -> str:
    """The shape of a message: its literal words in order, placeholders as ``{}``.

    >>> shape_key(["unknown mode ", "; expected 'r' or 'w'"])
    'unknown mode {} expected r or w'
    """
    parts = (" ".join(shape_words(f)) for f in fragments)
    return " {} ".join(part for part in parts if part)


def builtin_wording(message: str) -> str:
    """A message's words without its quoted values, reprs and numbers.

    >>> builtin_wording("'bytes' object cannot be interpreted as an integer")
    'object cannot be interpreted as an integer'
    """
    return " ".join(shape_words(_QUOTED.sub(" ", message)))


@dataclass(frozen=True)
class Background:
    """The model's tables (see the module docstring)."""

    version: str
    templates: int
    words: dict[str, int]
    shapes: dict[str, int]
    builtin: frozenset[str] = frozenset()

    def word_bits(self, word: str) -> float:
        """Bits of evidence in one word: ``log2(templates / (1 + templates holding it))``."""
        count = self.words.get(word, 0)
        return min(_MAX_WORD_BITS, math.log2(self.templates / (1 + count)))


_LOCK = threading.Lock()
_LOADED: Background | None = None


def load() -> Background:
    """The shipped model, read once (thread-safe)."""
    global _LOADED  # noqa: PLW0603 - a lazily loaded module-level singleton
    if _LOADED is None:
        with _LOCK:
            if _LOADED is None:
                raw = resources.files("errcat").joinpath(_RESOURCE).read_bytes()
                data = json.loads(gzip.decompress(raw))
                _LOADED = Background(
                    version=str(data["version"]),
                    templates=int(data["templates"]),
                    words=dict(data["words"]),
                    shapes=dict(data["shapes"]),
                    builtin=frozenset(data.get("builtin", ())),
                )
    return _LOADED


@functools.lru_cache(maxsize=1 << 16)
def _information(fragments: tuple[str, ...]) -> float:
    model = load()
    seen = {w for f in fragments for w in shape_words(f)}
    return sum(model.word_bits(w) for w in seen)


def information(fragments: Sequence[str]) -> float:
    """Bits of evidence in a pattern's literal text: the sum over its distinct words."""
    return _information(tuple(fragments))


@functools.lru_cache(maxsize=1 << 16)
def _projects(fragments: tuple[str, ...]) -> int:
    return max(1, load().shapes.get(shape_key(fragments), 1))


def projects(fragments: Sequence[str]) -> int:
    """How many projects of the background raise this shape (1 when it is not common)."""
    return _projects(tuple(fragments))


@functools.lru_cache(maxsize=1 << 16)
def _raised_by_builtins(fragments: tuple[str, ...]) -> bool:
    wording = " ".join(shape_words(" ".join(fragments)))
    return bool(wording) and wording in load().builtin


@functools.lru_cache(maxsize=4096)
def message_raised_by_builtins(message: str) -> bool:
    """True when CPython's C code raises this very message (its words, values dropped).

    A pattern that explains only part of such a message is not told apart by
    :func:`raised_by_builtins`; the message itself is.

    >>> message_raised_by_builtins("'precision' is an invalid keyword argument for this function")
    True
    >>> message_raised_by_builtins("batch size 3 exceeds the cache")
    False
    """
    wording = builtin_wording(message)
    return bool(wording) and wording in load().builtin


def raised_by_builtins(fragments: Sequence[str]) -> bool:
    """True when CPython's C code raises the same wording (so text alone cannot tell them apart).

    >>> raised_by_builtins([" object cannot be interpreted as an integer"])
    True
    """
    return _raised_by_builtins(tuple(fragments))
