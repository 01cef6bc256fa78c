"""The curated records: valid, on bundled records, found by their own message, honest advice.

Each curated record (``curated/*.jsonl``, overlaid on the mined catalog by
``benchmarks/build_data.py``) must validate strictly, keep the id of a record
in the bundled catalog, be the answer for its own message (with a one-frame
traceback at its raise site; the bare message may be answered by a curated
record that shows the same text), name only flags the engine's argument
parser defines (``tests/fixtures/engine_flags.json``, extracted from the
wheels by ``benchmarks/engine_flags.py``) and cite at least one public
thread, every one even-numbered (odd-numbered threads are kept apart for
held-out evaluation sets).
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from functools import cache
from pathlib import Path

import pytest

from errcat import Catalog
from errcat.lint import sample_messages
from errcat.matcher import match_all
from errcat.mine.records import record_id
from errcat.models import GENERATED_TAG, ErrorRecord, validate_envelope
from errcat.patterns import compile_pattern
from errcat.tags import LOGGED_TAG

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import engine_flags  # noqa: E402

#: The three hand-written seed records predate the thread rule (they cite none).
SEEDS = frozenset({"e06cd5f724ab16c0", "3fe9ad44079a5344", "70e072f5fc32f001"})
#: The engine whose parser a repository's flags must come from.
ENGINES = {"sgl-project/sglang": "sglang==", "vllm-project/vllm": "vllm=="}
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
#: Commands of other programs (their flags are theirs): from the command to the end of its line.
OTHER_COMMANDS = re.compile(r"\b(?:docker run|ray start|pip3? (?:install|download))\b[^\n]*")
THREAD = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/(\d+)")


def _listed_paths() -> list[Path]:
    sources = json.loads((ROOT / "data" / "SOURCES.json").read_text(encoding="utf-8"))
    return [ROOT / p for p in sources["curated"]]


def _curated_paths() -> list[Path]:
    """The engines' hand-curated files (``<owner>__<name>.jsonl``).

    ``*.native.jsonl`` and ``*.wrappers.jsonl`` are written by benchmarks/build_native.py
    and tested by tests/test_native_catalog.py.
    """
    return [p for p in _listed_paths() if p.name.count(".") == 1]


@cache
def _curated() -> tuple[ErrorRecord, ...]:
    out = []
    for path in _curated_paths():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            envelope = validate_envelope(json.loads(line), strict=True, path=str(path), line=n)
            out.append(envelope.record)
    return tuple(out)


@cache
def _overlay() -> Catalog:
    return Catalog.bundled().merge(Catalog.from_path(*_curated_paths()))


@cache
def _flags() -> dict[str, frozenset[str]]:
    data = json.loads((ROOT / "tests" / "fixtures" / "engine_flags.json").read_text())
    out = {}
    for repo, prefix in ENGINES.items():
        (key,) = [k for k in data if k.startswith(prefix)]
        out[repo] = frozenset(data[key])
    return out


def _ids(records: tuple[ErrorRecord, ...]) -> list[str]:
    return [r.id for r in records]


def _advice_text(record: ErrorRecord) -> str:
    return "\n".join(
        [
            record.documentation,
            record.trigger_scenarios,
            record.common_situations,
            record.example_fix,
            *record.solutions,
            *record.prevention_tips,
        ]
    )


def _traceback(record: ErrorRecord, message: str) -> str:
    """A one-frame traceback at the record's site, as an installed package prints it."""
    function = next((t.split(":", 2)[2] for t in record.tags if t.startswith("errcat:in:")), "f")
    path = record.file_path.removeprefix("python/")
    return (
        "Traceback (most recent call last):\n"
        f'  File "/usr/lib/python3.12/site-packages/{path}", line {record.line_number}, '
        f"in {function}\n"
        f"{record.error_class}: {message}\n"
    )


def test_every_curated_file_is_a_source() -> None:
    listed = {p.name for p in _listed_paths()}
    on_disk = {p.name for p in (ROOT / "curated").glob("*.jsonl")}
    assert on_disk <= listed, f"curated files missing from data/SOURCES.json: {on_disk - listed}"
    assert {"sgl-project__sglang.jsonl", "vllm-project__vllm.jsonl"} <= listed


