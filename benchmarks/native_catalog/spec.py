"""One curated native record, written compactly, and how it becomes a schemaVersion 2 record.

A :class:`Spec` names where the message is made (repository, path, line and the
commit those were read at), the message template and, when the template alone
does not say it, a hand-written regex; the advice; and the native kind the
record answers (tagged ``errcat:native:<kind>``). The source snippet is left
empty: these records quote no third-party code, their link points at it.

>>> spec = Spec(
...     kind="cuda-other",
...     repo="pytorch/pytorch",
...     path="c10/cuda/CUDAException.cpp",
...     line=42,
...     sha="0" * 40,
...     error_class="torch.AcceleratorError",
...     template="CUDA error: unknown error",
...     documentation="The CUDA runtime failed without saying why.",
...     solutions=("Run nvidia-smi",),
...     example_fix="nvidia-smi",
... )
>>> record = spec.envelope()["record"]
>>> record["messagePattern"], record["tags"][-1]
('CUDA error: unknown error', 'errcat:native:cuda-other')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from errcat.mine.records import github_url, record_id
from errcat.patterns import template_to_pattern
from errcat.slugs import slugify
from errcat.tags import PHRASE_TAG_PREFIX

__all__ = ["ANALYZED_AT", "KINDS", "Spec", "Variant"]

#: When these records were written (their analyzedAt and datasetVersion).
ANALYZED_AT = "2026-11-20T00:00:00Z"

#: The native kinds a record can answer (the tag ``errcat:native:<kind>``).
KINDS = frozenset(
    {
        "cuda-oom",
        "cuda-illegal-address",
        "cuda-device-assert",
        "cuda-no-kernel-image",
        "cuda-other",
        "cublas",
        "cudnn",
        "nccl-error",
        "nccl-watchdog-timeout",
        "gloo",
        "segfault",
        "fatal-python-error",
        "oom-killed",
        "bus-error",
        "hip-oom",
        "hip-other",
        "hip-memory-access-fault",
        "torch-check",
        "import-missing-module",
        "import-cannot-import-name",
        "tool-python-headers",
        "tool-libcuda-link",
        "tool-docker-gpu",
        "tool-pip-no-version",
        "tool-pip-build",
        "tool-pip-conflict",
        "tool-pip-externally-managed",
        "tool-uv-build",
        "tool-uv-resolve",
        "tool-cmake-cuda",
        "tool-cmake-compiler",
        # native_catalog.toolchain: ninja, nvcc's host compiler, a full disk, pip's resolver
        "tool-ninja-build",
        "tool-nvcc-host-compiler",
        "disk-full",
        "tool-pip-os-error",
        "tool-pip-resolution",
        "tool-pip-unsupported-wheel",
        # HTTP statuses of the engines' OpenAI-compatible servers (native_catalog.http).
        *(f"http-{code}" for code in (400, 401, 403, 404, 413, 422, 429, 500, 502, 503, 504)),
        # ... and the Hugging Face Hub's refusals while a model downloads (native_catalog.http_hub)
        "hf-hub-http",
    }
)


@dataclass(frozen=True)
class Variant:
    """Advice for one engine (and phase): becomes an ``engineAdvice`` entry."""

    engine: str | None
    phase: str | None
    solutions: tuple[str, ...]
    example_fix: str
    documentation: str = ""

    def to_json(self) -> dict[str, Any]:
        """The entry as the record stores it (camelCase, empty fields left out)."""
        out: dict[str, Any] = {"engine": self.engine, "phase": self.phase}
        if self.documentation:
            out["documentation"] = self.documentation
        out["solutions"] = list(self.solutions)
        out["exampleFix"] = self.example_fix
        return out


@dataclass(frozen=True)
class Spec:
    """A curated native record in the few fields that differ between records."""

    kind: str
    repo: str
    path: str
    line: int
    sha: str
    error_class: str
    template: str
    documentation: str
    solutions: tuple[str, ...]
    example_fix: str
    pattern: str | None = None
    trigger: str = ""
    situations: str = ""
    prevention: tuple[str, ...] = ()
    #: Classes the same message is printed as (older releases, a builtin base).
    also_classes: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = field(default=())
    slug: str = ""
    #: Words that name this error wherever they stand (an issue title: "illegal memory
    #: access on 2x8 H20"): the tag ``errcat:phrase:<words>`` (see errcat.matcher.phrases).
    phrases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.template!r}: unknown native kind {self.kind!r}")

    @property
    def record_id(self) -> str:
        """A stable id: repository, path and template (a line move keeps it), as the miner's."""
        return record_id(self.repo, self.path, self.template)

    def envelope(self) -> dict[str, Any]:
        """The record as a JSON Lines envelope."""
        documentation = self.documentation
        if self.references:
            documentation += "\n\nSources: " + " ; ".join(self.references)
        tags = [
            *self.tags,
            *(f"{PHRASE_TAG_PREFIX}{p}" for p in self.phrases),
            *(f"errcat:base:{c}" for c in self.also_classes),
            "errcat:native",
            f"errcat:native:{self.kind}",
        ]
        record: dict[str, Any] = {
            "id": self.record_id,
            "repo": self.repo,
            "slug": self.slug or slugify(self.template),
            "errorCode": None,
            "errorMessage": self.template,
            "messagePattern": self.pattern or template_to_pattern(self.template),
            "errorType": "runtime",
            "errorClass": self.error_class,
            "httpStatus": None,
            "severity": "error",
            "filePath": self.path,
            "lineNumber": self.line,
            "sourceCode": "",
            "sourceCodeStart": self.line,
            "sourceCodeEnd": self.line,
            "githubUrl": github_url(self.repo, self.sha, self.path, self.line, self.line),
            "documentation": documentation,
            "triggerScenarios": self.trigger,
            "commonSituations": self.situations,
            "solutions": list(self.solutions),
            "exampleFix": self.example_fix,
            "handlingStrategy": "runtime",
            "validationCode": None,
            "typeGuard": None,
            "tryCatchPattern": None,
            "preventionTips": list(self.prevention),
            "tags": tags,
            "backgroundTag": None,
            "analyzedSha": self.sha,
            "analyzedAt": ANALYZED_AT,
            "schemaVersion": 2,
        }
        if self.variants:
            record["engineAdvice"] = [v.to_json() for v in self.variants]
        return {"record": record, "datasetVersion": ANALYZED_AT}
