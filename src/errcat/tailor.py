"""Advice fitted to the engine and phase a paste shows: a record's ``engineAdvice``, picked.

A record may carry advice per serving engine and phase (see
:class:`errcat.models.EngineAdvice`): the same CUDA out-of-memory error has
sglang's levers (``--mem-fraction-static``) in an sglang log and vllm's
(``--gpu-memory-utilization``) in a vllm one, and other levers again during
CUDA graph capture. :func:`tailor` picks the entry that fits an
:class:`~errcat.engine.EngineContext` best and lays it over the record; a
record without such entries, or a paste that shows no engine, keeps the
record's own advice.

>>> from errcat.engine import EngineContext
>>> class R:
...     documentation, solutions, example_fix = "Out of memory.", ("Use a smaller model",), ""
...     engine_advice = (
...         {"engine": "vllm", "solutions": ["Lower --gpu-memory-utilization to 0.85"]},
...         {
...             "engine": "vllm",
...             "phase": "cuda-graph-capture",
...             "solutions": ["Pass --enforce-eager"],
...         },
...     )
>>> shown, note = tailor(R(), EngineContext("vllm", "cuda-graph-capture"))
>>> shown.solutions
('Pass --enforce-eager',)
>>> note
'advice for vllm during CUDA graph capture; the paste shows vllm, CUDA graph capture'
>>> tailor(R(), EngineContext("sglang", None))[0].solutions
('Use a smaller model',)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from errcat.engine import EngineContext, phase_label
from errcat.view import RecordFields

__all__ = ["TailoredRecord", "Variant", "pick", "tailor", "variants_of"]


@dataclass(frozen=True)
class Variant:
    """One ``engineAdvice`` entry, read from a validated record or from its JSON."""

    engine: str | None
    phase: str | None
    documentation: str = ""
    solutions: tuple[str, ...] = ()
    example_fix: str = ""


def _texts(value: object) -> tuple[str, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        return ()
    return tuple(v for v in value if isinstance(v, str))


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _optional(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _variant(entry: object) -> Variant:
    if isinstance(entry, Mapping):  # a RecordView's JSON object (camelCase keys)
        return Variant(
            _optional(entry.get("engine")),
            _optional(entry.get("phase")),
            _text(entry.get("documentation")),
            _texts(entry.get("solutions")),
            _text(entry.get("exampleFix")),
        )
    return Variant(  # an errcat.models.EngineAdvice
        _optional(getattr(entry, "engine", None)),
        _optional(getattr(entry, "phase", None)),
        _text(getattr(entry, "documentation", "")),
        _texts(getattr(entry, "solutions", ())),
        _text(getattr(entry, "example_fix", "")),
    )


def variants_of(record: object) -> tuple[Variant, ...]:
    """The record's ``engineAdvice`` entries (none when it has no such field)."""
    entries: Any = getattr(record, "engine_advice", None)
    if not entries:
        return ()
    return tuple(_variant(entry) for entry in entries)


def pick(variants: Sequence[Variant], context: EngineContext) -> Variant | None:
    """The entry that fits ``context`` best: engine and phase, then engine, then phase.

    An entry that names an engine or a phase the context does not show never fits.

    >>> both = [
    ...     Variant("sglang", None, solutions=("a",)),
    ...     Variant(None, "serving", solutions=("b",)),
    ... ]
    >>> pick(both, EngineContext("sglang", "serving")).solutions
    ('a',)
    >>> pick(both, EngineContext(None, "serving")).solutions
    ('b',)
    >>> pick(both, EngineContext(None, None)) is None
    True
    """
    best: tuple[int, Variant] | None = None
    for variant in variants:
        if variant.engine is not None and variant.engine != context.engine:
            continue
        if variant.phase is not None and variant.phase != context.phase:
            continue
        score = 2 * (variant.engine is not None) + (variant.phase is not None)
        if score and (best is None or score > best[0]):
            best = (score, variant)
    return best[1] if best is not None else None


class TailoredRecord:
    """A record whose documentation, solutions and example fix one :class:`Variant` replaces.

    Every other field is the record's own; empty fields of the variant fall back to it.
    """

    def __init__(self, record: RecordFields, variant: Variant) -> None:
        """Lay ``variant`` over ``record``."""
        self._record = record
        self._variant = variant

    def __getattr__(self, name: str) -> Any:
        """Any field the variant does not replace is the record's."""
        return getattr(self._record, name)

    @property
    def documentation(self) -> str:
        """The variant's documentation, else the record's."""
        return self._variant.documentation or self._record.documentation

    @property
    def solutions(self) -> tuple[str, ...]:
        """The variant's solutions, else the record's."""
        return self._variant.solutions or self._record.solutions

    @property
    def example_fix(self) -> str:
        """The variant's example fix, else the record's."""
        return self._variant.example_fix or self._record.example_fix


def tailor(record: RecordFields, context: EngineContext) -> tuple[RecordFields, str | None]:
    """The record as it should be shown for ``context``, and a note saying for what (or None)."""
    variant = pick(variants_of(record), context)
    if variant is None:
        return record, None
    what = [f"for {variant.engine}"] if variant.engine else []
    if variant.phase:
        what.append(f"during {phase_label(variant.phase)}")
    tailored: RecordFields = TailoredRecord(record, variant)
    seen = context.describe()
    return tailored, "advice " + " ".join(what) + (f"; the paste shows {seen}" if seen else "")
