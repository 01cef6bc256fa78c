"""More tools around the engines: ninja, nvcc's host gcc, docker's GPU runtime, a full disk, pip's resolver.

Source builds and JIT compiles of the engines' kernels (vllm's and sgl-kernel's
CMake builds, flashinfer's JIT, torch extensions) run their compile commands
through ninja, which ends a failed build with one line of its own; nvcc refuses
a host gcc newer than its release knows. Docker needs NVIDIA's runtime registered
(``--runtime=nvidia``) and NVIDIA's container hook needs the host driver's NVML
library. Model downloads, pip's temporary builds and the containers' 64 MB
``/dev/shm`` fill up. pip's resolver refuses a set of pins no versions can meet,
and pip refuses a wheel built for another Python or platform. Each record is
tagged ``errcat:tool:<tool>`` with the program that printed it.

Sources: ninja v1.13.2 (``src/ninja.cc`` line 1638, ``build stopped: %s.``; ``err`` is
``subcommand failed``, src/build.cc line 810); flashinfer v0.6.17
(``flashinfer/jit/cpp_ext.py`` line 197, where its JIT passes ``$CC`` to nvcc as
``-ccbin``: nvcc itself is closed source, its ``crt/host_config.h`` prints the
``#error``); docker v29.7.2 (``daemon/runtime_unix.go`` line 219);
libnvidia-container (``src/xfuncs.h`` line 142, ``xdlopen``; the CLI prints
``initialization error:`` before it); glibc 2.39 (``sysdeps/gnu/errlist.h`` line 190,
strerror's text for ENOSPC); pip 26.2.1 (``factory.py`` lines 140, 850 and 898,
``install.py`` line 849).
Threads learned from (even-numbered, the ``issues`` corpus): sgl-project/sglang#15604
(sgl-kernel's ninja build stopped), THUDM/slime#1314 and modelscope/ms-swift#7100
(flashinfer's JIT through ninja; prebuilt flashinfer-jit-cache wheels as the cure),
flashinfer-ai/flashinfer#4410 (ninja output hides the compiler's error),
Eyeline-Labs/FlashDepth#2, NVlabs/instant-ngp#1562 and ashawkey/stable-dreamfusion#116
(gcc newer than the CUDA toolkit), NVIDIA-NeMo/labs-molt#88, dusty-nv/jetson-containers#1460
and NVIDIA-AI-IOT/live-vlm-webui#28 (``--runtime=nvidia`` unknown to docker),
AbdBarho/stable-diffusion-webui-docker#406 and NVIDIA/nvidia-container-toolkit#154
(``libnvidia-ml.so.1`` not loadable: Docker Desktop, no host driver), vllm#2216 (pip out
of disk while building vllm), vllm#1710 (NCCL's shared memory in a container: --shm-size),
PeterGriffinJin/Search-R1#150, inclusionAI/dInfer#24 and vllm#11412 (pip's
ResolutionImpossible around vllm's and sglang's pins).

>>> import regex
>>> def fits(kind: str, text: str) -> bool:
...     record = next(s for s in RECORDS if s.kind == kind).envelope()["record"]
...     return regex.fullmatch(record["messagePattern"], text) is not None
>>> fits("tool-ninja-build", "ninja: build stopped: subcommand failed.")
True
>>> fits("tool-ninja-build", "The build stopped.")
False
>>> fits("disk-full", "[Errno 28] No space left on device: '/root/.cache/huggingface'")
True
"""

from __future__ import annotations

from native_catalog.spec import Spec

__all__ = ["RECORDS"]

#: Where each message is made, at the revisions named in the module's docstring.
NINJA_SHA = "3441b633c2fe2c494e958780ba0f4227b1327634"  # v1.13.2
NINJA_LINE = 1638
FLASHINFER_SHA = "a0a6b019b9b27d49d209f85d028a1ae5a9b347d7"  # v0.6.17
FLASHINFER_CCBIN_LINE = 197
MOBY_SHA = "6a43e3d5afddf4111da0f864bbc7cae5d7e95001"  # docker-v29.7.2
MOBY_RUNTIME_LINE = 219
NVC_SHA = "13521978755666801855113e6bc4626a36a55c03"
NVC_DLOPEN_LINE = 142
GLIBC_SHA = "ef321e23c20eebc6d6fb4044425c00e6df27b05f"  # glibc-2.39
GLIBC_ENOSPC_LINE = 190
PIP_SHA = "634a6ec1a5d9dcc2433571cdb2f4c58a4bb29caf"  # 26.2.1
PIP_FACTORY = "src/pip/_internal/resolution/resolvelib/factory.py"
PIP_UNSUPPORTED_WHEEL_LINE = 140
PIP_CANNOT_INSTALL_LINE = 850
PIP_RESOLUTION_IMPOSSIBLE_LINE = 898
PIP_OS_ERROR_LINE = 849

