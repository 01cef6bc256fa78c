"""One message raised at several sites: which site the paste shows, and when it cannot tell.

sglang and vllm raise many messages from code one copied from the other;
sglang's ``multimodal_gen`` runtime holds copies of ``srt`` files; a downstream
project vendors an engine's file. A bare line fits every copy equally well, and
the ranking's last tie-break (a record's place in its store) is no evidence of
whose code printed it. :func:`settle_sites` reads the group of records tied at
the top of a report's ranking (same confidence, frame evidence, engine lean and
template, placeholder names aside):

1. the paste's own evidence: a module or file path of one site's tree in the
   text (``sglang.srt.managers``, ``multimodal_gen/runtime``), or the record's
   class or log level word (``WARNING`` for a logged record, ``ActorDiedError``),
   picks the site that shows most of it;
2. else, within one project, a file nested deeper in the tree than a file of
   the same name and folder that raises the same message is the copy
   (``multimodal_gen/runtime/layers/quantization/fp8.py`` beside
   ``srt/layers/quantization/fp8.py``): the shallower one answers;
3. a group that still spans several projects drops the members vendored from the
   project of another member (``pip/_vendor/urllib3/...`` beside ``urllib3``'s own), and
   answers with the original project if the data shows one
   (:mod:`errcat.matcher.site_origin`): the project every other one builds on (vllm
   requires transformers: a transformers message vllm also raises is transformers'),
   else the project whose record the history places first (code copied into another
   project is newer there; a reworded message counts from its first wording): each
   record appeared between the revision of its project's window before its first
   sighting and that sighting, and the original's span opens no later and closes
   earlier than every other project's. A record seen at its window's first revision
   may be older than the window: nothing is placed before it (an engine's history from
   2024 against a dependency's mined from its 2026 releases says nothing of which
   came first). The project every other one builds on answers even when its
   record does not tie on confidence with the copies (the confident records of the
   same text, frame evidence and engine lean): a message copied many times within
   the dependency holds a smaller share there than the engine's single copy does;
4. else it is no answer: the paste does not say whose code printed it, so each
   of its matches holds an even share of the group's confidence, below the
   confident threshold (:func:`errcat.match_all` still lists them, best first).

>>> _path_pairs("python/sglang/srt/layers/fp8.py")
('sglang/srt', 'srt/layers', 'layers/fp8')
>>> _shown(_path_pairs("python/sglang/srt/layers/fp8.py"), "logger sglang.srt.layers.fp8 said")
3
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from errcat.extract import ExceptionReport
from errcat.history import history_of
from errcat.matcher.result import Match
from errcat.matcher.score import _FUZZY_CAP
from errcat.matcher.site_origin import Provenance, default_provenance
from errcat.store import RecordSummary, Store

__all__ = ["settle_sites"]

#: Directories a source tree opens with that name no module (``python/sglang/...``).
_ROOTS = frozenset({"python", "src", "lib"})
#: The parts (the file and its folder) a copy's path ends with, as the original's does.
_COPY_TAIL = 2
#: Placeholders of a template (their names do not matter to which message it is).
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
#: The log level words a logged record's class is (the miner names it by its level).
_LEVELS = frozenset({"DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "FATAL", "EXCEPTION"})
#: The levels an engine logs a raised error at.
_RAISED_LEVELS = frozenset({"ERROR", "CRITICAL", "FATAL", "EXCEPTION"})
#: How much of a paste is read for its evidence (as :mod:`.text_evidence` reads mentions).
_READ = 200_000
#: Folders that hold code vendored from another project (a copy, never the original).
_VENDORED = frozenset({"third_party", "third-party", "thirdparty", "_vendor", "vendor", "vendored"})
#: A word of the text (a class name or a log level).
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class _Member:
    """A record of the tied group: the match that holds it (its place in the ranking)."""

    at: int
    summary: RecordSummary


def _path_pairs(file_path: str) -> tuple[str, ...]:
    """Each two neighbouring parts of a record's module path (its root and suffix left off)."""
    parts = file_path.replace("\\", "/").split("/")
    while len(parts) > 1 and parts[0] in _ROOTS:
        parts = parts[1:]
    if parts:
        parts[-1] = parts[-1].rsplit(".", 1)[0]
    parts = [p.lower() for p in parts if p]
    return tuple(f"{a}/{b}" for a, b in itertools.pairwise(parts))


