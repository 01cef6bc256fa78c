r"""Where a family record's errors are raised: anywhere in its scope, in the functions it names.

A family record (tagged :data:`~errcat.tags.FAMILY_TAG`) stands for an error the
Python interpreter raises in a project's code, where no ``raise`` statement says
so: ``KeyError: 'model.layers.3.mlp.experts.w2_weight_scale_inv'`` at
``param = params_dict[name]`` in whichever model's ``load_weights``. Its file is
one example of where; its message shape is generic Python (any project's dict
raises ``KeyError``). So the raise frame is the evidence: a raise frame in one
of the record's scope directories (:data:`~errcat.tags.SCOPE_TAG_PREFIX`, else
the directory of its file) and in a function its ``errcat:in:`` tags name is
its raise site; in the scope but another function, its raise file. Anywhere
else the record has what any record has there (a frame in its package, or none).
Without a raise site it stays under the answer threshold
(:func:`errcat.matcher.score._score`): a hint, never an answer.

The raise frame is the innermost frame, but a frame that only raises on its
caller's behalf (``torch.nn.Module.__getattr__``: ``'Qwen3ForCausalLM' object has
no attribute 'pooler'``) gives way to its caller; so does ``nn.Module.__call__``,
where a ``forward()`` fails to bind the arguments its caller passed.

>>> from errcat.extract import extract_reports
>>> report = extract_reports(
...     "Traceback (most recent call last):\n"
...     '  File "/venv/lib/python3.10/site-packages/sglang/srt/models/qwen3.py", line 493,'
...     " in load_weights\n"
...     "    param = params_dict[name]\n"
...     "KeyError: 'midlayer.self_attn.qkv_proj.weight'\n"
... )[0]
>>> site = scope_site(
...     report, ("python/sglang/srt/models",), ("load_weights",), "sgl-project/sglang"
... )
>>> site.kind, site.depth
('site', 3)
>>> scope_site(report, ("vllm/model_executor/models",), (), "vllm-project/vllm").kind
'elsewhere'
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from errcat.evidence import _REPO_ROOTS, FAR, FrameEvidence, package_of, path_parts
from errcat.extract import ExceptionReport, Frame
from errcat.store import RecordSummary, Store
from errcat.tags import FAMILY_TAG, FUNCTION_TAG_PREFIX, SCOPE_TAG_PREFIX, tag_values

if TYPE_CHECKING:
    from errcat.models import ErrorRecord  # annotations only: answers never import pydantic

__all__ = [
    "FAMILY_MAX",
    "family_covers",
    "family_members",
    "family_scopes",
    "family_site",
    "in_scope",
    "is_family",
    "raise_frame",
    "scope_site",
]

#: A family record's pattern is a hand-written regex of its own: an index entry holding
#: more records than this is a mined message's, and none of them is looked at.
FAMILY_MAX = 8
#: Frames that raise on their caller's behalf: (the file's last path components, function).
#: torch's ``nn.Module.__getattr__`` raises for the attribute its caller read; its
#: ``__call__`` (``_wrapped_call_impl``, ``_call_impl``) is where a ``forward()``
#: its caller passed the wrong arguments to fails to bind them.
_TORCH_MODULE = ("torch", "nn", "modules", "module.py")
_DELEGATING = frozenset(
    (_TORCH_MODULE, f) for f in ("__getattr__", "_call_impl", "_wrapped_call_impl")
)
#: Frame evidence for a report without frames, or with a traceback cut before its error.
_NO_FRAMES = FrameEvidence("none", FAR, 0, None)
#: Stands for the frame's file name when its directory is compared with a scope.
_ANY_FILE = "\0"


def is_family(record: RecordSummary | ErrorRecord) -> bool:
    """Whether a record is a family record (tagged :data:`~errcat.tags.FAMILY_TAG`)."""
    return FAMILY_TAG in record.tags


def family_members(store: Store, records: Sequence[int]) -> frozenset[int]:
    """Of an index entry's records, the family records (none for an entry of more than a few)."""
    from errcat.matcher.summaries import summary

    if len(records) > FAMILY_MAX:
        return frozenset()
    return frozenset(p for p in records if is_family(summary(store, p)))


def raise_frame(frames: Sequence[Frame]) -> Frame | None:
    """The frame the error was raised in for its code: the innermost not raising for its caller.

    >>> inner = Frame("/x/site-packages/torch/nn/modules/module.py", 1940, "__getattr__")
    >>> raise_frame([Frame("/x/vllm/m.py", 3, "run"), inner]).function
    'run'
    """
    for frame in reversed(frames):
        parts = path_parts(frame.path)
        if not any(parts[-len(tail) :] == tail and frame.function == f for tail, f in _DELEGATING):
            return frame
    return None


