"""Errors of the tools around the engines: the C compiler and linker at run time, docker, pip.

Serving stacks compile code while they run (Triton builds a small C launcher
the first time a kernel runs; flashinfer and DeepGEMM JIT-compile kernels), so
a missing header or library surfaces as a compiler's or linker's line above a
Python traceback. Containers need the NVIDIA runtime to see a GPU at all (and a
host driver new enough for the image's CUDA, which NVIDIA's container hook checks), and
pip stops before anything runs when no wheel fits. Each record is tagged
``errcat:tool:<tool>`` with the tool that printed it.
"""

from __future__ import annotations

from native_catalog.spec import Spec

__all__ = ["PIP_BUILD_SOLUTIONS", "RECORDS"]

#: Where each message is printed, at the revisions the file index holds. gcc prints the
#: missing header's name and strerror (open_file_failed); ld's "cannot find %s" gets
#: "-lcuda" (ldfile_open_file); docker returns incompatibleDeviceRequest (handleDevice);
#: pip logs both messages (Factory.get_installation_error, build_wheel_pep517).
GCC_SHA = "d9b56c65a2697e0d7a6c0f15f1977803dc94579b"
GCC_LINE = 1880
LD_SHA = "f13a99db51c0ca487f4a0a41b14dc255d386c4ff"
LD_LINE = 422
MOBY_SHA = "dedf5747cca3b8cc64ee15ee8799c7c429751f01"
MOBY_LINE = 48
#: libnvidia-container's CLI (the prestart hook docker runs for --gpus) checks the image's
#: NVIDIA_REQUIRE_CUDA against the host driver (dsl_evaluate in src/cli/dsl.c); the hook
#: prints "nvidia-container-cli: requirement error: " before it.
NVC_SHA = "5823754b8577d16fabf25a6ef6a1d58f7ff1e5dd"
NVC_LINE = 165
PIP_NO_VERSION_SHA = "895eb8c617e0a3e4f8ec0b4ce9245a1073e7f016"
PIP_NO_VERSION_LINE = 387
PIP_NO_DISTRIBUTION_LINE = 391
PIP_BUILD_SHA = "09103e83e35dc6ba95639710148c100498010dfe"
#: pip 23.2.1 (commit 4a79e65, as native_catalog.builds): ExternallyManagedEnvironment's
#: message (exceptions.py); pip prints its reference first, "error:
#: externally-managed-environment", then "This environment is externally managed" after a multiplication sign.
PIP_PEP668_SHA = "4a79e65cb6aac84505ad92d272a29f0c3c1aedce"
PIP_PEP668_LINE = 681
PIP_PEP668_REFERENCE_LINE = 673
_PEP668 = (
    (PIP_PEP668_LINE, "This environment is externally managed",
     r"(?:error: externally-managed-environment\s*)?(?:\u00d7 )?This environment is externally"
     r" managed"),
    (PIP_PEP668_REFERENCE_LINE, "error: externally-managed-environment",
     r"(?:error: )?externally-managed-environment"),
)  # fmt: skip
PIP_BUILD_LINE = 33
#: After a failed build, pip's install command stops on the whole set (install.py):
#: InstallationError "Could not build wheels for ..." (pip 23.2.1, line 430), "ERROR: Failed
#: to build installable wheels for some pyproject.toml based projects (...)" (pip 24.2,
#: line 435), then InstallWheelBuildError, reference "failed-wheel-build-for-install" (pip
#: 25.3, line 440; its str is that reference in angle brackets).
_PIP_STOPS = (
    ("4a79e65cb6aac84505ad92d272a29f0c3c1aedce", 430, "pip._internal.exceptions.InstallationError",
     "Could not build wheels for {names}, which is required to install pyproject.toml-based"
     " projects", None),
    ("97146c7f4cd85551f3dc261830a57f304e43c181", 435, "pip._internal.exceptions.InstallationError",
     "ERROR: Failed to build installable wheels for some pyproject.toml based projects"
     " ({names})", r"(?:ERROR: |\u00d7 )?Failed to build installable wheels for some pyproject\.toml"
     r" based projects(?: \((.+?)\))?"),
    ("a52069365063ea813fe3a3f8bac90397c9426d35", 440,
     "pip._internal.exceptions.InstallWheelBuildError",
     "<InstallWheelBuildError: failed-wheel-build-for-install>", None),
)  # fmt: skip

