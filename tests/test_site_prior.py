"""One message raised at several sites: the paste's evidence picks the site, or nothing does.

See :mod:`errcat.matcher.site_prior`. Words are drawn with a ``zq`` prefix so that
no drawn message or path is a word real text holds.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.matcher import match_all, match_error
from errcat.matcher.site_prior import settle_sites
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern

_WORD = st.from_regex(r"zqw[a-z]{3,7}", fullmatch=True)
_WORDS = st.lists(_WORD, min_size=4, max_size=6, unique=True)
#: Project, package and file names: never a word of the message (a project the text
#: names is evidence of its own, see errcat.matcher.record_evidence).
_NAME = st.from_regex(r"zqn[a-z]{3,7}", fullmatch=True)
_VALUE = st.from_regex(r"[0-9]{1,4}", fullmatch=True)


def _record(
    n: int, repo: str, path: str, template: str, error_class: str = "ValueError"
) -> RecordEnvelope:
    return make_envelope(
        id=f"{n:016x}",
        repo=repo,
        filePath=path,
        lineNumber=120,
        sourceCodeStart=100,
        sourceCodeEnd=130,
        errorClass=error_class,
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        githubUrl=f"https://github.com/{repo}/blob/{'0' * 40}/{path}#L100-L130",
        tags=[],
    )


def _template(words: list[str]) -> str:
    return " ".join(words[:2]) + " {count} " + " ".join(words[2:])


def _message(words: list[str], value: str) -> str:
    return _template(words).replace("{count}", value)


def _id(n: int) -> str:
    return f"{n:016x}"


@settings(max_examples=40, deadline=None)
@given(
    words=_WORDS,
    value=_VALUE,
    first=st.booleans(),
    names=st.lists(_NAME, min_size=4, max_size=4, unique=True),
)
def test_two_projects_raising_one_message_answer_a_bare_line_with_neither(
    words: list[str], value: str, first: bool, names: list[str]
) -> None:
    template = _template(words)
    a = _record(1, f"zqorg/{names[0]}", f"{names[0]}/{names[2]}/check.py", template)
    b = _record(2, f"zqorg/{names[1]}", f"{names[1]}/{names[3]}/check.py", template)
    catalog = Catalog([a, b] if first else [b, a])
    paste = f"ValueError: {_message(words, value)}"
    assert match_error(paste, catalog=catalog) is None
    (top, *_) = match_all(paste, catalog=catalog)
    assert {top.summary.id, *(x.id for x in top.alternatives)} == {_id(1), _id(2)}
    assert not top.confident
    # Each alone is a confident answer: only the other site keeps it from one.
    for record in (a, b):
        alone = match_error(paste, catalog=Catalog([record]))
        assert alone is not None and alone.summary.id == record.record.id


@settings(max_examples=40, deadline=None)
@given(
    words=_WORDS,
    value=_VALUE,
    first=st.booleans(),
    pick=st.integers(min_value=0, max_value=1),
    dotted=st.booleans(),
    names=st.lists(_NAME, min_size=4, max_size=4, unique=True),
)
def test_a_module_path_in_the_paste_picks_its_site(
    words: list[str], value: str, first: bool, pick: int, *, dotted: bool, names: list[str]
) -> None:
    template = _template(words)
    paths = (f"{names[0]}/{names[2]}/check.py", f"{names[1]}/{names[3]}/check.py")
    records = [_record(n + 1, f"zqorg/{names[n]}", paths[n], template) for n in range(2)]
    catalog = Catalog(records if first else records[::-1])
    shown = paths[pick].removesuffix(".py")
    shown = shown.replace("/", ".") if dotted else shown
    paste = f"2025-01-02 03:04:05 [{shown}] ValueError: {_message(words, value)}"
    answer = match_error(paste, catalog=catalog)
    assert answer is not None and answer.summary.id == _id(pick + 1), paste


@settings(max_examples=40, deadline=None)
@given(
    words=_WORDS,
    value=_VALUE,
    first=st.booleans(),
    names=st.lists(_NAME, min_size=4, max_size=4, unique=True),
)
def test_within_one_project_the_copy_nested_deeper_gives_way(
    words: list[str], value: str, first: bool, names: list[str]
) -> None:
    template = _template(words)
    repo = f"zqorg/{names[0]}"
    own = _record(1, repo, f"python/{names[0]}/{names[1]}/layers/{names[3]}.py", template)
    copy = _record(2, repo, f"python/{names[0]}/{names[2]}/runtime/layers/{names[3]}.py", template)
    catalog = Catalog([own, copy] if first else [copy, own])
    answer = match_error(f"ValueError: {_message(words, value)}", catalog=catalog)
    assert answer is not None and answer.confident
    assert answer.summary.id == _id(1)
    assert [x.id for x in answer.alternatives] == [_id(2)]


@settings(max_examples=25, deadline=None)
@given(words=_WORDS, value=_VALUE, names=st.lists(_NAME, min_size=3, max_size=3, unique=True))
def test_a_copy_in_another_project_is_no_copy_of_this_project_s_file(
    words: list[str], value: str, names: list[str]
) -> None:
    # Nesting compares within a project only: two projects' layouts say nothing of who copied.
    template = _template(words)
    a = _record(1, f"zqorg/{names[0]}", f"{names[0]}/check.py", template)
    b = _record(2, f"zqorg/{names[1]}", f"{names[1]}/{names[2]}/deeper/check.py", template)
    assert match_error(f"ValueError: {_message(words, value)}", catalog=Catalog([a, b])) is None


def test_settle_sites_leaves_a_ranking_without_ties_alone() -> None:
    assert settle_sites([], "anything") == []
    record = _record(1, "zqorg/zqone", "zqone/check.py", "zqalpha zqbeta {n} zqgamma zqdelta")
    catalog = Catalog([record])
    ranked = match_all("ValueError: zqalpha zqbeta 3 zqgamma zqdelta", catalog=catalog)
    assert settle_sites(list(ranked), "zqtwo.check") == list(ranked)


def test_the_log_level_word_picks_the_logged_record_of_one_text() -> None:
    # One text, logged as a warning in one project and raised in another: the level
    # word the paste shows is the logged record's.
    template = "zqalpha zqbeta {n} zqgamma zqdelta"
    logged = _record(1, "zqorg/zqone", "zqone/check.py", template, error_class="WARNING")
    raised = _record(2, "zqorg/zqtwo", "zqtwo/check.py", template, error_class="ValueError")
    catalog = Catalog([raised, logged])
    line = "zqalpha zqbeta 3 zqgamma zqdelta"
    warned = match_all(f"WARNING 01-02 03:04:05 {line}", catalog=catalog)[0]
    assert warned.summary.id == _id(1)


@settings(max_examples=25, deadline=None)
@given(words=_WORDS, value=_VALUE, names=st.lists(_NAME, min_size=4, max_size=4, unique=True))
def test_one_project_s_sites_of_a_message_stay_one_confident_answer(
    words: list[str], value: str, names: list[str]
) -> None:
    # A file that moved between releases (the old record kept beside the new) or one
    # check written in two files of a project: one project's message, still answered.
    template = _template(words)
    repo = f"zqorg/{names[0]}"
    old = _record(1, repo, f"{names[0]}/{names[1]}.py", template)
    new = _record(2, repo, f"{names[0]}/{names[2]}/{names[3]}.py", template)
    answer = match_error(f"ValueError: {_message(words, value)}", catalog=Catalog([old, new]))
    assert answer is not None and answer.confident
    assert {answer.summary.id, *(x.id for x in answer.alternatives)} == {_id(1), _id(2)}
