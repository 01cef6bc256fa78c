"""The rules that read one record: slug, URL, span, snippet, and how far it is curated.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> check_slug(LintItem(record.model_copy(update={"slug": "Bad Slug"})))
"slug 'Bad Slug' is not lowercase words and hyphens"
"""

from __future__ import annotations

import regex

from errcat.lint.findings import Level, LintItem, Verdict, rule
from errcat.models import GENERATED_TAG, ErrorRecord

__all__ = [
    "check_curated",
    "check_draft",
    "check_generated",
    "check_github_url",
    "check_line_in_span",
    "check_slug",
    "check_source_lines",
    "curation_level",
    "expected_github_url",
    "is_draft",
    "is_generated",
    "source_line_count",
]

_SLUG = regex.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_GOT = regex.compile(r" \(got \{.*?\)(?= \(\+|$)")
_SLUG_MAX = 50

_NO_DRAFTS = (
    "in a release that does not allow drafts (allowDrafts in the manifest, or --allow-drafts)"
)


def is_draft(record: ErrorRecord) -> bool:
    """True for a draft: documentation, solutions and exampleFix are all empty (as mined).

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> is_draft(record)
    False
    >>> is_draft(
    ...     record.model_copy(update={"documentation": "", "solutions": (), "example_fix": ""})
    ... )
    True
    """
    return (
        not record.documentation.strip()
        and not any(s.strip() for s in record.solutions)
        and not record.example_fix.strip()
    )


def is_generated(record: ErrorRecord) -> bool:
    """True when the record's advice was generated from the source by the miner, not curated.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, GENERATED_TAG, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> is_generated(record), is_generated(record.model_copy(update={"tags": (GENERATED_TAG,)}))
    (False, True)
    """
    return GENERATED_TAG in record.tags


def expected_github_url(record: ErrorRecord) -> str:
    """The ``githubUrl`` a record must have: blob at analyzedSha, anchored on the span.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> expected_github_url(record) == record.github_url
    True
    """
    return (
        f"https://github.com/{record.repo}/blob/{record.analyzed_sha}/{record.file_path}"
        f"#L{record.source_code_start}-L{record.source_code_end}"
    )


_ZERO_SHA = "0" * 40
#: A release tag: ``v1.2.3``, ``0.136.3``, or prefixed by the project's name (ray's ``ray-2.58.0``).
_RELEASE_TAG = regex.compile(r"(?:[A-Za-z][A-Za-z0-9_.]*-)?v?[0-9][0-9A-Za-z.+_-]*")


def _at_release_tag(record: ErrorRecord, expected: str) -> bool:
    """True for a record of unknown commit (40 zeros) linked at a release tag instead.

    A wheel records no commit; its records link to the tag GitHub resolves
    (``blob/v0.5.23/...``) rather than to a sha that does not exist.

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> zero = record.model_copy(update={"analyzed_sha": "0" * 40})
    >>> tagged = zero.model_copy(
    ...     update={"github_url": expected_github_url(zero).replace("0" * 40, "v1.2.3")}
    ... )
    >>> _at_release_tag(tagged, expected_github_url(tagged)), _at_release_tag(record, "x")
    (True, False)
    >>> [
    ...     _at_release_tag(
    ...         t := zero.model_copy(
    ...             update={"github_url": expected_github_url(zero).replace("0" * 40, ref)}
    ...         ),
    ...         expected_github_url(t),
    ...     )
    ...     for ref in ("ray-2.58.0", "0.136.3", "main", "ray-latest")
    ... ]
    [True, True, False, False]
    """
    if record.analyzed_sha != _ZERO_SHA:
        return False
    head, _, tail = expected.partition(f"/blob/{_ZERO_SHA}/")
    url = record.github_url
    if not (url.startswith(head + "/blob/") and url.endswith("/" + tail)):
        return False
    ref = url[len(head) + len("/blob/") : len(url) - len(tail) - 1]
    return _RELEASE_TAG.fullmatch(ref) is not None


