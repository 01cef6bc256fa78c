"""Which project's copy of a message tied across projects is the original (issue 27, site2).

See :mod:`errcat.matcher.site_origin` and step 3 of :mod:`errcat.matcher.site_prior`:
the project every other one builds on answers; else first-seen dates decide only
inside both projects' history windows; else nothing is confident. Words and names are
drawn with a ``zq`` prefix so that no drawn text is a word real text holds.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import site_envelope
from errcat.catalog import Catalog
from errcat.history import History, Lineage, Revision, Site, attach
from errcat.matcher import match_all, match_error, site_prior
from errcat.matcher.site_origin import Provenance, read_provenance, trusted_dates
from errcat.matcher.site_prior import settle_sites
from test_site_prior import CASES, Case

_NAME = st.from_regex(r"zqn[a-z]{3,7}", fullmatch=True)
_START = datetime(2024, 1, 1, tzinfo=timezone.utc)


def _revisions(label: str, months: Sequence[int]) -> tuple[Revision, ...]:
    """Revisions of one project, ``months`` after 2024-01 each (its window, oldest first)."""
    return tuple(
        Revision(f"{label}{m}", f"{label[0]}{m:039d}"[:40], _START + timedelta(days=30 * m))
        for m in months
    )


@dataclass(frozen=True)
class Tie(Case):
    """Two projects raising one drawn message, each with its own history window."""

    def repo(self, n: int) -> str:
        return f"zqorg/{self.names[n]}"

    def with_history(
        self, windows: Sequence[tuple[Revision, ...]], seen: Sequence[tuple[Revision, ...]]
    ) -> Catalog:
        """Project ``n``'s record seen at ``seen[n]`` of its window ``windows[n]``."""
        records = [
            site_envelope(
                n + 1,
                self.repo(n),
                f"{self.names[n]}/{self.names[n + 2]}/x.py",
                "ValueError",
                self.template,
            )
            for n in range(2)
        ]
        catalog = Catalog(records if self.first else records[::-1])
        lineages = [
            Lineage(r.record.id, tuple(Site(v, r.record.file_path, 120) for v in seen[n]))
            for n, r in enumerate(records)
        ]
        every = sorted({v for w in windows for v in w}, key=lambda v: v.date)
        for store in catalog.parts:
            attach(store, History("zqorg/zqboth", every, lineages))
        return catalog

    def facts(
        self, windows: Sequence[tuple[Revision, ...]], depends: dict[int, int] | None = None
    ) -> Provenance:
        """The windows as the data records them; ``depends``: project n builds on m."""
        return Provenance(
            {self.repo(n): frozenset({self.repo(m)}) for n, m in (depends or {}).items()},
            {self.repo(n): tuple(v.date.timestamp() for v in w) for n, w in enumerate(windows)},
        )


TIES = CASES.map(lambda c: Tie(c.words, c.value, c.names, c.first))


@contextmanager
def _using(facts: Provenance) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site_prior, "default_provenance", lambda: facts)
        yield


def _answer(tie: Tie, catalog: Catalog, facts: Provenance) -> str | None:
    with _using(facts):
        found = match_error(tie.line, catalog=catalog)
    return found.summary.repo if found is not None else None


@settings(max_examples=15, deadline=None)
@given(tie=TIES, early=st.integers(min_value=0, max_value=1), gap=st.integers(1, 20))
def test_a_message_each_window_opens_with_is_no_answer(tie: Tie, early: int, gap: int) -> None:
    # Both records are seen at their project's first mined revision: each message may be
    # older than its window, so the earlier window says nothing of which came first.
    windows = [_revisions("a", [0, 30]), _revisions("b", [0, 30])]
    windows[1 - early] = _revisions("b" if early == 0 else "a", [gap, 30 + gap])
    assert _answer(tie, tie.with_history(windows, windows), tie.facts(windows)) is None