def _scope_parts(scope: str) -> tuple[str, ...]:
    """A scope directory's components below its repository root (``python/``, ``src/``)."""
    parts = path_parts(scope)
    return parts[1:] if len(parts) > 1 and parts[0].lower() in _REPO_ROOTS else parts


def in_scope(path: str, scope: str) -> int:
    """How many path components show a file is in the scope directory or below it (0: not).

    The frame's directory, or one of its parents, must end in the scope's whole
    module path (``sglang/srt/models`` of ``python/sglang/srt/models``).

    >>> in_scope(
    ...     "/venv/lib/python3.11/site-packages/vllm/model_executor/models/llama.py",
    ...     "vllm/model_executor/models",
    ... )
    3
    >>> in_scope("/w/sglang/python/sglang/srt/models/deepseek/v3.py", "python/sglang/srt/models")
    3
    >>> in_scope("/home/me/models/llama.py", "vllm/model_executor/models")
    0
    """
    wanted = _scope_parts(scope)
    directory = path_parts(path)[:-1]
    if not wanted:
        return 0
    for end in range(len(directory), len(wanted) - 1, -1):
        if directory[end - len(wanted) : end] == wanted:
            return len(wanted)
    return 0


def family_scopes(record: RecordSummary | ErrorRecord) -> tuple[str, ...]:
    """The directories a family record's errors are raised in: its scope tags, else its file's.

    >>> from errcat.store import RecordSummary
    >>> family_scopes(RecordSummary("0" * 16, "s", "KeyError", "vllm/a/b.py", 1, "o/vllm", "", ()))
    ('vllm/a',)
    """
    named = tag_values(record.tags, SCOPE_TAG_PREFIX)
    if named:
        return named
    directory = record.file_path.rsplit("/", 1)[0] if "/" in record.file_path else ""
    return (directory,) if directory else ()


def family_covers(record: RecordSummary | ErrorRecord, path: str) -> bool:
    """Whether a file is in one of a family record's scopes (the record speaks for it).

    >>> from errcat.store import RecordSummary
    >>> record = RecordSummary("0" * 16, "s", "KeyError", "vllm/a/b.py", 1, "o/vllm", "", ())
    >>> family_covers(record, "vllm/a/c/d.py"), family_covers(record, "vllm/x/d.py")
    (True, False)
    """
    return any(in_scope(path, scope) for scope in family_scopes(record))


def scope_site(
    report: ExceptionReport,
    scopes: Sequence[str],
    functions: AbstractSet[str] | Sequence[str],
    repo: str,
) -> FrameEvidence:
    """The frame evidence of a family raised in ``scopes``, in ``functions`` (any, when empty)."""
    if not report.frames:
        return _NO_FRAMES
    frame = raise_frame(report.frames)
    if frame is not None:
        for scope in scopes:
            depth = in_scope(frame.path, scope)
            if not depth:
                continue
            where = f"traceback frame {frame.path}:{frame.line}"
            if not functions or frame.function in functions:
                named = f" in {frame.function}()" if functions else ""
                return FrameEvidence(
                    "site",
                    0,
                    depth,
                    f"{where} is{named} under {scope}/, where the interpreter raises this "
                    "error (the record stands for every such place)",
                )
            return FrameEvidence(
                "raise_file",
                FAR,
                depth,
                f"the error was raised under {scope}/ ({where}), but in {frame.function}(), "
                f"not in {' or '.join(f'{f}()' for f in functions)}",
            )
    for other in report.frames:
        for scope in scopes:
            depth = in_scope(other.path, scope)
            if depth:
                return FrameEvidence(
                    "file",
                    FAR,
                    depth,
                    f"traceback passes through {scope}/ ({other.path}:{other.line})",
                )
    package = package_of(repo)
    if any(package in (p.lower() for p in path_parts(f.path)[:-1]) for f in report.frames):
        return FrameEvidence("package", FAR, 0, f"traceback passes through the {package} package")
    if report.kind == "text":
        return _NO_FRAMES  # frames cut before the error line: the raise frame is not shown
    return FrameEvidence("elsewhere", FAR, 0, f"the traceback never passes through {scopes[0]}/")


def family_site(record: RecordSummary, report: ExceptionReport) -> FrameEvidence:
    """The frame evidence for a family record (:func:`scope_site` with the record's tags)."""
    scopes = family_scopes(record)
    if not scopes:
        return _NO_FRAMES
    return scope_site(report, scopes, tag_values(record.tags, FUNCTION_TAG_PREFIX), record.repo)