#: docker's lead before a prestart hook's own words, as in native_catalog.tools.
_DOCKER_HOOK_LEAD = (
    r"(?:(?:docker: )?Error response from daemon: .*?stderr: (?:Auto-detected mode as"
    r" '\w+'\s*)?)?"
)


_NINJA_DOC = (
    "ninja ran the build's compile commands and one of them failed; this line is only"
    " ninja's summary. The command that failed is printed above it, after 'FAILED:"
    " <target>', with the compiler's own error (nvcc's or gcc's 'error:', or 'Killed' when"
    " the machine ran out of memory). The engines reach ninja in source builds of vllm,"
    " sgl-kernel and flash-attn (CMake generates ninja files), in flashinfer's JIT"
    " ('RuntimeError: Ninja build failed') and in torch extensions ('Error building"
    " extension'). The usual causes: too many parallel nvcc jobs for the memory, a CUDA"
    " toolkit (nvcc) other than the one torch was built with, a host gcc the toolkit does"
    " not support, or a GPU architecture the toolkit does not know."
)
_NINJA_SOLUTIONS = (
    "Find the first 'FAILED:' line above and read the compiler's error under it (search"
    " the log for 'error:' and 'Killed'); that error, not this line, names the fix",
    "If a compiler was Killed (out of memory), build with fewer parallel jobs: MAX_JOBS=4"
    " (vllm, flash-attn, flashinfer's JIT, torch extensions) with NVCC_THREADS=1 for vllm,"
    " or CMAKE_BUILD_PARALLEL_LEVEL=4 for sgl-kernel's CMake build",
    "Make nvcc match torch: compare python -c 'import torch; print(torch.version.cuda)'"
    " with nvcc --version, then export CUDA_HOME=/usr/local/cuda-12.8 and"
    " PATH=$CUDA_HOME/bin:$PATH for the toolkit torch names",
    "Avoid the build: install the prebuilt wheels (pip install vllm, the sgl-kernel wheel"
    " for your CUDA, pip install flashinfer-cubin flashinfer-jit-cache --index-url"
    " https://flashinfer.ai/whl/cu129 for flashinfer's kernels) or run the engine's docker"
    " image; then clear the half-built cache (rm -rf ~/.cache/flashinfer, or build/ in a"
    " checkout)",
)
_NINJA_FIX = (
    "# before\npip install -e . --no-build-isolation  # ninja: build stopped: subcommand"
    " failed\n# after: fewer parallel jobs (the log above showed 'Killed')\nMAX_JOBS=4"
    " NVCC_THREADS=1 pip install -e . --no-build-isolation"
)

_GCC_DOC = (
    "nvcc refused the host C++ compiler: every CUDA toolkit supports gcc up to a version"
    " (its crt/host_config.h stops the compile with this #error otherwise). CUDA 12.0 to"
    " 12.2 accept gcc 12 at most, 12.3 to 12.7 gcc 13, 12.8 and 12.9 gcc 14, 13.0 gcc 15."
    " A new distribution (Ubuntu 24.10, Fedora 40, Arch) ships a newer default gcc than the"
    " toolkit installed, so source builds of vllm, sgl-kernel or flash-attn and"
    " flashinfer's JIT compiles fail at the first .cu file; ninja, CMake or pip then report"
    " only that the build failed."
)
_GCC_SOLUTIONS = (
    "Install a gcc the toolkit supports and point the build at it: sudo apt-get install -y"
    " gcc-12 g++-12, then export CC=gcc-12 CXX=g++-12 CUDAHOSTCXX=g++-12 (flashinfer's JIT"
    " passes CC to nvcc as -ccbin; CMake builds read CUDAHOSTCXX, or pass"
    " -DCMAKE_CUDA_HOST_COMPILER=g++-12)",
    "Or use a CUDA toolkit new enough for your gcc (CUDA 12.8 accepts gcc 14, CUDA 13.0"
    " gcc 15) with a torch built for it, or the engine's docker image, whose compiler and"
    " toolkit agree",
    "Only as a last resort: NVCC_APPEND_FLAGS='-allow-unsupported-compiler' skips the"
    " check, and the compile may still fail on the newer gcc's headers",
)
_GCC_FIX = (
    "# before: gcc 14 with CUDA 12.4\npip install flash-attn --no-build-isolation  # gcc"
    " versions later than 13 are not supported!\n# after\nsudo apt-get install -y gcc-13"
    " g++-13\nexport CC=gcc-13 CXX=g++-13 CUDAHOSTCXX=g++-13\npip install flash-attn"
    " --no-build-isolation"
)

