"""The stack's build scripts on tiny inputs: closure markers, providers, import sites,
the files a project's wheel is mined from."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import errcat  # noqa: E402
from conftest import make_envelope  # noqa: E402
from errcat.catalog import Catalog  # noqa: E402
from errcat.imports.modules import WheelModules  # noqa: E402
from errcat.imports.records import Site  # noqa: E402
from errcat.patterns import template_to_pattern  # noqa: E402
from stack_closure import Wheel, requirements  # noqa: E402
from stack_imports import _importing_line, _requirers, module_records  # noqa: E402
from stack_mine import Project, _keep, mine_project  # noqa: E402

WHEN = datetime(2026, 11, 1, tzinfo=timezone.utc)


def _wheel(name: str, version: str, modules: dict[str, str], requires: list[str]) -> WheelModules:
    return WheelModules(name, version, modules, {"Requires-Dist": requires})  # type: ignore[arg-type]


def test_requirements_follow_markers_and_the_extras_asked_for() -> None:
    wheel = Wheel(
        "sglang",
        "0.5.23",
        Path("x.whl"),
        (
            "torch==2.14.1",
            'av==16.1.0; sys_platform == "linux" and platform_machine == "aarch64"',
            'ray[default]>=2.55.1; extra == "ray"',
            'six>=1.16.0; python_version > "3.11"',
        ),
    )
    assert [r.name for r in requirements(wheel, [])] == ["torch"]
    assert [r.name for r in requirements(wheel, ["ray"])] == ["torch", "ray"]


def test_a_module_names_the_distribution_called_after_it_and_the_engines_pin() -> None:
    sglang = _wheel("sglang", "0.5.23", {"sglang": "package"}, ["sglang-kernel==0.4.10"])
    kernel = _wheel("sglang-kernel", "0.4.10", {"sgl_kernel": "package"}, [])
    vendor = _wheel("other-kernels", "1.0", {"sgl_kernel": "package"}, [])
    site = Site("python/cpython", "v3.11.7", "Lib/importlib/_bootstrap.py", 5, "x\n" * 20)
    records = {
        e.record.error_message: e.record
        for e in module_records([sglang, vendor, kernel], ["sglang"], site, WHEN)
    }
    record = records["No module named 'sgl_kernel'"]
    assert "pip install 'sglang-kernel==0.4.10' (sglang 0.5.23 requires" in record.solutions[0]
    assert "It is also installed by other-kernels 1.0." in record.documentation
    assert set(_requirers([sglang])) == {"sglang-kernel"}


def test_the_line_that_imports_an_extension_is_found() -> None:
    text = "import torch\n\nfrom vllm import _custom_ops\ntry:\n    import vllm._C  # noqa\n"
    assert _importing_line(text, "vllm._C") == 5
    assert _importing_line("from vllm import _C, _moe_C\n", "vllm._moe_C") == 1
    assert _importing_line("import vllm._Cx\n", "vllm._C") is None


# --- finishing a package: vague records dropped, hand-written ones added ----------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from build_stack import copy_keys, finish, too_vague  # noqa: E402
from errcat.models import RecordEnvelope  # noqa: E402
from stack_curated import CURATED_TAG  # noqa: E402
from stack_curated.argparse_errors import RECORDS as ARGPARSE  # noqa: E402
from stack_curated.pydantic_errors import parse_arms, type_record  # noqa: E402
from stack_curated.pydantic_errors import records as pydantic_records  # noqa: E402
from stack_curated.symbols import RECORDS as SYMBOLS  # noqa: E402
from stack_curated.trl_server import RECORDS as TRL_SERVER  # noqa: E402


def _mined(template: str, *tags: str) -> RecordEnvelope:
    return make_envelope(
        id=hashlib.sha256(template.encode()).hexdigest()[:16],
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        tags=["errcat:generated", *tags],
    )


def test_vague_mined_records_are_dropped_and_others_kept() -> None:
    assert too_vague(_mined("bad"))
    assert too_vague(_mined("{expr} already exists"))
    assert not too_vague(_mined("{msg}"))  # wordless: answered by its frame only
    assert not too_vague(_mined("Expected all tensors to be on the same device, but found {n}"))
    assert not too_vague(_mined("No module named 'x'", "errcat:imports"))


_WORDS = st.sampled_from(
    ["bad", "tensor", "shard", "checkpoint", "already", "exists", "the", "quantization"]
)


@given(st.lists(_WORDS, min_size=1, max_size=6), _WORDS)
def test_more_literal_words_never_make_a_kept_record_vague(words: list[str], extra: str) -> None:
    template = " ".join(words) + " {value}"
    if not too_vague(_mined(template)):
        assert not too_vague(_mined(f"{extra} {template}"))


def test_finish_replaces_the_hand_written_records_and_counts_the_dropped(
    capsys: object,
) -> None:
    spec = {"name": "python", "curated": ["argparse", "symbols"]}
    old = ARGPARSE[0].envelope()
    stale = old.model_copy(
        update={"record": old.record.model_copy(update={"id": "f" * 16, "tags": (CURATED_TAG,)})}
    )
    kept = _mined("Expected all tensors to be on the same device, but found {n}")
    out = finish(spec, [kept, _mined("bad"), stale])
    ids = {e.record.id for e in out}
    assert kept.record.id in ids and "f" * 16 not in ids
    assert len(out) == 1 + len(ARGPARSE) + len(SYMBOLS)
    assert "1 mined records dropped" in capsys.readouterr().out  # type: ignore[attr-defined]


def test_finish_replaces_mined_records_whose_message_a_hand_written_pattern_prints() -> None:
    spec = {"name": "torch", "curated": ["torch-native"]}
    # FakeTensor's copy of ATen's device check: the hand-written ATen record prints it whole.
    fake = _mined(
        "Expected all tensors to be on the same device, but found at least two devices,"
        " {common_device} and {t.device}!"
    )
    fake = fake.model_copy(
        update={"record": fake.record.model_copy(update={"repo": "pytorch/pytorch"})}
    )
    elsewhere = fake.model_copy(
        update={"record": fake.record.model_copy(update={"id": "e" * 16, "repo": "zq/zq"})}
    )
    unrelated = _mined("zqshard zqcheckpoint {name} is missing")
    unrelated = unrelated.model_copy(
        update={"record": unrelated.record.model_copy(update={"repo": "pytorch/pytorch"})}
    )
    ids = {e.record.id for e in finish(spec, [fake, elsewhere, unrelated])}
    assert fake.record.id not in ids  # covered in its own repository: replaced
    assert {"e" * 16, unrelated.record.id} <= ids  # another repository's, or not printed


def test_a_missing_pydantic_core_mirror_is_named_not_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="pydantic-core mirror") as raised:
        pydantic_records(tmp_path / "no-such-mirror", "0" * 40)
    assert str(tmp_path / "no-such-mirror") in str(raised.value)


def test_pydantic_core_arms_become_records_with_their_type_code() -> None:
    text = '    Self::Missing {..} => "Field required",\n    Self::IntParsing {..} => "x",\n'
    arms = parse_arms(text)
    assert arms == [(1, "missing", "Field required"), (2, "int_parsing", "x")]
    record = type_record(*arms[0], revision="0" * 40).envelope().record
    assert record.error_message.startswith("Field required [type=missing, input_value=")
    assert "pydantic:type:missing" in record.tags
    assert any('"model"' in s for s in record.solutions)


def test_argparse_and_symbol_records_answer_what_users_paste() -> None:
    catalog = Catalog([r.envelope() for r in (*ARGPARSE, *SYMBOLS)])
    line = "vllm: error: unrecognized arguments: --lora-path ./adapter"
    match = errcat.match_error(line, catalog=catalog)
    assert match is not None and "unrecognized arguments" in match.summary.error_message
    assert any("--lora-modules" in s or "--help" in s for s in match.record.solutions)
    title = "Import error sgl_kernel undefined symbol: _ZN3c104cuda9SetDeviceEab"
    match = errcat.match_error(title, catalog=catalog)
    assert match is not None and "undefined symbol" in match.summary.error_message


def test_the_loader_s_undefined_symbol_for_a_cuda_symbol_is_the_import_system_s() -> None:
    # sgl-project/sglang#8131: an sgl-kernel built for a newer CUDA driver API; the
    # loader's text in CPython's very form says who printed it, whichever extension.
    catalog = Catalog([r.envelope() for r in SYMBOLS])
    text = (
        "ImportError: /opt/conda/lib/python3.10/site-packages/sgl_kernel/"
        "common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate"
    )
    match = errcat.match_error(text, catalog=catalog)
    assert match is not None and match.confidence >= 0.99
    assert "the import system prints this message in this very form" in match.reasons
    # a symbol that is neither torch's nor CUDA's is not this record's very form
    other = errcat.match_error("ImportError: libx.so: undefined symbol: foo_bar", catalog=catalog)
    assert other is None or other.confidence < 0.99


def test_trl_server_records_answer_the_404_from_either_client_file_and_no_other_status() -> None:
    """trl's client moved from trl/extras/ to trl/generation/: a traceback through either
    file gets the record of that file; a 500 is the server's own error, not this one."""
    catalog = Catalog([r.envelope() for r in TRL_SERVER])
    for folder in ("extras", "generation"):
        paste = (
            f'  File "/env/site-packages/trl/{folder}/vllm_client.py", line 233,'
            " in init_communicator\n"
            '    raise Exception(f"Request failed: {response.status_code}, {response.text}")\n'
            'Exception: Request failed: 404, {"detail":"Not Found"}'
        )
        match = errcat.match_error(paste, catalog=catalog)
        assert match is not None and match.record.file_path == f"trl/{folder}/vllm_client.py"
        assert any("trl vllm-serve" in s for s in match.record.solutions)
    assert errcat.match_error("Exception: Request failed: 500, oops", catalog=catalog) is None


