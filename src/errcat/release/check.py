"""``release check``: every record validated strictly and linted, plus the release's own rules.

The release's rules: the manifest is well formed and current, and every record
of the previous release is present or listed as withdrawn.
"""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from errcat.lint import Finding, LintItem, lint_records, problem_finding
from errcat.release.source import (
    ReleaseSource,
    Withdrawal,
    allows_drafts,
    freshness,
    parse_withdrawn,
    read_source,
)

__all__ = ["CheckReport", "check", "check_sources"]


@dataclass
class CheckReport:
    """What ``release check`` found: every finding, sorted, and what was checked."""

    findings: list[Finding]
    records: int
    paths: list[str]
    seconds: float = 0.0
    sources: list[ReleaseSource] = field(default_factory=list, repr=False)

    def count(self, level: str) -> int:
        """Number of findings of a level."""
        return sum(1 for f in self.findings if f.level == level)

    @property
    def ok(self) -> bool:
        """True when no finding is an error."""
        return self.count("error") == 0

    def by_rule(self) -> dict[str, dict[str, int]]:
        """Finding counts per rule and level."""
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for finding in self.findings:
            table[finding.rule][finding.level] += 1
        return {rule: dict(sorted(levels.items())) for rule, levels in sorted(table.items())}

    def collisions(self) -> dict[str, int]:
        """Shadowing pairs: in total, and how many traceback frames tell apart."""
        pairs = [f for f in self.findings if f.rule == "shadowing" and "collides" in f.message]
        apart = sum(1 for f in pairs if "distinguishable by traceback frames" in f.message)
        return {"pairs": len(pairs), "distinguishableByFrames": apart}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: summary counts, then every finding."""
        return {
            "ok": self.ok,
            "paths": self.paths,
            "records": self.records,
            "seconds": round(self.seconds, 3),
            "counts": {level: self.count(level) for level in ("error", "warning", "info")},
            "rules": self.by_rule(),
            "collisions": self.collisions(),
            "findings": [f.to_dict() for f in self.findings],
        }

    def to_text(self, *, verbose: bool = False) -> str:
        """Findings one per line (info ones only when ``verbose``), then a summary."""
        lines = [str(f) for f in self.findings if verbose or f.level != "info"]
        hidden = Counter(f.rule for f in self.findings if f.level == "info" and not verbose)
        if hidden:
            shown = ", ".join(f"{rule} {n}" for rule, n in sorted(hidden.items()))
            lines.append(f"({sum(hidden.values())} info findings not shown: {shown}; --verbose)")
        plural = "s" if self.records != 1 else ""
        lines.append(
            f"checked {self.records} record{plural} from {', '.join(self.paths)} in "
            f"{self.seconds:.1f} s: {self.count('error')} error(s), "
            f"{self.count('warning')} warning(s), {self.count('info')} info"
        )
        for rule, levels in self.by_rule().items():
            counts = ", ".join(f"{n} {level}" for level, n in levels.items())
            lines.append(f"  {rule}: {counts}")
        collisions = self.collisions()
        if collisions["pairs"]:
            lines.append(
                f"  collisions: {collisions['pairs']} pair(s), "
                f"{collisions['distinguishableByFrames']} distinguishable by traceback frames"
            )
        return "\n".join(lines)


def _withdrawal_findings(
    source: ReleaseSource,
    withdrawn: Sequence[Withdrawal],
    present: Mapping[str, LintItem],
    previous: ReleaseSource | None,
) -> list[Finding]:
    found: list[Finding] = []
    withdrawn_ids = {w.id for w in withdrawn}
    for w in withdrawn:
        if w.id in present:
            item = present[w.id]
            found.append(
                Finding(
                    "withdrawn",
                    "error",
                    f"record is listed as withdrawn ({w.reason}) but is still in the data",
                    item.path,
                    item.line,
                    w.id,
                )
            )
    released = (source.manifest or {}).get("ids")
    if isinstance(released, list):
        version = source.data_version or "the last build"
        for rid in sorted({r for r in released if isinstance(r, str)}):
            if rid not in present and rid not in withdrawn_ids:
                found.append(
                    Finding(
                        "withdrawn",
                        "error",
                        f"record of release {version} is missing and not listed as withdrawn "
                        "(add {id, reason} to withdrawn in the manifest, or restore it)",
                        source.manifest_path,
                        source.manifest_line(f'"{rid}"'),
                        rid,
                    )
                )
    if previous is not None:
        before, _ = parse_withdrawn(previous)
        for w in before:
            if w.id not in withdrawn_ids and w.id not in present:
                found.append(
                    Finding(
                        "withdrawn",
                        "error",
                        f"withdrawn in {previous.data_version or previous.path} ({w.reason}) "
                        "but no longer listed as withdrawn: keep its entry",
                        source.manifest_path or source.path,
                        None,
                        w.id,
                    )
                )
        for loaded in previous.items:
            if loaded.envelope is None:
                continue
            record = loaded.envelope.record
            if record.id not in present and record.id not in withdrawn_ids:
                found.append(
                    Finding(
                        "withdrawn",
                        "error",
                        f"record of the previous release {previous.data_version or previous.path}"
                        f" ({record.slug}) is missing from {source.path} and not listed as "
                        "withdrawn in its manifest",
                        loaded.source,
                        loaded.line,
                        record.id,
                    )
                )
    return found


def check_sources(
    sources: Sequence[ReleaseSource],
    *,
    allow_drafts: bool | None,
    previous: ReleaseSource | None,
    thorough: bool,
) -> list[Finding]:
    """Validate and lint every record of the sources, with the release rules: the findings."""
    found: list[Finding] = []
    items: list[LintItem] = []
    withdrawn: dict[int, list[Withdrawal]] = {}
    for index, source in enumerate(sources):
        allowed, config_findings = allows_drafts(source)
        found.extend(config_findings)
        if allow_drafts is not None:
            allowed = allow_drafts
        entries, entry_findings = parse_withdrawn(source)
        withdrawn[index] = entries
        found.extend(entry_findings)
        found.extend(freshness(source))
        for loaded in source.items:
            if loaded.problem is not None:
                found.append(problem_finding(loaded.problem))
            elif loaded.envelope is not None:
                items.append(LintItem(loaded.envelope.record, loaded.source, loaded.line, allowed))
    found.extend(lint_records(items, thorough=thorough))
    present: dict[str, LintItem] = {}
    for item in items:
        present.setdefault(item.record.id, item)
    # A record withdrawn by any of the sources checked together is withdrawn.
    all_withdrawn = [w for entries in withdrawn.values() for w in entries]
    for index, source in enumerate(sources):
        prev = previous if index == 0 else None
        found.extend(_withdrawal_findings(source, all_withdrawn, present, prev))
    return found


def check(
    paths: Sequence[str | os.PathLike[str]] = ("data",),
    *,
    allow_drafts: bool | None = None,
    previous: str | os.PathLike[str] | None = None,
    thorough: bool = False,
) -> CheckReport:
    """Strictly validate and lint the records of ``paths``, checked together as one catalog.

    ``allow_drafts`` overrides the ``allowDrafts`` of each source's manifest.
    ``previous`` is an earlier release (directory, manifest or artifact): a
    record of it that is neither present nor listed as withdrawn is an error,
    as is a record of the data directory's own manifest (``ids``).
    ``thorough`` times every pattern on the 1 MB inputs instead of screening.
    """
    started = time.perf_counter()
    sources = [read_source(p, strict=True) for p in paths]
    prev = read_source(previous, strict=False) if previous is not None else None
    findings = check_sources(sources, allow_drafts=allow_drafts, previous=prev, thorough=thorough)
    records = sum(len(s.envelopes) for s in sources)
    return CheckReport(
        sorted(findings, key=lambda f: f.sort_key),
        records,
        [s.path for s in sources],
        time.perf_counter() - started,
        sources,
    )
