"""CMake's configure step failing before a CUDA build starts: no compiler, or one that does not work.

vllm, sgl-kernel, flash-attn and the kernels the engines pull in are built by
CMake when no wheel fits (a source checkout, an sdist, a new Python or CUDA).
Before anything compiles, CMake looks for the CUDA compiler, compiles a probe
file with it and asks it for the GPU architectures to build for; when one of
those steps fails it stops with ``CMake Error at <module>:<line> (message):``
and one of the messages below, and pip (or uv) reports only that the wheel's
build failed. The causes are few: no ``nvcc`` on ``PATH`` (a runtime-only image,
a toolkit not installed, ``CUDA_HOME`` unset), an ``nvcc`` too old for the host
compiler or for the GPU, or a probe that cannot see a GPU and got no
architecture list. Each record is tagged ``errcat:tool:cmake``.

Sources: Kitware/CMake at 03676b051d5a (2026-08-22): ``Source/cmGlobalGenerator.cxx``
line 980 (``No CMAKE_<LANG>_COMPILER could be found.``, written for every enabled
language), ``Modules/CMakeDetermineCompilerId.cmake`` line 963 (the identification
probe's failure) and ``Modules/CMakeDetermineCUDACompiler.cmake`` line 321 (no default
architecture). Thread learned from (even-numbered, in benchmarks/data/study_stack.jsonl):
instructlab/instructlab#3144 (a vllm build from git whose configure step stopped there).

>>> import regex
>>> arch = RECORDS[2].envelope()["record"]["messagePattern"]
>>> bool(regex.fullmatch(arch, "Failed to detect a default CUDA architecture."))
True
>>> head = "CMake Error at /usr/share/cmake-3.28/Modules/CMakeDetermineCUDACompiler.cmake:270 (message):"
>>> bool(regex.fullmatch(arch, head + " Failed to detect a default CUDA architecture."))
True
>>> cuda = RECORDS[0].envelope()["record"]["messagePattern"]
>>> bool(regex.fullmatch(cuda, "No CMAKE_CUDA_COMPILER could be found."))
True
>>> bool(regex.fullmatch(cuda, "No CMAKE_CXX_COMPILER could be found."))
False
"""

from __future__ import annotations

from typing import Any

from native_catalog.spec import Spec

__all__ = ["RECORDS"]

REPO = "Kitware/CMake"
SHA = "03676b051d5a1302c8b17bb6b3325ee38acab914"
#: ``CMake Error at <file>:<line> (<command>):`` before the message, on its line or the one above.
_AT = r"(?:CMake Error at \S+:\d+ \(\w+\):\s*)?"
_TAGS = ("errcat:tool:cmake", "build")

_CUDA_SOLUTIONS = (
    "Install the CUDA toolkit that matches the torch you build against (python -c 'import"
    " torch; print(torch.version.cuda)'), not only the driver: in docker, build from a"
    " -devel image (nvidia/cuda:12.8.1-devel-ubuntu22.04), the -runtime images have no nvcc",
    "Put its nvcc where CMake looks: export CUDA_HOME=/usr/local/cuda-12.8 and export"
    " PATH=$CUDA_HOME/bin:$PATH (or export CUDACXX=$CUDA_HOME/bin/nvcc), then check nvcc"
    " --version names that release",
    "Delete the failed configure cache before trying again (rm -rf build/ .deps/ in a"
    " checkout), or avoid the build: install the released wheel (pip install vllm==0.33.0)"
    " or use the engine's docker image",
)
_CUDA_FIX = (
    "# before\npip install -e .  # CMake Error ... No CMAKE_CUDA_COMPILER could be found.\n"
    "# after\nexport CUDA_HOME=/usr/local/cuda-12.8\nexport PATH=$CUDA_HOME/bin:$PATH\n"
    "nvcc --version  # release 12.8\nrm -rf build && pip install -e . --no-build-isolation"
)


def _cmake(**fields: Any) -> Spec:
    """A CMake record: the repository, revision, class and tags every one shares."""
    return Spec(repo=REPO, sha=SHA, error_class="cmake", tags=_TAGS, **fields)


