"""What errcat's MCP tools do, as plain functions over a catalog (no MCP SDK needed).

Each function takes its inputs as the tool's caller gives them and returns a
pydantic model, whose JSON schema is the tool's output schema. Bad input raises
:class:`ToolInputError` (a ``ValueError``) or
:class:`~errcat.errors.UnknownRecordError` (a ``LookupError``) with a message
meant for the caller; :mod:`errcat.mcp.server` turns them into tool errors.

>>> from errcat.catalog import Catalog
>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> catalog = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])
>>> tools = Tools(catalog)
>>> found = tools.match_error("ValueError: bad value 'x'")
>>> found.confident, found.matches[0].params
(True, {'x': "'x'"})
>>> tools.show_record(found.matches[0].record.id).advice.solutions
['Pass a good x']
>>> tools.search_records("bad value").total
1
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from pydantic import BaseModel, Field

from errcat.errors import ErrcatError
from errcat.search import RecordSearch

if TYPE_CHECKING:
    from errcat.advice import Advice
    from errcat.catalog import Catalog
    from errcat.matcher import Match
    from errcat.view import RecordFields

__all__ = [
    "MAX_LIMIT",
    "MAX_TEXT_CHARS",
    "RECORD_URI",
    "AdviceOut",
    "LogGroupOut",
    "MatchOut",
    "MatchResult",
    "RecordDetail",
    "RecordOut",
    "ScanResult",
    "SearchResult",
    "ToolInputError",
    "Tools",
]

#: Longest error text ``match_error`` accepts (characters), as the HTTP API.
MAX_TEXT_CHARS: Final = 256 * 1024
#: Most items one call lists.
MAX_LIMIT: Final = 100
#: The URI of a record resource.
RECORD_URI: Final = "errcat://records/{key}"


class ToolInputError(ErrcatError, ValueError):
    """A tool was called with input it cannot use (the message says which and why)."""


class RecordOut(BaseModel):
    """Where an error is raised and how to refer to its record."""

    id: str = Field(description="The record's id (16 hex digits).")
    slug: str
    repo: str = Field(description="The GitHub repository whose code raises it (owner/name).")
    error_class: str
    message: str = Field(description="The message template; {name} marks a placeholder.")
    file_path: str
    line_number: int = Field(description="The line of the raise in file_path.")
    source_url: str = Field(description="The raising code on GitHub, at the analysed commit.")
    tags: list[str]
    uri: str = Field(description="The record as an MCP resource.")


class AdviceOut(BaseModel):
    """What to do about an error (the record's advice)."""

    documentation: str = Field(description="Why the error is raised.")
    solutions: list[str] = Field(description="Ways to fix it, best first.")
    example_fix: str = Field(description="A before/after example ('' when none).")
    prevention_tips: list[str]
    generated: bool = Field(
        description="True when errcat generated the advice from the source code (not curated)."
    )
    notes: list[str] = Field(
        default_factory=list,
        description=(
            "What this occurrence adds: how an inexact message differs, other sites, history."
        ),
    )


class MatchOut(BaseModel):
    """One record the text may be an instance of."""

    record: RecordOut
    confidence: float = Field(description="Calibrated: answers at c are right about c of the time.")
    exact: bool = Field(description="The record's pattern matched the whole message.")
    mode: str = Field(description="How it matched: exact, drift, truncated, fuzzy, ...")
    confident: bool = Field(description="Good enough to be the answer.")
    params: dict[str, str] = Field(description="Values captured for the template's placeholders.")
    reasons: list[str] = Field(description="Why it ranked where it did.")
    advice: AdviceOut


class MatchResult(BaseModel):
    """The answers for one pasted error, best first."""

    confident: bool = Field(description="True when the first match is a confident answer.")
    matches: list[MatchOut]
    reply_markdown: str = Field(
        description="A ready reply: the first match's advice, or an honest 'no match'."
    )


class RecordDetail(BaseModel):
    """One record and its advice."""

    record: RecordOut
    advice: AdviceOut


class SearchResult(BaseModel):
    """Records whose class, message, slug, file or id hold every query word."""

    total: int = Field(description="Records that pass the filters, on all pages.")
    offset: int
    items: list[RecordOut]


class LogGroupOut(BaseModel):
    """The events of one record (or, unanswered, of one class and message shape) in a log."""

    record_id: str | None = Field(description="null when no record answered these events.")
    slug: str | None
    error_class: str
    message: str = Field(description="The message as the log printed it (its first event's).")
    events: int
    first_line: int = Field(description="The first line of the first event (1-based).")
    last_line: int = Field(description="The first line of the last event.")
    confidence: float


class ScanResult(BaseModel):
    """A summary of the exception events of one log file."""

    path: str
    lines: int
    events: int
    answered: int = Field(description="Events a record answered.")
    incomplete: int = Field(description="Tracebacks cut before their exception line.")
    groups_total: int
    groups: list[LogGroupOut] = Field(description="Most events first.")


def _record_out(record: RecordFields) -> RecordOut:
    from errcat.view import shown_message

    return RecordOut(
        id=record.id,
        slug=record.slug,
        repo=record.repo,
        error_class=record.error_class,
        message=shown_message(record),
        file_path=record.file_path,
        line_number=record.line_number,
        source_url=record.github_url,
        tags=list(record.tags),
        uri=RECORD_URI.format(key=record.id),
    )


def _advice_out(advice: Advice) -> AdviceOut:
    return AdviceOut(
        documentation=advice.documentation,
        solutions=list(advice.solutions),
        example_fix=advice.example_fix,
        prevention_tips=list(advice.prevention_tips),
        generated=advice.generated,
        notes=list(advice.notes),
    )


def _match_out(match: Match, text: str) -> MatchOut:
    from errcat.advice import Advice

    return MatchOut(
        record=_record_out(match.view),
        confidence=round(match.confidence, 4),
        exact=match.exact,
        mode=match.mode,
        confident=match.confident,
        params=dict(match.params),
        reasons=list(match.reasons),
        advice=_advice_out(Advice.from_match(match, text=text)),
    )


def _check_limit(name: str, value: int, low: int = 1, high: int = MAX_LIMIT) -> None:
    if not low <= value <= high:
        raise ToolInputError(f"{name} must be between {low} and {high}, got {value}")


class Tools:
    """The tools over one catalog; safe to call from several threads."""

    def __init__(
        self, catalog: Catalog, *, log_roots: Sequence[str | os.PathLike[str]] | None = None
    ) -> None:
        """``log_roots``: directories ``scan_log`` may read under (``None``: any readable file)."""
        self.catalog = catalog
        self.log_roots = None if log_roots is None else tuple(Path(r).resolve() for r in log_roots)
        self._search = RecordSearch(catalog)

    # -- match_error -------------------------------------------------------------------

    def match_error(self, text: str, limit: int = 3) -> MatchResult:
        """The records that explain an error text (traceback, log excerpt, message), best first."""
        from errcat.advice import GITHUB_COMMENT_LIMIT, Advice, render_no_match
        from errcat.matcher import match_all

        if not text.strip():
            raise ToolInputError("text is empty: pass the error, its traceback or its log lines")
        if len(text) > MAX_TEXT_CHARS:
            raise ToolInputError(
                f"text has {len(text):,} characters, more than {MAX_TEXT_CHARS:,}: "
                "pass the traceback and the lines around it, not the whole log "
                "(scan_log reads files)"
            )
        _check_limit("limit", limit, high=20)
        matches = match_all(text, catalog=self.catalog, limit=limit)
        confident = bool(matches) and matches[0].confident
        reply = (
            Advice.from_match(matches[0], text=text).to_markdown(max_chars=GITHUB_COMMENT_LIMIT)
            if confident
            else render_no_match(matches)
        )
        return MatchResult(
            confident=confident,
            matches=[_match_out(m, text) for m in matches],
            reply_markdown=reply,
        )

    # -- show_record ---------------------------------------------------------------------

    def show_record(self, key: str) -> RecordDetail:
        """One record by id or slug, with its advice (an unknown key raises UnknownRecordError)."""
        from errcat.advice import Advice

        record = self.catalog[key.strip()]
        return RecordDetail(
            record=_record_out(record), advice=_advice_out(Advice.from_record(record))
        )

    def record_json(self, key: str) -> str:
        """The record as stored (``{"record": ..., "datasetVersion": ...}``), for the resource."""
        import json

        record = self.catalog[key.strip()]
        version = self.catalog.dataset_version(record.id)
        return json.dumps(
            {
                "record": record.model_dump(mode="json", by_alias=True),
                "datasetVersion": version.strftime("%Y-%m-%dT%H:%M:%SZ") if version else None,
            },
            ensure_ascii=False,
            indent=2,
        )

    # -- search_records ------------------------------------------------------------------

    def search_records(
        self,
        query: str = "",
        *,
        repo: str | None = None,
        error_class: str | None = None,
        tag: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> SearchResult:
        """Records whose class, message, slug, file or id hold every word of ``query``, filtered."""
        _check_limit("limit", limit)
        if offset < 0:
            raise ToolInputError(f"offset must be 0 or more, got {offset}")
        words = query.lower().split()
        if not words and not (repo or error_class or tag):
            raise ToolInputError(
                "give a query or a filter (repo, error_class, tag): the catalog has "
                f"{len(self.catalog):,} records"
            )
        phrase = " ".join(words)
        hits = [
            (phrase not in summary.error_message.lower(), summary)
            for summary in self._search.find(words, repo=repo, error_class=error_class, tag=tag)
        ]
        hits.sort(key=lambda hit: hit[0])  # stable: the phrase itself first, then load order
        page = hits[offset : offset + limit]
        return SearchResult(
            total=len(hits),
            offset=offset,
            items=[_record_out(self.catalog[s.id]) for _, s in page],
        )

    # -- scan_log -----------------------------------------------------------------------

    def _allowed(self, path: str) -> Path:
        if not path.strip():
            raise ToolInputError("path is empty: give a log file's path")
        resolved = Path(path).expanduser().resolve()
        if self.log_roots is not None and not any(
            resolved == root or root in resolved.parents for root in self.log_roots
        ):
            roots = ", ".join(str(r) for r in self.log_roots) or "none"
            raise ToolInputError(
                f"{path}: outside the directories this server may read logs from ({roots}); "
                "its operator sets them with --log-root"
            )
        if not resolved.is_file():
            raise ToolInputError(f"{path}: no such file")
        return resolved

    def scan_log(self, path: str, limit: int = 20) -> ScanResult:
        """A summary of the exception events of one log file (gzip and zstd are read too)."""
        from errcat.report.groups import group_events
        from errcat.scan import ScanStats, scan_paths

        _check_limit("limit", limit)
        resolved = self._allowed(path)
        stats = ScanStats()
        errors: list[str] = []
        events = list(
            scan_paths(
                [resolved],
                catalog=self.catalog,
                stats=stats,
                on_error=lambda e: errors.append(str(e)),
            )
        )
        if errors and not events:
            raise ToolInputError(errors[0])
        groups = group_events(events)
        rows = []
        for group in groups[:limit]:
            places = group.places
            record = self.catalog.get(group.record_id) if group.record_id else None
            rows.append(
                LogGroupOut(
                    record_id=group.record_id,
                    slug=record.slug if record is not None else None,
                    error_class=group.error_class,
                    message=group.message,
                    events=group.events,
                    first_line=min(p.first_line for p in places),
                    last_line=max(p.last_line for p in places),
                    confidence=round(group.confidence, 4),
                )
            )
        return ScanResult(
            path=str(resolved),
            lines=stats.lines,
            events=len(events),
            answered=sum(e.record_id is not None for e in events),
            incomplete=stats.incomplete,
            groups_total=len(groups),
            groups=rows,
        )