_RUNTIME_DOC = (
    "docker was asked for a runtime it has not registered: --runtime=nvidia (or"
    " 'runtime: nvidia' in a compose file) needs the NVIDIA Container Toolkit installed on"
    " the host and registered in /etc/docker/daemon.json, and docker restarted after that."
    " The engine's container never started. Docker Desktop, rootless docker and docker"
    " from snap keep their own configuration, so a runtime registered for the system"
    " daemon is not theirs."
)
_RUNTIME_SOLUTIONS = (
    "Install and register NVIDIA's runtime, then restart docker: sudo apt-get install -y"
    " nvidia-container-toolkit && sudo nvidia-ctk runtime configure --runtime=docker &&"
    " sudo systemctl restart docker; docker info --format '{{json .Runtimes}}' must list"
    " nvidia",
    "Or ask for GPUs without naming the runtime: docker run --gpus all (compose:"
    " deploy.resources.reservations.devices with driver: nvidia and capabilities: [gpu])"
    " instead of --runtime=nvidia",
    "Check the host first: nvidia-smi must work outside any container",
)
_RUNTIME_FIX = (
    "# before\ndocker run --runtime=nvidia vllm/vllm-openai --model M  # unknown or"
    " invalid runtime name: nvidia\n# after\nsudo nvidia-ctk runtime configure"
    " --runtime=docker && sudo systemctl restart docker\ndocker run --gpus all --ipc=host"
    " vllm/vllm-openai --model M"
)

_NVML_DOC = (
    "NVIDIA's container hook (nvidia-container-cli, run by docker for --gpus or the nvidia"
    " runtime) could not load the host driver's NVML library (libnvidia-ml.so.1), so the"
    " container was not created and the engine never started. The library comes with the"
    " NVIDIA driver: the host has no working driver (nvidia-smi fails), or docker runs where"
    " the host's libraries are not visible: Docker Desktop on Linux (a VM), docker installed"
    " as a snap, or a driver installed but its library cache not refreshed."
)
_NVML_SOLUTIONS = (
    "On the host, nvidia-smi must work; if it does not, install the driver (sudo apt-get"
    " install -y nvidia-driver-570) and reboot",
    "Refresh the library cache so the hook finds the driver: sudo ldconfig; ldconfig -p |"
    " grep libnvidia-ml must list libnvidia-ml.so.1",
    "Use Docker Engine from docker's apt repository (docker-ce) rather than Docker Desktop"
    " or the snap, then sudo nvidia-ctk runtime configure --runtime=docker && sudo"
    " systemctl restart docker",
)
_NVML_FIX = (
    "# before\ndocker run --gpus all lmsysorg/sglang python3 -m sglang.launch_server"
    " --model-path M  # load library failed: libnvidia-ml.so.1\n# after\nnvidia-smi  # must"
    " work on the host\nsudo ldconfig && sudo systemctl restart docker\ndocker run --gpus all"
    " --ipc=host lmsysorg/sglang python3 -m sglang.launch_server --model-path M"
)

