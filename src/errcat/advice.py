"""What to do about an error: a record's solutions, example fix and tips, rendered.

:class:`Advice` is built from a record (and, when it came from a match, the
captured values and confidence) and renders as plain text for a terminal,
Markdown for a chat or an issue comment, or JSON.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> advice = Advice.from_record(record)
>>> advice.solutions
('Pass a good x',)
>>> print(advice.to_text().splitlines()[0])
ValueError: bad value {x!r}

Chat replies fit a length limit (Discord's 2,000 characters, Slack's 3,000 for
a section block) by dropping the least useful parts first; see
:meth:`Advice.to_markdown`. :func:`chat_reply` is the one call for a support
bot: it matches a pasted error and answers with the advice, or with an honest
"no match" and near records when there are some.

>>> len(advice.to_markdown(max_chars=DISCORD_MESSAGE_LIMIT)) <= 2000
True
>>> print(render_no_match([]))
No record in the errcat catalog matches this error.
<BLANKLINE>
Paste the whole traceback, down to its last line (`SomeError: message`), for the best match.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from errcat.engine import ENGINES
from errcat.evidence import package_of
from errcat.markup import Flavor, Style, clip, fold, markdown_length
from errcat.markup import style as style_of
from errcat.slots import GENERIC_SLOT, slot
from errcat.tags import LOGGED_TAG, RESPONSE_TAG
from errcat.view import shown_message

if TYPE_CHECKING:
    from errcat.catalog import Catalog
    from errcat.matcher import Match
    from errcat.view import RecordFields

__all__ = [
    "DISCORD_MESSAGE_LIMIT",
    "GITHUB_COMMENT_LIMIT",
    "MIN_MARKDOWN_CHARS",
    "SLACK_SECTION_LIMIT",
    "Advice",
    "Flavor",
    "chat_reply",
    "markdown_length",
    "render_no_match",
]

#: Longest message a Discord bot may send (characters).
DISCORD_MESSAGE_LIMIT = 2000
#: Longest ``text`` of a Slack section block (characters).
SLACK_SECTION_LIMIT = 3000
#: Longest GitHub issue or pull-request comment (characters).
GITHUB_COMMENT_LIMIT = 65536
#: The smallest ``max_chars`` a chat rendering accepts.
MIN_MARKDOWN_CHARS = 100

_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
#: Captured values are shortened to these lengths, in turn, when a reply is too long.
_VALUE_CAPS = (60, 20)
#: The summary's message is shortened to this before the first solution is touched.
_SHORT_SUMMARY_CHARS = 80
#: A first solution is shortened no further than this before it is dropped.
_MIN_SOLUTION_CHARS = 30
#: The tag of records whose advice the miner generated (errcat.models.GENERATED_TAG).
_GENERATED_TAG = "errcat:generated"
#: What a rendering says of generated advice.
_GENERATED_NOTE = "Advice generated from the source code by errcat mine, not curated."
#: How many near records a "did you mean" lists at most.
_MAX_HINTS = 3


def _check_limit(max_chars: int | None) -> None:
    if max_chars is not None and max_chars < MIN_MARKDOWN_CHARS:
        raise ValueError(f"max_chars must be at least {MIN_MARKDOWN_CHARS}, got {max_chars!r}")


def _fit(
    render: Callable[[Any], str],
    cuts: Iterator[Any],
    max_chars: int,
) -> str:
    """The rendering of the first cut that fits (the last one, clipped, if none does)."""
    out = ""
    for cut in cuts:
        out = render(cut)
        if markdown_length(out) <= max_chars:
            return out
    return clip(out, max_chars)  # only for a limit too small for any structure


def _longest_fitting(fits: Callable[[int], bool], high: int) -> int | None:
    """The largest n in [0, high] with ``fits(n)`` (monotone), or None."""
    if not fits(0):
        return None
    low = 0
    while low < high:
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    return low


@dataclass(frozen=True)
class _Cut:
    """How much of each part a chat reply keeps (see :meth:`Advice.to_markdown`)."""

    tips: int
    documentation: Literal["all", "sentence", "none"]
    value_chars: int | None
    confidence: bool
    solutions: int
    fix: bool
    values: bool
    solution_chars: int | None = None
    summary_chars: int | None = None
    compact_link: bool = False
    link: bool = True


def _history_notes(match: Match) -> list[str]:
    """When the matched message existed, and which revisions the traceback's lines fit."""
    lineage = match.history
    if lineage is None:
        return []
    from errcat.history import history_of

    store = match._store
    history = history_of(store)

    def message_of(record_id: str) -> str | None:
        position = store.position_of(record_id) if store is not None else None
        return None if position is None else store.summary(position).error_message  # type: ignore[union-attr]

    note = history.describe(match.summary.id, message_of) if history is not None else None
    notes = [note or lineage.note()]
    fits = lineage.fits_frames(match.report.frames) if match.report.frames else ()
    if fits and len(fits) < len(lineage.sites):
        labels = ", ".join(f"{r.label} ({r.short})" for r in fits[:5])
        notes.append(f"the traceback's line numbers fit {labels}")
    return notes


