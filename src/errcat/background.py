"""How common a message shape is across Python at large: the shipped background model.

A catalog that holds ``n must be a positive integer`` once cannot tell, from
its own records, that half the Python ecosystem raises the same words. The
background model can: errcat's own miner ran over the standard library and a
broad set of packages (``benchmarks/build_background.py`` rebuilds it), and
the model keeps two tables, compressed in ``_background.json.gz``:

* **words**: in how many message templates each word occurs (words seen in
  fewer than three templates are left out: they count as rare);
* **shapes**: for each message shape (its literal words in order, placeholders
  as ``{}``) raised at two or more places, at how many places (files, each
  project counting at most five) it is raised;
* **builtin**: the wording of messages that CPython's C code raised while the
  standard library's test suite ran (quoted values and numbers left out). A
  pure-Python record whose wording is one of these (``_pyio``, ``_pydecimal``
  and many packages copy C messages) cannot be told from the far more common
  C error by its text alone;
* **builtin_classes**: the same wordings with the class C raised each with;
  both also hold what CPython's C sources raise (``c_source``: each
  ``PyErr_SetString`` and ``PyErr_Format`` of a built-in class with a literal
  message, its conversions left out), since a harvest's sample missed some of
  the commonest (``division by zero``, ``tuple index out of range``).
  A message raised as a class C never raised it with (``tarfile.ReadError:
  unexpected end of data``, ``AssertionError: 'name' must be a string``) was
  re-raised by Python code, whatever its words;
* **builtin_examples**: up to three of C's messages of each wording, as C
  printed them. A record whose pattern matches none of them can never print
  what C prints (``no module named {name!r}``: C prints ``No module named``;
  ``unsupported operand type(s) for 'in': …``: C never quotes the operator).

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
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import NamedTuple

__all__ = [
    "Background",
    "COrigin",
    "WordEvidence",
    "builtin_wording",
    "c_examples",
    "c_origin",
    "call_wordings",
    "class_key",
    "fingerprint",
    "information",
    "is_c_message",
    "load",
    "message_raised_by_builtins",
    "pattern_wording",
    "projects",
    "raised_by_builtins",
    "shape_key",
    "shape_words",
    "word_evidence",
]

_RESOURCE = "_background.json.gz"
#: What parts a :func:`class_key`: the class name, then the wording.
_CLASS_SEP = "\x1f"
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


def class_key(error_class: str, wording: str) -> str:
    r"""The key of :attr:`Background.builtin_classes`: a short class name and a wording.

    >>> class_key("zlib.error", "error while decompressing data")
    'error\x1ferror while decompressing data'
    """
    return f"{error_class.rsplit('.', 1)[-1]}{_CLASS_SEP}{wording}"


@functools.lru_cache(maxsize=4096)
def builtin_wording(message: str) -> str:
    """A message's words without its quoted values, reprs and numbers (kept: asked twice).

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
    #: :func:`class_key` of each C-raised message's class and wording.
    builtin_classes: frozenset[str] = frozenset()
    #: A few of C's messages of each wording, as printed.
    builtin_examples: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: C's call errors: each wording after the callable, the wordings above it is
    #: the call error of (:func:`call_wordings`).
    call_wordings: dict[str, tuple[str, ...]] = field(default_factory=dict)

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
                source = frozenset(data.get("c_source", ()))
                examples = {
                    k: tuple(v)
                    for table in ("c_source_examples", "builtin_examples")
                    for k, v in data.get(table, {}).items()
                }
                calls = data.get("call_wordings")
                if calls is None:  # a model built before it was stored
                    calls = call_wordings(examples)
                _LOADED = Background(
                    version=str(data["version"]),
                    templates=int(data["templates"]),
                    words=dict(data["words"]),
                    shapes=dict(data["shapes"]),
                    builtin=frozenset(data.get("builtin", ()))
                    | {key.split(_CLASS_SEP, 1)[1] for key in source},
                    builtin_classes=frozenset(data.get("builtin_classes", ())) | source,
                    builtin_examples=examples,
                    call_wordings={k: tuple(v) for k, v in calls.items()},
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
    """At how many places (files, at most five per project) the background raises this shape.

    1 when the shape is not common (the name is older than the count: the model
    counts files, so one project raising a shape in three files counts three).
    """
    return _projects(tuple(fragments))


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """The shipped model's identity: its file's size and CRC-32 (the file holds its version).

    Read without decompressing the model (opening a stored index asks). A stored
    index keeps :func:`word_evidence` of every pattern: it names the model those
    numbers came from, and one built with another model is rebuilt.

    >>> len(fingerprint().split(":"))
    2
    """
    raw = resources.files("errcat").joinpath(_RESOURCE).read_bytes()
    return f"{len(raw)}:{zlib.crc32(raw):08x}"


class WordEvidence(NamedTuple):
    """What the model says of a pattern's literal words, worked out once per pattern.

    ``information`` and ``projects`` are :func:`information` and :func:`projects`
    of its fragments; ``has_words``, whether they hold a word as the model counts
    words; ``c_wording``, whether CPython's C code raises its wording as some class
    (when false, :func:`raised_by_builtins` is false whatever the class). A named
    tuple: a stored index builds one for each pattern a first answer touches, and
    a frozen dataclass's ``__init__`` costs three times as much.
    """

    information: float
    projects: int
    has_words: bool
    c_wording: bool


def word_evidence(fragments: Sequence[str], memo: dict[str, float] | None = None) -> WordEvidence:
    """The :class:`WordEvidence` of a pattern's literal fragments (not cached: built once each).

    Each fragment's words are found once for all four answers; ``memo`` keeps
    each word's bits across calls (an index build asks of every pattern).

    >>> e = word_evidence(["No module named "])
    >>> e.information == information(["No module named "]), e.has_words, e.c_wording
    (True, True, True)
    >>> word_evidence(["(", "): "])
    WordEvidence(information=0, projects=1, has_words=False, c_wording=False)
    """
    model = load()
    per = [shape_words(f) for f in fragments]
    # Built as _information builds it, so that the sum adds the same floats in order.
    seen = {w for found in per for w in found}
    if memo is None:
        memo = {}
    information = 0.0
    for w in seen:
        bits = memo.get(w)
        if bits is None:
            bits = memo[w] = model.word_bits(w)
        information += bits
    shape = " {} ".join(part for part in (" ".join(found) for found in per) if part)
    wording = " ".join(w for found in per for w in found)  # pattern_wording's
    return WordEvidence(
        information=information if seen else 0,
        projects=max(1, model.shapes.get(shape, 1)),
        has_words=any(per),
        c_wording=bool(wording) and wording in model.builtin,
    )


def _c_raises(wording: str, error_class: str | None) -> bool:
    model = load()
    if not wording or wording not in model.builtin:
        return False
    if error_class is None or not model.builtin_classes:
        return True
    return class_key(error_class, wording) in model.builtin_classes


@functools.lru_cache(maxsize=4096)
def message_raised_by_builtins(message: str, error_class: str | None = None) -> bool:
    """True when CPython's C code raises this very message (its words, values dropped).

    With ``error_class``, only when C raised those words as that class: Python
    code that re-raises C's words as its own class (``tarfile.ReadError``) is
    not C. A pattern that explains only part of such a message is not told
    apart by :func:`raised_by_builtins`; the message itself is.

    >>> message_raised_by_builtins("'precision' is an invalid keyword argument for this function")
    True
    >>> message_raised_by_builtins("list index out of range", "IndexError")
    True
    >>> message_raised_by_builtins("list index out of range", "tarfile.ReadError")
    False
    >>> message_raised_by_builtins("batch size 3 exceeds the cache")
    False
    """
    return _c_raises(builtin_wording(message), error_class) or _call_raises(message, error_class)


#: How the interpreter's call errors open: the callable's qualified name and ``()``
#: (``Config.__init__() got an unexpected keyword argument 'z'``, ``f() missing 1
#: required positional argument: 'x'``, ``test.<locals>.g() takes 0 positional ...``).
_CALL_NAME = re.compile(r"[\w.<>]+\(\) ")


def call_free(message: str) -> str:
    """The message without the callable a call error of the interpreter opens with.

    >>> call_free("Config.__init__() got an unexpected keyword argument 'z'")
    "got an unexpected keyword argument 'z'"
    >>> call_free("batch size 3 exceeds the cache")
    'batch size 3 exceeds the cache'
    """
    found = _CALL_NAME.match(message)
    return message[found.end() :] if found else message


#: A call error's words after the callable, at least (fewer say nothing of C).
_CALL_WORDS = 3


def call_wordings(examples: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """C's call errors whatever callable they name: each wording without it, and whose it is.

    ``examples`` is :attr:`Background.builtin_examples`. The model keeps each C
    message's wording with the callable's name in it (``storeaction init got an
    unexpected keyword argument``): the same error of any other callable (a
    project's ``Config``) would not be C's by that key. Maps each wording after
    the callable (:func:`call_free`) to the model's wordings whose examples
    print it, in the order of ``examples``. Worked out once, when the model is
    built (``call_wordings`` in its file; :func:`load` works it out for a model
    without), not while a message is matched.

    >>> call_wordings({"f takes no keyword arguments": ["f() takes no keyword arguments"]})
    {'takes no keyword arguments': ['f takes no keyword arguments']}
    >>> call_wordings({"list index out of range": ["list index out of range"]})
    {}
    """
    found: dict[str, list[str]] = {}
    for wording, printed in examples.items():
        for example in printed:
            if "() " not in example:
                continue  # no call error (most of C's messages): no regex run
            rest = call_free(example)
            if rest == example:
                continue  # not a call error: its wording is not needed
            free = builtin_wording(rest)
            if len(free.split()) < _CALL_WORDS:
                continue
            owners = found.setdefault(free, [])
            if wording not in owners:
                owners.append(wording)
    return found


def _call_raises(message: str, error_class: str | None) -> bool:
    """Whether the message is one of C's call errors, whatever callable it names.

    With ``error_class``, only when C raised one of the wordings it is the call
    error of as that class.

    >>> _call_raises("Config.__init__() got an unexpected keyword argument 'z'", "TypeError")
    True
    >>> _call_raises("Config.__init__() got an unexpected keyword argument 'z'", "KeyError")
    False
    """
    rest = call_free(message)
    if rest == message:
        return False
    model = load()
    owners = model.call_wordings.get(builtin_wording(rest))
    if not owners:
        return False
    if error_class is None or not model.builtin_classes:
        return True
    return any(class_key(error_class, wording) in model.builtin_classes for wording in owners)


def raised_by_builtins(fragments: Sequence[str], error_class: str | None = None) -> bool:
    """True when CPython's C code raises the same wording (so text alone cannot tell them apart).

    With ``error_class``, only when C raised it as that class.

    >>> raised_by_builtins([" object cannot be interpreted as an integer"])
    True
    >>> raised_by_builtins([" object cannot be interpreted as an integer"], "mypkg.BadIndex")
    False
    """
    return _raised_by_builtins(tuple(fragments), error_class)


@functools.lru_cache(maxsize=1 << 16)
def _raised_by_builtins(fragments: tuple[str, ...], error_class: str | None) -> bool:
    return _c_raises(pattern_wording(fragments), error_class)


def pattern_wording(fragments: Sequence[str]) -> str:
    """A pattern's literal words, as :attr:`Background.builtin` holds wordings.

    >>> pattern_wording(["No module named "])
    'no module named'
    """
    return " ".join(shape_words(" ".join(fragments)))


def c_examples(*wordings: str) -> tuple[str, ...]:
    """Some of C's messages of these wordings, as C printed them (none when unknown).

    >>> any(m.startswith("No module named") for m in c_examples("no module named"))
    True
    """
    table = load().builtin_examples
    return tuple(m for w in dict.fromkeys(wordings) for m in table.get(w, ()))


#: What C prints in place of a value: a quoted string, a repr in angle brackets, a number.
_C_VALUE = re.compile(r"'[^']*'|\"[^\"]*\"|<[^>]*>|\d+")
#: The least of a text read as an error message C raised (shorter is a value).
_C_MESSAGE_MIN = 12


@dataclass(frozen=True, slots=True)
class COrigin:
    """What CPython's C code has to do with a message and the pattern that matched it.

    ``raised``: C raises these words (the message's own, or the pattern's), as
    this class. ``printed``: the message opens in the very form C prints the
    pattern's words in, quoted values and all (so a project named only in its
    values is a value C was given). ``examples``: some of C's messages of the
    message's or the pattern's wording, as C printed them: a pattern that
    matches none of them never prints what C prints. Both are empty when
    ``raised`` is false.
    """

    raised: bool
    printed: bool = False
    examples: tuple[str, ...] = ()


_NOT_C = COrigin(False)


def c_origin(
    message: str,
    fragments: Sequence[str],
    error_class: str | None = None,
    *,
    own: Sequence[str] | None = None,
    c_wording: bool | None = None,
) -> COrigin:
    """Did CPython's C code print this message? One question, all its answers (:class:`COrigin`).

    ``fragments`` is the literal text a pattern's hit explains; ``own`` the
    pattern's own, when the hit explains more (a wrapper holding another
    message); ``error_class`` the class the message was raised as, if known;
    ``c_wording`` the :attr:`WordEvidence.c_wording` of ``fragments``, when known
    (False spares the question of the pattern's words).

    >>> c_origin("No module named 'vllm._C'", ["No module named "], "ModuleNotFoundError")
    ... # doctest: +ELLIPSIS
    COrigin(raised=True, printed=True, examples=(...))
    >>> c_origin("batch size 3 exceeds the cache", ["batch size ", " exceeds the cache"])
    COrigin(raised=False, printed=False, examples=())
    """
    raised = message_raised_by_builtins(message, error_class) or (
        c_wording is not False and raised_by_builtins(fragments, error_class)
    )
    if not raised:
        return _NOT_C
    wording = pattern_wording(fragments if own is None else own)
    examples = c_examples(builtin_wording(message), wording)
    return COrigin(True, _printed_by_c(message, wording), examples + _call_examples(message))


def _call_examples(message: str) -> tuple[str, ...]:
    """C's call errors of the message's words, whatever callable each names."""
    rest = call_free(message)
    return () if rest == message else _call_examples_of(builtin_wording(rest))


@functools.lru_cache(maxsize=1024)
def _call_examples_of(free: str) -> tuple[str, ...]:
    """C's call errors whose words after the callable are ``free``, as C printed them.

    >>> examples = _call_examples_of("got an unexpected keyword argument")
    >>> all("() got an unexpected keyword argument" in m for m in examples), len(examples) > 1
    (True, True)
    """
    model = load()
    return tuple(
        example
        for wording in model.call_wordings.get(free, ())
        for example in model.builtin_examples.get(wording, ())
        if "() " in example
        and (rest := call_free(example)) != example
        and builtin_wording(rest) == free
    )


@functools.lru_cache(maxsize=4096)
def _printed_by_c(message: str, wording: str) -> bool:
    """Whether a message opens in the very form C prints ``wording`` in, quoted values and all.

    What follows may be anything (an issue title's own words).

    >>> _printed_by_c("No module named 'vllm._C' when run demo", "no module named")
    True
    >>> _printed_by_c("module attrs has no attribute x", "module has no attribute")
    False
    >>> _printed_by_c("Config.__init__() got an unexpected keyword argument 'z'", "x")
    True
    """
    shape = _C_VALUE.sub("_", message)
    if any(shape.startswith(_C_VALUE.sub("_", example)) for example in c_examples(wording)):
        return True
    # A call error names its callable unquoted: compare what follows the name.
    rest = _C_VALUE.sub("_", call_free(message))
    return any(
        rest.startswith(_C_VALUE.sub("_", call_free(example)))
        for example in _call_examples(message)
    )


def may_be_c_message(text: str) -> bool:
    """Whether :func:`is_c_message` may hold for a text: long enough (no model is read).

    >>> may_be_c_message("header"), may_be_c_message("object of type 'int' has no len()")
    (False, True)
    """
    return len(text) >= _C_MESSAGE_MIN


@functools.lru_cache(maxsize=4096)
def is_c_message(text: str) -> bool:
    """Whether a text (a captured value) is a whole message of CPython's C code, of three words.

    >>> is_c_message("object of type 'int' has no len()"), is_c_message("header")
    (True, False)
    """
    return (
        len(text) >= _C_MESSAGE_MIN
        and len(shape_words(builtin_wording(text))) >= 3
        and message_raised_by_builtins(text)
    )
