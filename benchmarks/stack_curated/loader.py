"""The dynamic loader refusing an extension: a shared library it cannot find, or one too old.

When ``import vllm._C``, ``import sgl_kernel`` or any compiled module is loaded,
the system's dynamic loader (glibc's ``ld.so``) opens every library the module
was linked against. If one is missing, or older than the one the module was
built with, ``dlopen`` fails and CPython raises ``ImportError`` with the loader's
text (``Python/dynload_shlib.c`` at v3.11.7, which the link points at; glibc
writes the words in ``elf/dl-load.c`` and ``elf/dl-version.c``):

* ``libcudart.so.12: cannot open shared object file: No such file or directory``
  names a library the loader did not find on its search path. For the CUDA
  libraries (``libcudart``, ``libnvrtc``, ``libcublas``, ...) the number after
  ``.so.`` is the CUDA major release the module was built for; ``libcuda.so.1``
  and ``libnvidia-ml.so.1`` belong to the NVIDIA driver, not to CUDA. Other
  names (``libnuma.so.1`` for sgl-kernel, ``libGL.so.1`` for OpenCV) are
  system packages;
* ``/lib64/libc.so.6: version `GLIBC_2.32' not found (required by ..._C.abi3.so)``:
  the module was built on a newer Linux than the one it runs on;
* ``libstdc++.so.6: version `GLIBCXX_3.4.30' not found``: the C++ runtime found
  first (often an old one inside a conda environment) is older than the
  compiler that built the module.

Threads learned from (even-numbered, the ``issues`` corpus): sgl-project/sglang#2584,
#4778, #5002, #5094 and #16052, vllm-project/vllm#31018 and #52300,
kaito-project/kaito#2086 (missing CUDA libraries); vllm-project/vllm#6462, #6464
and #6562, mudler/LocalAI#11370 (glibc too old); AgibotTech/agibot_x1_infer#4
(libstdc++ too old).

>>> import regex
>>> missing, glibc, cxx = (r.pattern or "" for r in RECORDS[:3])
>>> bool(
...     regex.fullmatch(
...         missing, "libnvrtc.so.12: cannot open shared object file: No such file or directory"
...     )
... )
True
>>> bool(
...     regex.fullmatch(
...         glibc,
...         "/lib64/libc.so.6: version `GLIBC_2.32' not found (required by /env/vllm/_C.abi3.so)",
...     )
... )
True
>>> bool(regex.fullmatch(cxx, "/lib64/libstdc++.so.6: version `GLIBCXX_3.4.30' not found"))
True
>>> bool(regex.fullmatch(glibc, "/lib64/libstdc++.so.6: version `GLIBCXX_3.4.30' not found"))
False
"""

from __future__ import annotations

from dataclasses import replace

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated
from stack_curated.symbols import DYNLOAD_SITE as _SITE

__all__ = ["RECORDS"]

_TAGS = ("errcat:imports", "dynamic-loader", HIDDEN_SITE_TAG)
_NO_FILE = r": cannot open shared object file(?:: No such file or directory)?"
_VERSION = r"(\S+?): version [`'](?:{names})_([\w.]+)' not found(?: \(required by ([^)\n]+)\))?"