def test_finish_drops_copies_of_held_messages_but_keeps_bare_raises(capsys: object) -> None:
    """A framework's copy of an upstream check (``held`` elsewhere) would answer the upstream's
    error as the framework's: dropped. A raise without a message is no copy of anything."""
    spec = {"name": "frameworks"}
    copy = _mined("You must specify exactly one of input_ids or inputs_embeds")
    own = _mined("Current length of row({length}) is larger than the max_length({limit})")
    bare = _mined("")
    held = frozenset({copy.record.error_message, ""})
    out = finish(spec, [copy, own, bare], held=held)
    assert [e.record.error_message for e in out] == [own.record.error_message, ""]
    assert "1 as copies of another catalog's message" in capsys.readouterr().out  # type: ignore[attr-defined]
    assert len(finish(spec, [copy, own])) == 2  # nothing held: nothing dropped


@given(st.lists(_WORDS, min_size=1, max_size=4, unique=True), st.data())
def test_finish_never_keeps_a_held_message_nor_drops_an_unheld_one(
    words: list[str], data: st.DataObject
) -> None:
    templates = [f"{w} of the {w}-shaped tensor {{value}} went missing" for w in words]
    held = frozenset(data.draw(st.sets(st.sampled_from(templates))))
    out = finish({"name": "frameworks"}, [_mined(t) for t in templates], held=held)
    assert {e.record.error_message for e in out} == set(templates) - held