def _shown(pairs: Sequence[str], lowered: str) -> int:
    """How many of a path's neighbouring parts the (lowercased) text shows, as a path or module."""
    return sum(pair in lowered or pair.replace("/", ".") in lowered for pair in pairs)


def _class_named(summary: RecordSummary, words: frozenset[str], levels: frozenset[str]) -> bool:
    """Whether the paste shows the record's class, or the log level its line prints it at.

    ``words`` are the paste's words, ``levels`` the log level words on the report's own
    line. A logged record's class is its level (``WARNING``): that line must show it. A
    raised record's class must be named in the paste, or its line be logged as an error
    (an engine logs what it raises at ``ERROR``).
    """
    name = summary.error_class.rsplit(".", 1)[-1]
    if name in _LEVELS:
        return name in levels
    return bool(name) and (name in words or not levels.isdisjoint(_RAISED_LEVELS))


def _line_levels(paste: str, report: ExceptionReport) -> frozenset[str]:
    """The log level words on the line the report starts on (none when unknown).

    A report read from a part of the paste (a wrapper's captured text) has its span
    in that part: its line is not the paste's, and says nothing.
    """
    start, end = report.start, report.end
    if not 0 <= start <= len(paste) or report.message[:12] not in paste[start:end]:
        return frozenset()
    stop = paste.find("\n", start, end)
    line = paste[paste.rfind("\n", 0, start) + 1 : end if stop < 0 else stop]
    return frozenset(_WORD.findall(line)) & _LEVELS


def _without_deeper_copies(members: list[_Member]) -> list[_Member]:
    """The members but those a shallower member of their project shows to be copies.

    One pass (a tied group can hold hundreds of records folded together). A copy keeps
    the file's folder with it (``layers/quantization/fp8.py`` under another root): a
    member is a copy when another of its project ends in the same file and folder with
    fewer parts. Files that only share a name (``base.py``) are not copies.

    >>> def member(path: str) -> _Member:
    ...     return _Member(0, RecordSummary(path, "", "ValueError", path, 1, "r", "m", ()))
    >>> paths = ["a/m/runtime/layers/fp8.py", "a/srt/layers/fp8.py", "a/base.py", "b/c/base.py"]
    >>> [m.summary.file_path for m in _without_deeper_copies([member(p) for p in paths])]
    ['a/srt/layers/fp8.py', 'a/base.py', 'b/c/base.py']
    """
    parts = [m.summary.file_path.replace("\\", "/").split("/") for m in members]
    shallowest: dict[tuple[str, tuple[str, ...]], int] = {}
    for m, a in zip(members, parts, strict=True):
        if len(a) >= _COPY_TAIL:
            key = (m.summary.repo, tuple(a[-_COPY_TAIL:]))
            shallowest[key] = min(shallowest.get(key, len(a)), len(a))
    return [
        m
        for m, a in zip(members, parts, strict=True)
        if len(a) < _COPY_TAIL or len(a) <= shallowest[(m.summary.repo, tuple(a[-_COPY_TAIL:]))]
    ]


@functools.lru_cache(maxsize=8)  # each report of one paste asks again
def _evidence(paste: str) -> tuple[str, frozenset[str]]:
    """The paste's head lowercased (for paths) and its words as written (for classes)."""
    head = paste[:_READ]
    return head.lower(), frozenset(_WORD.findall(head))


def _template(summary: RecordSummary) -> str:
    return _PLACEHOLDER.sub("{}", summary.error_message)


def _ties(top: Match, other: Match) -> bool:
    """Whether ``other`` is ``top``'s message at another site, on evidence as good."""
    return (
        other.report is top.report
        and other.mode == top.mode
        and other.confidence == top.confidence
        and other._rank[1:3] == top._rank[1:3]
        and other._rank[4:5] == top._rank[4:5]
        and _template(other.summary) == _template(top.summary)
    )


def _place(held: Match, record_id: str, stores: Sequence[Store]) -> tuple[Store, int] | None:
    """The store and position of a record folded into ``held`` (ties fold across parts)."""
    for store in (held._store, *stores):
        position = store.position_of(record_id) if store is not None else None
        if store is not None and position is not None:
            return store, position
    return None


def _promote(ranked: list[Match], member: _Member, stores: Sequence[Store]) -> list[Match]:
    """The ranking with ``member``'s record first (taken out of its match's alternatives)."""
    held = ranked[member.at]
    if held.summary.id != member.summary.id:
        place = _place(held, member.summary.id, stores)
        if place is None:
            return ranked
        rest = (held.summary, *(a for a in held.alternatives if a.id != member.summary.id))
        held = replace(
            held,
            summary=member.summary,
            _store=place[0],
            _position=place[1],
            alternatives=rest,
        )
    if member.at == 0 and held is ranked[0]:
        return ranked
    others = [m for n, m in enumerate(ranked) if n != member.at]
    return [held, *others]


