"""Import-error records: the module map, the API history and the records they give."""

from __future__ import annotations

import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import errcat
from errcat.catalog import Catalog
from errcat.errors import CatalogSourceError, ErrcatError
from errcat.imports.api import PackageSource
from errcat.imports.history import NameHistory
from errcat.imports.modules import modules_of_paths, read_wheel, top_level
from errcat.imports.records import (
    IMPORTS_TAG,
    Provider,
    Site,
    cannot_import,
    missing_extension,
    missing_module,
    undefined_symbol,
)
from errcat.lint import expected_github_url

WHEN = datetime(2026, 11, 1, tzinfo=timezone.utc)
BOOTSTRAP = "".join(f"line {i}\n" for i in range(1, 1300))
CPYTHON = Site("python/cpython", "v3.11.7", "Lib/importlib/_bootstrap.py", 1140, BOOTSTRAP)
KERNEL = Provider(
    "sglang-kernel",
    "0.4.10",
    ("sglang 0.5.23 requires sglang-kernel==0.4.10",),
    "sglang-kernel==0.4.10",
)
VLLM = Provider("vllm", "0.33.0", (), "vllm==0.33.0")
OPS = Site("vllm-project/vllm", "v0.33.0", "vllm/_custom_ops.py", 12, "import torch\n" * 60)


# -- modules ------------------------------------------------------------------------


def test_modules_of_paths_reads_packages_modules_and_extensions() -> None:
    mods = modules_of_paths(
        [
            "sgl_kernel/__init__.py",
            "sgl_kernel/common_ops.cpython-311-x86_64-linux-gnu.so",
            "sgl_kernel/ops/gemm.py",
            "nvidia/cublas/lib/libcublas.so.13",
            "sglang_kernel-0.4.10.dist-info/RECORD",
            "sglang_kernel-0.4.10.data/scripts/x.py",
            "_virtualenv.pth",
        ]
    )
    assert mods["sgl_kernel"] == "package"
    assert mods["sgl_kernel.common_ops"] == "extension"
    assert mods["sgl_kernel.ops.gemm"] == "source"
    assert mods["sgl_kernel.ops"] == "package"  # a folder of modules, no __init__.py
    assert "nvidia.cublas.lib.libcublas" not in mods  # libcublas.so.13 is no module
    assert top_level(mods) == ["sgl_kernel"]


_PARTS = st.lists(st.sampled_from(["a", "b", "_", "pkg", "__init__"]), min_size=1, max_size=4)


@given(st.lists(_PARTS.map(lambda parts: "/".join(parts) + ".py")))
def test_every_parent_of_a_module_is_a_package(paths: list[str]) -> None:
    mods = modules_of_paths(paths)
    for name in mods:
        parts = name.split(".")
        for i in range(1, len(parts)):
            assert mods[".".join(parts[:i])] == "package"


def _wheel(tmp_path: Path, files: dict[str, str], metadata: str) -> Path:
    path = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        zf.writestr("demo-1.0.dist-info/METADATA", metadata)
    return path


def test_read_wheel_gives_name_version_modules_and_requirements(tmp_path: Path) -> None:
    meta = "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\nRequires-Dist: torch==2.14.0\n"
    wheel = read_wheel(_wheel(tmp_path, {"demo/__init__.py": "", "demo/_C.abi3.so": ""}, meta))
    assert (wheel.name, wheel.version, wheel.requires) == ("demo", "1.0", ["torch==2.14.0"])
    assert wheel.modules == {"demo": "package", "demo._C": "extension"}


def test_read_wheel_refuses_what_is_no_wheel(tmp_path: Path) -> None:
    bad = tmp_path / "x.whl"
    bad.write_bytes(b"not a zip")
    with pytest.raises(CatalogSourceError, match="Cannot read wheel") as info:
        read_wheel(bad)
    assert isinstance(info.value, ErrcatError) and isinstance(info.value, OSError)
    with pytest.raises(CatalogSourceError, match="METADATA has no Name or Version"):
        read_wheel(_wheel(tmp_path, {"demo/__init__.py": ""}, "x"))
    bare = tmp_path / "bare.whl"
    with zipfile.ZipFile(bare, "w") as zf:
        zf.writestr("demo/__init__.py", "")
    with pytest.raises(CatalogSourceError, match=r"no \.dist-info/METADATA"):
        read_wheel(bare)


# -- api ----------------------------------------------------------------------------


LAZY_INIT = """
from typing import TYPE_CHECKING
_import_structure = {"models.llama": ["LlamaConfig"]}
_import_structure["models.llama"].extend(["LlamaForCausalLM"])
if TYPE_CHECKING:
    from .models import *
    from .utils import is_torch_available as is_torch_available
else:
    import sys
"""


def test_names_of_a_lazy_package_follow_type_checking_and_star_imports() -> None:
    pkg = PackageSource(
        {
            "tf/__init__.py": LAZY_INIT,
            "tf/models/__init__.py": "from .llama import *\nfrom .qwen import *\n",
            "tf/models/llama/__init__.py": "from .modeling_llama import *\n",
            "tf/models/llama/modeling_llama.py": (
                "import torch\n\nclass LlamaModel: ...\n\n"
                "class LlamaForCausalLM: ...\n\n__all__ = ['LlamaModel', 'LlamaForCausalLM']\n"
            ),
            "tf/models/qwen/__init__.py": "def helper(): ...\ndef _private(): ...\n",
            "tf/utils.py": "def is_torch_available(): ...\n",
        }
    )
    names = pkg.names("tf")
    assert {"LlamaConfig", "LlamaForCausalLM", "LlamaModel", "is_torch_available"} <= set(names)
    assert "helper" in names and "_private" not in names  # no __all__: the public names
    assert "torch" not in names  # modeling_llama's __all__ leaves its imports out
    assert names["LlamaModel"] == ("tf/models/llama/modeling_llama.py", 3)
    assert "models" in names  # a submodule is importable by name


