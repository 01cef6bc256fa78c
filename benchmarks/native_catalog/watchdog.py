"""The NCCL watchdog's other lines: what torch logs around a collective that failed or hung.

:mod:`native_catalog.comms` holds the watchdog's own exception (``Watchdog caught
collective operation timeout: WorkNCCL(...)``). Around it torch's ProcessGroupNCCL
logs more lines, at ERROR level and with a ``[PG ID n PG GUID g Rank r]`` prefix, and
a paste often ends with one of them instead: the work sequence the watchdog saw
fail, the warning that later GPU work may read corrupted data, the note that no
stack trace was recorded. They all say the same thing (a collective failed or timed
out; the cause is another rank's first error), so they share the timeout record's
kind and advice. The watchdog thread's own death (``Process group watchdog thread
terminated with exception: <what>``, older ``NCCL watchdog thread terminated with
exception: <what>``) wraps what it caught: a timeout or a CUDA error of the GPU, so
those two records are tagged ``errcat:wrapper`` and the matcher answers what they
hold when it knows it.

Lines: the line each message is logged from in the torch 2.6 and 2.7 builds whose
logs the study pastes show (``ProcessGroupNCCL.cpp:630]``, ...); the link points at
the commit native_catalog.comms reads the file at, where they may sit elsewhere.
Threads learned from (even-numbered, in benchmarks/data/study_stack.jsonl):
sgl-project/sglang#3932, verl-project/verl#1420, huggingface/open-r1#620, vllm#2682.

>>> import regex
>>> some = RECORDS[0].envelope()["record"]["messagePattern"]
>>> bool(
...     regex.fullmatch(
...         some,
...         "[Rank 3] Some NCCL operations have failed or timed out. Due to"
...         " the asynchronous nature of CUDA kernels, subsequent GPU operations might run on"
...         " corrupted/incomplete data.",
...     )
... )
True
>>> wrapped = RECORDS[-2].envelope()["record"]
>>> "errcat:wrapper" in wrapped["tags"]
True
>>> bool(
...     regex.fullmatch(
...         wrapped["messagePattern"],
...         "[PG ID 0 PG GUID 0(default_pg) Rank 3]"
...         " Process group watchdog thread terminated with exception: [Rank 3] Watchdog caught"
...         " collective operation timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST)",
...     )
... )
True
"""

from __future__ import annotations

from dataclasses import replace

from native_catalog.spec import Spec

__all__ = ["RECORDS"]

#: The commit native_catalog.comms reads ProcessGroupNCCL.cpp at.
TORCH_SHA = "0007e752d518810f0f8942a830dbbbfc69f34577"
PATH = "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp"
#: The prefix torch puts before a process group's log lines, and the older rank-only one.
_PG = r"(?:\[PG ID \d+ PG GUID [^\]]*\] |\[Rank \d+\] )?"

_DOC = (
    "torch's NCCL watchdog found a collective (an all-reduce, a broadcast, ...) that failed"
    " or waited longer than the process group's timeout, and is tearing the process down."
    " It is the symptom, not the cause: one rank stopped (crashed, hung, was killed, ran out"
    " of memory, or is still loading weights or compiling) while the others waited; in RL"
    " frameworks the trainer and the rollout engine can also wait on each other's"
    " collectives. The first error of any rank, earlier in the log or in another node's"
    " log, is what to fix."
)
_SOLUTIONS = (
    "Look for the first error of any rank earlier in the log (or in the other nodes' logs):"
    " that is the cause; these lines only report it",
    "If a rank is legitimately slow (loading from a network disk, compiling, a long first"
    " generation), raise the timeout: sglang --dist-timeout 3600, or the framework's NCCL"
    " timeout (verl: actor_rollout_ref.nccl_timeout=3600)",
    "Record what each rank was doing for the next run: TORCH_NCCL_TRACE_BUFFER_SIZE=2000"
    " and NCCL_DEBUG=INFO (name the interface with NCCL_SOCKET_IFNAME=eth0 on multi-node"
    " runs)",
)
_FIX = (
    "# before\npython -m sglang.launch_server --model-path M --tp-size 8\n# after: see which"
    " rank stopped, and give slow ranks time\nTORCH_NCCL_TRACE_BUFFER_SIZE=2000 NCCL_DEBUG=INFO"
    " python -m sglang.launch_server --model-path M --tp-size 8 --dist-timeout 3600"
)
_REFERENCES = ("https://pytorch.org/docs/stable/distributed.html",)


