"""Step 1 of extraction: clean lines (colours, progress output, log prefixes, gutters).

Each line remembers where it came from in the original text, its stream (a
rank, a pid, a container) and whether a new log record starts there.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final

from errcat.extract.grammar import _MAX_PREFIXES

__all__ = ["clean_text"]


# --------------------------------------------------------------------------
# Line cleaning.

# ANSI escapes: CSI (colours, erase), OSC (titles, links), other two-byte
# escapes, a stray ESC, and an SGR code whose ESC was lost in copy-paste.
_ANSI_RE: Final = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)"
    r"|\x1b[@-Z\\-_]"
    r"|\x1b"
    r"|\[\d{1,3}(?:;\d{1,3}){0,15}m"
)
# Control characters a terminal would not print (tab is kept).
_CONTROL_RE: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

# A date-time as loggers print it: 2026-01-04 08:00:01,123 / 2026-01-04T08:00:01.123Z.
_TS = r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
# A log level name.
_LEVEL = r"(?:TRACE|DEBUG|INFO|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL|SUCCESS)"

# The tags issue trackers' templates put before a title ([Bug]: ...): stripped
# like a log prefix, so the message is what follows. Other bracketed tags
# ([release 2.11][vllm]) stay in the message; the matcher also tries it
# without them (errcat.extract.forms._TITLE_TAGS).
_ISSUE_TAG = (
    r"bug|bugfix|usage|feature|feature\ request|performance|installation|misc|docs?"
    r"|question|rfc|new\ model|model|hardware|help|discussion|issue|error"
)

# Every known line prefix, one named alternative each; the name says what the
# prefix carries (see _PREFIX_STREAM and _PREFIX_RECORD). Anchored with match().
_PREFIX_RE: Final = re.compile(
    rf"""
    (?P<sgl>\[{_TS}(?P<sgl_tags>(?:\ [A-Za-z]{{1,8}}[_-]?\d{{1,6}})*)\]:?\ ?)
                                    # sglang: [2026-03-02 10:11:12 TP0 EP1]
  | (?P<ray>\((?P<ray_id>(?:[\w.=-]{{1,80}}\ ){{0,3}}pid=\d{{1,10}}(?:,\ ip=[\w.:]{{1,64}})?)\)\ ?)
                                    # vLLM / Ray workers: (Worker_TP1 pid=88),
                                    # (VllmWorker rank=0 pid=410)
  | (?P<rank>\[(?P<rank_id>(?:rank|default)\d{{1,6}})\]:?\ ?)
                                    # torch distributed: [rank0]:
  | (?P<pod>\[pod/(?P<pod_id>[^\]\s]{{1,200}})\]\ )
                                    # kubectl logs --prefix: [pod/name/container]
  | (?P<mpi>\[(?P<mpi_id>\d{{1,6}},\d{{1,6}})\]<std(?:out|err)>:\ ?)
                                    # mpirun --tag-output: [1,0]<stderr>:
  | (?P<gha>\#\#\[(?:error|warning|notice|debug)\]\ ?)
                                    # GitHub Actions annotations: ##[error]
  | (?P<vllm>{_LEVEL}\ (?:\d{{4}}-)?\d\d-\d\d\ \d\d:\d\d:\d\d(?:\.\d{{1,9}})?
        \ \[?[\w.<>/-]{{1,200}}:\d{{1,7}}\]\ ?)
                                    # vLLM logging: INFO 03-06 10:05:08 [engine.py:190]
  | (?P<loguru>{_TS}\ *\|\ *{_LEVEL}\ *\|\ [\w.<>-]{{1,200}}:[\w.<>-]{{1,200}}:\d{{1,7}}\ -\ )
                                    # loguru: 2026-01-04 08:00:01.123 | ERROR | m:f:12 -
  | (?P<pylog>{_TS}(?:\ -\ [\w.\[\]<>/-]{{1,100}}){{1,3}}\ -\ )
                                    # logging: 2026-01-04 08:00:01,123 - ERROR - app -
  | (?P<crio>{_TS}\ (?:stdout|stderr)\ [FP]\ )
                                    # CRI container logs: <ts> stderr F
  | (?P<isolevel>{_TS}\ +\[?{_LEVEL}\]?:?\ +)
                                    # <ts> ERROR / <ts> [ERROR]
  | (?P<asctime>\d{{4}}-\d\d-\d\d\ \d\d:\d\d:\d\d,\d{{3}}\ )
                                    # logging's asctime (comma before the milliseconds)
  | (?P<iso>{_TS}\ )
                                    # bare timestamps (docker --timestamps, CI)
  | (?P<lvlbracket>\[{_LEVEL}\]:?\ ?)
                                    # [ERROR]
  | (?P<tag>\[(?i:{_ISSUE_TAG})\](?:\[[\w.+/-]{{1,30}}\])*:?\ +)
                                    # issue titles: [Bug]: / [Bug][L40][DSV4]:
  | (?P<lvlcolon>{_LEVEL}:(?:[\w.]{{1,100}}:|\ +))
                                    # logging's default ERROR:root: / uvicorn ERROR:
  | (?P<glog>\[?[IWEF]\d{{4}}\ \d\d:\d\d:\d\d\.\d{{1,9}}(?:\ +\d{{1,10}})?
        \ [\w.<>/-]{{1,200}}:\d{{1,7}}\]\ ?)
                                    # glog / c10: [W1203 10:05:08.417 ProcessGroupNCCL.cpp:1250]
  | (?P<c10>\[[IWEF]\ [\w.<>/-]{{1,200}}:\d{{1,7}}\]\ ?)
                                    # short c10: [W socket.cpp:663]
  | (?P<pytest_e>E(?:\ {{2,}}|\t+|$))
                                    # pytest's E gutter
  | (?P<pytest_sum>(?:FAILED|ERROR)\ [^\s\[]{{1,500}}(?:\[[^\]]{{0,500}}\])?\ -\ )
                                    # pytest summary: FAILED tests/x.py::test_y -
  | (?P<compose>(?P<compose_id>\w[\w.-]{{0,100}})\ +\|(?:\ |$))
                                    # docker compose: vllm-1  |
  | (?P<quote>>\ ?)
                                    # Markdown blockquote
    """,
    re.VERBOSE,
)
# Prefix kinds that identify a stream, and the group holding the identity.
_PREFIX_STREAM: Final = {
    "sgl": "sgl_tags",
    "ray": "ray_id",
    "rank": "rank_id",
    "pod": "pod_id",
    "mpi": "mpi_id",
    "compose": "compose_id",
}
# Prefix kinds written once per log record (a different one starts a new record).
_PREFIX_RECORD: Final = frozenset(
    {
        "sgl",
        "vllm",
        "loguru",
        "pylog",
        "asctime",
        "isolevel",
        "lvlbracket",
        "lvlcolon",
        "glog",
        "c10",
        "pytest_e",
        "pytest_sum",
    }
)
# An exception-group gutter "  | " (the content keeps its own indentation).
_GUTTER_RE: Final = re.compile(r"[ \t]*\|(?: |$)")
# The "+ " before a top-level "Exception Group Traceback" header.
_GROUP_PLUS_RE: Final = re.compile(r"[ \t]*\+ (?=Exception Group Traceback)")
# An exception-group separator: +-+---- 1 ----, +---- ... ----, +--------.
_GROUP_SEP_RE: Final = re.compile(r"[ \t]*\+(?:-\+)*-{3,}(?: (?:\d+|\.\.\.) -+)?[ \t]*")
# A Markdown code fence (at most 3 spaces of indent, as CommonMark says).
_FENCE_RE: Final = re.compile(r" {0,3}(?:`{3,}[^`]*|~{3,}[ \t]*[\w+.#-]*[ \t]*)")


# --------------------------------------------------------------------------
# Internal values.


@dataclass(slots=True)
class _Line:
    """One cleaned line and where it came from."""

    text: str
    start: int  # offset of the original line
    end: int  # offset where the original line ends (before "\r\n")
    base: int | None  # original offset of text[0] when text is a verbatim tail of the line
    stream: tuple[str, ...]  # stream identities carried by this line's prefixes
    record: str | None  # the log-record prefixes of this line, if any
    boundary: bool = False  # a Markdown fence or exception-group separator


# --------------------------------------------------------------------------
# Public API.


def clean_text(text: str) -> str:
    r"""Return the text as a terminal would show it, without log noise.

    ANSI codes are removed, ``\r`` progress output is resolved, per-line
    prefixes (timestamps, levels, ranks, pids, containers, pytest gutters,
    Markdown quotes), exception-group gutters and Markdown fences are removed.

    >>> clean_text("\x1b[31m[rank0]: ValueError: x\x1b[0m\r\n```\n> hi")
    'ValueError: x\nhi'
    """
    return "\n".join(line.text for line in _clean_lines(text) if not line.boundary)


# --------------------------------------------------------------------------
# Step 1: clean lines.


def _clean_lines(text: str, span: tuple[int, int] | None = None) -> list[_Line]:
    """Split text into cleaned lines; with ``span``, every line gets that span."""
    lines: list[_Line] = []
    pos = 0
    length = len(text)
    while pos < length:
        newline = text.find("\n", pos)
        stop = length if newline < 0 else newline
        end = stop - 1 if stop > pos and text[stop - 1] == "\r" else stop
        raw = text[pos:end]
        if span is None:
            _clean_one(raw, pos, end, lines)
        else:
            parts: list[_Line] = []
            _clean_one(raw, 0, 0, parts)
            lines.extend(_Line(ln.text, *span, None, (), None, ln.boundary) for ln in parts)
        pos = stop + 1
    return lines


def shown(raw: str) -> str:
    """What a terminal shows for one line: last CR segment, no escapes or controls."""
    if "\r" in raw:
        raw = raw.rstrip("\r")
        raw = raw[raw.rfind("\r") + 1 :]
    if "\x1b" in raw or "[" in raw:
        raw = _ANSI_RE.sub("", raw)
    return raw if raw.isprintable() else _CONTROL_RE.sub("", raw)


def _clean_one(raw: str, start: int, end: int, out: list[_Line]) -> None:
    """Clean one original line into ``out``; a decoded JSON log line may give several lines."""
    text, stream, record = strip_prefixes(shown(raw))
    if text[:1] == "{" and '"log"' in text:
        decoded = _docker_log(text)
        if decoded is not None:
            for part in decoded.split("\n"):
                part_text, part_stream, part_record = strip_prefixes(shown(part))
                line = _make_line(part_text, None, (start, end))
                line.stream = stream + part_stream
                line.record = record if part_record is None else (record or "") + part_record
                out.append(line)
            return
    line = _make_line(text, raw, (start, end))
    line.stream, line.record = stream, record
    out.append(line)


def _make_line(text: str, raw: str | None, span: tuple[int, int]) -> _Line:
    """A cleaned line; ``raw`` (the original line) gives the offset of a verbatim tail."""
    boundary = False
    if "|" in text or "+" in text or "```" in text or "~~~" in text:
        text, boundary = _strip_gutters(text)
    end = span[1]
    base = end - len(text) if raw is not None and raw.endswith(text) else None
    return _Line(text, span[0], end, base, (), None, boundary)


def strip_prefixes(text: str) -> tuple[str, tuple[str, ...], str | None]:
    """Remove stacked log prefixes; return the rest, stream identities and record key."""
    match = _PREFIX_RE.match(text)
    if match is None:
        return text, (), None
    stream: list[str] = []
    record: list[str] = []
    for _ in range(_MAX_PREFIXES):
        if match is None:
            break
        kind = match.lastgroup or ""
        if kind in _PREFIX_STREAM:
            stream.append(f"{kind}:{(match.group(_PREFIX_STREAM[kind]) or '').strip()}")
        if kind in _PREFIX_RECORD:
            record.append("E" if kind == "pytest_e" else match.group())
        text = text[match.end() :]
        match = _PREFIX_RE.match(text)
    return text, tuple(stream), "".join(record) if record else None


def _docker_log(text: str) -> str | None:
    """The "log" value of a docker / Kubernetes JSON log line, without its final newline."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and isinstance(data.get("log"), str):
        value: str = data["log"]
        return value[:-1] if value.endswith("\n") else value
    return None


def _strip_gutters(text: str) -> tuple[str, bool]:
    """Remove exception-group gutters; report fences and separators as boundaries."""
    head = text.lstrip(" \t")[:1]
    if head == "|":
        match = _GUTTER_RE.match(text)
        if match:
            text = text[match.end() :]
    elif head == "+":
        if _GROUP_SEP_RE.fullmatch(text):
            return "", True
        match = _GROUP_PLUS_RE.match(text)
        if match:
            text = text[match.end() :]
    if ("```" in text or "~~~" in text) and _FENCE_RE.fullmatch(text):
        return "", True
    return text, False
