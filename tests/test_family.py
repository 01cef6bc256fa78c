"""Family records (tag errcat:family): errors the interpreter raises in the engines' code.

The curated files ``curated/*.families.jsonl`` hold them: each must validate and
lint, cite even-numbered threads, name only flags its engine defines, and be the
answer for its message raised in its scope (installed or checked out), while the
same message raised in another project's code, or pasted without frames, is
never answered by it (a paste that names the engine is another matter:
tests/test_engine_class.py, tests/test_family_named.py).
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.extract import Frame, extract_reports
from errcat.lint import LintItem, lint_records
from errcat.matcher import match_all, match_error
from errcat.matcher.family import family_scopes, in_scope, raise_frame, scope_site
from errcat.models import ErrorRecord, validate_envelope
from errcat.tags import FAMILY_TAG, FUNCTION_TAG_PREFIX, SCOPE_TAG_PREFIX

ROOT = Path(__file__).resolve().parents[1]
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
OTHER_COMMANDS = re.compile(r"\b(?:docker run|ray start|pip3? (?:install|download))\b[^\n]*")
THREAD = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/(\d+)")
ENGINES = {"sgl-project/sglang": "sglang==", "vllm-project/vllm": "vllm=="}
#: Where each engine is installed in a paste, and a checkout of it.
INSTALLED = {
    "sgl-project/sglang": "/usr/local/lib/python3.10/dist-packages/{path}",
    "vllm-project/vllm": "/opt/venv/lib/python3.12/site-packages/{path}",
}
#: A message of each family's shape: a record is tried with the first its pattern prints.
MESSAGES = (
    "'model.layers.3.mlp.experts.w2_weight_scale_inv'",
    "'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'",
    "'Qwen2TokenizerFast' object has no attribute 'all_special_tokens_extended'",
    "'ScheduleBatch' object has no attribute 'sample'",
    "'NoneType' object has no attribute 'get'",
    "'NoneType' object is not iterable",
    "name 'vllm_ops' is not defined",
    "'bundles'",
    "DeepseekV2ForCausalLM.forward() missing 1 required positional argument: 'x'",
    "BatchPrefillWithPagedKVCacheWrapper.plan() got an unexpected keyword argument 'k'",
)


def _family_paths() -> list[Path]:
    sources = json.loads((ROOT / "data" / "SOURCES.json").read_text(encoding="utf-8"))
    return [ROOT / p for p in sources["curated"] if p.endswith(".families.jsonl")]


@cache
def _records() -> tuple[ErrorRecord, ...]:
    out = []
    for path in _family_paths():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            out.append(
                validate_envelope(json.loads(line), strict=True, path=str(path), line=n).record
            )
    return tuple(out)


def _ids(records: tuple[ErrorRecord, ...]) -> list[str]:
    return [r.id for r in records]


@cache
def _families() -> Catalog:
    return Catalog(list(_records()))


@cache
def _overlay() -> Catalog:
    return Catalog.bundled().merge(Catalog.from_path(*_family_paths()))


def _message(record: ErrorRecord) -> str:
    return next(m for m in MESSAGES if re.fullmatch(record.message_pattern, m))


def _traceback(path: str, function: str, message: str, error_class: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "/home/u/app/main.py", line 3, in <module>\n'
        "    main()\n"
        f'  File "{path}", line 920, in {function}\n'
        "    value = lookup()\n"
        f"{error_class}: {message}\n"
    )


def _site_of(record: ErrorRecord) -> tuple[str, str]:
    """A file in the record's scope, installed, and the function its tags name (any)."""
    scope = family_scopes(record)[0].removeprefix("python/")
    function = next(
        (
            t.removeprefix(FUNCTION_TAG_PREFIX)
            for t in record.tags
            if t.startswith(FUNCTION_TAG_PREFIX)
        ),
        "forward",
    )
    return INSTALLED[record.repo].format(path=f"{scope}/some_model.py"), function


def test_family_files_are_curated_sources() -> None:
    on_disk = {p.name for p in (ROOT / "curated").glob("*.families.jsonl")}
    assert on_disk == {p.name for p in _family_paths()}
    assert {"sgl-project__sglang.families.jsonl", "vllm-project__vllm.families.jsonl"} <= on_disk


