"""Whether a hit's words are a generic shape: one that says nothing of whose error it is.

A shape is generic when many projects raise it, or when a phrase can fill it
whole: such words fit other projects' errors as well as the record's, so they
are a confident answer only with evidence that the catalog holds *this* error
(a frame in the record's file or package, its class named with its module:
:func:`errcat.matcher.score._score` weighs the one against the other).
:func:`generic_shape` says why a hit is one, as the one value scoring weighs:

* the background of Python at large shows the shape raised at
  :data:`MANY_PLACES` places or more (``axis {ax} is out of bounds for array of
  dimension {ndim}``: numpy's words, which torch and others copied; ``Invalid
  mode: {mode!r}``);
* the background shows it raised elsewhere too, or the pattern opens with
  its subject and the rest is a short predicate (``{name} must be
  non-negative``), and the model is unsure of the words;
* a value holds a whole clause while the pattern's own words carry few bits
  (:data:`CLAUSE_BITS`)
  (``Length mismatch: {details}`` is pandas' ``Length mismatch: Expected axis
  has 3 elements, new values have 4 elements`` as much as anyone's): the text
  says more than the words the pattern explains (:func:`holds_clause`);
* the loaded catalog shows several projects raising the shape (its spread:
  :mod:`errcat.matcher.spread`), more than its words' bits make one project's.

>>> from errcat.confidence import TextEvidence
>>> def evidence(bits: float, projects: int) -> TextEvidence:
...     return TextEvidence("full", 20, 0.5, 0.0, 1, bits, projects, 0.0, 1)
>>> generic_shape(evidence(42.8, 5), False, confidence=0.95) is not None
True
>>> generic_shape(evidence(12.8, 1), False, confidence=0.74, clause=True) is not None
True
>>> generic_shape(evidence(12.8, 1), False, confidence=0.74) is None
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from errcat.confidence import TextEvidence
from errcat.matcher.spread import MAX_REPOS

__all__ = ["CLAUSE_BITS", "MANY_PLACES", "generic_shape", "holds_clause", "spread_bits"]

#: Below this many bits a pattern's literal words are a predicate any subject may fill
#: (``{name} must be non-negative``, ``File {path} does not exist.``): a generic shape.
GENERIC_BITS = 25.0
#: ... and at most this many literal characters.
GENERIC_CHARS = 32
#: A shape generic by its words alone (another project of the background, a short
#: predicate) that the model is this sure of stands without evidence: its words and
#: the value they frame say more than the shape (in the catalogs measured, such answers
#: on other projects' errors sit near 0.74; those on the catalog's own, above 0.89).
#: Not so a shape raised at :data:`MANY_PLACES` places, nor a shape the loaded
#: catalog itself shows several projects raising.
GENERIC_SURE = 0.85
#: The places (files) of the background that raise a shape, at which it is many
#: raises' whatever the model makes of its words: the background counts at most five
#: files of one project, so this is one project's every module (numpy's "The order of
#: integration must be non-negative" in each polynomial kind) or several projects'
#: (``Invalid mode: {mode!r}``, 9; ``I/O operation on closed file.``, 7). Fewer are a
#: project's few copies of one check (the standard library's aifc, sunau and wave:
#: "frame rate not set", 3), which the words may still tell.
MANY_PLACES = 5
#: A shape several projects of the loaded catalog raise is generic below
#: :data:`GENERIC_BITS` plus this many bits per doubling of them beyond two. Two
#: projects may be one and its copy: the words decide, as for a predicate, wherever
#: its placeholders stand (``Unsupported activation: {x}``, 15 bits). Three projects'
#: ``{fn}() got an unexpected keyword argument '{arg}'`` (26 bits) is a phrase any
#: project writes; two projects' ``Cannot find the config file for {q}`` (30 bits),
#: one error in two places.
SPREAD_BITS = 10.0
#: A value of at least this many words outside its quoted names is a clause of its own
#: (``Expected axis has 3 elements, new values have 4 elements``), not a name, a path,
#: a number or a short phrase (``Unknown format: uri``, what a wrapper's ``{err}`` holds).
CLAUSE_WORDS = 4
#: ... framed by words of fewer bits than this: as common as an ordinary pair of words
#: (``Length mismatch``, 13 bits; ``Missing {x} in {y}``, 10). A wrapper's words name
#: whose it is (``PTXAS error: {msg}``, 21 bits; ``Triton Error [CUDA]: {error}``, 23):
#: its value is the message it wraps, not text its pattern leaves unexplained.
CLAUSE_BITS = 16.0
#: A word: letters only, once the punctuation around it is stripped.
_WORD = re.compile(r"[A-Za-z]{2,}")
#: A quoted name inside a value (``'KEYCAP NUMBER SIGN' at position 0``): one value.
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
#: What may stand around a word (``elements,``, ``(other``).
_AROUND = "()[]{}<>,.;:!?'\""


def spread_bits(projects: int) -> float:
    """The bits below which a shape ``projects`` projects of the catalog raise is generic.

    >>> spread_bits(2), round(spread_bits(3), 1), spread_bits(8)
    (25.0, 30.8, 45.0)
    """
    return GENERIC_BITS + SPREAD_BITS * math.log2(max(projects, 2) / 2)


def _words(value: str) -> int:
    """How many words a value holds outside its quoted names.

    >>> _words("'KEYCAP NUMBER SIGN' at position 0"), _words("fd=7, family=1, type=1")
    (2, 0)
    >>> _words("Expected <class 'int'> rows, received array of length 'x'")
    7
    """
    bare = _QUOTED.sub(" ", value) if "'" in value or '"' in value else value
    return sum(1 for token in bare.split() if _WORD.fullmatch(token.strip(_AROUND)))


def holds_clause(values: Sequence[str | None]) -> bool:
    """Whether one of a hit's values is a clause: :data:`CLAUSE_WORDS` words or more.

    >>> holds_clause(["Expected axis has 3 elements, new values have 4 elements"])
    True
    >>> holds_clause(["max_new_tokens", None, "'LlamaForCausalLM'", "Unknown format: uri"])
    False
    """
    return any(value and _words(value) >= CLAUSE_WORDS for value in values)


def generic_shape(
    text: TextEvidence,
    subject_first: bool,
    spread: Callable[[], int] = lambda: 1,
    confidence: float = 0.0,
    clause: bool = False,
) -> str | None:
    """Why a hit's words are a generic shape (many projects raise it, a phrase fills it), or None.

    ``subject_first``: the pattern opens with a placeholder (what the message is
    about), so its literal text is a predicate; one of few bits and characters
    (``{name} must be non-negative``) is true of anything. So is a shape the
    background says is raised elsewhere too (``text.background``: the files that
    raise it), while the model is less sure of the words than :data:`GENERIC_SURE`
    (``confidence``), and one raised at :data:`MANY_PLACES` places, however sure.
    ``clause``: a value of the hit is a clause (:func:`holds_clause`): with few
    bits of its own words, the pattern frames text it does not explain.
    ``spread()``: how many projects of the loaded catalog raise the shape (asked
    only when the rest leaves it open): the more of them, the more bits a shape
    needs to be one project's (:func:`spread_bits`), however sure the model is.

    >>> from errcat.confidence import TextEvidence
    >>> def evidence(bits: float, projects: int) -> TextEvidence:
    ...     return TextEvidence("full", 20, 0.5, 0.0, 1, bits, projects, 0.0, 1)
    >>> generic_shape(evidence(15.9, 1), True) is None, generic_shape(evidence(15.9, 1), False)
    (False, None)
    >>> generic_shape(evidence(46.4, 1), True), generic_shape(evidence(40.0, 2), False) is None
    (None, False)
    >>> generic_shape(evidence(40.0, 2), False, confidence=0.95) is None
    True
    >>> generic_shape(evidence(40.0, 4), False, confidence=0.95) is None
    True
    >>> generic_shape(evidence(40.0, 5), False, confidence=0.95)
    '5 places in Python at large raise it'
    >>> generic_shape(evidence(26.2, 1), True, lambda: 3, confidence=0.95)
    '3 projects of the catalog raise it'
    >>> generic_shape(evidence(30.2, 1), False, lambda: 2) is None
    True
    >>> generic_shape(evidence(12.8, 1), False, clause=True, confidence=0.95)
    'a value holds a whole clause its 13 bits of words do not explain'
    >>> generic_shape(evidence(20.8, 1), False, clause=True, confidence=0.95) is None
    True
    """
    if text.background >= MANY_PLACES:
        return f"{text.background} places in Python at large raise it"
    if clause and text.information < CLAUSE_BITS:
        return (
            f"a value holds a whole clause its {text.information:.0f} bits of words do not explain"
        )
    if confidence < GENERIC_SURE:
        if text.background > 1:
            return f"{text.background} places in Python at large raise it"
        if subject_first and text.information < GENERIC_BITS and text.literal <= GENERIC_CHARS:
            return "a short predicate any subject completes"
    if text.information >= spread_bits(MAX_REPOS):
        return None  # no spread the catalog could show makes these words generic
    projects = spread()
    if projects > 1 and text.information < spread_bits(projects):
        return f"{projects} projects of the catalog raise it"
    return None
