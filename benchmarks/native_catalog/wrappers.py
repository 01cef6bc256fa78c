"""Curated advice for the engines' wrapper errors: they report an error raised elsewhere.

``Engine core initialization failed. See root cause above.``, ``Worker failed
with error '...'``, ``Capture cuda graph failed: ...``: the engine caught an
error (in another process, or its own) and raised its own. The matcher answers
the cause when the paste holds it (these records are tagged ``errcat:wrapper``);
when it does not, these records say where in the log to look. Each keeps the
mined record's id and location (the curated overlay of build_data.py re-anchors
it); only the advice and the tag are curated.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CURATED_WRAPPERS", "WRAPPERS", "WRAPPER_TAG", "wrapper_envelopes"]

WRAPPER_TAG = "errcat:wrapper"

_WORKER = {
    "documentation": "A vllm worker process raised the error quoted inside this message and"
    " the executor re-raised it: the quoted text is the cause, and the worker's own"
    " traceback is earlier in the log (prefix '(VllmWorker rank=N pid=...)' or"
    " '(Worker_TP0 pid=...)').",
    "solutions": [
        "Look up the error quoted inside 'Worker failed with error ...': paste the worker's"
        " traceback from above, it holds the cause",
        "For a CUDA error in the quote, rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel",
    ],
    "exampleFix": "CUDA_LAUNCH_BLOCKING=1 vllm serve M --tensor-parallel-size 2",
}

_PYNCCL = {
    "documentation": "The engine's own NCCL binding (pynccl) got an error code from NCCL and"
    " raised it with NCCL's description: the text after 'NCCL error:' is NCCL's, and says"
    " what failed (a CUDA call inside NCCL, a system call, a remote rank).",
    "solutions": [
        "Rerun with NCCL_DEBUG=INFO to see which rank, GPU or network interface failed",
        "For 'unhandled cuda error', leave NCCL memory (sglang --mem-fraction-static 0.8, vllm"
        " --gpu-memory-utilization 0.85) or set NCCL_P2P_DISABLE=1 on GPUs without P2P",
        "For 'unhandled system error', give the container --ipc=host (or --shm-size 16g)",
    ],
    "exampleFix": "NCCL_DEBUG=INFO NCCL_P2P_DISABLE=1 vllm serve M --tensor-parallel-size 2",
}

#: record id -> the curated fields laid over the mined record.
WRAPPERS: dict[str, dict[str, Any]] = {
    "1303f0eabd45d0a7": _WORKER,
    "39a0da00c4da633b": _PYNCCL,
    "134421e554565e00": _PYNCCL,
    "e9a0c9537b7bbd40": _PYNCCL,
}

#: Wrappers curated by hand in the engines' own files (curated/<owner>__<name>.jsonl),
#: whose text wins: they only must carry WRAPPER_TAG. vllm's engine-core start-up and
#: background-loop errors, sglang's scheduler deaths and its 16 CUDA graph capture sites.
CURATED_WRAPPERS: frozenset[str] = frozenset(
    (
        "64bbae36e5613cc3",
        "800b6b50bfa76575",
        "466a82c763f55a78",
        "91111c92daeefcb4",
        "3cb5a5e680c5c04a",
        "fbe52950422cb6f6",
        "31773013d4b2bfa2",
        "f00933bf4f01015a",
        "4d150a8da84a7ff3",
        "cc37ac52b41b363c",
        "c0463d860b0615a2",
        "8bb7d61da061ae63",
        "04a1286a29d02151",
        "842e06e95bd35d19",
        "1a863fcb98065886",
        "6272787110b24065",
        "a6688e176181be69",
        "1c8fd5bd5366b289",
        "f09d971b7cec0e99",
        "f9a8e6c57f96cfe2",
    )
)


def wrapper_envelopes(
    mined: dict[str, dict[str, Any]], dataset_version: str
) -> list[dict[str, Any]]:
    """The wrapper records (mined records by id, as JSON) with their curated advice laid over."""
    out = []
    for rid, fields in sorted(WRAPPERS.items()):
        record = dict(mined[rid])
        record.update(fields)
        kept = [t for t in record.get("tags", []) if t not in {"errcat:generated", WRAPPER_TAG}]
        record["tags"] = [*kept, WRAPPER_TAG]
        record.pop("engineAdvice", None)
        out.append({"record": record, "datasetVersion": dataset_version})
    return out
