"""C++ check sites as draft records, with advice written for the project that compiled them.

A check in a compiled extension (sgl-kernel, vllm's ``_C``, torch itself) fails
when Python calls the kernel with arguments it does not take: most often an
extension built for another release of the Python code that calls it, or a
model, dtype, quantization or GPU the kernel does not support. The advice says
that in the project's own levers; the template, class and location come from
the source (:mod:`errcat.mine.cpp.checks`).

>>> from errcat.mine.cpp.checks import find_checks
>>> site = find_checks('TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");')[0]
>>> env = site_envelope(
...     site,
...     "vllm-project/vllm",
...     "csrc/ops.cu",
...     "0" * 40,
...     lines=["line"],
...     analyzed_at="2026-01-01T00:00:00Z",
... )
>>> env["record"]["errorMessage"], env["record"]["tags"][:2]
('x must be a CUDA tensor', ['errcat:generated', 'errcat:native'])
"""

from __future__ import annotations

import re
from typing import Any

from errcat.mine.cpp.checks import DEFAULT_CHECK, CheckSite
from errcat.mine.records import SNIPPET_RADIUS, github_url, record_id
from errcat.patterns import template_to_pattern
from errcat.slugs import slugify

__all__ = ["PROJECT_ADVICE", "cut_anywhere", "site_envelope", "site_message", "site_pattern"]

_REPORT = "Report the model, GPU, engine version and launch command to the project"

#: Per repository: (what the compiled code is called, how to reinstall it matched, its fix).
PROJECT_ADVICE: dict[str, tuple[str, str, str]] = {
    "sgl-project/sglang": (
        "sgl-kernel (sglang's compiled kernels)",
        "Install sglang and sgl-kernel from the same release (pip install --upgrade sglang"
        " sgl-kernel), or use the lmsysorg/sglang docker image: Python code of one release"
        " calling kernels of another fails such checks",
        "# before: sglang upgraded, sgl-kernel left behind\npip install --upgrade sglang\n"
        "# after\npip install --upgrade sglang sgl-kernel",
    ),
    "vllm-project/vllm": (
        "vllm's compiled extension (vllm._C)",
        "Reinstall vllm so its compiled extension matches its Python code and the torch it"
        " pins (pip install --force-reinstall vllm, in a fresh environment), or use the"
        " vllm/vllm-openai docker image",
        "# before: vllm built from source against another torch\npip install -e .\n# after\n"
        "python -m venv fresh && fresh/bin/pip install vllm",
    ),
    "pytorch/pytorch": (
        "torch's C++ core",
        "Upgrade torch to the version the engine pins (pip install 'torch==<the engine's"
        " pin>'): a check that fails on valid input is often fixed in a later release",
        "pip install --upgrade torch",
    ),
    "flashinfer-ai/flashinfer": (
        "flashinfer's C++/CUDA kernels",
        "Install the flashinfer-python release the engine pins (sglang 0.5.23 pins 0.7.2,"
        " vllm 0.33.0 pins 0.7.2.post1: pip install 'flashinfer-python==0.7.2.post1'), then"
        " clear flashinfer's JIT cache (rm -rf ~/.cache/flashinfer) so no kernel built by"
        " another release is loaded",
        "# before: flashinfer upgraded past the engine's pin\npip install -U flashinfer-python\n"
        "# after\npip install 'flashinfer-python==0.7.2.post1' && rm -rf ~/.cache/flashinfer",
    ),
    "deepseek-ai/DeepEP": (
        "DeepEP's expert-parallel communication kernels",
        "Build DeepEP at the commit the engine's docker image pins (sglang's"
        " docker/Dockerfile names DEEPEP_COMMIT=9af0e0d0e74f), or serve from the"
        " lmsysorg/sglang image, which ships that build",
        "# before: DeepEP built from its main branch\npip install git+https://github.com/"
        "deepseek-ai/DeepEP\n# after\npip install git+https://github.com/deepseek-ai/DeepEP"
        "@9af0e0d0e74f3577af1979c9b9e1ac2cad0104ee",
    ),
    "deepseek-ai/DeepGEMM": (
        "DeepGEMM's FP8 GEMM and attention kernels (JIT-compiled at first use)",
        "Install the DeepGEMM build the engine pins: sglang pins the sgl-deep-gemm wheel"
        " (pip install 'sgl-deep-gemm==0.1.4.post1' for the sglang that requires it), vllm"
        " builds DeepGEMM at a fixed commit with its tools/install_deepgemm.sh"
        " (DEEPGEMM_GIT_REF=891d57b4db10): a DeepGEMM from another commit asserts on the"
        " layouts and architectures the engine passes it",
        "# before: DeepGEMM built from its main branch\npip install git+https://github.com/"
        "deepseek-ai/DeepGEMM\n# after (vllm)\nbash tools/install_deepgemm.sh --ref"
        " 891d57b4db1071624b5c8fa0d1e51cb317fa709f",
    ),
}