def test_finish_drops_a_copy_whose_placeholders_are_named_otherwise(capsys: object) -> None:
    """vllm-omni's port of vllm's MXFP8 check names its placeholders its own way: the text a
    user sees is vllm's, so it is a copy. A message all placeholders is no copy of another."""
    upstream = _mined(
        "MXFP8 requires input_size_per_partition ({input_size_per_partition}) to be divisible"
        " by {MXFP8_BLOCK_SIZE}."
    )
    port = _mined(
        "MXFP8 requires input_size_per_partition ({input_size_per_partition}) to be divisible"
        " by {self.block_size}."
    )
    own = _mined("quality must be one of {levels}, got {quality!r} for a video request")
    wordless = _mined("{err}")
    held = copy_keys(upstream.record.error_message, upstream.record.message_pattern)
    held |= copy_keys("{msg}", "(.+?)")
    out = finish({"name": "platforms"}, [port, own, wordless], held=held)
    assert [e.record.error_message for e in out] == [
        "quality must be one of {levels}, got {quality!r} for a video request",
        "{err}",
    ]
    assert "1 as copies of another catalog's message" in capsys.readouterr().out  # type: ignore[attr-defined]


_NAMES = st.sampled_from(["n", "self.block_size", "len(x)", "value!r", "size:>4"])