def test_seeds_stay_first_and_unchanged_in_the_sglang_file() -> None:
    seeds = (ROOT / "tests" / "fixtures" / "seeds.jsonl").read_text(encoding="utf-8").splitlines()
    curated = (ROOT / "curated" / "sgl-project__sglang.jsonl").read_text(encoding="utf-8")
    assert curated.splitlines()[: len(seeds)] == seeds
    assert {json.loads(line)["record"]["id"] for line in seeds} == SEEDS


def _unmined(record: ErrorRecord) -> bool:
    """A log line below WARNING, which the miner does not take (errcat.mine.logged).

    A few INFO lines are what users paste as the error of a hang (vllm's
    ``No available shared memory broadcast block found ...``): curated with the id
    the miner would give them, they are laid into the data as they are.
    """
    return record.error_class in ("INFO", "DEBUG") and LOGGED_TAG in record.tags


def test_ids_are_unique_and_in_the_bundled_catalog() -> None:
    records = _curated()
    ids = _ids(records)
    assert len(ids) == len(set(ids))
    bundled = Catalog.bundled()
    missing = [
        r.id for r in records if r.id not in SEEDS and not _unmined(r) and bundled.get(r.id) is None
    ]
    assert not missing


@pytest.mark.parametrize("record", [r for r in _curated() if _unmined(r)], ids=lambda r: str(r.id))
def test_an_unmined_log_line_keeps_the_id_the_miner_would_give_it(record: ErrorRecord) -> None:
    """Should the miner take the line one day, the curated record replaces its draft."""
    assert record.id == record_id(record.repo, record.file_path, record.error_message)


@pytest.mark.parametrize("record", _curated(), ids=_ids(_curated()))
def test_record_is_curated_not_generated(record: ErrorRecord) -> None:
    assert GENERATED_TAG not in record.tags
    assert record.documentation.strip() and record.example_fix.strip()
    assert [s for s in record.solutions if s.strip()]
    assert record.trigger_scenarios.strip() and record.prevention_tips


def _own_sample(record: ErrorRecord) -> str:
    """The record's message rendered with the first sample values its pattern accepts.

    As ``errcat release check`` picks it: a curated pattern may narrow a group to
    digits (``(\\d+)``), which the sample words do not fill but the sample numbers do.
    """
    full = compile_pattern(record.message_pattern).full
    samples = sample_messages(record.error_message)
    return next((text for text in samples.values() if full.fullmatch(text)), samples["words"])


def _same_text(record: ErrorRecord, message: str) -> bool:
    """True for a curated record that renders the same sample message (a copy of the same check)."""
    curated = {r.id for r in _curated()}
    return record.id in curated and message in sample_messages(record.error_message).values()


@pytest.mark.parametrize("record", _curated(), ids=_ids(_curated()))
def test_own_message_is_answered_by_the_record(record: ErrorRecord) -> None:
    """With its traceback frame the record itself is the answer; bare, a record with its advice.

    Some messages are copied word for word between the engines (sglang took
    vLLM's bitsandbytes check); when such a copy ties with the record on the
    traceback too, the curated copy showing the same text is an acceptable answer.
    """
    catalog = _overlay()
    message = _own_sample(record)
    found = match_all(_traceback(record, message), catalog, limit=5)
    assert found
    top = catalog.get(found[0].summary.id)
    assert top is not None
    tied = {  # a match folds the records raising the same text at one site as alternatives
        r.id
        for m in found
        if m.confidence == found[0].confidence
        for r in (m.summary, *m.alternatives)
    }
    # or the data's copy of this record kept for its old wording (same text, same advice)
    old_wording = top.error_message == record.error_message and top.solutions == record.solutions
    assert top.id == record.id or (record.id in tied and (_same_text(top, message) or old_wording))
    bare = match_all(message, catalog, limit=1)
    assert bare
    answer = catalog.get(bare[0].summary.id)
    assert answer is not None
    assert (
        answer.id == record.id
        or _same_text(answer, message)
        or (answer.error_message == record.error_message and answer.solutions == record.solutions)
        or (
            answer.id in {r.id for r in _curated()} and answer.documentation == record.documentation
        )
    )