@settings(max_examples=15, deadline=None)
@given(tie=TIES, first=st.integers(0, 1))
def test_the_project_whose_span_opens_no_later_and_closes_earlier_answers(
    tie: Tie, first: int
) -> None:
    # The windows are mined on their own schedules. One record appeared between months 0
    # and 6 of its project, the other's between months 5 and 8 of its own: the first
    # answers, though the other's last absence (5) is older than its sighting (6).
    windows = [_revisions("a", [0, 5, 8]), _revisions("b", [0, 5, 8])]
    windows[first] = _revisions("a" if first == 0 else "b", [0, 6, 9])
    seen = [windows[0][1:], windows[1][1:]]
    seen[1 - first] = windows[1 - first][2:]
    catalog = tie.with_history(windows, seen)
    assert _answer(tie, catalog, tie.facts(windows)) == tie.repo(first)
    # One span inside the other (months 6 to 9 within 5 to 12) places neither first.
    windows[1 - first] = _revisions("b" if first == 0 else "a", [0, 5, 12])
    seen = [windows[0][2:], windows[1][2:]]
    assert _answer(tie, tie.with_history(windows, seen), tie.facts(windows)) is None


@settings(max_examples=15, deadline=None)
@given(tie=TIES, copy=st.integers(min_value=0, max_value=1))
def test_an_engine_s_copy_older_than_the_dependency_s_window_gives_way_to_it(
    tie: Tie, copy: int
) -> None:
    # The engine's history (from 2024) saw its copy long before the dependency's (from
    # 2026, its first release mined) saw the original: first-seen dates would crown the
    # copy. The engine requires the dependency: the dependency's record answers.
    original = 1 - copy
    windows = [_revisions("a", [0, 10, 30]), _revisions("b", [0, 10, 30])]
    windows[original] = _revisions("d", [24, 30])
    seen = [windows[0][1:], windows[1][1:]]
    seen[original] = windows[original]
    catalog = tie.with_history(windows, seen)
    assert _answer(tie, catalog, tie.facts(windows, {copy: original})) == tie.repo(original)
    # Without the dependency the dates do not decide: the original's window opens later.
    assert _answer(tie, catalog, tie.facts(windows)) is None


@settings(max_examples=15, deadline=None)
@given(tie=TIES, older=st.integers(0, 1), months=st.lists(st.integers(1, 40), min_size=2))
def test_the_dependency_answers_whatever_the_history_saw(
    tie: Tie, older: int, months: list[int]
) -> None:
    base = sorted(set(months)) if len(set(months)) > 1 else [1, 2]
    windows = [_revisions("a", [0, *base]), _revisions("b", [0, *base])]
    seen = [windows[0], windows[1]]
    seen[1 - older] = windows[1 - older][-1:]
    catalog = tie.with_history(windows, seen)
    dependency = 1 - older  # the dependency's own record is the newer one here
    facts = tie.facts(windows, {older: dependency})
    assert _answer(tie, catalog, facts) == tie.repo(dependency)


@settings(max_examples=10, deadline=None)
@given(tie=TIES, engine=st.integers(0, 1), share=st.floats(0.6, 0.95))
def test_the_dependency_answers_though_its_record_holds_less_confidence(
    tie: Tie, engine: int, share: float
) -> None:
    # A text copied many times within the dependency holds a smaller share there than the
    # engine's single copy: the two do not tie on confidence. The engine builds on the
    # dependency: the dependency's record answers, still confident.
    dependency = 1 - engine
    found = []
    for n in (engine, dependency):
        record = site_envelope(
            n + 1,
            tie.repo(n),
            f"{tie.names[n]}/{tie.names[n + 2]}/x.py",
            "ValueError",
            tie.template,
        )
        (match, *_) = match_all(tie.line, catalog=Catalog([record]))
        found.append(match)
    lower = replace(
        found[1],
        report=found[0].report,
        confidence=round(share, 3),
        _rank=(share, *found[1]._rank[1:]),
    )
    ranked = settle_sites(
        [found[0], lower], tie.line, facts=tie.facts([(), ()], {engine: dependency})
    )
    assert ranked[0].summary.repo == tie.repo(dependency) and ranked[0].confident
    # Without the dependency the engine's more confident record stays the answer.
    assert settle_sites([found[0], lower], tie.line, facts=tie.facts([(), ()]))[0] is found[0]


