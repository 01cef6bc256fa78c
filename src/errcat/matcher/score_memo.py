"""What scoring made of each record evidence of one candidate, used again for its equals.

A message raised at many sites (copies across projects, a tied group of hundreds
of records on the 100k benchmark catalog) is scored once per record, and most of
those records bring the same evidence: :class:`ScoreMemo` holds each result for
:meth:`errcat.matcher.collect._Collector.add`.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Asked", "ScoreMemo"]

#: What :func:`~errcat.matcher.score._score` returns.
_Scored = tuple[float, list[str], tuple[float, int, int], "dict[str, float] | None"]


class Asked:
    """A record's ``own_class`` question, which remembers its answer once asked.

    >>> asked = Asked(lambda: True)
    >>> asked.answer, asked(), asked.answer
    (None, True, True)
    """

    __slots__ = ("_ask", "answer")

    def __init__(self, ask: Callable[[], bool]) -> None:
        self._ask = ask
        #: The answer, once asked (None before).
        self.answer: bool | None = None

    def __call__(self) -> bool:
        """Ask, and remember the answer."""
        self.answer = self._ask()
        return self.answer


class ScoreMemo:
    """What :func:`~errcat.matcher.score._score` made of each record evidence of one candidate.

    Within one candidate every input of ``_score`` is the pattern's but the record's
    evidence, whether it is silent (raised where no frame shows), whether its template
    has a message, and ``own_class()`` (whether it is the lone record of the report's
    class, asked only in some cases): a result is used again for the same first three
    when ``_score`` did not ask ``own_class()``, or the record gives the same answer
    (until asked, ``_score`` reads only the others, so it asks the same records).
    Not with features kept (the caller marks a match's features in place).

    >>> memo = ScoreMemo(enabled=True)
    >>> asked = Asked(lambda: True)
    >>> memo.put("ev", False, True, asked, (0.9, [str(asked())], (0.0, 0, 0), None))
    >>> memo.get("ev", False, True, lambda: True)[1], memo.get("ev", False, True, lambda: False)
    (['True'], None)
    >>> memo.get("other", False, True, lambda: True) is None
    True
    """

    __slots__ = ("_held", "enabled")

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        #: key -> (own_class()'s answer, or None when not asked; the result).
        self._held: dict[tuple[object, bool, bool], tuple[bool | None, _Scored]] = {}

    def get(
        self, evidence: object, silent: bool, has_message: bool, own_class: Callable[[], bool]
    ) -> _Scored | None:
        """The result held for this evidence, if it holds for this record."""
        held = self._held.get((evidence, silent, has_message)) if self.enabled else None
        if held is None or (held[0] is not None and held[0] != own_class()):
            return None
        return held[1]

    def put(
        self, evidence: object, silent: bool, has_message: bool, asked: Asked, scored: _Scored
    ) -> None:
        """Hold ``scored`` for this evidence, with ``own_class()``'s answer if it was asked."""
        if self.enabled:
            self._held[evidence, silent, has_message] = (asked.answer, scored)