def test_names_survive_import_cycles_and_unparsable_files() -> None:
    pkg = PackageSource(
        {"p/__init__.py": "from .a import *\nX = 1\n", "p/a.py": "from p import *\nY = (\n"}
    )
    assert set(pkg.names("p")) == {"X", "a"}
    assert pkg.names("missing") == {}


# -- history ------------------------------------------------------------------------


@given(st.lists(st.booleans(), min_size=1, max_size=8))
def test_history_requirement_installs_a_release_that_has_the_name(present: list[bool]) -> None:
    releases = tuple(f"1.{i}.0" for i in range(len(present)))
    history = NameHistory("pkg", "Thing", releases, tuple(present))
    if not any(present):
        assert history.status == "never"
        return
    requirement = history.requirement
    having = [r for r, has in zip(releases, present, strict=True) if has]
    if requirement.startswith("pkg>="):
        assert all(present[releases.index(requirement[5:]) :])
    elif requirement.startswith("pkg<"):
        cut = releases.index(requirement[4:])
        assert present[cut - 1] and not present[cut]
    else:
        assert requirement == f"pkg=={having[-1]}"
    spans = history.ranges()
    assert sum(releases.index(b) - releases.index(a) + 1 for a, b in spans) == len(having)


def test_history_refuses_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="2 releases but 1 presence flags"):
        NameHistory("pkg", "X", ("1", "2"), (True,))


# -- records ------------------------------------------------------------------------


def _catalog(*extra: errcat.RecordEnvelope) -> Catalog:
    return Catalog(
        [
            missing_module("sgl_kernel", [KERNEL], CPYTHON, when=WHEN),
            missing_extension("vllm._C", VLLM, "torch==2.14.0", OPS, when=WHEN),
            undefined_symbol("vllm/_C.abi3.so", VLLM, "torch==2.14.0", OPS, when=WHEN),
            *extra,
        ]
    )


def test_records_are_valid_and_linked_at_the_release_tag() -> None:
    for record in _catalog():
        assert IMPORTS_TAG in record.tags
        tail = expected_github_url(record).split(f"/blob/{'0' * 40}/")[1]
        assert record.github_url.endswith(f"/{tail}")
        assert record.source_code_end - record.source_code_start <= 36  # fewer at a file end
        assert record.source_code_start <= record.line_number <= record.source_code_end


def test_missing_module_names_the_distribution_and_the_pinned_release() -> None:
    text = "ModuleNotFoundError: No module named 'sgl_kernel'"
    match = errcat.match_error(text, catalog=_catalog())
    assert match is not None and match.record.slug == "no-module-named-sgl-kernel"
    advice = errcat.Advice.from_match(match)
    assert "pip install 'sglang-kernel==0.4.10'" in advice.solutions[0]
    assert "sglang 0.5.23 requires sglang-kernel==0.4.10" in advice.solutions[0]


def test_an_import_frame_does_not_hold_down_the_import_systems_record() -> None:
    # The traceback shows the importing frame, never importlib's: that is no evidence
    # against a record raised by the import system (errcat.imports.site).
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/sglang/srt/layers/activation.py", '
        "line 12, in <module>\n"
        "    from sgl_kernel import silu_and_mul\n"
        "ModuleNotFoundError: No module named 'sgl_kernel'\n"
    )
    match = errcat.match_error(text, catalog=_catalog())
    assert match is not None and match.record.slug == "no-module-named-sgl-kernel"


def test_missing_extension_and_undefined_symbol_advise_the_torch_release() -> None:
    catalog = _catalog()
    ext = errcat.match_error("ModuleNotFoundError: No module named 'vllm._C'", catalog=catalog)
    assert ext is not None and "abi-mismatch" in ext.record.tags
    assert "'vllm==0.33.0' 'torch==2.14.0'" in ext.record.solutions[0]
    text = (
        "ImportError: /usr/local/lib/python3.12/dist-packages/vllm/_C.abi3.so: "
        "undefined symbol: _ZN3c104cuda9SetDeviceEi"
    )
    sym = errcat.match_error(text, catalog=catalog)
    assert sym is not None and sym.record.error_class == "ImportError"
    assert sym.params["symbol"] == "_ZN3c104cuda9SetDeviceEi"
    assert "pip install 'torch==2.14.0'" in sym.record.solutions[0]


def test_cannot_import_says_which_releases_have_the_name() -> None:
    history = NameHistory(
        "transformers", "Qwen3NextConfig", ("4.55.0", "4.57.6", "5.19.0"), (False, True, True)
    )
    site = Site(
        "huggingface/transformers",
        "v5.19.0",
        "src/transformers/models/qwen3_next/configuration_qwen3_next.py",
        40,
        "x = 1\n" * 100,
    )
    env = cannot_import(
        "transformers",
        history,
        site,
        importers=["sglang 0.5.23 (sglang/srt/configs/qwen3_next.py)"],
        required=["sglang 0.5.23 requires transformers==5.19.0"],
        when=WHEN,
    )
    text = (
        "ImportError: cannot import name 'Qwen3NextConfig' from 'transformers' "
        "(/opt/venv/lib/python3.11/site-packages/transformers/__init__.py)"
    )
    match = errcat.match_error(text, catalog=_catalog(env))
    assert match is not None and match.record.id == env.record.id and match.mode == "prefix"
    assert "is in transformers 4.57.6 and later" in match.record.documentation
    assert match.record.solutions[0].endswith("pip install 'transformers>=4.57.6'")
    assert "api:added" in match.record.tags