_DISK_DOC = (
    "A write found its file system full (ENOSPC). The engines write a lot outside the"
    " model folder: Hugging Face downloads (~/.cache/huggingface, tens to hundreds of GB"
    " per model), pip's builds and cache (/tmp and ~/.cache/pip, several GB for torch and"
    " the CUDA wheels), the compile caches of torch.compile, Triton and flashinfer, and"
    " docker's images under /var/lib/docker. In a container, /dev/shm is a 64 MB tmpfs"
    " unless docker is told otherwise, and torch's shared-memory tensors and NCCL's buffers"
    " fill it ('unable to write to file </torch_...>'). 'No space left on device' with free"
    " space shown by df -h means the inodes are used up (df -i) or another mount (/tmp,"
    " /dev/shm) is the full one."
)
_DISK_SOLUTIONS = (
    "Find the full file system: df -h (and df -i) on the path in the message, /tmp,"
    " /dev/shm and ~/.cache",
    "Move the big writers to a disk with room: export HF_HOME=/data/hf (model downloads),"
    " TMPDIR=/data/tmp and pip install --no-cache-dir (pip's builds), or free space with"
    " huggingface-cli delete-cache, pip cache purge and docker system prune",
    "In a container whose /dev/shm is full, give it more: docker run --shm-size 16g (or"
    " --ipc=host), shm_size: 16gb in compose, or a memory-backed emptyDir on /dev/shm in"
    " Kubernetes",
)
_DISK_FIX = (
    "# before\nvllm serve M  # OSError: [Errno 28] No space left on device\n# after\ndf -h"
    " ~/.cache /tmp /dev/shm\nexport HF_HOME=/data/hf TMPDIR=/data/tmp\nvllm serve M"
)

_RESOLVE_DOC = (
    "pip's resolver found no set of versions that meets every requirement at once, and"
    " installed nothing. The lines under 'The conflict is caused by:' name the pins that"
    " clash: two packages pinning one dependency to different versions (sglang and vllm"
    " each pin their own xgrammar, torch and flashinfer, so one environment rarely holds"
    " both), a requirements file pinning a version the engine excludes, or a dependency"
    " with no release for this Python or platform ('Additionally, some packages in these"
    " conflicts have no matching distributions available for your environment')."
)
_RESOLVE_SOLUTIONS = (
    "Read the pins under 'The conflict is caused by:' and drop or loosen your own pin of"
    " that package (torch==..., transformers==...), letting the engine choose: pip install"
    " vllm==0.33.0 alone first, then the rest",
    "Install engines that pin different versions into separate virtual environments"
    " (python -m venv .venv-sglang and .venv-vllm) or use their docker images",
    "If a package has no matching distribution, check the Python version (python"
    " --version) and platform against the releases the engine publishes wheels for",
    "uv pip install prints the whole chain of why the pins cannot be met: uv pip install"
    " -r requirements.txt",
)
_RESOLVE_FIX = (
    "# before\npip install sglang==0.5.3.post1 vllm==0.10.2  # ResolutionImpossible:"
    " xgrammar==0.1.25 vs xgrammar==0.1.23\n# after: one engine per environment\npython -m"
    " venv .venv-vllm && . .venv-vllm/bin/activate && pip install vllm==0.10.2"
)

_WHEEL_DOC = (
    "pip was given a wheel file whose tags do not fit this interpreter or machine: the"
    " cpXY part names another Python version (cp310 for 3.10), the platform part another"
    " system or CPU (linux_x86_64, manylinux_2_28_aarch64, win_amd64), or the manylinux"
    " version needs a newer glibc. The engines and their kernels (vllm, sgl-kernel,"
    " flash-attn, flashinfer) publish one wheel per Python, CUDA and platform, and a"
    " download link copied from a release page often names another one."
)
_WHEEL_SOLUTIONS = (
    "Compare the wheel's tags with this environment: python --version and uname -m, and"
    " pip debug --verbose lists every tag pip accepts here",
    "Download the wheel built for your Python and CPU (cp312 for Python 3.12, x86_64 or"
    " aarch64) and your CUDA (cu128 for torch's CUDA 12.8: python -c 'import torch;"
    " print(torch.version.cuda)'), or let pip choose: pip install flash-attn"
    " --no-build-isolation",
    "Or create the environment with the Python the wheel names: uv venv --python 3.10",
)
_WHEEL_FIX = (
    "# before: Python 3.12\npip install"
    " flash_attn-2.7.4+cu12torch2.6-cp310-cp310-linux_x86_64.whl  # is not a supported"
    " wheel on this platform\n# after: the cp312 build of the same release\npip install"
    " flash_attn-2.7.4+cu12torch2.6-cp312-cp312-linux_x86_64.whl"
)