def _capped(m: Match, projects: int) -> Match:
    """``m`` as one of ``projects`` equally likely answers: its share of the group's confidence.

    The group's confidence is that one of its records is right; with nothing to tell the
    projects apart each holds an even share, under the threshold (``_FUZZY_CAP`` at
    most: two projects of a certain match hold a half each). Its rank is kept: it
    still explains the text best, and a record the collector left for ranking below
    it (:meth:`~errcat.matcher.collect._Collector.floor`) must not come up above it.
    """
    reason = (
        f"{projects} projects raise this message and the paste shows nothing of whose code "
        "printed it (no frame, module path, engine or class of one of them): "
        f"each is one of {projects} equally likely answers"
    )
    return replace(
        m,
        confidence=round(min(m._rank[0] / projects, _FUZZY_CAP), 3),
        reasons=(*m.reasons, reason),
    )


def _first_seen(ranked: list[Match], member: _Member, stores: Sequence[Store]) -> float:
    """When the catalog's history first saw the member's message (its rewordings' included).

    A timestamp; +inf when the record has no history. The lineage is followed back
    through the records it was reworded from (a message that moved and was reworded
    is one message since its first site).
    """
    place = _place(ranked[member.at], member.summary.id, stores)
    history = history_of(place[0]) if place is not None else None
    lineage = history.lineage(member.summary.id) if history is not None else None
    if history is None or lineage is None:
        return math.inf
    first = lineage.first.date
    seen = {member.summary.id}
    while lineage is not None and (back := lineage.predecessor) is not None and back not in seen:
        seen.add(back)
        lineage = history.lineage(back)
        if lineage is not None:
            first = min(first, lineage.first.date)
    return first.timestamp()


def _vendored(summary: RecordSummary) -> str | None:
    """The project a record's file was vendored from, or None when it is not vendored.

    The folder or module under a vendored folder, spelled as names compare.

    >>> _vendored(RecordSummary("i", "", "E", "pip/_vendor/urllib3/util.py", 1, "r", "m", ()))
    'urllib3'
    >>> _vendored(RecordSummary("i", "", "E", "vllm/third_party/pynvml.py", 1, "r", "m", ()))
    'pynvml'
    >>> _vendored(RecordSummary("i", "", "E", "pkg/vendors.py", 1, "r", "m", ()))
    """
    return _vendored_from(summary.file_path)


@functools.lru_cache(maxsize=4096)
def _vendored_from(file_path: str) -> str | None:
    """:func:`_vendored` of a file path (a tied group folds hundreds of records of few files)."""
    parts = file_path.replace("\\", "/").split("/")
    at = [n for n, part in enumerate(parts[:-1]) if part in _VENDORED]
    return _name(parts[at[-1] + 1].removesuffix(".py")) if at else None


@functools.lru_cache(maxsize=4096)
def _name(project: str) -> str:
    """A project or package name as names compare (``Flash_Attn``, ``flash-attn``: one)."""
    return re.sub(r"[-_.]+", "", project.rsplit("/", 1)[-1].lower())


def _without_vendored(members: list[_Member]) -> list[_Member]:
    """The members but the copies vendored from the project of another member.

    ``pip/_vendor/urllib3/...`` gives way to a record of ``urllib3/urllib3``; a vendored
    copy of a project none of the members is stays (another member may be a copy too).
    """
    projects = {_name(m.summary.repo) for m in members}
    return [m for m in members if _vendored(m.summary) not in projects]


def _older(a: tuple[float, _Member], b: tuple[float, _Member], facts: Provenance) -> bool:
    """Whether the history places ``a``'s message before ``b``'s.

    Each message appeared after the revision of its project's window before its first
    sighting (absent there) and by that sighting. ``a`` comes first when its span opens
    no later and closes earlier than ``b``'s: ``b`` seen at its window's first revision
    has a span with no opening (it may be older than the window), so nothing comes
    before it; both dates must be real revisions of their projects' windows.
    """
    (when_a, ma), (when_b, mb) = a, b
    if not facts.dated(ma.summary.repo, when_a) or not facts.dated(mb.summary.repo, when_b):
        return False
    opens_b = facts.absent_before(mb.summary.repo, when_b)
    if opens_b is None or not when_a < when_b:
        return False
    opens_a = facts.absent_before(ma.summary.repo, when_a)
    return opens_a is None or opens_a <= opens_b