#: What to try when a check's condition is known, per repository ("" for the rest).
_CONDITION_ADVICE = {
    "": "The check requires {cond}: if that names a dtype, a quantization, a head size or a"
    " GPU feature, serve the model with another --dtype, --quantization or attention backend",
    "flashinfer-ai/flashinfer": "The check requires {cond}: if that names a GPU"
    " architecture (SM), dtype, head size or page size, serve with an attention backend that"
    " is not flashinfer's (sglang --attention-backend triton, vllm --attention-backend"
    " TRITON_ATTN) or another --dtype / --kv-cache-dtype",
    "deepseek-ai/DeepEP": "The check requires {cond}, an internal condition of DeepEP's"
    " buffers: with sglang, try --deepep-mode normal, or serve without DeepEP"
    " (--moe-a2a-backend none) to confirm it is DeepEP's, and report the shapes",
    "deepseek-ai/DeepGEMM": "The check requires {cond}: if it names a GPU architecture,"
    " a scaling-factor layout or a shape DeepGEMM does not support, serve without DeepGEMM"
    " (sglang: SGLANG_ENABLE_JIT_DEEPGEMM=0; vllm: VLLM_USE_DEEP_GEMM=0), which falls back"
    " to the engine's Triton or CUTLASS FP8 kernels",
}

#: What to try when a site states no condition (a branch DeepGEMM should not reach), per repository.
_BRANCH_ADVICE = {
    "deepseek-ai/DeepGEMM": "DeepGEMM has no kernel for this GPU architecture or input:"
    " serve without DeepGEMM (sglang: SGLANG_ENABLE_JIT_DEEPGEMM=0; vllm:"
    " VLLM_USE_DEEP_GEMM=0), which falls back to the engine's Triton or CUTLASS FP8 kernels",
}

#: Tags of a site by its macro: torch's check family, or a kernel library's own.
_KERNEL_LIBRARIES = {"flashinfer-ai/flashinfer", "deepseek-ai/DeepEP", "deepseek-ai/DeepGEMM"}
#: The groups of where a check sits: the directories before a known file name, a
#: whole path (a macro's use site), a line.
_GROUPS = {"{__DIR__}": r"(\S*?)", "{__FILE__}": r"(\S+?)", "{__LINE__}": r"(\d+)"}
_LOCATION = re.compile(r"(\{__DIR__\}|\{__FILE__\}|\{__LINE__\})")


def site_message(site: CheckSite, file_path: str) -> str:
    """The site's ``errorMessage``: its template, with the file's own name where it sits.

    ``__FILE__`` is the path the builder compiled (``/workspace/include/...``,
    ``/sgl-workspace/DeepEP/csrc/...``): only its last part is known, so the
    directories before it are a placeholder ``{__DIR__}``. Inside a ``#define``
    the file is the one using the macro: the whole path stays a placeholder.

    >>> from errcat.mine.cpp.checks import find_checks
    >>> site_message(find_checks("EP_HOST_ASSERT(n <= cap);")[0], "csrc/deep_ep.cpp")
    "Failed: Assertion error {__DIR__}deep_ep.cpp:{__LINE__} 'n <= cap'"
    """
    if site.defined_in:
        return site.template
    name = file_path.rsplit("/", 1)[-1].replace("{", "{{").replace("}", "}}")
    return site.template.replace("{__FILE__}", "{__DIR__}" + name)


#: The sentence torch adds after a message-less check's ``Expected ... to be true, but got
#: false.``: pastes often cut it (a search chunk, a terminal, a title), anywhere in it.
_IMPROVE = DEFAULT_CHECK.split("but got false.", 1)[1]


def cut_anywhere(tail: str) -> str:
    r"""A regex for ``tail`` or any prefix of it that ends between two words (or none of it).

    >>> import re
    >>> pattern = cut_anywhere(" (Could this be improved?)")
    >>> [bool(re.fullmatch(pattern, t)) for t in ("", " (Could this", " (Could this be improved?)")]
    [True, True, True]
    >>> bool(re.fullmatch(pattern, " (Could th"))
    False
    """
    words = re.findall(r"\s*\S+", tail)
    out = ""
    for word in reversed(words):
        head = r"\s+" + re.escape(word.lstrip()) if word[:1].isspace() else re.escape(word)
        out = f"(?:{head}{out})?"
    return out