RECORDS = (
    _cmake(
        kind="tool-cmake-cuda",
        path="Source/cmGlobalGenerator.cxx",
        line=980,
        template="No CMAKE_CUDA_COMPILER could be found.",
        pattern=_AT + r"No CMAKE_CUDA_COMPILER could be found\.(?s:\s.*)?",
        documentation="CMake was asked to build CUDA code (a project or enable_language with"
        " CUDA) and found no CUDA compiler: no nvcc on PATH, CUDACXX unset and no toolkit"
        " under CUDA_PATH. A machine with only the NVIDIA driver (nvidia-smi works) has no"
        " nvcc; so do the -runtime docker images and most pip-installed CUDA wheels. Nothing"
        " was compiled; pip then reports that building the wheel failed.",
        solutions=_CUDA_SOLUTIONS,
        example_fix=_CUDA_FIX,
        prevention=(
            "Prefer the released wheels or the engines' docker images to source builds; build"
            " only in a -devel CUDA image or with the toolkit installed",
        ),
        references=("https://cmake.org/cmake/help/latest/envvar/CUDACXX.html",),
    ),
    _cmake(
        kind="tool-cmake-cuda",
        path="Modules/CMakeDetermineCompilerId.cmake",
        line=963,
        template='Compiling the CUDA compiler identification source file "{source}" failed.',
        pattern=_AT + r'Compiling the CUDA compiler identification source file "([^"]+)"'
        r" failed\.(?s:\s.*)?",
        documentation="CMake found a CUDA compiler but could not compile its small probe file"
        " with it, so it cannot tell which compiler it is. The compiler's own error follows"
        " under 'The output was:'. Usual causes: an nvcc older than the host gcc it calls"
        " (each CUDA release accepts gcc up to a version), an nvcc from a distribution"
        " package (/usr/bin/nvcc, often old) found before the toolkit in /usr/local/cuda, or"
        " a toolkit without its libraries on the library path.",
        solutions=(
            "Read the compiler's error under 'The output was:' (an 'unsupported GNU version'"
            " means the host gcc is too new for this nvcc)",
            "Point CMake at the toolkit that matches torch: export"
            " CUDACXX=/usr/local/cuda-12.8/bin/nvcc and"
            " PATH=/usr/local/cuda-12.8/bin:$PATH, so /usr/bin/nvcc is not picked",
            "Give nvcc a host compiler it supports: install gcc-12 g++-12 and export"
            " CUDAHOSTCXX=/usr/bin/g++-12, or use the engine's -devel docker image",
        ),
        example_fix="# before\npip install -e .  # Compiling the CUDA compiler identification"
        ' source file "CMakeCUDACompilerId.cu" failed. Compiler: /usr/bin/nvcc\n# after\n'
        "export CUDACXX=/usr/local/cuda-12.8/bin/nvcc\nexport"
        " PATH=/usr/local/cuda-12.8/bin:$PATH\nexport CUDAHOSTCXX=/usr/bin/g++-12\n"
        "rm -rf build && pip install -e . --no-build-isolation",
        references=("https://cmake.org/cmake/help/latest/envvar/CUDAHOSTCXX.html",),
    ),
    _cmake(
        kind="tool-cmake-cuda",
        path="Modules/CMakeDetermineCUDACompiler.cmake",
        line=321,
        template="Failed to detect a default CUDA architecture.",
        pattern=_AT + r"Failed to detect a default CUDA architecture\.(?s:\s.*)?",
        documentation="No CUDA architectures were set (CMAKE_CUDA_ARCHITECTURES, or the"
        " build's own list such as TORCH_CUDA_ARCH_LIST) and the compiler gave CMake no"
        " default: the probe compile produced nothing usable. It follows a compiler CMake"
        " could not really run (see 'Compiler output:' below the message, often empty): a"
        " stale or distribution nvcc, a toolkit missing pieces, or a build inside a"
        " container or CI job that has no GPU to inspect.",
        solutions=(
            "Name the architectures to build for: export TORCH_CUDA_ARCH_LIST='8.0;8.6;9.0'"
            " for torch-based builds (vllm, flash-attn), or pass"
            " -DCMAKE_CUDA_ARCHITECTURES=80;86;90 to cmake (CMAKE_ARGS for pip builds)",
            "Make sure the nvcc CMake finds is the toolkit's: export"
            " CUDACXX=/usr/local/cuda-12.8/bin/nvcc and put /usr/local/cuda-12.8/bin first on"
            " PATH; nvcc --version must run",
            "Delete the configure cache (rm -rf build/) before retrying, or install a"
            " released wheel instead of building",
        ),
        example_fix="# before\npip install -e .  # Failed to detect a default CUDA architecture.\n"
        "# after\nexport CUDACXX=/usr/local/cuda-12.8/bin/nvcc\nexport"
        " TORCH_CUDA_ARCH_LIST='8.0;9.0'\nrm -rf build && pip install -e . --no-build-isolation",
        references=(
            "https://cmake.org/cmake/help/latest/variable/CMAKE_CUDA_ARCHITECTURES.html",
            "https://github.com/instructlab/instructlab/issues/3144",
        ),
    ),
    _cmake(
        kind="tool-cmake-compiler",
        path="Source/cmGlobalGenerator.cxx",
        line=980,
        template="No CMAKE_CXX_COMPILER could be found.",
        pattern=_AT + r"No CMAKE_(?:C|CXX)_COMPILER could be found\.(?s:\s.*)?",
        documentation="CMake found no C or C++ compiler for the build: the machine has no"
        " build tools (slim docker images, a fresh WSL or macOS without the command-line"
        " tools), or CC/CXX point at a compiler that is not there. Every source build of a"
        " package with C++ or CUDA code (vllm, sgl-kernel, flash-attn, llama-cpp-python)"
        " needs one.",
        solutions=(
            "Install a compiler: on Debian or Ubuntu sudo apt-get install -y build-essential"
            " (gcc and g++), on Fedora or RHEL sudo dnf install gcc gcc-c++, on macOS"
            " xcode-select --install",
            "If CC or CXX are set, check they name an existing compiler (echo $CC $CXX;"
            " unset CC CXX to let CMake search)",
            "Or avoid the source build: install a released wheel for your Python, or use the"
            " engine's docker image",
        ),
        example_fix="# before\npip install vllm  # CMake Error ... No CMAKE_CXX_COMPILER could be"
        " found.\n# after\nsudo apt-get install -y build-essential\npip install vllm",
        references=("https://cmake.org/cmake/help/latest/envvar/CXX.html",),
    ),
)
