"""Shape checks for the hand-labelled benchmark sets in benchmarks/data/.

stack_census.jsonl (issue 26), holdout_pastes.jsonl (issue 27), real_fixes.jsonl
(issue 30) and fresh_pastes.jsonl (issue 27, rounds 3 to 14) are hand-labelled;
benchmarks/data/README.md describes them. These tests
fail on a malformed line: a missing or unknown field, an unknown group or native kind,
a duplicate id, a split that does not follow the hash rule, an even-numbered thread,
or a thread URL shared with real_pastes.jsonl, tests/data or another of the three sets.
study_census.jsonl (the engine study set) is checked apart: census lines of the engine
group, all dev, each from an even-numbered thread no other file uses.
study_stack.jsonl (issue 26's study set of the rest of the stack) likewise: census-shaped
lines of any group, all dev, each from an even-numbered thread no other file uses.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data"
CENSUS = DATA / "stack_census.jsonl"
HOLDOUT = DATA / "holdout_pastes.jsonl"
FIXES = DATA / "real_fixes.jsonl"
FRESH = DATA / "fresh_pastes.jsonl"
SETS = (CENSUS, HOLDOUT, FIXES, FRESH)
#: The study set (issues 26/27): engine pastes from even-numbered threads, all dev.
STUDY = DATA / "study_census.jsonl"
#: The stack study set: even-numbered threads, all dev, tuned on (issue 26).
STUDY_STACK = DATA / "study_stack.jsonl"

ENGINES = {"sgl-project/sglang", "vllm-project/vllm"}
GROUPS = {
    "engine",
    "torch",
    "nccl",
    "import",
    "tools",
    "transformers",
    "http",
    "argparse",
    "pydantic",
    "crash",
    "kernel-cpp",
    "kv-plugin",
    "triton",
    "ray",
    "huggingface_hub",
    "jinja2",
    "other",
}
#: Native kinds are one of these, or start with one of NATIVE_PREFIXES (cuda-other,
#: hip-invalid-device-function, ...).
NATIVE_KINDS = {
    "cuda-oom",
    "cuda-illegal-address",
    "cuda-device-assert",
    "cuda-no-kernel-image",
    "cublas",
    "cudnn",
    "nccl-error",
    "nccl-watchdog-timeout",
    "gloo",
    "segfault",
    "fatal-python-error",
    "oom-killed",
    "torch-check",
}
NATIVE_PREFIXES = ("cuda-other", "hip-")
PHASES = {
    None,
    "startup",
    "weight loading",
    "kv cache allocation",
    "cuda graph capture",
    "serving",
}
LEVER_KINDS = {"flag", "request", "model", "env", "package", "upgrade", "hardware", "code"}
REVISION = re.compile(r"v0\.33\.0|v0\.5\.23|[0-9a-f]{40}")
THREAD_URL = re.compile(r"https://github\.com/[^/\s\"\\]+/[^/\s\"\\]+/(?:issues|pull)/\d+")
MAX_TEXT = 4500

CENSUS_FIELDS = {
    "id",
    "url",
    "repo",
    "topic",
    "version",
    "text",
    "group",
    "raiser",
    "expect",
    "engine_phase",
    "split",
}
HOLDOUT_FIELDS = {"id", "url", "repo", "version", "text", "expect", "split"}
#: A fresh paste also says what it is about and in what form it was pasted.
FRESH_FIELDS = HOLDOUT_FIELDS | {"topic", "form"}
#: Census lines added in a later sampling round carry the round's number.
CENSUS_ROUNDS = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
#: Fresh pastes carry a round only from round 4 on (round 3's lines have none).
FRESH_ROUNDS = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
FIX_FIELDS = HOLDOUT_FIELDS | {"fix", "levers", "lever_kind", "fix_url"}
LABEL_KEYS = {
    "file_path",
    "error_class",
    "message_prefix",
    "statement",
    "revision",
    "in_newest",
    "also",
    "note",
}
UNANSWERABLE_KEYS = {"answerable", "why", "note", "old_site"}


def load(path: Path) -> list[dict[str, Any]]:
    """The records of one JSONL file, in order."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def normalize(url: str) -> str:
    """A thread URL with pull requests spelled as issues (GitHub shares the numbers)."""
    return url.rstrip("/").replace("/pull/", "/issues/")


def hash_split(record_id: str) -> str:
    """The split the hash rule gives an id: about 30 % dev, 70 % holdout."""
    return "dev" if hashlib.sha256(record_id.encode()).hexdigest()[0] in "01234" else "holdout"