@pytest.mark.parametrize("record", _curated(), ids=_ids(_curated()))
def test_flags_named_are_defined_by_the_engine(record: ErrorRecord) -> None:
    named = set(FLAG.findall(OTHER_COMMANDS.sub("", _advice_text(record))))
    unknown = named - _flags()[record.repo]
    assert not unknown, f"{record.id} names flags its engine does not define: {sorted(unknown)}"


@pytest.mark.parametrize("record", _curated(), ids=_ids(_curated()))
def test_cites_even_numbered_threads(record: ErrorRecord) -> None:
    numbers = [int(n) for n in THREAD.findall(record.documentation)]
    if record.id not in SEEDS:
        assert numbers, f"{record.id} cites no thread"
        assert "\n\nThreads: " in record.documentation
    odd = [n for n in numbers if n % 2]
    assert not odd, f"{record.id} cites odd-numbered threads {odd}"


@pytest.mark.parametrize("record", _curated(), ids=_ids(_curated()))
def test_why_is_short(record: ErrorRecord) -> None:
    why = record.documentation.split("\n\nThreads: ")[0]
    assert len(why.split()) <= 70


def test_frequency_table_lists_the_curated_errors() -> None:
    table = (ROOT / "curated" / "FREQUENCY.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if re.match(r"\| *\d+ *\|", line)]
    curated_rows = [row for row in rows if "| yes |" in row]
    assert len(curated_rows) >= 100
    cited = {m.group(0) for r in _curated() for m in THREAD.finditer(r.documentation)}
    listed = {m.group(0) for m in THREAD.finditer(table)}
    assert cited <= listed, f"threads cited but not counted: {sorted(cited - listed)[:5]}"
    assert all(int(m.group(1)) % 2 == 0 for m in THREAD.finditer(table))


# --- the flag extractor --------------------------------------------------------------------------


def _wheel(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return path


def test_other_programs_flags_are_not_taken_for_engine_flags() -> None:
    text = "docker run --gpus all img\nthen --max-model-len 8 and ray start --address=h:6379"
    assert FLAG.findall(OTHER_COMMANDS.sub("", text)) == ["--max-model-len"]


def test_flag_extractor_reads_sglang_fields_and_add_argument(tmp_path: Path) -> None:
    wheel = _wheel(
        tmp_path / "sglang-9.9.9-py3-none-any.whl",
        {
            "sglang/srt/arg_groups/fields/memory.py": (
                "class Memory:\n"
                '    mem_fraction_static: A[float, Arg(help="x")] = 0.9\n'
                "    secret: A[bool, Arg(no_cli=True)] = False\n"
                '    tp_size: A[int, Arg(aliases=["--tp"])] = 1\n'
            ),
            "sglang/srt/server_args.py": 'p.add_argument("--config", type=str)\n',
            "sglang/bench_serving.py": 'p.add_argument("--num-prompts", type=int)\n',
        },
    )
    flags = engine_flags.sglang_flags(wheel)
    assert {"--mem-fraction-static", "--tp-size", "--tp", "--config"} <= flags
    assert "--secret" not in flags and "--num-prompts" not in flags


def test_flag_extractor_reads_vllm_frontend_fields_and_booleans(tmp_path: Path) -> None:
    wheel = _wheel(
        tmp_path / "vllm-9.9.9-py3-none-any.whl",
        {
            "vllm/entrypoints/openai/cli_args.py": (
                "class FrontendArgs:\n"
                "    enable_auto_tool_choice: bool = False\n"
                "    tool_call_parser: str | None = None\n"
            ),
            "vllm/config/cache.py": (
                "class CacheConfig:\n"
                "    enable_prefix_caching: bool = True\n"
                "    block_size: int = 16\n"
            ),
            "vllm/engine/arg_utils.py": (
                'g.add_argument("--enable-prefix-caching", **kw)\n'
                'g.add_argument("--block-size", **kw)\n'
            ),
        },
    )
    flags = engine_flags.vllm_flags(wheel)
    assert {"--enable-auto-tool-choice", "--no-enable-auto-tool-choice"} <= flags
    assert "--tool-call-parser" in flags
    assert {"--enable-prefix-caching", "--no-enable-prefix-caching", "--block-size"} <= flags
    assert "--no-block-size" not in flags and "--no-tool-call-parser" not in flags