_VERSION_LABEL = re.compile(r"^v?\d+(?:\.\d+)+")
#: A captured value shown beside its name in a solution is cut to this length.
_VALUE_IN_TEXT = 40


def _upgrade(match: Match) -> list[str]:
    """The first solution for a message the newest release no longer raises: upgrade.

    From the match's history: a lineage whose message is gone from the newest
    revision (removed, not reworded) names the release to upgrade to.
    """
    lineage = match.history
    if lineage is None or lineage.status != "removed" or lineage.newest is None:
        return []
    project = match.summary.repo.rsplit("/", 1)[-1]
    last, newest = lineage.last, lineage.newest
    target = (
        f"{newest.label} or newer"
        if _VERSION_LABEL.match(newest.label)
        else f"a release after {last.date:%Y-%m}"
    )
    return [
        f"Upgrade {project} to {target}: this check was removed after {last.date:%Y-%m} "
        f"({last.short}), so newer releases do not raise this error"
    ]


def _shown_value(value: str) -> str:
    """A captured value as a solution shows it: digits grouped, long values cut.

    >>> _shown_value("85050"), _shown_value("7.05"), _shown_value("x" * 50)[-1]
    ('85,050', '7.05', '…')
    """
    if value.isdigit() and len(value) > 4:
        return f"{int(value):,}"
    return clip(fold(value), _VALUE_IN_TEXT)


def _with_values(text: str, params: Mapping[str, str]) -> str:
    """``text`` with each captured value after the first mention of its name in backticks.

    >>> _with_values("Raise --max-len (it decides `limit`)", {"self.limit": "32768"})
    'Raise --max-len (it decides `limit` = 32,768 here)'
    >>> _with_values("Lower it to at most {blocks}.", {"blocks": "524"})
    'Lower it to at most 524.'
    >>> _with_values("Lower --x to at most <max len>.", {"self.max_len": "8192"})
    'Lower --x to at most 8192.'
    """
    for name, value in params.items():
        if not value:
            continue
        # A placeholder of the message the solution quotes (raw, or as its slot): the value.
        shown = _shown_value(value)
        placeholder = re.compile(r"\{" + re.escape(name) + r"(?:![rsa])?(?::[^{}]*)?\}")
        text = placeholder.sub(shown.replace("\\", "\\\\"), text)
        named = slot(name)
        if named != GENERIC_SLOT:
            text = text.replace(named, shown)
        for mark in dict.fromkeys((f"`{name}`", f"`{name.removeprefix('self.')}`")):
            at = text.find(mark)
            if at >= 0:
                end = at + len(mark)
                text = f"{text[:end]} = {_shown_value(value)} here{text[end:]}"
                break
    return text


