"""Source builds and installs that go wrong before an engine runs: pip's and uv's own lines.

When no wheel fits (an sdist-only release, a new Python, Windows, a git
checkout), pip or uv builds the package in a subprocess and reports the failed
step with a line of its own: pip's ``Building wheel for vllm (pyproject.toml)
did not run successfully.`` (or ``Getting requirements to build wheel``, ``python
setup.py bdist_wheel``, ...), uv's ``Call to `scikit_build_core.build.build_wheel`
failed (exit status: 1)``. Those lines only say a build failed; the cause is in the
build's output above them. Before any build, uv's resolver may find no set of versions
that fits (``No solution found when resolving dependencies:``, then the chain of
``Because ...`` that proves it). After an install that did succeed, pip's resolver may
still list installed packages whose pins the new set broke (``vllm 0.18.0 requires
torch==2.10.0, but you have torch 2.9.0 which is incompatible.``). Each record is
tagged ``errcat:tool:<tool>``.

Sources: pip 23.2.1 (commit 4a79e65, as :mod:`native_catalog.tools`):
``InstallationSubprocessError`` (src/pip/_internal/exceptions.py, line 387) and the
resolver's conflict report (src/pip/_internal/commands/install.py, lines 600 and
622); uv's ``BuildBackendError`` (crates/uv-build-frontend/src/error.rs, line 261)
and its resolver's header (crates/uv-resolver/src/error.rs, line 1779, at 26a9dd4).
Threads learned from (even-numbered, in benchmarks/data/study_stack.jsonl):
vllm#778, vllm#556, sgl-project/sglang#12398, vllm-project/vllm-ascend#8286,
allenai/open-instruct#172; for the resolver, vllm#28030, vllm#28438 and
astral-sh/uv#9422 (the ``issues`` corpus).

>>> import regex
>>> line = "vllm 0.18.0 requires torch==2.10.0, but you have torch 2.9.0 which is incompatible."
>>> bool(regex.fullmatch(RECORDS[1].envelope()["record"]["messagePattern"], line))
True
>>> step = "\\u00d7 Getting requirements to build wheel did not run successfully."
>>> bool(regex.fullmatch(RECORDS[2].envelope()["record"]["messagePattern"], step))
True
>>> bool(
...     regex.fullmatch(
...         RECORDS[2].envelope()["record"]["messagePattern"], "It did not run successfully."
...     )
... )
False
>>> resolve = RECORDS[-1].envelope()["record"]["messagePattern"]
>>> report = (
...     "\\u00d7 No solution found when resolving dependencies:\\n\\u2570\\u2500\\u25b6 Because ..."
... )
>>> bool(regex.fullmatch(resolve, report))
True
>>> bool(regex.fullmatch(resolve, "No solution found when resolving build dependencies:"))
True
>>> bool(regex.fullmatch(resolve, "No solution found for the puzzle"))
False
"""

from __future__ import annotations

from native_catalog.spec import Spec
from native_catalog.tools import PIP_BUILD_SOLUTIONS

__all__ = ["RECORDS"]

#: pip 23.2.1 (the commit native_catalog.tools names for it).
PIP_SHA = "4a79e65cb6aac84505ad92d272a29f0c3c1aedce"
UV_SHA = "6f4b20a1834a89b608ffdc8108e10908d4217ab4"
#: uv's resolver header (NoSolutionHeader's Display, crates/uv-resolver/src/error.rs).
UV_RESOLVE_SHA = "26a9dd4b2125bc271b47855e1fa0c49af3365db5"
UV_RESOLVE_LINE = 1779
#: The header as uv prints it: after miette's cross (or an 'error:' lead in plain output),
#: with a context word ('build', 'script') and a fork split it may add, then the report
#: (no groups: the template has no placeholder).
UV_RESOLVE_PATTERN = (
    r"(?:\u00d7 |x |error: )?No solution found when resolving (?:\w+ )?dependencies"
    r"(?: for split \(.+?\))?:(?s:\s.*)?"
)

#: The steps pip runs in a subprocess and names when one fails (InstallationSubprocessError's
#: command_description): the wheel and editable builds, their metadata and requirements hooks,
#: the legacy setup.py commands, and the install of build dependencies.
_PIP_STEPS = (
    r"(?:Building (?:wheel|editable) for (\S+) \(([^()\s]+)\)"
    r"|Preparing (?:editable )?metadata \((?:pyproject\.toml|setup\.py)\)"
    r"|Getting requirements to build (?:wheel|editable)"
    r"|python setup\.py (?:bdist_wheel|egg_info|develop|install)"
    r"|pip subprocess to install build dependencies)"
)