_PIP_OS_DOC = (
    "pip stopped while writing or reading files and printed the operating system's error"
    " after the colon. [Errno 28] No space left on device: the disk holding pip's temporary"
    " build folder (/tmp, TMPDIR), its cache (~/.cache/pip) or the environment is full;"
    " torch and the CUDA wheels unpack to several GB, and building vllm from source needs"
    " more. [Errno 13] Permission denied: pip tried to write into a Python it may not"
    " change (the system's, or a read-only image). Nothing was installed."
)
_PIP_OS_SOLUTIONS = (
    "For [Errno 28]: check df -h /tmp ~/.cache and the environment's disk, then point pip"
    " at a disk with room and skip its cache: TMPDIR=/data/tmp pip install --no-cache-dir"
    " vllm (pip cache purge frees the old cache)",
    "For [Errno 13]: install into a virtual environment you own (python -m venv .venv &&"
    " . .venv/bin/activate) instead of the system Python, or pip install --user",
    "In a docker build, free space between steps (pip install --no-cache-dir) and give"
    " docker's data root a disk with room",
)
_PIP_OS_FIX = (
    "# before\npip install vllm  # Could not install packages due to an OSError: [Errno 28]"
    " No space left on device\n# after\nmkdir -p /data/tmp\nTMPDIR=/data/tmp pip install"
    " --no-cache-dir vllm"
)


#: pip's resolver refusal: the header pip logs, then the error it raises (factory.py).
_RESOLUTION = (
    (
        PIP_CANNOT_INSTALL_LINE,
        "pip",
        "Cannot install {info} because these package versions have conflicting dependencies.",
        r"(?:ERROR: )?Cannot install (.+?) because these package versions have"
        r" conflicting dependencies\.?",
    ),
    (
        PIP_RESOLUTION_IMPOSSIBLE_LINE,
        "pip._internal.exceptions.DistributionNotFound",
        "ResolutionImpossible: for help visit"
        " https://pip.pypa.io/en/latest/topics/dependency-resolution/"
        "#dealing-with-dependency-conflicts",
        r"(?:ERROR: )?ResolutionImpossible: for help visit \S+",
    ),
)
_RESOLVE = (
    _RESOLVE_DOC,
    _RESOLVE_SOLUTIONS,
    _RESOLVE_FIX,
    "https://pip.pypa.io/en/latest/topics/dependency-resolution/",
)


def _pip(
    kind: str,
    path: str,
    line: int,
    error_class: str,
    *,
    template: str,
    pattern: str,
    advice: tuple[str, tuple[str, ...], str, str],
) -> Spec:
    """A record of pip 26.2.1's own line (advice: documentation, solutions, fix, reference)."""
    documentation, solutions, example_fix, reference = advice
    return Spec(
        kind=kind,
        repo="pypa/pip",
        path=path,
        line=line,
        sha=PIP_SHA,
        error_class=error_class,
        tags=("errcat:tool:pip", "install"),
        template=template,
        pattern=pattern,
        documentation=documentation,
        solutions=solutions,
        example_fix=example_fix,
        references=(reference,),
    )