def source_line_count(source: str) -> int:
    r"""Number of lines in a ``sourceCode`` snippet (lines are separated by ``\n``).

    Form feeds and other characters ``str.splitlines`` breaks on are not line
    breaks in Python source.

    >>> source_line_count("a\nb\x0cc\n")
    3
    """
    return len(source.split("\n"))


def curation_level(*items: LintItem) -> Level:
    """``warning`` when every record concerned is an allowed draft (or generated), else ``error``.

    Some problems can only be fixed by curating (narrowing a group the miner
    made ``(.+?)``, merging two sites of one message): a draft carries them as
    warnings until it is curated; a curated record must not.
    """
    if all(
        item.drafts_allowed and (is_draft(item.record) or is_generated(item.record))
        for item in items
    ):
        return "warning"
    return "error"


@rule("slug", "error", "slug is lowercase words and hyphens, at most 50 characters")
def check_slug(item: LintItem) -> Verdict:
    """The slug is lowercase words and hyphens, and short enough for a URL."""
    slug = item.record.slug
    if not _SLUG.fullmatch(slug):
        return f"slug {slug!r} is not lowercase words and hyphens"
    if len(slug) > _SLUG_MAX:
        return f"slug is {len(slug)} characters long (at most {_SLUG_MAX})"
    return None


@rule("github-url", "error", "githubUrl agrees with repo, analyzedSha, filePath and the span")
def check_github_url(item: LintItem) -> Verdict:
    """The link points at the record's commit (or release tag), file and span."""
    record = item.record
    url = expected_github_url(record)
    if record.github_url != url and not _at_release_tag(record, url):
        return f"githubUrl {record.github_url!r} should be {url!r}"
    return None


@rule("line-in-span", "error", "lineNumber is inside sourceCodeStart..sourceCodeEnd")
def check_line_in_span(item: LintItem) -> Verdict:
    """The raise line is inside the snippet."""
    r = item.record
    if not r.source_code_start <= r.line_number <= r.source_code_end:
        return f"lineNumber {r.line_number} is outside {r.source_code_start}..{r.source_code_end}"
    return None


@rule("source-lines", "error", "sourceCode has as many lines as the span")
def check_source_lines(item: LintItem) -> Verdict:
    """The snippet has as many lines as its span says."""
    r = item.record
    lines = source_line_count(r.source_code)
    span = r.source_code_end - r.source_code_start + 1
    if lines != span:
        return (
            f"sourceCode has {lines} lines but the span "
            f"{r.source_code_start}..{r.source_code_end} has {span}"
        )
    return None


@rule("curated", "error", "a curated record has documentation, a solution and an example fix")
def check_curated(item: LintItem) -> Verdict:
    """A record written by hand has every advice field."""
    r = item.record
    if is_draft(r) or is_generated(r):
        return None
    missing = [
        name
        for name, empty in (
            ("documentation", not r.documentation.strip()),
            ("solutions", not any(s.strip() for s in r.solutions)),
            ("exampleFix", not r.example_fix.strip()),
        )
        if empty
    ]
    return f"curated record has no {', no '.join(missing)}" if missing else None


@rule("draft", "error", "drafts only where the release configuration allows them (then info)")
def check_draft(item: LintItem) -> Verdict:
    """A draft (no advice at all) is only in a release that allows drafts."""
    if not is_draft(item.record):
        return None
    what = "draft record (no documentation, solutions or exampleFix)"
    return (what, "info") if item.drafts_allowed else f"{what} {_NO_DRAFTS}"


@rule(
    "generated",
    "error",
    "advice generated from the source only where drafts are allowed (then info)",
)
def check_generated(item: LintItem) -> Verdict:
    """Advice generated by the miner is only in a release that allows drafts."""
    if not is_generated(item.record) or is_draft(item.record):
        return None
    what = "advice generated from the source (not curated)"
    level: Level = "info"
    return (what, level) if item.drafts_allowed else f"{what} {_NO_DRAFTS}"