@given(st.lists(_WORDS, min_size=1, max_size=5), _NAMES, _NAMES)
def test_a_held_template_with_its_placeholders_renamed_is_a_copy(
    words: list[str], first: str, second: str
) -> None:
    """Whatever the placeholders' expressions, the same printed text is the same copy key."""
    lead = " ".join(words) + " of the checkpoint shard"
    held_template = lead + " {a} went missing from {b}"
    renamed = lead + f" {{{first}}} went missing from {{{second}}}"
    held = copy_keys(held_template, template_to_pattern(held_template))
    assert len(finish({"name": "platforms"}, [_mined(renamed)])) == 1  # kept when not held
    assert finish({"name": "platforms"}, [_mined(renamed)], held=held) == []


def test_an_excluded_file_or_folder_is_left_out_and_nothing_else() -> None:
    """vllm-omni vendors one module (``_hunyuan_v1_vendored.py``) beside its own and a folder
    of NeMo's: ``exclude`` names either; a sibling whose name merely starts alike stays."""
    project = Project(
        "vllm-project/vllm-omni",
        "vllm-omni",
        ("vllm_omni",),
        "",
        ("0.30.0",),
        exclude=("models/nemo_vendored", "models/_copy.py"),
    )
    assert _keep(project, "vllm_omni/models/own.py")
    assert not _keep(project, "vllm_omni/models/nemo_vendored/asr/features.py")
    assert not _keep(project, "vllm_omni/models/_copy.py")
    assert _keep(project, "vllm_omni/models/_copy.py.orig")
    assert _keep(project, "vllm_omni/models/nemo_vendored_notes.py")
    assert not _keep(project, "other/models/own.py")


def _git(cwd: Path, *args: str) -> None:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_AUTHOR_DATE": "2026-05-01T12:00:00+00:00",
        "GIT_COMMITTER_DATE": "2026-05-01T12:00:00+00:00",
        "PATH": os.environ.get("PATH", ""),
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def test_a_git_project_is_mined_at_its_tag_from_the_mirror(tmp_path: Path) -> None:
    """slime has no wheel: ``"source": "git"`` reads each version at its tag from
    ``<mirrors>/<owner>+<name>/repo`` and links at the tag, as a wheel's records do."""
    work = tmp_path / "work"
    (work / "rl" / "backends").mkdir(parents=True)
    (work / "rl" / "__init__.py").write_text("")
    (work / "rl" / "backends" / "actor.py").write_text(
        "def fill(data):\n"
        "    if 'routed' not in data:\n"
        "        raise ValueError('routed experts are required when routing replay is set.')\n"
    )
    (work / "examples").mkdir()
    (work / "examples" / "run.py").write_text("raise SystemExit('an example, not the package')\n")
    _git(work, "init", "-q", "-b", "main")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "one")
    _git(work, "tag", "v0.1.0")
    mirror = tmp_path / "mirrors" / "zq+rl" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirror)], check=True)
    project = Project.of(
        {"repo": "zq/rl", "dist": "rl", "source": "git", "packages": ["rl"], "versions": ["0.1.0"]}
    )
    assert project.git
    mined = mine_project(project, tmp_path / "wheels", 1, tmp_path / "mirrors")
    (record,) = [e.record for e in mined.envelopes]
    assert record.file_path == "rl/backends/actor.py"
    assert record.analyzed_sha == "0" * 40
    assert mined.built_at == "2026-05-01T12:00:00Z"
    assert record.github_url.startswith("https://github.com/zq/rl/blob/v0.1.0/rl/backends/")
    with pytest.raises(SystemExit, match="no git mirror"):
        mine_project(project, tmp_path / "wheels", 1, tmp_path / "elsewhere")


