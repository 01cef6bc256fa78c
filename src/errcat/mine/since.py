r"""Which revision introduced each flag: a solution names a flag older releases lack, and says so.

A history (:mod:`errcat.mine.history`) mines several revisions. A record's
message may be older than a flag its generated solutions name: a user on a
release from before that flag cannot pass it. :class:`FlagAges` notes the
first revision that defines each flag, and :meth:`FlagAges.annotate` adds
"(--x exists since <revision>)" to the solutions and the example fix of a
generated record whose message is older than the flag.

>>> from datetime import datetime, timezone
>>> from errcat.history import Revision
>>> old = Revision("2025-01-02", "a" * 40, datetime(2025, 1, 2, tzinfo=timezone.utc))
>>> new = Revision("0.5.0", "0" * 40, datetime(2025, 6, 1, tzinfo=timezone.utc))
>>> ages = FlagAges()
>>> ages.add(old, {"--tp-size"})
>>> ages.add(new, {"--tp-size", "--new-flag"})
>>> ages.note(["Set --new-flag to 2", "Set --tp-size to 2"], old)
['Set --new-flag to 2 (--new-flag exists since 0.5.0)', 'Set --tp-size to 2']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from errcat.history import Revision
from errcat.models import GENERATED_TAG, RecordEnvelope

__all__ = ["FlagAges"]

_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


class FlagAges:
    """The first revision (of those mined, oldest first) that defines each flag."""

    def __init__(self) -> None:
        self._first: dict[str, Revision] = {}
        self._order: dict[str, int] = {}

    def add(self, revision: Revision, flags: Iterable[str]) -> None:
        """Note the flags a revision defines (revisions are added oldest first)."""
        self._order.setdefault(revision.sha, len(self._order))
        for flag in flags:
            self._first.setdefault(flag, revision)

    def _newer(self, flag: str, than: Revision) -> Revision | None:
        first = self._first.get(flag)
        if first is None or than.sha not in self._order:
            return None
        return first if self._order[first.sha] > self._order[than.sha] else None

    def note(self, texts: Sequence[str], since: Revision) -> list[str]:
        """Each text with "(--x exists since R)" after the first flag newer than ``since``."""
        out = []
        for text in texts:
            said = text
            for flag in dict.fromkeys(_FLAG.findall(text)):
                first = self._newer(flag, since)
                if first is not None:
                    said = f"{text} ({flag} exists since {first.label})"
                    break
            out.append(said)
        return out

    def annotate(self, envelope: RecordEnvelope, since: Revision) -> RecordEnvelope:
        """A generated record whose message dates from ``since``, its newer flags said so."""
        record = envelope.record
        if GENERATED_TAG not in record.tags:
            return envelope
        solutions = tuple(self.note(record.solutions, since))
        if solutions == record.solutions:
            return envelope
        updated = record.model_copy(update={"solutions": solutions})
        return envelope.model_copy(update={"record": updated})