PIP_BUILD_SOLUTIONS = (
    "Install a prebuilt wheel instead: pin a version that has one for your Python,"
    " torch and CUDA (the package's release page lists them), or use the engine's"
    " docker image",
    "For packages that import torch while building (flash-attn), install torch first"
    " and build without isolation: pip install flash-attn --no-build-isolation",
    "If you must build: install the CUDA toolkit that matches torch (python -c 'import"
    " torch; print(torch.version.cuda)'), set CUDA_HOME, and limit parallel jobs"
    " (MAX_JOBS=4) so the build does not run out of memory",
)
_PIP_BUILD_FIX = (
    "# before\npip install flash-attn  # Failed building wheel for"
    " flash-attn\n# after\npip install torch  # the torch the engine pins, first\n"
    "MAX_JOBS=4 pip install flash-attn --no-build-isolation"
)
_PIP_BUILD_REFERENCES = (
    "https://github.com/Dao-AILab/flash-attention#installation-and-features",
    "https://pip.pypa.io/en/stable/cli/pip_install/",
)
_PIP_STOP_DOC = (
    "pip gave up on the install because it could not build a wheel for the packages it"
    " names: for each, no prebuilt wheel fitted this Python, platform or version, so pip"
    " compiled it from source and the build failed. The real error is further up the"
    " log, above 'Failed building wheel for <name>' (the compiler's or the build script's"
    " first error). For the engines' CUDA packages (vllm, flash-attn, sgl-kernel,"
    " deep_gemm) a source build needs the CUDA toolkit matching the installed torch, a"
    " supported compiler and much memory; on Windows, vllm publishes no wheels at all."
)

_NO_VERSION_DOC = (
    "pip found no release of the package with a wheel for this Python and"
    " platform, or no release with that version. The engines publish Linux wheels for a"
    " range of Python versions only; macOS and Windows get no CUDA wheels, and a version"
    " pinned too new or too old for the Python in use is not offered. '(from versions:"
    " none)' means no release fits this Python or platform at all. A package's own pins"
    " count too: an sdist whose build needs torch==2.3.1 fails so on a platform that torch"
    " release has no wheel for."
)
_NO_VERSION_SOLUTIONS = (
    "Check the Python version against the engine's supported range (python --version;"
    " the engine's installation page) and use a venv with a supported one",
    "Check the platform: the engines' CUDA wheels are for Linux (x86_64, aarch64); on"
    " Windows use WSL2, on macOS the CPU or Metal builds their docs describe",
    "Pick a version pip lists after 'from versions:', or the engine's docker image",
)
_NO_VERSION_FIX = (
    "# before\npython3.8 -m pip install vllm==0.33.0  # Could not find a"
    " version that satisfies the requirement\n# after\nuv venv --python 3.12 && source"
    " .venv/bin/activate\nuv pip install vllm==0.33.0"
)
#: pip logs the first line and raises DistributionNotFound with the second (factory.py).
_NO_VERSION = (
    (PIP_NO_VERSION_LINE, "Could not find a version that satisfies the requirement {requirement}",
     r"(?:ERROR: )?Could not find a version that satisfies the requirement (\S+)"
     r"(?: \(from versions: [^)]*\))?", ("https://pip.pypa.io/en/stable/topics/dependency-resolution/",)),
    (PIP_NO_DISTRIBUTION_LINE, "No matching distribution found for {requirement}",
     r"(?:ERROR: )?No matching distribution found for (\S+)",
     ("https://github.com/vllm-project/vllm/issues/6622",)),
)  # fmt: skip

_JIT = (
    "Triton compiles a small C launcher the first time a kernel runs (torch.compile, the"
    " engines' Triton kernels), and flashinfer and DeepGEMM compile kernels at run time"
)