_SEGMENT = st.text(alphabet="ab_.", min_size=1, max_size=4)


@given(st.lists(_SEGMENT, min_size=1, max_size=4), st.lists(_SEGMENT, min_size=1, max_size=4))
def test_exclude_drops_exactly_the_paths_at_or_under_its_entry(
    excluded: list[str], path: list[str]
) -> None:
    """A path is left out iff it is the excluded entry or lies under it, segment by segment."""
    entry, rest = "/".join(excluded), "/".join(path)
    project = Project("o/r", "r", ("pkg",), "src", ("1",), exclude=(entry,))
    under = path[: len(excluded)] == excluded
    assert _keep(project, f"src/pkg/{rest}") is not under


def test_a_refinished_manifest_counts_the_records_each_project_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--refinish`` keeps what a package was built from, but each project's ``records``
    is what it holds after the records were dropped, as a full build would write."""
    import build_stack

    monkeypatch.setattr(build_stack, "STACK", tmp_path)
    spec = {"name": "demo", "version": "0.1.0", "description": "a demo package"}
    kept_envelopes = [
        _mined(f"checkpoint shard {{n}} of the {w} weights is missing")
        for w in ("quantized", "sharded", "merged")
    ]
    built_from = [
        {"repo": kept_envelopes[0].record.repo, "dist": "d", "versions": ["1"], "records": 99},
        {"closure": ["sglang"]},
    ]
    manifest = build_stack.write_package(
        spec, kept_envelopes, [], kept={"builtFrom": built_from, "history": {}}
    )
    assert manifest["builtFrom"][0]["records"] == len(kept_envelopes) == manifest["count"]
    assert manifest["builtFrom"][0]["dist"] == "d" and manifest["builtFrom"][1] == built_from[1]


def test_a_package_the_release_check_refuses_keeps_its_committed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused write leaves the package as it was: records, manifest and module
    (it used to print "nothing was written" after wiping the package's records)."""
    import build_stack
    from errcat.release import ReleaseRefusedError

    monkeypatch.setattr(build_stack, "STACK", tmp_path)
    spec = {"name": "demo", "version": "0.1.0", "description": "a demo package"}
    good = [_mined(f"checkpoint shard {{n}} of the {w} weights is missing") for w in ("a", "b")]
    build_stack.write_package(spec, good, [])
    data = build_stack.data_dir("demo")
    before = {p.relative_to(data): p.read_bytes() for p in data.rglob("*") if p.is_file()}
    other = _mined("another message that the first record's id now names")
    clash = other.model_copy(
        update={"record": other.record.model_copy(update={"id": good[0].record.id})}
    )
    with pytest.raises(ReleaseRefusedError):
        build_stack.write_package(spec, [*good, clash], [])
    after = {p.relative_to(data): p.read_bytes() for p in data.rglob("*") if p.is_file()}
    assert after == before
    assert not list(build_stack.package_dir("demo").glob(".staging-*"))


def test_a_later_folder_s_copies_of_an_earlier_folder_s_messages_are_left_out() -> None:
    from stack_native import _unrepeated

    fa2 = [_mined("zqhead must be contiguous"), _mined("zqonly Ampere or newer")]
    fa3 = [_mined("zqonly Ampere or newer"), _mined("zqonly Hopper has zqsplits")]
    kept = _unrepeated(fa3, fa2)
    assert [e.record.error_message for e in kept] == ["zqonly Hopper has zqsplits"]
    assert _unrepeated(fa3, []) == fa3