def test_records_lint_without_errors() -> None:
    findings = lint_records([LintItem(r) for r in _records()])
    errors = [f for f in findings if f.level == "error"]
    assert not errors, errors


@pytest.mark.parametrize("record", _records(), ids=_ids(_records()))
def test_record_is_a_curated_family(record: ErrorRecord) -> None:
    assert FAMILY_TAG in record.tags
    assert record.documentation.strip() and record.example_fix.strip() and record.solutions
    assert all(s.strip() for s in record.solutions) and record.prevention_tips
    assert "errcat:generated" not in record.tags
    # Every scope names a directory of the repository the record's file shows.
    for tag in record.tags:
        if tag.startswith(SCOPE_TAG_PREFIX):
            scope = tag.removeprefix(SCOPE_TAG_PREFIX)
            assert scope and not scope.endswith("/")
    assert in_scope(record.file_path, family_scopes(record)[0]) or any(
        in_scope(record.file_path, s) for s in family_scopes(record)
    )


@pytest.mark.parametrize("record", _records(), ids=_ids(_records()))
def test_cites_even_numbered_threads_and_keeps_why_short(record: ErrorRecord) -> None:
    why, _, cited = record.documentation.partition("\n\nThreads: ")
    numbers = [int(n) for n in THREAD.findall(cited)]
    assert numbers and not [n for n in numbers if n % 2]
    assert len(why.split()) <= 70


@pytest.mark.parametrize("record", _records(), ids=_ids(_records()))
def test_flags_named_are_defined_by_the_engine(record: ErrorRecord) -> None:
    data = json.loads((ROOT / "tests" / "fixtures" / "engine_flags.json").read_text())
    (key,) = [k for k in data if k.startswith(ENGINES[record.repo])]
    text = "\n".join([record.documentation, record.example_fix, *record.solutions])
    unknown = set(FLAG.findall(OTHER_COMMANDS.sub("", text))) - set(data[key])
    assert not unknown


@pytest.mark.parametrize("record", _records(), ids=_ids(_records()))
def test_answers_its_family_raised_in_its_scope(record: ErrorRecord) -> None:
    path, function = _site_of(record)
    text = _traceback(path, function, _message(record), record.error_class)
    found = match_error(text, catalog=_overlay())
    assert found is not None and found.record.id == record.id, found


@pytest.mark.parametrize("record", _records(), ids=_ids(_records()))
def test_never_answers_without_frames_or_elsewhere(record: ErrorRecord) -> None:
    catalog = _overlay()
    message = f"{record.error_class}: {_message(record)}"
    bare = match_error(message, catalog=catalog)
    assert bare is None or FAMILY_TAG not in bare.record.tags
    elsewhere = _traceback(
        "/home/u/proj/model.py", "load_weights", _message(record), record.error_class
    )
    found = match_error(elsewhere, catalog=catalog)
    assert found is None or FAMILY_TAG not in found.record.tags


def test_the_sglang_weight_name_paste_is_answered() -> None:
    paste = (
        '  File "venv/lib/python3.10/site-packages/sglang/srt/models/deepseek_v2.py", line 920, '
        "in load_weights\n"
        "    param = params_dict[name]\n"
        "KeyError: 'model.layers.3.mlp.experts.w2_weight_scale_inv'\n"
    )
    found = match_error(paste, catalog=_overlay())
    assert found is not None and found.record.repo == "sgl-project/sglang"
    assert found.record.error_class == "KeyError" and FAMILY_TAG in found.record.tags


def test_torch_getattr_gives_way_to_the_engine_frame_that_read_the_attribute() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", '
        "line 2096, in _dummy_pooler_run\n"
        "    pooler_output = self.model.pooler(hidden_states=h)\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1940, '
        "in __getattr__\n"
        "    raise AttributeError(\n"
        "AttributeError: 'Qwen3ForCausalLM' object has no attribute 'pooler'\n"
    )
    found = match_error(paste, catalog=_overlay())
    assert found is not None and found.record.repo == "vllm-project/vllm"
    assert FAMILY_TAG in found.record.tags


def test_a_load_weights_frame_of_another_function_is_not_the_site() -> None:
    (report,) = extract_reports(
        _traceback(
            "/x/site-packages/sglang/srt/models/llama.py",
            "forward",
            MESSAGES[0],
            "KeyError",
        )
    )
    site = scope_site(
        report, ("python/sglang/srt/models",), ("load_weights",), "sgl-project/sglang"
    )
    assert site.kind == "raise_file"
    found = match_error(report.message, catalog=_families())
    assert found is None