_IMPORTS = (
    Curated(
        **_SITE,  # type: ignore[arg-type]
        error_class="ImportError",
        template="{library}: cannot open shared object file: No such file or directory",
        pattern=rf"(\S+?){_NO_FILE}",
        error_type="dependency",
        documentation="A compiled module (vllm's _C, sgl-kernel's common_ops, flashinfer's"
        " or DeepGEMM's JIT modules, torch itself, OpenCV) needs a shared library the"
        " dynamic loader did not find. For a CUDA library (libcudart, libnvrtc, libcublas,"
        " libcudnn) the number after .so is the CUDA major release the module was built"
        " for: libcudart.so.13 next to a torch built for CUDA 12 means a package built for"
        " CUDA 13 was installed (a wheel of another CUDA flavour, a source build against a"
        " newer toolkit). libnvrtc is the CUDA runtime compiler the engines' JIT kernels"
        " load; pip ships it as nvidia-cuda-nvrtc-cu12, and a toolkit installs it under"
        " /usr/local/cuda/lib64, which the loader does not search unless told."
        " libcuda.so.1 and libnvidia-ml.so.1 are the NVIDIA driver's own libraries: they"
        " are missing on a machine or container without the driver (a CPU-only or ROCm"
        " host, a container started without --gpus). Other names are packages of the"
        " operating system that pip does not install: sgl-kernel's prebuilt modules link"
        " libnuma.so.1 (the libnuma1 package), OpenCV links libGL.so.1 (libgl1), and slim"
        " docker base images carry neither.",
        solutions=(
            "For a CUDA library, compare the release in its file name with torch's (python"
            " -c 'import torch; print(torch.version.cuda)'): if they differ, reinstall the"
            " package built for torch's CUDA (the engines publish separate cu12 and cu13"
            " builds; pip install --force-reinstall sglang, or vllm, lets pip choose"
            " matching ones)",
            "If the library is installed but not found, point the loader at it: find /"
            " -name 'libnvrtc.so*' 2>/dev/null, then export"
            " LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH (the folder found); or"
            " install the pip build: pip install nvidia-cuda-nvrtc-cu12 (libnvrtc.so.12),"
            " nvidia-cuda-runtime-cu12 (libcudart.so.12)",
            "For libcuda.so.1 or libnvidia-ml.so.1: install the NVIDIA driver on the host"
            " (nvidia-smi must work) and start containers with --gpus all so that the"
            " driver's libraries are mounted; on a ROCm or CPU machine, install the engine's"
            " ROCm or CPU build instead of the CUDA one",
            "For a system library, install its package: on Debian or Ubuntu sudo apt-get"
            " install -y libnuma1 (libnuma.so.1) or libgl1 (libGL.so.1), or pip install"
            " opencv-python-headless in place of opencv-python; ldd <the .so file> | grep"
            " 'not found' lists everything else missing",
        ),
        example_fix="# before\npython -m sglang.launch_server --model-path M  # ImportError:"
        " libnvrtc.so.12: cannot open shared object file\n# after\nexport"
        " LD_LIBRARY_PATH=/usr/local/cuda-12.4/lib64:$LD_LIBRARY_PATH\npython -m"
        " sglang.launch_server --model-path M",
        tags=(*_TAGS, "errcat:native:import-missing-library"),
        trigger="Importing an engine or kernel package whose compiled modules were built for"
        " another CUDA release, on a machine or container without the NVIDIA driver, or in a"
        " slim container without the system libraries a module links.",
        references=(
            "sgl-project/sglang#4778 (libcuda.so.1 on a ROCm host; LD_LIBRARY_PATH)",
            "sgl-project/sglang#5002 (libnvrtc.so.12 without a toolkit; PATH and"
            " LD_LIBRARY_PATH to CUDA 12.4)",
            "vllm-project/vllm#52300 (libcudart.so.13 from a build against another CUDA)",
        ),
    ),
    Curated(
        **_SITE,  # type: ignore[arg-type]
        error_class="ImportError",
        template="{library}: version `GLIBC_{version}' not found (required by {module})",
        pattern=_VERSION.format(names="GLIBC"),
        error_type="dependency",
        documentation="The compiled module was built on a newer Linux than the one it runs"
        " on: it calls functions of a glibc release (GLIBC_2.32 and so on) that the"
        " system's C library is older than. Wheels declare the oldest glibc they run on in"
        " their file name (manylinux_2_28, manylinux_2_31); CentOS 7 has glibc 2.17, RHEL 8"
        " 2.28, Ubuntu 20.04 and Debian 11 2.31, Ubuntu 22.04 2.35. A wheel installed from a"
        " URL or a nightly index, or one copied from another machine, can skip pip's check."
        " glibc is part of the operating system and cannot be upgraded alone.",
        solutions=(
            "Check the system's glibc with ldd --version and pick an engine release whose"
            " wheel's manylinux tag is not newer (pip install vllm==<a release built for it>"
            " from PyPI, not a nightly or a copied wheel)",
            "Or run the engine in its docker image (vllm/vllm-openai, lmsysorg/sglang),"
            " whose newer base carries the glibc the wheels need; the host only needs the"
            " NVIDIA driver",
            "Or move to a newer distribution (Ubuntu 22.04 or later); building the engine"
            " from source on the old system also works, with its compiler",
        ),
        example_fix="# before (Ubuntu 20.04, glibc 2.31)\npip install vllm  # version"
        " `GLIBC_2.32' not found\n# after\ndocker run --gpus all --ipc=host"
        " vllm/vllm-openai --model M",
        tags=(*_TAGS, "errcat:native:import-glibc-version"),
        trigger="Installing a current engine wheel on an older Linux (CentOS 7, RHEL 8,"
        " Ubuntu 20.04).",
        references=(
            "vllm-project/vllm#6562 and #6464 (CentOS 7 and older Ubuntu, vllm 0.5.2)",
            "vllm-project/vllm#6462 (the warning 'Failed to import from vllm._C' hid it)",
        ),
    ),
    Curated(
        **_SITE,  # type: ignore[arg-type]
        error_class="ImportError",
        template="{library}: version `GLIBCXX_{version}' not found (required by {module})",
        pattern=_VERSION.format(names="GLIBCXX|CXXABI"),
        error_type="dependency",
        documentation="The C++ runtime the loader found first, libstdc++.so.6, is older than"
        " the compiler that built the module needs (GLIBCXX_3.4.30 is GCC 12's,"
        " GLIBCXX_3.4.32 GCC 13's). The path before the colon says which copy was loaded:"
        " a conda environment's lib folder often holds an old one that shadows the system's"
        " (or the reverse, when a package was built inside conda with its newer compiler).",
        solutions=(
            "See which GLIBCXX versions the loaded copy has: strings <the path before the"
            " colon> | grep GLIBCXX_3.4.3",
            "In a conda environment, install a newer runtime into it: conda install -c"
            " conda-forge 'libstdcxx-ng>=13'; or make the newer system copy load first:"
            " export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
            "On Ubuntu 22.04, a newer libstdc++6 comes from the toolchain PPA: sudo"
            " add-apt-repository ppa:ubuntu-toolchain-r/test && sudo apt-get install"
            " --only-upgrade libstdc++6; or use the engine's docker image",
        ),
        example_fix="# before\npython -c 'import vllm'  # ~/miniconda3/lib/libstdc++.so.6:"
        " version `GLIBCXX_3.4.30' not found\n# after\nconda install -y -c conda-forge"
        " 'libstdcxx-ng>=13'",
        tags=(*_TAGS, "errcat:native:import-glibc-version"),
        trigger="Importing a compiled package built with a newer GCC than the libstdc++ of"
        " the system or of the active conda environment.",
        references=(
            "AgibotTech/agibot_x1_infer#4 (a library built with GCC 13 on Ubuntu 22.04;"
            " libstdc++6 from the toolchain PPA)",
            "https://gcc.gnu.org/onlinedocs/libstdc++/manual/abi.html",
        ),
    ),
)
#: ctypes loads libraries by hand (vllm's NCCL and CUDA wrappers, tools' own .so files):
#: the same loader text, raised as OSError by ctypes' dlopen (Modules/_ctypes/callproc.c).
_CTYPES = tuple(
    replace(
        record,
        path="Modules/_ctypes/callproc.c",
        error_class="OSError",
        tags=tuple(t for t in record.tags if t != HIDDEN_SITE_TAG),
    )
    for record in _IMPORTS
)
RECORDS = (*_IMPORTS, *_CTYPES)