_CONFLICT_DOC = (
    "pip installed what was asked, then checked the packages already in the environment:"
    " each line names an installed package ({name} {version}) whose requirement the new set"
    " breaks. Nothing failed yet, but the named package may fail at import or at run time"
    " (an engine pinned to one torch, a kernel package built against another). The usual"
    " cause is installing a second package that pins another torch (vllm-ascend or"
    " torch_npu, an RL framework's requirements file, flash-attn) after the engine, or"
    " upgrading torch by hand."
)
_CONFLICT_SOLUTIONS = (
    "Install the versions the named package requires, as the line says: e.g. for 'vllm"
    " 0.18.0 requires torch==2.10.0' run pip install torch==2.10.0 torchaudio==2.10.0 (the"
    " matching torchvision too); pip check lists what is still broken",
    "Or install everything in one command in a fresh virtual environment, so the resolver"
    " sees every pin at once: uv venv && uv pip install vllm==0.18.0 <the other packages>",
    "With a platform plug-in (vllm-ascend, a ROCm build) install the engine version the"
    " plug-in names for its torch, not the newest engine",
)
_CONFLICT_FIX = (
    "# before\npip install vllm==0.18.0 && pip install vllm-ascend==0.18.0rc1  # vllm 0.18.0"
    " requires torch==2.10.0, but you have torch 2.9.0\n# after\npip install torch==2.10.0"
    " torchaudio==2.10.0 torchvision==0.25.0\npip check"
)
_SUBPROCESS_DOC = (
    "pip ran a build step of a package in a subprocess and the step exited non-zero. The"
    " cause is in the step's own output, printed between '╰─> [N lines of output]' and"
    " '[end of output]': its first error (a compiler error, 'CUDA_HOME environment variable"
    " is not set', nvcc not found, 'No module named torch' in the isolated build"
    " environment) is the one to fix. pip builds from source only when no wheel fits: a"
    " Python, platform or version the package publishes no wheel for (the engines publish"
    " Linux wheels for a few Python versions; none for Windows), or an install from a git"
    " checkout."
)
_SUBPROCESS_SOLUTIONS = (
    "Scroll up to the first error inside the step's output and fix that one; the"
    " 'did not run successfully' line only reports it",
    "Prefer a prebuilt wheel: use a Python the package publishes wheels for (python"
    " --version; vllm and sglang publish Linux wheels for 3.10 to 3.12 or 3.13), pin a"
    " released version (pip install vllm==0.33.0), or use the engine's docker image; on"
    " Windows run under WSL2",
    *PIP_BUILD_SOLUTIONS[1:],
)
_SUBPROCESS_FIX = (
    "# before\npip install -e .  # Building wheel for vllm (pyproject.toml) did not run"
    " successfully.\n# after: a wheel, or a build that sees torch and the toolkit\npip"
    " install vllm==0.33.0\n# or\nexport CUDA_HOME=/usr/local/cuda\npip install torch==2.10.0"
    " && MAX_JOBS=4 pip install -e . --no-build-isolation"
)


def _conflict(line: int, template: str, pattern: str) -> Spec:
    """One of the resolver's conflict-report lines (install.py at pip 23.2.1)."""
    return Spec(
        kind="tool-pip-conflict",
        repo="pypa/pip",
        path="src/pip/_internal/commands/install.py",
        line=line,
        sha=PIP_SHA,
        error_class="pip",
        tags=("errcat:tool:pip", "install"),
        template=template,
        pattern=pattern,
        documentation=_CONFLICT_DOC,
        solutions=_CONFLICT_SOLUTIONS,
        example_fix=_CONFLICT_FIX,
        references=("https://pip.pypa.io/en/stable/topics/dependency-resolution/",),
    )