def test_raise_frame_skips_only_delegating_frames() -> None:
    getattr_frame = Frame("/x/site-packages/torch/nn/modules/module.py", 1, "__getattr__")
    call_frame = Frame("/x/site-packages/torch/nn/modules/module.py", 2, "_call_impl")
    buffer_frame = Frame("/x/site-packages/torch/nn/modules/module.py", 4, "register_buffer")
    engine = Frame("/x/site-packages/vllm/worker/runner.py", 3, "run")
    assert raise_frame([engine, getattr_frame]) == engine
    assert raise_frame([engine, call_frame, getattr_frame]) == engine
    assert raise_frame([engine, buffer_frame]) == buffer_frame
    assert raise_frame([getattr_frame]) is None


# --- properties: any project name, any parameter or class name --------------------------------

_NAME = st.text(string.ascii_lowercase + "_", min_size=1, max_size=12).filter(
    lambda s: s.strip("_") != ""
)
_ENGINE_DIRS = {"sglang", "vllm", "srt", "model_executor", "models"}


@st.composite
def _weight_names(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(_NAME, st.integers(0, 99).map(str)), min_size=1, max_size=5))
    suffix = draw(st.sampled_from(["weight", "bias", "weight_scale", "input_scale", "qzeros"]))
    return ".".join([*parts, suffix])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    project=_NAME.filter(lambda s: s not in _ENGINE_DIRS),
    subdir=_NAME,
    name=_weight_names(),
)
def test_weight_name_keyerror_elsewhere_is_never_a_family_answer(
    project: str, subdir: str, name: str
) -> None:
    text = _traceback(
        f"/usr/lib/python3.12/site-packages/{project}/{subdir}/models/llama.py",
        "load_weights",
        repr(name),
        "KeyError",
    )
    found = match_all(text, catalog=_families(), limit=3)
    assert all(not m.confident for m in found)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=_weight_names(), engine=st.sampled_from(sorted(INSTALLED)))
def test_weight_name_keyerror_in_the_engine_models_is_its_family(name: str, engine: str) -> None:
    scope = "sglang/srt/models" if engine.startswith("sgl") else "vllm/model_executor/models"
    text = _traceback(
        INSTALLED[engine].format(path=f"{scope}/m.py"), "load_weights", repr(name), "KeyError"
    )
    found = match_error(text, catalog=_families())
    assert found is not None and found.record.repo == engine


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    project=_NAME.filter(lambda s: s not in _ENGINE_DIRS),
    cls=st.from_regex(r"[A-Z][a-z]{1,8}(ForCausalLM|Model|Block|Attention)", fullmatch=True),
    attribute=_NAME,
    function=_NAME,
)
def test_model_attribute_error_elsewhere_is_never_a_family_answer(
    project: str, cls: str, attribute: str, function: str
) -> None:
    text = (
        "Traceback (most recent call last):\n"
        f'  File "/srv/{project}/runner.py", line 8, in {function}\n'
        f"    x = self.model.{attribute}\n"
        '  File "/usr/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1940, '
        "in __getattr__\n"
        "    raise AttributeError(\n"
        f"AttributeError: '{cls}' object has no attribute '{attribute}'\n"
    )
    found = match_all(text, catalog=_families(), limit=3)
    assert all(not m.confident for m in found)


def test_a_forward_that_cannot_bind_the_engine_arguments_is_the_engine_call() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", '
        "line 2210, in execute_model\n"
        "    hidden = self.model(input_ids=ids, positions=pos)\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1751, '
        "in _wrapped_call_impl\n"
        "    return self._call_impl(*args, **kwargs)\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1762, '
        "in _call_impl\n"
        "    return forward_call(*args, **kwargs)\n"
        "TypeError: MyCausalLM.forward() got an unexpected keyword argument 'positions'\n"
    )
    found = match_error(paste, catalog=_families())
    assert found is not None and found.record.repo == "vllm-project/vllm"
    user = paste.replace("/opt/venv/lib/python3.12/site-packages/vllm/v1/worker", "/srv/app")
    assert match_error(user, catalog=_families()) is None