@settings(max_examples=10, deadline=None)
@given(
    tie=TIES,
    vendored=st.integers(0, 1),
    folder=st.sampled_from(["third_party", "_vendor"]),
    module=st.booleans(),
)
def test_a_copy_vendored_from_the_other_project_gives_way(
    tie: Tie, vendored: int, folder: str, module: bool
) -> None:
    # One project vendors the other's code (its folder, or one module, under `_vendor`):
    # the vendoring project's record is the copy. A copy of a third project stays tied.
    original = 1 - vendored
    paths = [f"{tie.names[n]}/{tie.names[n + 2]}/x.py" for n in range(2)]
    own = tie.names[original].upper().replace("ZQN", "zqn_") if module else tie.names[original]
    paths[vendored] = f"{tie.names[vendored]}/{folder}/{own}{'.py' if module else '/x.py'}"
    records = [
        site_envelope(n + 1, tie.repo(n), paths[n], "ValueError", tie.template) for n in range(2)
    ]
    found = match_error(tie.line, catalog=Catalog(records if tie.first else records[::-1]))
    assert found is not None and found.summary.repo == tie.repo(original)
    paths[vendored] = f"{tie.names[vendored]}/{folder}/{tie.names[3]}/x.py"
    records = [
        site_envelope(n + 1, tie.repo(n), paths[n], "ValueError", tie.template) for n in range(2)
    ]
    assert match_error(tie.line, catalog=Catalog(records)) is None


_PROJECTS = st.lists(_NAME, min_size=2, max_size=6, unique=True)


@settings(max_examples=50)
@given(names=_PROJECTS, by_requires=st.lists(st.booleans(), min_size=5, max_size=5))
def test_a_chain_of_requirements_reaches_every_later_project(
    names: list[str], by_requires: list[bool]
) -> None:
    # names[0] requires names[1], which requires names[2], ...: each edge written either
    # as the requirer's `requires` or as the required one's `requiredBy`.
    entries: list[dict[str, object]] = [{"repo": f"zqo/{n}", "dist": n} for n in names]
    for k in range(len(names) - 1):
        if by_requires[k]:
            entries[k]["requires"] = [names[k + 1].upper()]
        else:
            entries[k + 1]["requiredBy"] = [names[k]]
    facts = Provenance.of([{"builtFrom": entries}], {})
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            assert facts.depends_on(f"zqo/{a}", f"zqo/{b}") == (i < j)


_DAYS = st.lists(st.integers(0, 3000), min_size=2, max_size=8)


@given(days=_DAYS)
def test_a_window_is_trusted_only_when_its_dates_are_distinct_and_open_with_the_first(
    days: list[int],
) -> None:
    dates = [_START + timedelta(days=d) for d in days]
    stamps = trusted_dates(dates)
    real = len(set(days)) == len(days) and days[0] == min(days)
    assert (stamps is not None) == real
    if stamps is not None:
        assert list(stamps) == sorted(d.timestamp() for d in dates)


def test_the_facts_are_read_from_a_data_directory(tmp_path: Path) -> None:
    dated = _revisions("z", [0, 5, 9])
    fixed = (
        Revision("1.0", "0" * 40, datetime(2020, 2, 2, tzinfo=timezone.utc)),
        Revision("2.0", "0" * 40, datetime(2020, 2, 2, tzinfo=timezone.utc)),
    )
    (tmp_path / "records").mkdir()
    for name, repo, revisions in (("a", "zqo/zqna", dated), ("b", "zqo/zqnb", fixed)):
        plain = tmp_path / f"{name}.json"
        History(repo, revisions, []).dump(plain)
        sidecar = tmp_path / "records" / f"{name}.history.json.gz"
        sidecar.write_bytes(gzip.compress(plain.read_bytes()))
    manifest = {
        "builtFrom": [
            {"repo": "zqo/zqna", "dist": "zqna", "requiredBy": ["zqnb"]},
            {"repo": "zqo/zqnb", "dist": "zqnb"},
        ],
        "history": {"records/a.history.json.gz": {}, "records/b.history.json.gz": {}},
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    facts = read_provenance([tmp_path, tmp_path / "missing"])
    assert facts.windows == {"zqo/zqna": tuple(r.date.timestamp() for r in dated)}
    assert facts.depends_on("zqo/zqnb", "zqo/zqna")
    assert not facts.depends_on("zqo/zqna", "zqo/zqnb")
