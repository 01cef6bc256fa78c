"""One message raised at several sites: the paste's evidence picks the site, or nothing does.

See :mod:`errcat.matcher.site_prior`. Words are drawn with a ``zq`` prefix so that
no drawn message or path is a word real text holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import site_envelope
from errcat.catalog import Catalog
from errcat.history import History, Lineage, Revision, Site, attach
from errcat.matcher import Match, match_all, match_error, site_prior
from errcat.matcher.site_origin import Provenance
from errcat.matcher.site_prior import _Member, _without_deeper_copies, settle_sites
from errcat.models import RecordEnvelope
from errcat.store import RecordSummary

_WORD = st.from_regex(r"zqw[a-z]{3,7}", fullmatch=True)
#: Project, package and file names: never a word of the message (a project the text
#: names is evidence of its own, see errcat.matcher.record_evidence).
_NAME = st.from_regex(r"zqn[a-z]{3,7}", fullmatch=True)


@dataclass(frozen=True)
class Case:
    """A drawn message (its words and the value in it), four names, and a record order."""

    words: list[str]
    value: str
    names: list[str]
    first: bool

    @property
    def template(self) -> str:
        return " ".join(self.words[:2]) + " {count} " + " ".join(self.words[2:])

    @property
    def line(self) -> str:
        return "ValueError: " + self.template.replace("{count}", self.value)

    def record(
        self, n: int, repo: int, path: str, error_class: str = "ValueError"
    ) -> RecordEnvelope:
        return site_envelope(n, f"zqorg/{self.names[repo]}", path, error_class, self.template)

    def catalog(self, *records: RecordEnvelope) -> Catalog:
        """The records in the drawn order (store order must not decide)."""
        return Catalog(list(records) if self.first else list(records)[::-1])


CASES = st.builds(
    Case,
    words=st.lists(_WORD, min_size=4, max_size=6, unique=True),
    value=st.from_regex(r"[0-9]{1,4}", fullmatch=True),
    names=st.lists(_NAME, min_size=4, max_size=4, unique=True),
    first=st.booleans(),
)


def _id(n: int) -> str:
    return f"{n:016x}"


def _group(found: Match) -> set[str]:
    """The record a match names and the records folded into it."""
    return {found.summary.id, *(a.id for a in found.alternatives)}


@settings(max_examples=40, deadline=None)
@given(case=CASES)
def test_two_projects_raising_one_message_answer_a_bare_line_with_neither(case: Case) -> None:
    a = case.record(1, 0, f"{case.names[0]}/{case.names[2]}/check.py")
    b = case.record(2, 1, f"{case.names[1]}/{case.names[3]}/check.py")
    catalog = case.catalog(a, b)
    assert match_error(case.line, catalog=catalog) is None
    (top, *_) = match_all(case.line, catalog=catalog)
    assert _group(top) == {_id(1), _id(2)}
    assert not top.confident
    # Each alone is a confident answer: only the other site keeps it from one, and the
    # tie holds half of that confidence each (under the threshold: 0.49 at most).
    for record in (a, b):
        alone = match_error(case.line, catalog=Catalog([record]))
        assert alone is not None and alone.summary.id == record.record.id
        assert abs(top.confidence - min(alone.confidence / 2, 0.49)) <= 0.002


@settings(max_examples=40, deadline=None)
@given(case=CASES, pick=st.integers(min_value=0, max_value=1), dotted=st.booleans())
def test_a_module_path_in_the_paste_picks_its_site(case: Case, pick: int, *, dotted: bool) -> None:
    paths = [f"{case.names[n]}/{case.names[n + 2]}/check.py" for n in range(2)]
    catalog = case.catalog(*(case.record(n + 1, n, paths[n]) for n in range(2)))
    shown = paths[pick].removesuffix(".py")
    shown = shown.replace("/", ".") if dotted else shown
    paste = f"2025-01-02 03:04:05 [{shown}] {case.line}"
    answer = match_error(paste, catalog=catalog)
    assert answer is not None and answer.summary.id == _id(pick + 1), paste


@settings(max_examples=40, deadline=None)
@given(case=CASES)
def test_within_one_project_the_copy_nested_deeper_gives_way(case: Case) -> None:
    package, own_dir, copy_dir, name = case.names
    own = case.record(1, 0, f"python/{package}/{own_dir}/layers/{name}.py")
    copy = case.record(2, 0, f"python/{package}/{copy_dir}/runtime/layers/{name}.py")
    answer = match_error(case.line, catalog=case.catalog(own, copy))
    assert answer is not None and answer.confident
    assert answer.summary.id == _id(1)
    assert [x.id for x in answer.alternatives] == [_id(2)]


@settings(max_examples=25, deadline=None)
@given(case=CASES)
def test_a_copy_in_another_project_is_no_copy_of_this_project_s_file(case: Case) -> None:
    # Nesting compares within a project only: two projects' layouts say nothing of who copied.
    a = case.record(1, 0, f"{case.names[0]}/check.py")
    b = case.record(2, 1, f"{case.names[1]}/{case.names[2]}/deeper/check.py")
    assert match_error(case.line, catalog=case.catalog(a, b)) is None


@settings(max_examples=25, deadline=None)
@given(case=CASES)
def test_one_project_s_sites_of_a_message_stay_one_confident_answer(case: Case) -> None:
    # A file that moved between releases (the old record kept beside the new) or one
    # check written in two files of a project: one project's message, still answered.
    package, old_name, new_dir, new_name = case.names
    old = case.record(1, 0, f"{package}/{old_name}.py")
    new = case.record(2, 0, f"{package}/{new_dir}/{new_name}.py")
    answer = match_error(case.line, catalog=case.catalog(old, new))
    assert answer is not None and answer.confident
    assert _group(answer) == {_id(1), _id(2)}


def test_settle_sites_leaves_a_ranking_without_ties_alone() -> None:
    assert settle_sites([], "anything") == []
    record = site_envelope(1, "zqorg/zqone", "zqone/check.py", "ValueError", "zqa zqb {n} zqc zqd")
    ranked = match_all("ValueError: zqa zqb 3 zqc zqd", catalog=Catalog([record]))
    assert settle_sites(list(ranked), "zqtwo.check") == list(ranked)


def test_the_log_level_word_picks_the_logged_record_of_one_text() -> None:
    # One text, logged as a warning in one project and raised in another: the level
    # word the paste shows is the logged record's.
    template = "zqalpha zqbeta {n} zqgamma zqdelta"
    logged = site_envelope(1, "zqorg/zqone", "zqone/check.py", "WARNING", template)
    raised = site_envelope(2, "zqorg/zqtwo", "zqtwo/check.py", "ValueError", template)
    catalog = Catalog([raised, logged])
    line = "zqalpha zqbeta 3 zqgamma zqdelta"
    warned = match_all(f"WARNING 01-02 03:04:05 {line}", catalog=catalog)[0]
    assert warned.summary.id == _id(1)


@settings(max_examples=15, deadline=None)
@given(case=CASES)
def test_a_site_folded_in_from_another_part_of_the_catalog_answers_whole(case: Case) -> None:
    # Ties fold across a catalog's parts (bundled data and a plug-in): the record the
    # evidence picks is read from its own part.
    package, own_dir, copy_dir, name = case.names
    own = case.record(1, 0, f"python/{package}/{own_dir}/layers/{name}.py")
    copy = case.record(2, 0, f"python/{package}/{copy_dir}/runtime/layers/{name}.py")
    parts = (Catalog([own]), Catalog([copy]))
    catalog = parts[0].merge(parts[1]) if case.first else parts[1].merge(parts[0])
    answer = match_error(case.line, catalog=catalog)
    assert answer is not None and answer.summary.id == _id(1)
    assert answer.record.id == _id(1) and answer.record.file_path == own.record.file_path


def test_an_error_level_line_picks_the_raised_record_of_one_text() -> None:
    # The same text logged as a warning in one project and raised in another, on a line an
    # engine logs at ERROR (as it logs what it raises): the raised record.
    template = "zqalpha zqbeta {n} zqgamma zqdelta"
    logged = site_envelope(1, "zqorg/zqone", "zqone/check.py", "WARNING", template)
    raised = site_envelope(2, "zqorg/zqtwo", "zqtwo/check.py", "ValueError", template)
    found = match_all(
        "ERROR 01-02 03:04:05 [x.py:1] zqalpha zqbeta 3 zqgamma zqdelta",
        catalog=Catalog([logged, raised]),
    )
    assert found[0].summary.id == _id(2)


@settings(max_examples=15, deadline=None)
@given(case=CASES, older=st.integers(min_value=0, max_value=1))
def test_the_project_a_history_saw_raise_the_message_first_answers(case: Case, older: int) -> None:
    # Code copied into another project is newer there: with a history, the project whose
    # record it saw while the other's history shows the other's record absent answers
    # (whichever the store order puts first).
    revisions = tuple(
        Revision(f"r{n}", f"{n}" * 40, datetime(2024 + n, 1, 1, tzinfo=timezone.utc))
        for n in range(1, 4)
    )
    records = [case.record(n + 1, n, f"{case.names[n]}/{case.names[n + 2]}/x.py") for n in range(2)]
    catalog = case.catalog(*records)
    lineages = []
    for n, envelope in enumerate(records):
        seen = revisions if n == older else revisions[2:]
        path = envelope.record.file_path
        lineages.append(Lineage(envelope.record.id, tuple(Site(r, path, 120) for r in seen)))
    for store in catalog.parts:
        attach(store, History("zqorg/zqhistory", revisions, lineages))
    window = tuple(r.date.timestamp() for r in revisions)
    facts = Provenance({}, {f"zqorg/{case.names[n]}": window for n in range(2)})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site_prior, "default_provenance", lambda: facts)
        answer = match_error(case.line, catalog=catalog)
    assert answer is not None and answer.summary.id == _id(older + 1)


def test_a_project_without_history_is_not_taken_for_the_later_copy() -> None:
    # One project's record has a history, the other's (a plug-in catalog) none: which
    # came first is unknown, so the tie is no answer.
    template = "zqwalpha zqwbeta {n} zqwgamma zqwdelta"
    kept = site_envelope(1, "zqorg/zqnone", "zqnone/x.py", "ValueError", template)
    bare = site_envelope(2, "zqorg/zqntwo", "zqntwo/x.py", "ValueError", template)
    first = Revision("r1", "1" * 40, datetime(2024, 1, 1, tzinfo=timezone.utc))
    with_history = Catalog([kept])
    attach(
        with_history.parts[0],
        History("zqorg/zqnone", (first,), [Lineage(_id(1), (Site(first, "zqnone/x.py", 120),))]),
    )
    catalog = with_history.merge(Catalog([bare]))
    assert match_error("ValueError: zqwalpha zqwbeta 3 zqwgamma zqwdelta", catalog=catalog) is None


_PART = st.sampled_from(["zqa", "zqb", "zqc", "layers", "srt"])


def _deeper_copy(path: str, other: str) -> bool:
    """The rule for one pair: ``path`` ends in ``other``'s file and folder, with more parts."""
    a, b = path.split("/"), other.split("/")
    return len(a) > len(b) >= 2 and a[-2:] == b[-2:]


@settings(max_examples=200)
@given(
    members=st.lists(
        st.tuples(st.sampled_from(["r1", "r2"]), st.lists(_PART, min_size=1, max_size=5)),
        max_size=12,
    )
)
def test_dropping_deeper_copies_in_one_pass_agrees_with_the_pairwise_rule(
    members: list[tuple[str, list[str]]],
) -> None:
    # The one-pass filter (a tied group may hold hundreds of folded records) keeps exactly
    # the members no other member of their project shows to be a deeper copy.
    group = [
        _Member(n, RecordSummary(str(n), "", "ValueError", "/".join(p) + ".py", 1, repo, "m", ()))
        for n, (repo, p) in enumerate(members)
    ]
    pairwise = [
        m
        for m in group
        if not any(
            o.summary.repo == m.summary.repo
            and _deeper_copy(m.summary.file_path, o.summary.file_path)
            for o in group
        )
    ]
    assert _without_deeper_copies(group) == pairwise