def _alternatives_note(match: Match) -> str:
    """The note on the other sites raising the answer's message, and what would tell them apart.

    When both serving engines raise it (code one copied from the other) and the paste
    showed neither, the engine that ran is what tells: its log lines, launch command or
    a traceback (each engine's flags differ, so its advice does too).
    """
    alternatives = match.alternatives
    sites = ", ".join(f"{a.file_path}:{a.line_number}" for a in alternatives[:5])
    more = len(alternatives) - 5
    own = package_of(match.summary.repo)
    engines = sorted({package_of(a.repo) for a in alternatives} & set(ENGINES) - {own})
    tell = "a traceback would tell which"
    if own in ENGINES and engines:
        tell = (
            f"{own} and {', '.join(engines)} both raise it; the engine's log lines, its launch "
            "command or a traceback would tell which one ran"
        )
    return (
        "the same message is also raised at "
        + sites
        + (f" and {more} more" if more > 0 else "")
        + f" ({tell})"
    )


@dataclass(frozen=True)
class Advice:
    """The actionable part of a record, optionally tied to the values of one occurrence."""

    record: RecordFields
    params: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    confidence: float | None = None
    exact: bool | None = None
    #: What this occurrence adds: how an inexact message differs, the chain's other
    #: exceptions and their records.
    notes: tuple[str, ...] = ()
    #: Solutions this occurrence puts first (an upgrade, when the user's release is old).
    first: tuple[str, ...] = ()

    @classmethod
    def from_record(cls, record: RecordFields) -> Advice:
        """Advice for a record looked up directly (no captured values)."""
        return cls(record)

    @classmethod
    def from_match(cls, match: Match, *, text: str | None = None) -> Advice:
        """Advice for a match, carrying its captured values, confidence and notes.

        With ``text`` (the whole paste the match came from), a record with advice
        per engine and phase (``engineAdvice``) shows the one that fits the engine
        and phase the paste shows (see :mod:`errcat.tailor`).
        """
        notes = (
            [r for r in match.reasons if r.startswith("the message ")] if not match.exact else []
        )
        if match.alternatives:
            notes.append(_alternatives_note(match))
        notes.extend(_history_notes(match))
        for other in match.related:
            notes.append(
                f"also in this text: {other.summary.error_class} from record {other.summary.id} "
                f"({other.summary.file_path}:{other.summary.line_number}), "
                f"confidence {other.confidence:.2f}"
            )
        view = match.view
        if text is not None:
            from errcat.engine import detect
            from errcat.tailor import tailor

            view, fitted = tailor(view, detect(text))
            if fitted:
                notes.insert(0, fitted)
        return cls(
            view,
            match.params,
            match.confidence,
            match.exact,
            tuple(notes),
            tuple(_upgrade(match)),
        )

    @property
    def summary(self) -> str:
        """The one-line summary: exception class and message template."""
        return self.record.title

    @property
    def solutions(self) -> tuple[str, ...]:
        """The ways to fix the error, best first, with this occurrence's captured values."""
        found = [*self.first, *self.record.solutions]
        if self.params:
            found = [_with_values(s, self.params) for s in found]
        return tuple(dict.fromkeys(found))

    @property
    def example_fix(self) -> str:
        """A before/after example of the fix ("" when the record has none)."""
        return self.record.example_fix

    @property
    def prevention_tips(self) -> tuple[str, ...]:
        """How to keep the error from happening again."""
        return self.record.prevention_tips

    @property
    def documentation(self) -> str:
        """Why the error is raised."""
        return self.record.documentation

    @property
    def generated(self) -> bool:
        """Whether the advice was generated from the source by the miner (not curated)."""
        return _GENERATED_TAG in self.record.tags

    @property
    def source_url(self) -> str:
        """Link to the raising code at the analysed commit."""
        return self.record.github_url

    @property
    def location(self) -> str:
        """Where the error is raised: ``repo path:line``."""
        r = self.record
        return f"{r.repo} {r.file_path}:{r.line_number}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the advice."""
        return {
            "id": self.record.id,
            "slug": self.record.slug,
            "summary": self.summary,
            "repo": self.record.repo,
            "filePath": self.record.file_path,
            "lineNumber": self.record.line_number,
            "sourceUrl": self.source_url,
            "confidence": self.confidence,
            "exact": self.exact,
            "params": dict(self.params),
            "documentation": self.documentation,
            "solutions": list(self.solutions),
            "exampleFix": self.example_fix,
            "preventionTips": list(self.prevention_tips),
            "tags": list(self.record.tags),
            "notes": list(self.notes),
            "generated": self.generated,
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The advice as a JSON document."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @property
    def _verb(self) -> str:
        """How the record's site reports its error: ``raised``, ``logged`` or ``returned``.

        ``logged`` for a log call's record (tag ``errcat:logged``), ``returned`` for an
        HTTP error body's (tag ``errcat:response``).
        """
        if RESPONSE_TAG in self.record.tags:
            return "returned"
        return "logged" if LOGGED_TAG in self.record.tags else "raised"

    def to_text(self) -> str:
        """Plain text for a terminal: title, where, captured values, solutions, example fix."""
        r = self.record
        lines = [
            self.summary,
            f"  record {r.id} ({r.slug})",
            f"  {self._verb} at {self.location}",
            f"  {self.source_url}",
        ]
        if self.confidence is not None:
            kind = "exact match" if self.exact else "inexact match"
            lines.append(f"  {kind}, confidence {self.confidence:.2f}")
        lines.extend(f"  {note}" for note in self.notes)
        if self.generated:
            lines.append(f"  {_GENERATED_NOTE}")
        if self.params:
            lines.append("")
            lines.append("Captured values:")
            lines.extend(f"  {name} = {value}" for name, value in self.params.items())
        if r.documentation:
            lines += ["", "Why:", *(f"  {line}" for line in r.documentation.splitlines())]
        if self.solutions:
            lines += ["", "Solutions:"]
            lines.extend(f"  {n}. {s}" for n, s in enumerate(self.solutions, start=1))
        if self.example_fix:
            lines += ["", "Example fix:"]
            lines.extend(f"    {line}" for line in self.example_fix.splitlines())
        if self.prevention_tips:
            lines += ["", "Prevention:"]
            lines.extend(f"  - {tip}" for tip in self.prevention_tips)
        return "\n".join(lines)

    def to_markdown(self, *, max_chars: int | None = None, flavor: Flavor = "markdown") -> str:
        """A reply for a chat message or an issue comment, at most ``max_chars`` long.

        The reply holds, in order: the one-line summary (exception class and
        message), where the error is raised (linked to the source), for a
        match its confidence, the captured values, why it is raised, the
        solutions as a numbered list, the example fix in a fenced block and
        the prevention tips. ``flavor="mrkdwn"`` writes Slack's own format
        (for section blocks) instead of Markdown.

        With ``max_chars`` (at least :data:`MIN_MARKDOWN_CHARS`; lengths are
        counted as :func:`markdown_length` does) a reply that is too long is
        shortened in this order, stopping as soon as it fits:

        1. prevention tips, the last first;
        2. the documentation, cut to its first sentence, then dropped;
        3. captured values, each shortened to 60, then 20 characters;
        4. the match-confidence note;
        5. solutions after the first, the last first;
        6. the example fix, as a whole fenced block (never part of one);
        7. the summary's message, shortened to 80 characters with "…";
        8. the captured values;
        9. the first solution, shortened with "…", then dropped;
        10. the summary's message, shortened further;
        11. the location line, down to a bare "source" link.

        The summary and the source link always stay (for a limit too small to
        hold a link at all, the summary alone is returned). Solutions are
        therefore never dropped while a prevention tip is kept, and code
        fences are always balanced.

        >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
        >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
        >>> print(Advice.from_record(record).to_markdown(max_chars=200))
        **`ValueError`**: bad value {x!r}
        <BLANKLINE>
        Raised in [`src/project/core.py:12`](https://github.com/...) (example/project)
        >>> print(Advice.from_record(record).to_markdown(flavor="mrkdwn").splitlines()[0])
        *`ValueError`*: bad value {x!r}
        """
        style = style_of(flavor)
        _check_limit(max_chars)
        full = _Cut(
            tips=len(self.prevention_tips),
            documentation="all",
            value_chars=None,
            confidence=True,
            solutions=len(self.solutions),
            fix=bool(self.example_fix),
            values=True,
        )
        if max_chars is None:
            return self._render(full, style)
        cuts = self._cuts(full, style, max_chars)
        return _fit(lambda cut: self._render(cut, style), cuts, max_chars)

    def _cuts(self, cut: _Cut, style: Style, max_chars: int) -> Iterator[_Cut]:
        """Ever shorter versions of the reply, in the documented order."""
        yield cut
        for kept in range(cut.tips - 1, -1, -1):
            cut = replace(cut, tips=kept)
            yield cut
        if self.record.documentation.strip():
            cut = replace(cut, documentation="sentence")
            yield cut
            cut = replace(cut, documentation="none")
            yield cut
        if self.params:
            for cap in _VALUE_CAPS:
                cut = replace(cut, value_chars=cap)
                yield cut
        if self.confidence is not None:
            cut = replace(cut, confidence=False)
            yield cut
        for kept in range(cut.solutions - 1, 0, -1):
            cut = replace(cut, solutions=kept)
            yield cut
        if cut.fix:
            cut = replace(cut, fix=False)
            yield cut
        message_length = markdown_length(fold(shown_message(self.record)))
        if message_length > _SHORT_SUMMARY_CHARS:
            cut = replace(cut, summary_chars=_SHORT_SUMMARY_CHARS)
            yield cut
        if self.params:
            cut = replace(cut, values=False)
            yield cut

        def fits(c: _Cut) -> bool:
            return markdown_length(self._render(c, style)) <= max_chars

        if cut.solutions:
            first = fold(self.solutions[0])
            n = _longest_fitting(
                lambda n: fits(replace(cut, solution_chars=n)), markdown_length(first)
            )
            if n is not None and n >= _MIN_SOLUTION_CHARS:
                yield replace(cut, solution_chars=n)
            cut = replace(cut, solutions=0)
            yield cut
        for compact in (False, True):
            linked = replace(cut, compact_link=compact)

            def summary_fits(n: int, c: _Cut = linked) -> bool:
                return fits(replace(c, summary_chars=n))

            n = _longest_fitting(
                summary_fits, min(message_length, cut.summary_chars or message_length)
            )
            if n is not None:
                yield replace(linked, summary_chars=n)
            cut = linked
        yield replace(cut, summary_chars=0, link=False)

    def _render(self, cut: _Cut, style: Style) -> str:
        r = self.record
        message = fold(shown_message(r))
        if cut.summary_chars is not None:
            message = clip(message, cut.summary_chars)
        parts = [f"{style.bold(style.code(r.error_class))}: {style.text(message)}".rstrip()]
        if cut.link:
            if cut.compact_link:
                parts.append(style.link("source", self.source_url))
            else:
                where = style.link(style.code(f"{r.file_path}:{r.line_number}"), self.source_url)
                parts.append(f"{self._verb.capitalize()} in {where} ({style.text(r.repo)})")
        if cut.confidence and self.confidence is not None:
            if self.exact:
                note = f"Exact match, confidence {self.confidence:.2f}."
            else:
                note = f"Inexact match (confidence {self.confidence:.2f}): check that it fits."
            parts.append(style.italic(note))
        if cut.confidence and self.generated:
            parts.append(style.italic(_GENERATED_NOTE))
        if cut.values and self.params:
            cap = cut.value_chars
            parts.append(
                "Captured values:\n"
                + "\n".join(
                    f"{style.bullet} {style.code(name)} = "
                    f"{style.code(clip(fold(value), cap) if cap else value)}"
                    for name, value in self.params.items()
                )
            )
        if cut.documentation != "none":
            paragraphs = [p for p in _PARAGRAPH.split(r.documentation) if p.strip()]
            if cut.documentation == "sentence" and paragraphs:
                paragraphs = [_SENTENCE_END.split(fold(paragraphs[0]), maxsplit=1)[0]]
            parts.extend(style.text(p) for p in paragraphs)
        if cut.solutions:
            items = [style.text(s) for s in self.solutions[: cut.solutions]]
            if cut.solution_chars is not None:
                items[0] = style.text(clip(fold(self.solutions[0]), cut.solution_chars))
            parts.append(
                style.bold("Solutions")
                + "\n"
                + "\n".join(f"{n}. {s}" for n, s in enumerate(items, start=1))
            )
        if cut.fix and self.example_fix:
            parts.append(style.bold("Example fix") + "\n" + style.block(self.example_fix))
        if cut.tips:
            parts.append(
                style.bold("Prevention")
                + "\n"
                + "\n".join(
                    f"{style.bullet} {style.text(t)}" for t in self.prevention_tips[: cut.tips]
                )
            )
        return "\n\n".join(parts)


@dataclass(frozen=True)
class _HintCut:
    hints: int
    message_chars: int | None = None
    advice: bool = True


def _hint_line(match: Match, style: Style, message_chars: int | None) -> str:
    r = match.record
    message = fold(shown_message(r))
    if message_chars is not None:
        message = clip(message, message_chars)
    where = style.link(style.code(f"{r.file_path}:{r.line_number}"), r.github_url)
    kind = "inexact" if not match.exact else "low confidence"
    return (
        f"{style.bold(style.code(r.error_class))}: {style.text(message)} "
        f"({where}, {kind}, confidence {match.confidence:.2f})"
    )


def render_no_match(
    hints: Sequence[Match] = (),
    *,
    max_chars: int | None = None,
    flavor: Flavor = "markdown",
) -> str:
    """The reply when no record is a confident answer, with a "did you mean" for near ones.

    ``hints`` are the candidates :func:`~errcat.matcher.match_all` found (fuzzy
    or low-confidence), best first; at most three are listed. To fit
    ``max_chars``, the last hints are dropped first, then the messages of the
    rest are shortened; the first line always stays.

    >>> print(render_no_match([], flavor="mrkdwn").splitlines()[0])
    No record in the errcat catalog matches this error.
    """
    style = style_of(flavor)
    _check_limit(max_chars)
    shown = list(hints[:_MAX_HINTS])
    head = "No record in the errcat catalog matches this error."

    def render(cut: _HintCut) -> str:
        if not shown:
            advice = (
                "Paste the whole traceback, down to its last line "
                f"({style.code('SomeError: message')}), for the best match."
            )
            return f"{head}\n\n{advice}" if cut.advice else head
        if not cut.hints:
            return head
        lines = [_hint_line(h, style, cut.message_chars) for h in shown[: cut.hints]]
        return f"{head}\n\nDid you mean:\n" + "\n".join(f"{style.bullet} {line}" for line in lines)

    if max_chars is None:
        return render(_HintCut(len(shown)))

    def cuts() -> Iterator[_HintCut]:
        if not shown:
            yield _HintCut(0)
            yield _HintCut(0, advice=False)
            return
        for kept in range(len(shown), 0, -1):
            yield _HintCut(kept)
        for chars in (80, 40, 10):
            yield _HintCut(1, message_chars=chars)
        yield _HintCut(0)

    return _fit(render, cuts(), max_chars)


def chat_reply(
    text: str,
    *,
    catalog: Catalog | None = None,
    max_chars: int | None = None,
    flavor: Flavor = "markdown",
) -> str:
    """Answer a pasted error in a chat: the best match's advice, or an honest "no match".

    A confident match (see :func:`~errcat.matcher.match_error`) is rendered
    with :meth:`Advice.to_markdown`; otherwise :func:`render_no_match` lists
    the near records :func:`~errcat.matcher.match_all` found, if any.

    >>> reply = chat_reply(
    ...     "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
    ...     "Select another --speculative-moe-a2a-backend.",
    ...     max_chars=DISCORD_MESSAGE_LIMIT,
    ... )
    >>> "**Solutions**" in reply, len(reply) <= DISCORD_MESSAGE_LIMIT
    (True, True)
    >>> print(chat_reply("KeyError: 'nothing like this'").splitlines()[0])
    No record in the errcat catalog matches this error.
    """
    from errcat.matcher import match_all

    matches = match_all(text, catalog=catalog, limit=_MAX_HINTS)
    if matches and matches[0].confident:
        advice = Advice.from_match(matches[0], text=text)
        return advice.to_markdown(max_chars=max_chars, flavor=flavor)
    return render_no_match(matches, max_chars=max_chars, flavor=flavor)
