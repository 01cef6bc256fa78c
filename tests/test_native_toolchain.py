"""ninja, nvcc's host gcc, docker's GPU runtime, a full disk, pip's resolver (toolchain.py).

The records are curated into ``curated/*.native.jsonl`` (ninja's, flashinfer's, glibc's,
docker's, libnvidia-container's and pip's files); the bundled data holds them once the
lead rebuilds ``data/``, so these tests load the curated files over the bundled catalog.
The shapes are those users paste in even-numbered threads (the module's docstring
names them); other programs' look-alike words do not get these records.
"""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import curated_over_bundled
from errcat.catalog import Catalog

#: The curated files of these records (the bundled data holds them after a rebuild).
_FILES = (
    "ninja-build__ninja.native.jsonl",
    "flashinfer-ai__flashinfer.native.jsonl",
    "bminor__glibc.native.jsonl",
    "moby__moby.native.jsonl",
    "NVIDIA__libnvidia-container.native.jsonl",
    "pypa__pip.native.jsonl",
)


def _catalog() -> Catalog:
    return curated_over_bundled(*_FILES)


def _pattern(kind: str, start: str) -> str:
    """The pattern of the record of ``kind`` whose message starts with ``start``."""
    return next(
        r.message_pattern
        for r in _catalog()
        if f"errcat:native:{kind}" in r.tags and r.error_message.startswith(start)
    )


@pytest.mark.parametrize(
    ("text", "kind", "tool"),
    [
        (  # sgl-kernel's CMake build under pip install -e (sglang#15604)
            "      [196/430] Building CUDA object CMakeFiles/common_ops_sm90_build.dir/csrc/"
            "gemm/marlin/gptq_marlin.cu.o\n      ninja: build stopped: subcommand failed.\n",
            "tool-ninja-build",
            "ninja",
        ),
        ("[Bug] ninja: build stopped: subcommand failed.", "tool-ninja-build", "ninja"),
        (
            "/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU"
            " version! gcc versions later than 12 are not supported! The nvcc flag"
            " '-allow-unsupported-compiler' can be used to override this version check;"
            " however, using an unsupported host compiler may cause compilation failure or"
            " incorrect run time execution. Use at your own risk.",
            "tool-nvcc-host-compiler",
            "nvcc",
        ),
        (
            "docker: Error response from daemon: unknown or invalid runtime name: nvidia",
            "tool-docker-gpu",
            "docker",
        ),
        (
            "docker: Error response from daemon: failed to create task for container: failed"
            " to create shim task: OCI runtime create failed: runc create failed: unable to"
            " start container process: error during container init: error running hook #0:"
            " error running hook: exit status 1, stdout: , stderr: Auto-detected mode as"
            " 'legacy'\nnvidia-container-cli: initialization error: load library failed:"
            " libnvidia-ml.so.1: cannot open shared object file: no such file or directory:"
            " unknown.",
            "tool-docker-gpu",
            "nvidia-container-cli",
        ),
        (
            "ERROR: Cannot install vllm because these package versions have conflicting"
            " dependencies.\n\nThe conflict is caused by:\n    outlines 0.0.46 depends on"
            " pyairports\n\nERROR: ResolutionImpossible: for help visit"
            " https://pip.pypa.io/en/latest/topics/dependency-resolution/"
            "#dealing-with-dependency-conflicts",
            "tool-pip-resolution",
            "pip",
        ),
        (
            "ERROR: flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl"
            " is not a supported wheel on this platform.",
            "tool-pip-unsupported-wheel",
            "pip",
        ),
        ("ERROR: Could not install packages due to an OSError.", "tool-pip-os-error", "pip"),
        ("  ERROR: Failed building editable for sgl-kernel", "tool-pip-build", "pip"),
    ],
)
def test_a_pasted_tool_line_gets_the_tool_s_record(text: str, kind: str, tool: str) -> None:
    match = errcat.match_error(text, catalog=_catalog())
    assert match is not None
    assert f"errcat:native:{kind}" in match.record.tags
    assert f"errcat:tool:{tool}" in match.record.tags