def site_pattern(site: CheckSite, file_path: str) -> str:
    r"""The site's ``messagePattern``: :func:`site_message`'s, free of directory and line.

    ``{__DIR__}`` takes any run of non-space characters (an empty one too),
    ``{__LINE__}`` any number, so the pattern fits whatever tree the library was
    built from and whichever release moved the line.

    >>> from errcat.mine.cpp.checks import find_checks
    >>> site = find_checks("EP_HOST_ASSERT(n <= cap);")[0]
    >>> print(site_pattern(site, "csrc/deep_ep.cpp"))
    Failed: Assertion error (\S*?)deep_ep\.cpp:(\d+) 'n <= cap'
    """
    message = site_message(site, file_path)
    cut = message.endswith(_IMPROVE)
    if cut:
        message = message[: -len(_IMPROVE)]
    out = []
    for piece in _LOCATION.split(message):
        if piece in _GROUPS:
            out.append(_GROUPS[piece])
        elif piece:
            out.append(template_to_pattern(piece))
    return "".join(out) + (cut_anywhere(_IMPROVE) if cut else "")


def _kind(site: CheckSite) -> str:
    return "validation" if site.error_class in {"ValueError", "TypeError"} else "runtime"


def _documentation(site: CheckSite, what: str) -> str:
    where = f"the macro {site.defined_in}" if site.defined_in else site.macro
    if site.error_class == "nvcc":
        return (
            f"A static_assert in {what} ({where}) failed while nvcc compiled it: the build"
            " was configured with a constant (GPU architecture, number of ranks, hidden size)"
            " this code does not support."
        )
    text = f"A check in {what} ({where}) failed, so the kernel refused its arguments."
    if site.condition and site.condition not in {"false", "0"}:
        text += f" It requires {site.condition}."
    return (
        text + " The Python side passed a tensor shape, dtype, device or option this build"
        " does not support."
    )


def site_envelope(
    site: CheckSite,
    repo: str,
    file_path: str,
    sha: str,
    *,
    lines: list[str],
    analyzed_at: str,
    radius: int = SNIPPET_RADIUS,
) -> dict[str, Any]:
    """One check site as a schemaVersion 2 envelope (advice generated, tagged so).

    The call (all its lines) and ``radius`` lines each side make its ``sourceCode``.
    """
    start = max(1, site.line - radius)
    end = max(site.line, min(len(lines), max(site.line, site.end_line) + radius))
    snippet = "\n".join(lines[start - 1 : end])
    what, reinstall, fix = PROJECT_ADVICE.get(
        repo, (f"{repo}'s compiled code", PROJECT_ADVICE["pytorch/pytorch"][1], "")
    )
    solutions = [reinstall]
    if site.condition and site.condition not in {"false", "0"}:
        solutions.append(
            _CONDITION_ADVICE.get(repo, _CONDITION_ADVICE[""]).format(cond=site.condition)
        )
    elif repo in _BRANCH_ADVICE:
        solutions.append(_BRANCH_ADVICE[repo])
    solutions.append(_REPORT + f" (https://github.com/{repo}/issues)")
    family = "kernel-check" if repo in _KERNEL_LIBRARIES else "torch-check"
    tags = [
        "errcat:generated",
        "errcat:native",
        f"errcat:native:{family}",
        "errcat:cpp",
        f"cpp:{site.macro}",
    ]
    if site.error_class.startswith("torch."):
        tags.append("errcat:base:RuntimeError")
    record = {
        "id": record_id(repo, file_path, site.template, site.defined_in),
        "repo": repo,
        "slug": slugify(site.template),
        "errorCode": None,
        "errorMessage": site_message(site, file_path),
        "messagePattern": site_pattern(site, file_path),
        "errorType": _kind(site),
        "errorClass": site.error_class,
        "httpStatus": None,
        "severity": "error",
        "filePath": file_path,
        "lineNumber": site.line,
        "sourceCode": snippet,
        "sourceCodeStart": start,
        "sourceCodeEnd": end,
        "githubUrl": github_url(repo, sha, file_path, start, end),
        "documentation": _documentation(site, what),
        "triggerScenarios": "",
        "commonSituations": "",
        "solutions": solutions,
        "exampleFix": fix,
        "handlingStrategy": "runtime",
        "validationCode": site.condition or None,
        "typeGuard": None,
        "tryCatchPattern": None,
        "preventionTips": [],
        "tags": tags,
        "backgroundTag": None,
        "analyzedSha": sha,
        "analyzedAt": analyzed_at,
        "schemaVersion": 2,
    }
    return {"record": record, "datasetVersion": analyzed_at}
