"""The stack's data packages (``stack/packages/errcat-data-*``): built, loadable, answering.

Each package is installed here as an installer would leave it on ``sys.path``
(its package folder and a ``.dist-info`` with the entry point its
``pyproject.toml`` declares), then found through ``errcat.catalogs`` by the
default catalog, as after ``pip install stack/packages/errcat-data-python/``.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import errcat
import errcat.default as default_module
from errcat.history import History
from errcat.plugins import GROUP, installed_entry_points

STACK = Path(__file__).resolve().parents[1] / "stack"
PACKAGES = sorted(p for p in (STACK / "packages").iterdir() if (p / "pyproject.toml").is_file())


def _install(site: Path, package: Path) -> str:
    """Lay ``package`` out in ``site`` as pip installs it; the module's name."""
    text = (package / "pyproject.toml").read_text(encoding="utf-8")
    fields = dict(re.findall(r'^(\w[\w-]*) = "([^"]*)"$', text, re.MULTILINE))
    section = text.split(f'[project.entry-points."{GROUP}"]', 1)[1].strip().splitlines()[0]
    name, value = (part.strip().strip('"') for part in section.split("="))
    module = value.split(":")[0]
    shutil.copytree(package / "src" / module, site / module)
    info = site / f"{fields['name'].replace('-', '_')}-{fields['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {fields['name']}\nVersion: {fields['version']}\n",
        encoding="utf-8",
    )
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{name} = {value}\n", encoding="utf-8")
    return module


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    monkeypatch.setenv("ERRCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(default_module, "_default", None)  # forget the default catalog
    yield path
    for name in [m for m in sys.modules if m.startswith("errcat_data_")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def test_every_package_of_sources_is_built() -> None:
    """``SOURCES.json`` declares no package that was never built (kernels was, for long)."""
    spec = json.loads((STACK / "SOURCES.json").read_text(encoding="utf-8"))
    built = {p.name.removeprefix("errcat-data-") for p in PACKAGES}
    assert built == {p["name"] for p in spec["packages"]}
    assert {"kernels", "distributed", "frameworks", "platforms", "apps"} <= built


def test_every_package_has_its_manifest_and_sources() -> None:
    spec = json.loads((STACK / "SOURCES.json").read_text(encoding="utf-8"))
    built = {p.name.removeprefix("errcat-data-") for p in PACKAGES}
    assert built <= {p["name"] for p in spec["packages"]}
    for package in PACKAGES:
        (data,) = (package / "src").iterdir()
        manifest = json.loads((data / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["count"] > 0 and manifest["files"]
        listed = {**manifest["files"], **manifest.get("history", {})}
        on_disk = {f"records/{p.name}" for p in (data / "records").iterdir()}
        assert on_disk == set(listed)
        for file, meta in listed.items():
            blob = (data / file).read_bytes()
            assert len(blob) <= 25_000_000  # files in git stay small
            assert hashlib.sha256(blob).hexdigest() == meta["sha256"], file


def test_the_python_package_answers_an_argparse_error_through_the_entry_point(
    site: Path,
) -> None:
    _install(site, STACK / "packages" / "errcat-data-python")
    assert "python" in [ep.name for ep in installed_entry_points()]
    text = "argparse.ArgumentError: argument --tp-size: invalid int value: 'abc'"
    match = errcat.match_error(text)
    assert match is not None
    assert match.record.repo == "python/cpython" and match.record.file_path == "Lib/argparse.py"
    assert match.record.github_url.startswith(
        "https://github.com/python/cpython/blob/v3.11.7/Lib/argparse.py#L"
    )
    assert errcat.match_error(text, catalog=errcat.Catalog.bundled()) is None


@pytest.mark.parametrize(
    ("name", "text", "repo", "file_path"),
    [
        (
            "kernels",
            "ValueError: q has 32 query heads, but plan() was given 28.",
            "flashinfer-ai/flashinfer",
            "flashinfer/attention/_core.py",
        ),
        (
            "kernels",
            "RuntimeError: Error in function 'TllmGenFmhaRunner' at /workspace/include/flashinfer"
            "/trtllm/fmha/fmhaRunner.cuh:30: Unsupported architecture",
            "flashinfer-ai/flashinfer",
            "include/flashinfer/trtllm/fmha/fmhaRunner.cuh",
        ),
        (
            "kernels",
            "RuntimeError: Failed to allocate memory for batch_prefill_tmp_v with size 458752000"
            " and alignment 16 in AlignedAllocator",
            "flashinfer-ai/flashinfer",
            "include/flashinfer/allocator.h",
        ),
        (
            "kernels",
            "RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1025"
            " 'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'",
            "deepseek-ai/DeepEP",
            "csrc/deep_ep.cpp",
        ),
        (
            "distributed",
            "RuntimeError: Ray has not been started yet. "
            "Timeline requires Ray to be initialized first.",
            "ray-project/ray",
            "python/ray/_private/state.py",
        ),
        (
            "frameworks",
            "RuntimeError: The vLLM server at http://10.0.0.7:8000 does not expose its"
            " development endpoints, which TRL uses to synchronize weights. Restart it with"
            " `VLLM_SERVER_DEV_MODE=1` in its environment.",
            "huggingface/trl",
            "trl/generation/vllm_client.py",
        ),
        (
            "platforms",
            "ValueError: explicit model kwarg and args.model were both provided, but do not match"
            " [Qwen/Qwen-Image != Qwen/Qwen3-Omni-30B-A3B-Instruct]",
            "vllm-project/vllm-omni",
            "vllm_omni/entrypoints/omni_base.py",
        ),
        (
            "models",
            "NotImplementedError: No operator found for `memory_efficient_attention_forward`"
            " with inputs:\n     query       : shape=(1, 1024, 8, 128) (torch.float32)",
            "facebookresearch/xformers",
            "xformers/ops/fmha/dispatch.py",
        ),
        (
            "models",
            "mistral_common.exceptions.InvalidMessageStructureException:"
            " Unexpected role 'system' after role 'tool'",
            "mistralai/mistral-common",
            "src/mistral_common/protocol/instruct/validator.py",
        ),
        (
            "serving",
            "urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='localhost', port=30000):"
            " Max retries exceeded with url: /generate (Caused by NewConnectionError("
            "'<urllib3.connection.HTTPConnection object at 0x7f3a>: Failed to establish a new"
            " connection: [Errno 111] Connection refused'))",
            "urllib3/urllib3",
            "src/urllib3/util/retry.py",
        ),
        (
            "frameworks",
            "ValueError: Cannot append empty top-p spans to empty offsets.",
            "THUDM/slime",
            "slime/utils/types.py",
        ),
        (
            "frameworks",
            "AssertionError: vLLM > 0.10.0 is required for logprobs_mode",
            "OpenRLHF/OpenRLHF",
            "openrlhf/trainer/ray/vllm_engine.py",
        ),
        (
            "apps",
            "RuntimeError: vllm does not support multiple gguf files, please merge them first"
            " and provide `model_path` with merged file",
            "xorbitsai/inference",
            "xinference/model/llm/vllm/core.py",
        ),
        (
            "apps",
            "mineru_vl_utils.vlm_client.base_client.ServerError: Failed to connect to server"
            " http://127.0.0.1:30000. Please check if the server is running.",
            "opendatalab/mineru-vl-utils",
            "mineru_vl_utils/vlm_client/http_client.py",
        ),
        (
            "apps",
            "RuntimeError: Failed to load pretrained config. AutoConfig error: Unrecognized model"
            " in /models/zq-7b. Local config.json fallback error: [Errno 2] No such file or"
            " directory: '/models/zq-7b/config.json'",
            "gpustack/gpustack",
            "gpustack/worker/backends/base.py",
        ),
        (
            "serving",
            "httpx.RemoteProtocolError: Server disconnected without sending a response.",
            "encode/httpcore",
            "httpcore/_async/http11.py",
        ),
    ],
)
def test_a_new_package_answers_its_own_message_through_the_entry_point(
    site: Path, name: str, text: str, repo: str, file_path: str
) -> None:
    assert errcat.match_error(text, catalog=errcat.Catalog.bundled()) is None
    _install(site, STACK / "packages" / f"errcat-data-{name}")
    assert name in [ep.name for ep in installed_entry_points()]
    match = errcat.match_error(text)
    assert match is not None and match.exact
    assert (match.record.repo, match.record.file_path) == (repo, file_path)
    assert "/blob/0000000000000000000000000000000000000000/" not in match.record.github_url


@pytest.mark.parametrize(
    ("text", "lever"),
    [
        (
            "RuntimeError: Error in function 'TllmGenFmhaRunner' at /workspace/include/flashinfer"
            "/trtllm/fmha/fmhaRunner.cuh:30: Unsupported architecture",
            "--attention-backend",
        ),
        (
            "RuntimeError: Error in function 'aligned_alloc' at /usr/lib/python3/site-packages/"
            "flashinfer/data/include/flashinfer/allocator.h:49: Buffer overflow when allocating"
            " memory for batch_prefill_tmp_v with size 283115520 and alignment 16, but only"
            " 268435456 bytes available in AlignedAllocator. Increase the workspace buffer size.",
            "VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE",
        ),
        (
            "RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1025"
            " 'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'",
            "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK",
        ),
    ],
)
def test_the_kernel_errors_users_paste_get_the_hand_written_advice(
    site: Path, text: str, lever: str
) -> None:
    """The most pasted flashinfer and DeepEP errors: a flag or variable of the engine to change."""
    _install(site, STACK / "packages" / "errcat-data-kernels")
    match = errcat.match_error(text)
    assert match is not None and match.exact
    assert "errcat:stack:curated" in match.record.tags
    assert any(lever in solution for solution in match.record.solutions)


@pytest.mark.parametrize(
    ("name", "text", "lever"),
    [
        (
            "models",
            "openai_harmony.HarmonyError: Unexpected token 12606 while expecting start token"
            " 200006",
            "openai-harmony",
        ),
        (
            "apps",
            "E0414 03:56:41.856248 77969 worker_pool.cpp:448] Worker: Cannot make connection"
            " for endpoint: 10.6.131.6:16217@mlx5_0, no alternate peer RNIC is available",
            "MC_GID_INDEX",
        ),
    ],
)
def test_the_compiled_libraries_errors_get_the_hand_written_advice(
    site: Path, name: str, text: str, lever: str
) -> None:
    """openai-harmony's Rust parser and Mooncake's C++ transfer engine: no miner reads their
    texts, so a hand-written record answers them with what to change."""
    assert errcat.match_error(text, catalog=errcat.Catalog.bundled()) is None
    _install(site, STACK / "packages" / f"errcat-data-{name}")
    match = errcat.match_error(text)
    assert match is not None and match.exact
    assert "errcat:stack:curated" in match.record.tags
    assert any(lever in solution for solution in match.record.solutions)


@pytest.mark.parametrize("name", ["frameworks", "platforms", "apps"])
def test_the_projects_records_link_at_the_release_tags_sources_names(name: str) -> None:
    """Each record of a package mined from wheels links to its repo at ``v<version>`` of a
    release ``SOURCES.json`` names for it (a message gone from the newest links at the older
    tag)."""
    spec = json.loads((STACK / "SOURCES.json").read_text(encoding="utf-8"))
    (package,) = [p for p in spec["packages"] if p["name"] == name]
    tags = {
        p["repo"]: {p["tag"].format(version=v) for v in p["versions"]} for p in package["projects"]
    }
    records = STACK / "packages" / f"errcat-data-{name}" / "src" / f"errcat_data_{name}"
    seen: dict[str, set[str]] = {}
    for path in sorted((records / "records").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)["record"]
                if "errcat:stack:curated" in record["tags"]:
                    continue  # hand-written: linked where it was read (stack_curated)
                prefix = f"https://github.com/{record['repo']}/blob/"
                assert record["githubUrl"].startswith(prefix), record["githubUrl"]
                tag = record["githubUrl"][len(prefix) :].split("/", 1)[0]
                seen.setdefault(record["repo"], set()).add(tag)
    assert set(seen) == set(tags)
    for repo, found in seen.items():
        assert found <= tags[repo], repo


def test_the_hf_package_answers_a_transformers_4_wording_that_5_removed(site: Path) -> None:
    """Pasted transformers errors mostly come from 4.x: its history keeps their wording."""
    text = (
        "ValueError: Loading acme/custom-model requires you to execute the configuration file"
        " in that repo on your local machine. Make sure you have read the code there to avoid"
        " malicious use, then set the option `trust_remote_code=True` to remove this error."
    )
    _install(site, STACK / "packages" / "errcat-data-hf")
    match = errcat.match_error(text)
    assert match is not None and match.exact
    record = match.record
    assert (record.repo, record.file_path) == (
        "huggingface/transformers",
        "src/transformers/dynamic_module_utils.py",
    )
    assert "/blob/v4.51.3/src/transformers/dynamic_module_utils.py#L" in record.github_url
    lineage = match.history
    assert lineage is not None and lineage.status == "removed"
    assert [s.revision.label for s in lineage.sites] == ["4.45.2", "4.51.3"]
    assert lineage.newest is not None and lineage.newest.label == "5.20.2"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_each_history_spans_the_releases_built_from(package: Path) -> None:
    """A sidecar's revisions are its project's releases; a rewording links to a lineage."""
    (data,) = (package / "src").iterdir()
    manifest = json.loads((data / "manifest.json").read_text(encoding="utf-8"))
    if not manifest.get("history"):
        pytest.skip("no history")
    built = {part["repo"]: part["versions"] for part in manifest["builtFrom"] if "repo" in part}
    for sidecar in manifest["history"]:
        history = History.load(data / sidecar)
        assert [r.label for r in history.revisions] == built[history.repo], sidecar
        for lineage in history:
            if lineage.successor is not None:
                assert lineage.status == "reworded" and lineage.successor in history


def test_every_hf_record_has_its_lineage_back_to_transformers_4() -> None:
    """Each mined record of the hf package (old releases' too) is a lineage of its project's
    history; only hand-written records (safetensors' compiled binding) have none."""
    data = STACK / "packages" / "errcat-data-hf" / "src" / "errcat_data_hf"
    records = list(errcat.Catalog.from_path(data))
    histories = {
        h.repo: h for h in map(History.load, sorted(data.glob("records/*.history.json.gz")))
    }
    assert set(histories) == {"huggingface/transformers", "huggingface/huggingface_hub"}
    mined = [r for r in records if "errcat:stack:curated" not in r.tags]
    assert {r.repo for r in mined} == set(histories)
    assert all(r.id in histories[r.repo] for r in mined)
    transformers = histories["huggingface/transformers"]
    assert [r.label for r in transformers.revisions][:4] == ["4.45.2", "4.51.3", "4.55.4", "4.57.6"]
    ended = {lin.last.label for lin in transformers if lin.status != "current"}
    assert {"4.45.2", "4.51.3", "4.55.4", "4.57.6"} <= ended


def test_the_platforms_package_answers_a_vllm_ascend_0_9_message_its_newest_removed(
    site: Path,
) -> None:
    """vllm-ascend users of 2025 ran 0.9.1: its history keeps a check 0.23.0 no longer has,
    linked at the tag of the last release that raised it, and not at a vendored copy."""
    text = (
        "NotImplementedError: ACL Graph does not support deepseek. Please try torchair graph"
        " mode to serve deepseek models on vllm-ascend. Or set `enforce_eager=True` to use"
        " eager mode."
    )
    assert errcat.match_error(text, catalog=errcat.Catalog.bundled()) is None
    _install(site, STACK / "packages" / "errcat-data-platforms")
    match = errcat.match_error(text)
    assert match is not None and match.exact
    record = match.record
    assert (record.repo, record.file_path) == (
        "vllm-project/vllm-ascend",
        "vllm_ascend/ascend_config.py",
    )
    assert "/blob/v0.9.1/vllm_ascend/ascend_config.py#L" in record.github_url
    lineage = match.history
    assert lineage is not None and lineage.status != "current"
    assert lineage.newest is not None and lineage.newest.label == "0.23.0"


def test_the_platforms_package_holds_nothing_of_the_folders_sources_leaves_out() -> None:
    """vllm-ascend's generated CANN op wrappers and vllm-omni's vendored modules (``exclude``)
    have no record: their raises are other projects' or absent from the repositories."""
    spec = json.loads((STACK / "SOURCES.json").read_text(encoding="utf-8"))
    (package,) = [p for p in spec["packages"] if p["name"] == "platforms"]
    left_out = {
        (p["repo"], f"{p['packages'][0]}/{x}") for p in package["projects"] for x in p["exclude"]
    }
    assert len(left_out) == 3
    data = STACK / "packages" / "errcat-data-platforms" / "src" / "errcat_data_platforms"
    paths: set[tuple[str, str]] = set()
    for path in sorted((data / "records").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)["record"]
                paths.add((record["repo"], record["filePath"]))
    assert {repo for repo, _ in paths} == {"vllm-project/vllm-ascend", "vllm-project/vllm-omni"}
    for repo, excluded in left_out:
        assert not any(r == repo and f.startswith(excluded) for r, f in paths), excluded


def test_the_readme_table_states_each_packages_record_count() -> None:
    """The README's stack table says how many records each package holds: its manifest's count.

    Three rows had drifted by a record or a rebuild; the table is what a reader
    sizes an install by, so it is held to the manifests here.
    """
    readme = (STACK.parent / "README.md").read_text(encoding="utf-8")
    stated = {}
    for name, row in re.findall(r"^\| `errcat-data-([a-z]+)` \|(.*)$", readme, re.MULTILINE):
        *_, total = re.findall(r"(\d[\d,]*) records\b", row)  # the row's last count is its total
        stated[name] = int(total.replace(",", ""))
    counts = {}
    for package in PACKAGES:
        (data,) = (package / "src").iterdir()
        manifest = json.loads((data / "manifest.json").read_text(encoding="utf-8"))
        counts[package.name.removeprefix("errcat-data-")] = manifest["count"]
    assert stated == counts
