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

from typing import Any

from errcat.mine.cpp.checks import CheckSite
from errcat.mine.records import SNIPPET_RADIUS, github_url, record_id, slugify
from errcat.patterns import template_to_pattern

__all__ = ["PROJECT_ADVICE", "site_envelope"]

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
}


def _kind(site: CheckSite) -> str:
    return "validation" if site.error_class in {"ValueError", "TypeError"} else "runtime"


def _documentation(site: CheckSite, what: str) -> str:
    where = f"the macro {site.defined_in}" if site.defined_in else site.macro
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
) -> dict[str, Any]:
    """One check site as a schemaVersion 2 envelope (advice generated, tagged so)."""
    start = max(1, site.line - SNIPPET_RADIUS)
    end = max(site.line, min(len(lines), site.line + SNIPPET_RADIUS))
    snippet = "\n".join(lines[start - 1 : end])
    what, reinstall, fix = PROJECT_ADVICE.get(
        repo, (f"{repo}'s compiled code", PROJECT_ADVICE["pytorch/pytorch"][1], "")
    )
    solutions = [reinstall]
    if site.condition and site.condition not in {"false", "0"}:
        solutions.append(
            f"The check requires {site.condition}: if that names a dtype, a quantization, a"
            " head size or a GPU feature, serve the model with another --dtype,"
            " --quantization or attention backend"
        )
    solutions.append(_REPORT + f" (https://github.com/{repo}/issues)")
    tags = [
        "errcat:generated",
        "errcat:native",
        "errcat:native:torch-check",
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
        "errorMessage": site.template,
        "messagePattern": template_to_pattern(site.template),
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