def excluded_urls() -> set[str]:
    """Every thread URL named anywhere in real_pastes.jsonl and tests/data/*.jsonl."""
    sources = [DATA / "real_pastes.jsonl", *sorted((ROOT / "tests" / "data").glob("*.jsonl"))]
    return {normalize(url) for path in sources for url in THREAD_URL.findall(path.read_text())}


def records(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(file name and line, record) for each line of one set."""
    for line, record in enumerate(load(path), start=1):
        yield f"{path.name}:{line}", record


def assert_common(where: str, record: dict[str, Any], fields: set[str], *, parity: int = 1) -> None:
    """The fields every set shares; ``parity`` 1 for odd thread numbers (benchmarks), 0 even."""
    assert set(record) == fields, f"{where}: fields {sorted(set(record) ^ fields)}"
    assert isinstance(record["id"], str) and record["id"], where
    assert THREAD_URL.fullmatch(record["url"]), f"{where}: url {record['url']!r}"
    number = int(record["url"].rsplit("/", 1)[1])
    assert number % 2 == parity, f"{where}: {'even' if parity else 'odd'} thread number"
    assert record["repo"] in ENGINES, f"{where}: repo {record['repo']!r}"
    assert record["version"] is None or isinstance(record["version"], str), where
    assert isinstance(record["text"], str) and record["text"].strip(), f"{where}: empty text"
    assert len(record["text"]) <= MAX_TEXT, f"{where}: text longer than {MAX_TEXT}"
    assert isinstance(record["expect"], dict), where


def assert_site_label(where: str, expect: dict[str, Any]) -> None:
    """An answerable holdout/fix label: a raise site in some revision of the engine."""
    assert set(expect) <= LABEL_KEYS, f"{where}: expect keys {sorted(set(expect) - LABEL_KEYS)}"
    assert isinstance(expect.get("error_class"), str), f"{where}: error_class"
    path = expect.get("file_path")
    assert isinstance(path, str) and path.endswith(".py"), f"{where}: file_path {path!r}"
    assert isinstance(expect.get("revision"), str), f"{where}: revision"
    assert REVISION.fullmatch(expect["revision"]), f"{where}: revision {expect['revision']!r}"
    assert isinstance(expect.get("in_newest"), bool), f"{where}: in_newest"
    has_prefix = isinstance(expect.get("message_prefix"), str) and expect["message_prefix"]
    has_statement = isinstance(expect.get("statement"), str) and expect["statement"]
    assert has_prefix or has_statement, f"{where}: message_prefix or statement"
    also = expect.get("also", [])
    assert isinstance(also, list) and all(isinstance(item, str) for item in also), where


def assert_census_expect(where: str, group: str, expect: dict[str, Any]) -> None:
    """A census label: a Python raise site, a native kind, an import failure or a note."""
    if "raising_repo" in expect:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", expect["raising_repo"]), where
        assert "file_path" in expect, f"{where}: file_path (may be null)"
        assert "error_class" in expect, f"{where}: error_class (may be null)"
        assert "message_prefix" in expect or "statement" in expect, where
    elif "native" in expect:
        kind = expect["native"]
        assert kind in NATIVE_KINDS or kind.startswith(NATIVE_PREFIXES), f"{where}: {kind!r}"
    elif {"missing_module", "cannot_import", "undefined_symbol"} & set(expect):
        assert group == "import", f"{where}: import label outside the import group"
        if "cannot_import" in expect:
            assert isinstance(expect.get("from"), str), f"{where}: cannot_import needs from"
        if "undefined_symbol" in expect:
            assert expect["undefined_symbol"] is True, where
    else:
        key = "http" if group == "http" else "tools"
        assert isinstance(expect.get(key), str) and expect[key], f"{where}: expect[{key!r}]"


@pytest.mark.parametrize("path", SETS, ids=lambda path: path.name)
def test_ids_are_unique_and_splits_follow_the_hash(path: Path) -> None:
    ids = [record["id"] for record in load(path)]
    assert len(ids) == len(set(ids)), f"{path.name}: duplicate ids"
    for where, record in records(path):
        wanted = "holdout" if path == HOLDOUT else hash_split(record["id"])
        assert record["split"] == wanted, f"{where}: split {record['split']!r} != {wanted!r}"


def test_no_thread_is_shared_with_earlier_data_or_between_sets() -> None:
    excluded = excluded_urls()
    assert len(excluded) > 100  # the regex still finds real_pastes' threads
    owner: dict[str, str] = {}
    for path in SETS:
        for where, record in records(path):
            url = normalize(record["url"])
            assert url not in excluded, f"{where}: {url} is already in real_pastes or tests/data"
            assert url not in owner, f"{where}: {url} also used at {owner.get(url)}"
            owner[url] = where


def check_census_record(where: str, record: dict[str, Any], *, parity: int = 1) -> None:
    """Fail with the file, line and field when a census record is malformed."""
    fields = CENSUS_FIELDS | ({"round"} if "round" in record else set())
    assert_common(where, record, fields, parity=parity)
    if "round" in record:
        assert record["round"] in CENSUS_ROUNDS, f"{where}: round {record['round']!r}"
    assert record["group"] in GROUPS, f"{where}: group {record['group']!r}"
    assert isinstance(record["topic"], str) and record["topic"], f"{where}: topic"
    assert isinstance(record["raiser"], str) and record["raiser"], f"{where}: raiser"
    assert record["engine_phase"] in PHASES, f"{where}: phase {record['engine_phase']!r}"
    assert_census_expect(where, record["group"], record["expect"])


def check_study_record(where: str, record: dict[str, Any]) -> None:
    """Fail when a study line is malformed: an engine census line, dev, an even thread."""
    assert_common(where, record, CENSUS_FIELDS, parity=0)
    assert record["group"] == "engine", f"{where}: group {record['group']!r}"
    assert record["split"] == "dev", f"{where}: split {record['split']!r}"
    assert isinstance(record["topic"], str) and record["topic"], f"{where}: topic"
    assert isinstance(record["raiser"], str) and record["raiser"], f"{where}: raiser"
    assert record["engine_phase"] in PHASES, f"{where}: phase {record['engine_phase']!r}"
    expect = record["expect"]
    assert expect.get("raising_repo") in ENGINES, f"{where}: raising_repo"
    assert_census_expect(where, record["group"], expect)
    if "cause" in expect:
        assert_census_expect(where, record["group"], expect["cause"])


def check_holdout_record(where: str, record: dict[str, Any]) -> bool:
    """Fail when a holdout record is malformed; else whether it is answerable."""
    assert_common(where, record, HOLDOUT_FIELDS)
    expect = record["expect"]
    if "answerable" in expect:
        assert expect["answerable"] is False, f"{where}: answerable"
        assert set(expect) <= UNANSWERABLE_KEYS, f"{where}: expect keys {sorted(expect)}"
        assert isinstance(expect.get("why"), str) and expect["why"], f"{where}: why"
        return False
    assert_site_label(where, expect)
    return True


def check_fresh_record(where: str, record: dict[str, Any]) -> None:
    """Fail when a fresh paste is malformed: every one names an engine raise site."""
    assert_common(where, record, FRESH_FIELDS | ({"round"} if "round" in record else set()))
    if "round" in record:
        assert record["round"] in FRESH_ROUNDS, f"{where}: round {record['round']!r}"
    assert isinstance(record["topic"], str) and record["topic"], f"{where}: topic"
    assert isinstance(record["form"], str) and record["form"], f"{where}: form"
    assert_site_label(where, record["expect"])
    prefix = "python/sglang/" if record["repo"] == "sgl-project/sglang" else "vllm/"
    path = record["expect"]["file_path"]
    assert path.startswith(prefix), f"{where}: file_path {path!r} outside {prefix}"


def check_fix_record(where: str, record: dict[str, Any]) -> None:
    """Fail with the file, line and field when a fix record is malformed."""
    assert_common(where, record, FIX_FIELDS)
    assert_site_label(where, record["expect"])
    assert isinstance(record["fix"], str) and len(record["fix"]) > 20, f"{where}: fix"
    levers = record["levers"]
    assert isinstance(levers, list) and levers, f"{where}: levers"
    assert all(isinstance(lever, str) and lever.strip() for lever in levers), f"{where}: levers"
    assert record["lever_kind"] in LEVER_KINDS, f"{where}: lever_kind {record['lever_kind']!r}"
    assert THREAD_URL.match(record["fix_url"]), f"{where}: fix_url {record['fix_url']!r}"


def test_census_records() -> None:
    for where, record in records(CENSUS):
        check_census_record(where, record)


def test_holdout_records() -> None:
    answerable = [check_holdout_record(where, record) for where, record in records(HOLDOUT)]
    assert len(answerable) >= 90
    assert sum(answerable) >= 60


def test_fix_records() -> None:
    for where, record in records(FIXES):
        check_fix_record(where, record)


def test_fresh_records() -> None:
    rows = list(records(FRESH))
    assert len(rows) >= 20
    for where, record in rows:
        check_fresh_record(where, record)
    splits = {record["split"] for _, record in rows}
    assert splits == {"dev", "holdout"}


def check_stack_study_record(where: str, record: dict[str, Any]) -> None:
    """A stack study line: census-shaped, from an even-numbered thread, always in ``dev``."""
    assert "round" not in record, f"{where}: a study line has no round"
    check_census_record(where, record, parity=0)
    assert record["split"] == "dev", f"{where}: split {record['split']!r} (study lines are dev)"


@pytest.mark.parametrize(
    ("path", "check"), [(STUDY, check_study_record), (STUDY_STACK, check_stack_study_record)]
)
def test_study_records(path: Path, check: Callable[[str, dict[str, Any]], None]) -> None:
    rows = list(records(path))
    assert len(rows) >= 30
    ids = [record["id"] for _, record in rows]
    assert len(ids) == len(set(ids)), f"{path.name}: duplicate ids"
    for where, record in rows:
        check(where, record)


def test_the_study_sets_share_no_thread_with_any_other_data_or_each_other() -> None:
    taken = excluded_urls() | {
        normalize(record["url"]) for path in SETS for _, record in records(path)
    }
    owner: dict[str, str] = {}
    for path in (STUDY, STUDY_STACK):
        for where, record in records(path):
            url = normalize(record["url"])
            assert url not in taken, f"{where}: {record['url']} used in a benchmark set"
            assert url not in owner, f"{where}: {record['url']} also at {owner.get(url)}"
            owner[url] = where


def test_the_checks_reject_malformed_lines() -> None:
    census = load(CENSUS)[0]
    holdout = next(r for r in load(HOLDOUT) if "answerable" not in r["expect"])
    fix = load(FIXES)[0]
    fresh = load(FRESH)[0]
    study = load(STUDY)[0]
    stack_study = load(STUDY_STACK)[0]
    odd = f"{study['url'].rsplit('/', 1)[0]}/3"
    cases: list[tuple[Callable[[str, dict[str, Any]], object], dict[str, Any], str]] = [
        (check_study_record, {**study, "url": odd}, "odd"),
        (check_study_record, {**study, "split": "holdout"}, "split"),
        (check_study_record, {**study, "group": "torch"}, "group"),
        (check_stack_study_record, {**stack_study, "url": odd}, "odd"),
        (check_stack_study_record, {**stack_study, "split": "holdout"}, "split"),
        (check_stack_study_record, {**stack_study, "round": 3}, "round"),
        (check_census_record, {**census, "group": "gpu"}, "group"),
        (check_census_record, {**census, "expect": {"native": "cuda-crash"}}, "cuda-crash"),
        (check_census_record, {k: v for k, v in census.items() if k != "raiser"}, "fields"),
        (check_census_record, {**census, "url": f"{census['url'].rsplit('/', 1)[0]}/2"}, "even"),
        (check_census_record, {**census, "engine_phase": "boot"}, "phase"),
        (check_census_record, {**census, "text": "x" * (MAX_TEXT + 1)}, "longer"),
        (check_holdout_record, {**holdout, "repo": "huggingface/transformers"}, "repo"),
        (
            check_holdout_record,
            {**holdout, "expect": {**holdout["expect"], "revision": "main"}},
            "revision",
        ),
        (
            check_holdout_record,
            {**holdout, "expect": {"answerable": False}},
            "why",
        ),
        (check_census_record, {**census, "round": 15}, "round"),
        (check_fresh_record, {k: v for k, v in fresh.items() if k != "form"}, "fields"),
        (check_fresh_record, {**fresh, "topic": ""}, "topic"),
        (check_fresh_record, {**fresh, "round": 3}, "round"),
        (check_fresh_record, {**fresh, "round": 15}, "round"),
        (
            check_fresh_record,
            {**fresh, "expect": {**fresh["expect"], "file_path": "torch/nn/functional.py"}},
            "outside",
        ),
        (check_fix_record, {**fix, "lever_kind": "magic"}, "lever_kind"),
        (check_fix_record, {**fix, "levers": []}, "levers"),
    ]
    for check, record, field in cases:
        with pytest.raises(AssertionError, match=field):
            check("line 1", record)
