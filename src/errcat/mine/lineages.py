"""Carry message lineages on from one revision to the next, by the pairs of their records.

:func:`errcat.mine.history.build_history` pairs each revision's records with
the lineages alive before it (:mod:`errcat.mine.pairing`: messages by their
text, raises without a message by their statement) and hands the pairs to
:func:`advance`, which carries each lineage on, starts the new ones and
takes up one that ended and came back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Container, Sequence
from dataclasses import dataclass, field

from errcat.history import Revision, Site
from errcat.mine.facts import _FileScan
from errcat.mine.pairing import Msg, Pairs, Statement
from errcat.models import RecordEnvelope
from errcat.view import raise_source

__all__ = ["Line", "Step", "advance", "msg_of", "short_class", "statements_of", "unique_id"]


def short_class(name: str) -> str:
    """A class name's last dotted part (``torch.OutOfMemoryError`` -> ``OutOfMemoryError``)."""
    return name.rsplit(".", 1)[-1]


@dataclass
class Line:
    """A lineage being built."""

    id: str
    msg: Msg
    envelope: RecordEnvelope
    sites: list[Site] = field(default_factory=list)
    predecessor: str | None = None
    successor: str | None = None
    #: Classes (last dotted part) older revisions raised the message as.
    classes: set[str] = field(default_factory=set)
    #: The index of the revision ``envelope`` was mined at.
    at: int = 0
    #: A raise without a message: its statement at its last revision (None for a message).
    statement: Statement | None = None


def unique_id(rid: str, revision: Revision, used: Container[str]) -> str:
    """``rid`` unless a lineage already has it; then an id derived from it and the revision."""
    salt = 0
    while rid in used:
        key = f"{rid}\0{revision.sha}\0{salt}".encode()
        rid = hashlib.sha256(key).hexdigest()[:16]
        salt += 1
    return rid


def msg_of(envelope: RecordEnvelope) -> Msg:
    """What pairing reads of a record: id, file, line, class and template."""
    r = envelope.record
    return Msg(r.id, r.file_path, r.line_number, r.error_class, r.error_message)


def statements_of(bare: Sequence[RecordEnvelope], scans: Sequence[_FileScan]) -> list[Statement]:
    """The statements of a revision's raises without a message, each with its function."""
    functions = {
        (scan.file_path, site.line): site.qualname for scan in scans for site in scan.sites
    }
    out = []
    for envelope in bare:
        r = envelope.record
        code = " ".join(raise_source(r).split())
        function = functions.get((r.file_path, r.line_number), "")
        out.append(Statement(r.id, r.file_path, r.line_number, r.error_class, function, code))
    return out


@dataclass
class Step:
    """One revision's pairing applied: the lineages alive after it, and its counts."""

    alive: list[Line]
    counts: dict[str, int]
    new: int
    removed: int


def advance(
    alive: Sequence[Line],
    msgs: Sequence[Msg],
    envelopes: Sequence[RecordEnvelope],
    pairs: Pairs,
    *,
    lines: dict[str, Line],
    revision: Revision,
    index: int,
    statements: Sequence[Statement] | None = None,
) -> Step:
    """Carry the lineages ``alive`` on to one revision's records, by ``pairs``; start the others.

    A record paired ``same`` or ``moved`` carries its lineage on; one paired
    ``reworded`` starts a lineage whose predecessor is the old one; one paired
    with nothing starts a lineage (new ones join ``lines``), but the same
    message (or, with ``statements``, statement) back at the same place after a
    gap takes its ended lineage up again.
    """
    counts = {"same": 0, "moved": 0, "reworded": 0}
    paired_new: set[int] = set()
    alive_ids = {line.id for line in alive}
    next_alive: list[Line] = []
    successors: list[tuple[Line, int]] = []
    for i, j, kind in pairs:
        paired_new.add(j)
        counts[kind] += 1
        if kind == "reworded":
            successors.append((alive[i], j))
            continue
        line = alive[i]
        if short_class(msgs[j].error_class) != short_class(line.msg.error_class):
            line.classes.add(short_class(line.msg.error_class))
        line.msg = msgs[j]
        line.envelope, line.at = envelopes[j], index
        line.statement = statements[j] if statements is not None else None
        line.sites.append(Site(revision, msgs[j].file_path, msgs[j].line))
        next_alive.append(line)
    removed = len(alive) - len(pairs)
    new_by_index: dict[int, Line] = {}
    reworded_new = {j for _, j in successors}
    for j, msg in enumerate(msgs):
        if j in paired_new and j not in reworded_new:
            continue
        statement = statements[j] if statements is not None else None
        dead = lines.get(msg.id)
        if (
            j not in reworded_new
            and dead is not None
            and dead.id not in alive_ids
            and dead.successor is None
            and dead.msg.template == msg.template
            and (dead.statement and dead.statement.key) == (statement and statement.key)
        ):
            # The same message back at the same place after a gap: the same lineage.
            dead.msg, dead.envelope, dead.at = msg, envelopes[j], index
            dead.statement = statement
            dead.sites.append(Site(revision, msg.file_path, msg.line))
            next_alive.append(dead)
            continue
        rid = unique_id(msg.id, revision, lines)
        line = Line(
            rid,
            msg,
            envelopes[j],
            [Site(revision, msg.file_path, msg.line)],
            at=index,
            statement=statement,
        )
        lines[rid] = line
        new_by_index[j] = line
        next_alive.append(line)
    for old_line, j in successors:
        new_line = new_by_index[j]
        old_line.successor = new_line.id
        new_line.predecessor = old_line.id
    return Step(next_alive, counts, len(new_by_index) - len(successors), removed)