def _line(line: int, template: str, pattern: str, slug: str = "") -> Spec:
    return Spec(
        kind="nccl-watchdog-timeout",
        repo="pytorch/pytorch",
        path=PATH,
        line=line,
        sha=TORCH_SHA,
        error_class="torch.distributed.DistBackendError",
        also_classes=("RuntimeError",),
        tags=("nccl", "distributed", "timeout"),
        template=template,
        pattern=pattern,
        documentation=_DOC,
        solutions=_SOLUTIONS,
        example_fix=_FIX,
        references=_REFERENCES,
        slug=slug,
    )


def _wrapper(line: int, lead: str) -> Spec:
    spec = _line(
        line,
        f"{lead} thread terminated with exception: {{what}}",
        rf"{_PG}{lead} thread terminated with exception: (.+)",
    )
    return replace(
        spec,
        kind="nccl-error",
        tags=("nccl", "distributed", "errcat:wrapper"),
        documentation="torch's NCCL watchdog thread stopped on the exception after"
        " 'terminated with exception:', and takes the process down with it. That"
        " exception is the error: a collective that timed out (the other ranks' first"
        " error is the cause), or a CUDA error the watchdog hit while polling the GPU"
        " (a GPU fault: look for Xid errors with dmesg, rerun with CUDA_LAUNCH_BLOCKING=1)."
        f" {lead!r} is how torch names the thread in this release.",
        solutions=(
            "Read the exception after 'terminated with exception:' and look that one up;"
            " for a timeout find the rank that stopped first",
            "For a CUDA error there (unknown error, illegal memory access), check the GPU:"
            " dmesg | grep -i xid, nvidia-smi -q -d ECC, then rerun with"
            " CUDA_LAUNCH_BLOCKING=1 and --enforce-eager to find the kernel",
            *_SOLUTIONS[2:],
        ),
        example_fix="dmesg | grep -i xid\nCUDA_LAUNCH_BLOCKING=1 NCCL_DEBUG=INFO vllm serve M"
        " --tensor-parallel-size 8 --enforce-eager",
    )


RECORDS = (
    _line(
        630,
        "Some NCCL operations have failed or timed out. Due to the asynchronous nature of"
        " CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        rf"{_PG}Some NCCL operations have failed or timed out\. Due to the asynchronous nature"
        r" of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data\.",
    ),
    _line(
        1785,
        "Exception (either an error or timeout) detected by watchdog at work: {seq}, last"
        " enqueued NCCL work: {enqueued}, last completed NCCL work: {completed}.",
        rf"{_PG}Exception \(either an error or timeout\) detected by watchdog at work: (-?\d+),"
        r" last enqueued NCCL work: (-?\d+), last completed NCCL work: (-?\d+)\.",
    ),
    _line(
        1834,
        "Timeout at NCCL work: {seq}, last enqueued NCCL work: {enqueued}, last completed NCCL"
        " work: {completed}.",
        rf"{_PG}Timeout at NCCL work: (-?\d+), last enqueued NCCL work: (-?\d+), last"
        r" completed NCCL work: (-?\d+)\.",
    ),
    _line(
        2168,
        "failure detected by watchdog at work sequence id: {seq} PG status: last enqueued"
        " work: {enqueued}, last completed work: {completed}",
        rf"{_PG}failure detected by watchdog at work sequence id: (-?\d+) PG status: last"
        r" enqueued work: (-?\d+), last completed work: (-?\d+)",
    ),
    _line(
        667,
        "Stack trace of the failed collective not found, potentially because FlightRecorder"
        " is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a"
        " non-zero value.",
        rf"{_PG}Stack trace of the failed collective not found, potentially because"
        r" FlightRecorder is disabled\. You can enable it by setting"
        r" TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value\.",
    ),
    _wrapper(1656, "Process group watchdog"),
    _wrapper(916, "NCCL watchdog"),
)