RECORDS = (
    Spec(
        kind="tool-python-headers",
        repo="gcc-mirror/gcc",
        path="libcpp/files.cc",
        line=GCC_LINE,
        sha=GCC_SHA,
        error_class="gcc",
        tags=("errcat:tool:gcc", "build"),
        template="fatal error: Python.h: No such file or directory",
        pattern=r"(?:\S+:\d+:\d+: )?fatal error: Python\.h: No such file or directory",
        documentation=_JIT + ". The C compiler found no Python.h: the development headers of"
        " the Python that runs the engine are not installed. Distribution Pythons (apt, dnf)"
        " ship them as a separate package; conda, uv-managed Pythons and the engines' docker"
        " images include them.",
        solutions=(
            "Install the headers of the Python you run: on Debian or Ubuntu sudo apt-get"
            " install python3-dev (python3.12-dev for Python 3.12), on Fedora or RHEL sudo dnf"
            " install python3-devel",
            "Or run the engine from a Python that carries its headers: a conda or uv-managed"
            " environment, or the engine's docker image",
            "Then delete the failed build cache (rm -rf ~/.triton/cache) and start again",
        ),
        example_fix="# before\npython -m sglang.launch_server --model-path M  # fatal error:"
        " Python.h: No such file or directory\n# after\nsudo apt-get install -y python3.12-dev"
        "  # the version of the Python that runs sglang\npython -m sglang.launch_server"
        " --model-path M",
        prevention=(
            "Serve from the engine's docker image, or from a conda or uv environment, whose"
            " Python ships its headers",
        ),
        references=(
            "https://github.com/vllm-project/vllm/issues/27890",
            "https://github.com/gensyn-ai/rl-swarm/issues/226",
        ),
    ),
    Spec(
        kind="tool-libcuda-link",
        repo="bminor/binutils-gdb",
        path="ld/ldfile.c",
        line=LD_LINE,
        sha=LD_SHA,
        error_class="ld",
        tags=("errcat:tool:ld", "build"),
        template="cannot find -lcuda",
        pattern=r"(?:\S*ld(?:\.\w+)?: )?cannot find -lcuda(?:: No such file or directory)?",
        documentation=_JIT + ". The linker found no libcuda.so to link that code against."
        " The file belongs to the NVIDIA driver, not the CUDA toolkit; many systems and"
        " containers have only libcuda.so.1, or keep it in a folder the linker does not"
        " search (WSL: /usr/lib/wsl/lib; containers: where the NVIDIA runtime mounted it).",
        solutions=(
            "Tell Triton where the driver library is: export TRITON_LIBCUDA_PATH=<the folder"
            " holding libcuda.so> (find it with ldconfig -p | grep libcuda)",
            "If only libcuda.so.1 exists, add the missing link: sudo ln -s"
            " /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so &&"
            " sudo ldconfig",
            "In docker, start the container with the NVIDIA runtime (--gpus all, or --runtime"
            " nvidia) so that the driver's libraries are mounted",
        ),
        example_fix="# before\nvllm serve M  # /usr/bin/ld: cannot find -lcuda\n# after\n"
        "ldconfig -p | grep libcuda  # e.g. /usr/lib/wsl/lib/libcuda.so.1\n"
        "export TRITON_LIBCUDA_PATH=/usr/lib/wsl/lib\nvllm serve M",
        references=(
            "https://github.com/triton-lang/triton/pull/1981",
            "https://github.com/state-spaces/mamba/issues/123",
            "https://github.com/vllm-project/vllm/issues/16984",
            "https://github.com/pytorch/pytorch/issues/103417",
        ),
    ),
    Spec(
        kind="tool-docker-gpu",
        repo="moby/moby",
        path="daemon/devices.go",
        line=MOBY_LINE,
        sha=MOBY_SHA,
        error_class="docker",
        tags=("errcat:tool:docker", "container"),
        template='could not select device driver "{driver}" with capabilities: {capabilities}',
        pattern=r"(?:docker: )?(?:Error response from daemon: )?could not select device driver"
        r' "([^"]*)" with capabilities: (\S+?)\.?',
        documentation="Docker was asked for GPUs (--gpus) but no installed runtime provides"
        " them: the NVIDIA Container Toolkit is not installed on the host, or docker was not"
        " configured and restarted after installing it. The engine never started.",
        solutions=(
            "Install the NVIDIA Container Toolkit on the host (the nvidia-container-toolkit"
            " package from NVIDIA's repository)",
            "Register it with docker and restart the daemon: sudo nvidia-ctk runtime configure"
            " --runtime=docker && sudo systemctl restart docker",
            "Check the host first: nvidia-smi must work outside the container",
        ),
        example_fix="# before\ndocker run --gpus all vllm/vllm-openai --model M  # could not"
        ' select device driver ""\n# after\nsudo apt-get install -y nvidia-container-toolkit\n'
        "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker\n"
        "docker run --gpus all vllm/vllm-openai --model M",
        references=(
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/"
            "install-guide.html",
        ),
    ),
    Spec(
        kind="tool-docker-gpu",
        repo="NVIDIA/libnvidia-container",
        path="src/cli/dsl.c",
        line=NVC_LINE,
        sha=NVC_SHA,
        error_class="nvidia-container-cli",
        tags=("errcat:tool:nvidia-container-cli", "container"),
        template="unsatisfied condition: {condition}, please update your driver to a newer"
        " version, or use an earlier cuda container",
        # docker wraps the hook's stderr in its daemon error; a paste joined into one line
        # keeps that lead before the hook's own words.
        pattern=r"(?:(?:docker: )?Error response from daemon: .*?stderr: (?:Auto-detected mode"
        r" as '\w+'\s*)?)?(?:nvidia-container-cli: )?(?:requirement error: )?"
        r"unsatisfied condition: ([^\s,]+)(?:, please update your driver to a newer version, or use an"
        r" earlier cuda container)?(?:: unknown)?\.?",
        documentation="The container's image was built on a CUDA release (its"
        " NVIDIA_REQUIRE_CUDA, for example cuda>=12.4) that the host's NVIDIA driver is too"
        " old to run, so NVIDIA's container hook refused to start it; docker shows this as"
        " an 'OCI runtime create failed' error and the engine never started. The CUDA version"
        " nvidia-smi prints on the host is the newest the driver supports. Engine images move"
        " to newer CUDA base images over time (NVIDIA retires old ones), so a newer engine"
        " tag can stop starting on a host that ran the previous one.",
        solutions=(
            "Upgrade the host's NVIDIA driver to one that supports the CUDA named in the"
            " condition (CUDA 12.4 needs driver 550 or newer, 12.8 needs 570; CUDA 11 needs"
            " 450), then reboot; nvidia-smi shows the driver's CUDA",
            "Or run an older engine image built on a CUDA your driver supports (pin the tag,"
            " for example vllm/vllm-openai:v0.4.3 instead of latest), or build the image on an"
            " older CUDA base",
            "Data-center GPUs can run newer CUDA on an older driver through CUDA forward"
            " compatibility (the cuda-compat package); only then start the container with"
            " -e NVIDIA_DISABLE_REQUIRES=true to skip the check",
        ),
        example_fix="# host: nvidia-smi shows CUDA Version: 12.2\n# before\ndocker run --gpus"
        " all vllm/vllm-openai:latest --model M  # unsatisfied condition: cuda>=12.8\n# after:"
        " a newer driver (or an image built for the host's CUDA)\nsudo apt install"
        " nvidia-driver-570 && sudo reboot",
        references=(
            "https://docs.nvidia.com/deploy/cuda-compatibility/",
            "NVIDIA/nvidia-container-toolkit#152 (a CUDA 11.8 image newer than the host"
            " driver; NVIDIA_DISABLE_REQUIRES=true as the maintainers' workaround)",
            "NVIDIA/nvidia-docker#1442 (CUDA 11 images need a host driver of 450 or newer)",
        ),
    ),
    *(
        Spec(
            kind="tool-pip-no-version",
            repo="pypa/pip",
            path="src/pip/_internal/resolution/resolvelib/factory.py",
            line=line,
            sha=PIP_NO_VERSION_SHA,
            error_class="pip",
            tags=("errcat:tool:pip", "install"),
            template=template,
            pattern=pattern,
            documentation=_NO_VERSION_DOC,
            solutions=_NO_VERSION_SOLUTIONS,
            example_fix=_NO_VERSION_FIX,
            references=references,
        )
        for line, template, pattern, references in _NO_VERSION
    ),
    Spec(
        kind="tool-pip-build",
        repo="pypa/pip",
        path="src/pip/_internal/operations/build/wheel.py",
        line=PIP_BUILD_LINE,
        sha=PIP_BUILD_SHA,
        error_class="pip",
        tags=("errcat:tool:pip", "install"),
        template="Failed building wheel for {name}",
        # pip says "editable" for pip install -e (a checkout of vllm or sgl-kernel).
        pattern=r"(?:ERROR: )?Failed building (?:wheel|editable) for (\S+)",
        documentation="pip found no prebuilt wheel that fits and tried to compile the package"
        " from source, and the build failed; the compiler's first error, further up the log,"
        " says why. For the engines' CUDA packages (flash-attn, vllm, sgl-kernel, deep_gemm)"
        " a source build needs the CUDA toolkit matching the installed torch, a supported"
        " compiler, much memory and time; it is rarely what the user wanted.",
        solutions=PIP_BUILD_SOLUTIONS,
        example_fix=_PIP_BUILD_FIX,
        references=_PIP_BUILD_REFERENCES,
    ),
    *(
        Spec(
            kind="tool-pip-build",
            repo="pypa/pip",
            path="src/pip/_internal/commands/install.py",
            line=line,
            sha=sha,
            error_class=error_class,
            tags=("errcat:tool:pip", "install"),
            template=template,
            pattern=pattern,
            documentation=_PIP_STOP_DOC,
            solutions=PIP_BUILD_SOLUTIONS,
            example_fix=_PIP_BUILD_FIX,
            references=_PIP_BUILD_REFERENCES,
        )
        for sha, line, error_class, template, pattern in _PIP_STOPS
    ),
    *(
        Spec(
            kind="tool-pip-externally-managed",
            repo="pypa/pip",
            path="src/pip/_internal/exceptions.py",
            line=line,
            sha=PIP_PEP668_SHA,
            error_class="pip",
            tags=("errcat:tool:pip", "install"),
            template=template,
            pattern=pattern,
            documentation="pip refused to install into the operating system's own Python: the"
            " distribution marks it as managed by its package manager (PEP 668: an"
            " EXTERNALLY-MANAGED file beside the standard library, on Debian 12, Ubuntu 23.04"
            " and later, Arch Linux, Homebrew and Nix). Nothing was installed. The engines are"
            " meant to go into a virtual environment (or their docker image) anyway: they pin"
            " their own torch, which must not replace the system's packages.",
            solutions=(
                "Create a virtual environment and install there: python3 -m venv .venv &&"
                " . .venv/bin/activate && pip install vllm (on Debian or Ubuntu first sudo"
                " apt-get install -y python3-venv); or uv venv --python 3.12 && uv pip install"
                " sglang",
                "Or run the engine's docker image (vllm/vllm-openai, lmsysorg/sglang) and install"
                " nothing on the host",
                "Only in a throwaway container whose system Python nothing else uses: pip install"
                " --break-system-packages vllm, or ENV PIP_BREAK_SYSTEM_PACKAGES=1 in the"
                " Dockerfile",
            ),
            example_fix="# before\npip install vllm  # error: externally-managed-environment\n"
            "# after\npython3 -m venv ~/vllm-env && . ~/vllm-env/bin/activate\npip install vllm",
            references=(
                "https://peps.python.org/pep-0668/",
                "https://packaging.python.org/en/latest/specifications/externally-managed-environments/",
                "Chen-zexi/vllm-cli#2 (Debian's Python 3.13 refusing pip install; a venv as the"
                " maintainer's answer)",
            ),
        )
        for line, template, pattern in _PEP668
    ),
)