RECORDS = (
    _conflict(
        600,
        "ERROR: pip's dependency resolver does not currently take into account all the"
        " packages that are installed. This behaviour is the source of the following"
        " dependency conflicts.",
        r"(?:ERROR: )?pip's dependency resolver does not currently take into account"
        r" all the packages that are installed\. This behaviour is the source of the"
        r" following dependency conflicts\.",
    ),
    _conflict(
        622,
        "{name} {version} requires {requirement}, but you have {dep_name} {dep_version}"
        " which is incompatible.",
        r"(\S+) (\S+) requires (.+?), but you(?:'ll)? have (\S+) (\S+) which is"
        r" incompatible\.",
    ),
    Spec(
        kind="tool-pip-build",
        repo="pypa/pip",
        path="src/pip/_internal/exceptions.py",
        line=387,
        sha=PIP_SHA,
        error_class="pip._internal.exceptions.InstallationSubprocessError",
        tags=("errcat:tool:pip", "install", "build"),
        template="Building wheel for {name} ({build_file}) did not run successfully.",
        pattern=rf"(?:\u00d7 )?{_PIP_STEPS} did not run successfully\.",
        documentation=_SUBPROCESS_DOC,
        solutions=_SUBPROCESS_SOLUTIONS,
        example_fix=_SUBPROCESS_FIX,
        references=("https://pip.pypa.io/en/stable/reference/build-system/",),
    ),
    Spec(
        kind="tool-uv-build",
        repo="astral-sh/uv",
        path="crates/uv-build-frontend/src/error.rs",
        line=261,
        sha=UV_SHA,
        error_class="uv",
        tags=("errcat:tool:uv", "install", "build"),
        template="Call to `{hook}` failed (exit status: {code})",
        pattern=r"Call to `(\S+?)` failed \(exit status: (-?\d+)\)",
        documentation="uv ran the package's build backend (scikit-build-core for sgl-kernel,"
        " setuptools for vllm, hatchling, ...) and the hook named exited non-zero: the"
        " build failed, and its output above says why ('*** CMake build failed', 'ninja:"
        " build stopped: subcommand failed', a compiler error, a missing CUDA toolkit). Large"
        " CUDA packages fail most often by running out of memory when every core compiles"
        " at once, which shows as a killed compiler or a ninja subcommand failure with no"
        " other error.",
        solutions=(
            "Scroll up to the first error of the build output and fix that one",
            "If no compiler error is shown (a killed or failed ninja subcommand), limit the"
            " parallel jobs: MAX_JOBS=4 and CMAKE_BUILD_PARALLEL_LEVEL=4 (in a docker build,"
            " give the builder more memory too)",
            "Check the toolkit the build uses: nvcc --version should match torch.version.cuda"
            " (set CUDA_HOME=/usr/local/cuda-12.8 and put its bin on PATH)",
            "Prefer a prebuilt wheel of the package (pip install sgl-kernel==<the version"
            " sglang pins>) or the engine's docker image to a source build",
        ),
        example_fix="# before\nmake build  # Call to `scikit_build_core.build.build_wheel`"
        " failed (exit status: 1)\n# after\nMAX_JOBS=4 CMAKE_BUILD_PARALLEL_LEVEL=4 make build",
        references=("https://docs.astral.sh/uv/reference/troubleshooting/build-failures/",),
    ),
    Spec(
        kind="tool-uv-resolve",
        repo="astral-sh/uv",
        path="crates/uv-resolver/src/error.rs",
        line=UV_RESOLVE_LINE,
        sha=UV_RESOLVE_SHA,
        error_class="uv",
        tags=("errcat:tool:uv", "install"),
        template="No solution found when resolving dependencies:",
        pattern=UV_RESOLVE_PATTERN,
        documentation="uv's resolver proved that no set of versions meets every requirement"
        " at once, and nothing was installed. The lines under the header ('Because ... we can"
        " conclude that ... unsatisfiable') name the pin that cannot be met, and a 'hint:'"
        " below them often names the cause. With the engines it is mostly one of three: a"
        " nightly or pre-release wheel pins a dependency build (xformers, torch, flashinfer)"
        " that lives on another index than the one uv took the package from (uv, unlike pip,"
        " takes every version of a package from the first index that has it); the Python of"
        " the environment is outside the releases' range; or a package was renamed or has no"
        " wheel for the platform (flashinfer is flashinfer-python on PyPI; macOS and Windows"
        " get no CUDA wheels).",
        solutions=(
            "Read the last 'Because ...' line and the 'hint:' under it: it names the package"
            " and the version range that cannot be met",
            "If the hint says the package was found on one index but not at the requested"
            " version, let uv look at every index: add --index-strategy unsafe-best-match"
            " (or put the engine's wheel index first with --index-url and PyPI with"
            " --extra-index-url)",
            "For pre-releases and nightlies say so: --prerelease=allow; for vLLM nightlies"
            " install with uv pip install -U vllm --torch-backend=auto --extra-index-url"
            " https://wheels.vllm.ai/nightly as vLLM's install page shows, in a fresh venv",
            "If the chain ends at the Python version (requires-python), make a venv with a"
            " Python the release supports: uv venv --python 3.12",
            "Or pin a released engine version whose pins resolve: uv pip install vllm==0.33.0",
        ),
        example_fix="# before\nuv pip install -U vllm --pre --extra-index-url"
        " https://wheels.vllm.ai/nightly  # No solution found when resolving dependencies\n"
        "# after\nuv pip install -U vllm --pre --extra-index-url https://wheels.vllm.ai/nightly"
        " --index-strategy unsafe-best-match",
        references=(
            "https://docs.astral.sh/uv/concepts/indexes/#searching-across-multiple-indexes",
            "vllm-project/vllm#28030 (a vLLM nightly under uv pinned an xformers build no"
            " index uv searched held)",
            "vllm-project/vllm#28438 (installing a vLLM nightly, with pip and with uv)",
            "astral-sh/uv#9422 (vllm's xformers pin has no macOS wheel)",
        ),
    ),
)