RECORDS: tuple[Spec, ...] = (
    Spec(
        kind="tool-ninja-build",
        repo="ninja-build/ninja",
        path="src/ninja.cc",
        line=NINJA_LINE,
        sha=NINJA_SHA,
        error_class="ninja",
        tags=("errcat:tool:ninja", "build"),
        template="build stopped: {reason}.",
        pattern=r"(?:ninja: )?build stopped: (subcommand failed|interrupted by user|cannot make"
        r" progress due to previous errors|[^.\n]{1,80})\.",
        documentation=_NINJA_DOC,
        solutions=_NINJA_SOLUTIONS,
        example_fix=_NINJA_FIX,
        references=(
            "https://ninja-build.org/manual.html",
            "https://docs.flashinfer.ai/installation.html",
        ),
    ),
    Spec(
        kind="tool-nvcc-host-compiler",
        repo="flashinfer-ai/flashinfer",
        path="flashinfer/jit/cpp_ext.py",
        line=FLASHINFER_CCBIN_LINE,
        sha=FLASHINFER_SHA,
        error_class="nvcc",
        # gcc prints the #error of nvcc's own header: both tools are in the line.
        tags=("errcat:tool:nvcc", "errcat:tool:gcc", "build"),
        template="#error -- unsupported GNU version! gcc versions later than {version} are not"
        " supported!",
        pattern=r"(?:\S*host_config\.h:\d+:\d+: )?(?:error: )?#error -- unsupported GNU"
        r" version! gcc versions later than (\d+) are not supported!(?: The nvcc flag .*)?",
        documentation=_GCC_DOC,
        solutions=_GCC_SOLUTIONS,
        example_fix=_GCC_FIX,
        references=(
            "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/"
            "#host-compiler-support-policy",
        ),
    ),
    Spec(
        kind="tool-docker-gpu",
        repo="moby/moby",
        path="daemon/runtime_unix.go",
        line=MOBY_RUNTIME_LINE,
        sha=MOBY_SHA,
        error_class="docker",
        tags=("errcat:tool:docker", "container"),
        template="unknown or invalid runtime name: {name}",
        pattern=r"(?:docker: )?(?:Error response from daemon: )?unknown or invalid runtime"
        r" name: (\S+?)\.?",
        documentation=_RUNTIME_DOC,
        solutions=_RUNTIME_SOLUTIONS,
        example_fix=_RUNTIME_FIX,
        references=(
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/"
            "install-guide.html",
            "https://docs.docker.com/compose/how-tos/gpu-support/",
        ),
    ),
    Spec(
        kind="tool-docker-gpu",
        repo="NVIDIA/libnvidia-container",
        path="src/xfuncs.h",
        line=NVC_DLOPEN_LINE,
        sha=NVC_SHA,
        error_class="nvidia-container-cli",
        tags=("errcat:tool:nvidia-container-cli", "container"),
        template="initialization error: load library failed: {library}: {reason}",
        pattern=_DOCKER_HOOK_LEAD + r"(?:nvidia-container-cli: )?initialization error: load"
        r" library failed: (\S+?): (.+?)(?:: unknown)?\.?",
        documentation=_NVML_DOC,
        solutions=_NVML_SOLUTIONS,
        example_fix=_NVML_FIX,
        references=(
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/"
            "troubleshooting.html",
        ),
    ),
    Spec(
        kind="disk-full",
        repo="bminor/glibc",
        path="sysdeps/gnu/errlist.h",
        line=GLIBC_ENOSPC_LINE,
        sha=GLIBC_SHA,
        error_class="OSError",
        also_classes=("IOError",),
        tags=("disk",),
        template="[Errno 28] No space left on device",
        pattern=r"\[Errno 28\] No space left on device(?:: .+)?",
        documentation=_DISK_DOC,
        solutions=_DISK_SOLUTIONS,
        example_fix=_DISK_FIX,
        references=(
            "https://huggingface.co/docs/huggingface_hub/guides/manage-cache",
            "https://docs.docker.com/reference/cli/docker/container/run/#shm-size",
        ),
        phrases=("no space left on device",),
    ),
    _pip(
        "tool-pip-os-error",
        "src/pip/_internal/commands/install.py",
        PIP_OS_ERROR_LINE,
        "pip",
        # pip appends ": <the error>" (or "." with --verbose) to these words.
        template="Could not install packages due to an OSError",
        pattern=r"(?:ERROR: )?Could not install packages due to an (?:OSError|EnvironmentError)"
        r"(?:: .+?|\.)?",
        advice=(
            _PIP_OS_DOC,
            _PIP_OS_SOLUTIONS,
            _PIP_OS_FIX,
            "https://pip.pypa.io/en/stable/topics/caching/",
        ),
    ),
    *(
        _pip(
            "tool-pip-resolution",
            PIP_FACTORY,
            line,
            error_class,
            template=template,
            pattern=pattern,
            advice=_RESOLVE,
        )
        for line, error_class, template, pattern in _RESOLUTION
    ),
    _pip(
        "tool-pip-unsupported-wheel",
        PIP_FACTORY,
        PIP_UNSUPPORTED_WHEEL_LINE,
        "pip._internal.exceptions.UnsupportedWheel",
        # pip prints the wheel's file name: {wheel} is the part before ".whl".
        template="{wheel}.whl is not a supported wheel on this platform.",
        pattern=r"(?:ERROR: )?(\S+)\.whl is not a supported wheel on this platform\.?",
        advice=(
            _WHEEL_DOC,
            _WHEEL_SOLUTIONS,
            _WHEEL_FIX,
            "https://packaging.python.org/en/latest/specifications/platform-compatibility-tags/",
        ),
    ),
)