@pytest.mark.parametrize(
    "text",
    [
        "OSError: [Errno 28] No space left on device",
        "OSError: [Errno 28] No space left on device: '/root/.cache/huggingface/hub/x.incomplete'",
        "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device",
        "RuntimeError: unable to write to file </torch_1394_2747491098>: No space left on device"
        " (28)",
    ],
)
def test_a_full_disk_gets_the_disk_record_with_the_shm_advice(text: str) -> None:
    match = errcat.match_error(text, catalog=_catalog())
    assert match is not None
    assert "errcat:native:disk-full" in match.record.tags or (
        "errcat:native:tool-pip-os-error" in match.record.tags
    )
    advice = " ".join(match.record.solutions)
    assert "TMPDIR=/data/tmp" in advice


def test_the_disk_record_names_the_shm_size_for_containers() -> None:
    match = errcat.match_error("OSError: [Errno 28] No space left on device", catalog=_catalog())
    assert match is not None
    assert "docker run --shm-size 16g" in " ".join(match.record.solutions)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("The build stopped: subcommand failed", "tool-ninja-build"),
        ("Load library failed!", "tool-docker-gpu"),
        ("It is not a supported wheel on this platform.", "tool-pip-unsupported-wheel"),
        ("ValueError: Cannot install the plugin twice.", "tool-pip-resolution"),
        ("OSError: [Errno 2] No such file or directory: 'x'", "disk-full"),
    ],
)
def test_look_alike_words_of_other_programs_do_not_get_the_record(text: str, kind: str) -> None:
    match = errcat.match_error(text, catalog=_catalog())
    assert match is None or f"errcat:native:{kind}" not in match.record.tags


_WORD = st.from_regex(r"zq[a-z]{1,8}", fullmatch=True)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=5, max_value=30), st.integers(min_value=1, max_value=400))
def test_any_gcc_bound_and_header_line_fit_the_host_compiler_pattern(bound: int, line: int) -> None:
    text = (
        f"/usr/local/cuda-12.4/include/crt/host_config.h:{line}:2: error: #error -- unsupported"
        f" GNU version! gcc versions later than {bound} are not supported!"
    )
    found = regex.fullmatch(_pattern("tool-nvcc-host-compiler", "#error"), text)
    assert found is not None and found.group(1) == str(bound)


@settings(max_examples=50, deadline=None)
@given(_WORD, st.sampled_from(["cp310", "cp312", "cp313"]), st.sampled_from(["x86_64", "aarch64"]))
def test_any_wheel_file_fits_the_unsupported_wheel_pattern(name: str, tag: str, arch: str) -> None:
    wheel = f"{name}-1.0-{tag}-{tag}-linux_{arch}"
    found = regex.fullmatch(
        _pattern("tool-pip-unsupported-wheel", "{wheel}"),
        f"ERROR: {wheel}.whl is not a supported wheel on this platform.",
    )
    assert found is not None and found.group(1) == wheel


@settings(max_examples=50, deadline=None)
@given(_WORD)
def test_any_runtime_name_fits_docker_s_pattern(name: str) -> None:
    found = regex.fullmatch(
        _pattern("tool-docker-gpu", "unknown or invalid runtime name"),
        f"docker: Error response from daemon: unknown or invalid runtime name: {name}",
    )
    assert found is not None and found.group(1) == name


@settings(max_examples=50, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=3))
def test_any_set_of_packages_fits_pip_s_conflict_header(names: list[str]) -> None:
    info = " and ".join(names)
    found = regex.fullmatch(
        _pattern("tool-pip-resolution", "Cannot install"),
        f"ERROR: Cannot install {info} because these package versions have conflicting"
        " dependencies.",
    )
    assert found is not None and found.group(1) == info
