"""The stack's build scripts on tiny inputs: closure markers, providers, import sites."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from errcat.imports.modules import WheelModules  # noqa: E402
from errcat.imports.records import Site  # noqa: E402
from stack_closure import Wheel, requirements  # noqa: E402
from stack_imports import _importing_line, _requirers, module_records  # noqa: E402

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