def _dependency(left: list[_Member], facts: Provenance) -> _Member | None:
    """The member of the project every other tied project builds on, if one is.

    An engine raising a transformers message raises transformers' copy of it.
    """
    projects = sorted({m.summary.repo for m in left})
    for repo in projects:
        if all(facts.depends_on(other, repo) for other in projects if other != repo):
            return next(m for m in left if m.summary.repo == repo)
    return None


def _by_history(
    ranked: list[Match], left: list[_Member], stores: Sequence[Store], facts: Provenance
) -> _Member | None:
    """The member whose record the history saw before every other project's record existed.

    Compared inside both windows only (:func:`_older`); None when no member was first.
    """
    seen = sorted(((_first_seen(ranked, m, stores), m) for m in left), key=lambda pair: pair[0])
    for first in seen:
        others = [pair for pair in seen if pair[1].summary.repo != first[1].summary.repo]
        if all(_older(first, other, facts) for other in others):
            return first[1]
    return None


def _kin(top: Match, other: Match) -> bool:
    """Whether ``other`` is ``top``'s message at another site, confident, at any confidence.

    A message copied many times in one project holds a smaller share there than its
    copy elsewhere: the copies of one text need not tie on confidence.
    """
    return (
        other.confident
        and other.report is top.report
        and other.mode == top.mode
        and other._rank[1:3] == top._rank[1:3]
        and other._rank[4:5] == top._rank[4:5]
        and _template(other.summary) == _template(top.summary)
    )


def _best(members: list[_Member], scores: list[int]) -> list[_Member]:
    """The members the paste's evidence favours most, less copies (deeper, vendored)."""
    best = max(scores)
    left = [m for m, score in zip(members, scores, strict=True) if score == best]
    return _without_vendored(_without_deeper_copies(left))


def settle_sites(
    ranked: list[Match],
    paste: str,
    stores: Sequence[Store] = (),
    facts: Provenance | None = None,
) -> list[Match]:
    """A report's ranking with its tied top group settled by the whole paste's evidence.

    See the module's docstring; the ranking as it was when no records tie at its top.
    ``stores`` are the catalog's parts (a record folded into another part's match is
    looked up there); ``facts`` what the data says of the projects (by default the
    bundled data's and the installed data packages': :func:`.site_origin.default_provenance`).
    """
    if not ranked or ranked[0].mode == "fuzzy":
        return ranked
    top = ranked[0]
    at = [0, *(n for n, m in enumerate(ranked[1:], 1) if _ties(top, m))]
    kin = [n for n, m in enumerate(ranked[1:], 1) if n not in at and _kin(top, m)]
    members = [_Member(n, s) for n in at for s in (ranked[n].summary, *ranked[n].alternatives)]
    extra = [_Member(n, s) for n in kin for s in (ranked[n].summary, *ranked[n].alternatives)]
    if len(members) + len(extra) < 2:
        return ranked
    lowered, words = _evidence(paste)
    levels = _line_levels(paste, top.report)
    shown: dict[str, int] = {}  # a group folds many records of few files: read each file once
    for path in {m.summary.file_path for m in (*members, *extra)}:
        shown[path] = 2 * _shown(_path_pairs(path), lowered)
    scores = [
        shown[m.summary.file_path] + _class_named(m.summary, words, levels)
        for m in (*members, *extra)
    ]
    if extra and top.confident:
        found = _best([*members, *extra], scores)
        if len({m.summary.repo for m in found}) > 1:
            facts = facts or default_provenance()  # read once, when projects tie
            if (origin := _dependency(found, facts)) is not None:
                return _promote(ranked, origin, stores)
    scores = scores[: len(members)]
    if len(members) < 2:
        return ranked
    best = max(scores)
    if best > 0 and scores.count(best) == 1:
        return _promote(ranked, members[scores.index(best)], stores)
    left = _best(members, scores)
    projects = len({m.summary.repo for m in left})
    if projects > 1:
        if not top.confident:
            return ranked
        facts = facts or default_provenance()
        origin = _dependency(left, facts) or _by_history(ranked, left, stores, facts)
        if origin is not None:
            return _promote(ranked, origin, stores)
        capped = {n: _capped(ranked[n], projects) for n in at}
        return [capped.get(n, m) for n, m in enumerate(ranked)]
    return _promote(ranked, left[0], stores)
