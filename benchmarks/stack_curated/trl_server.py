"""trl's ``Request failed: 404, ...``: its vLLM client talking to a server without TRL's routes.

trl's ``VLLMClient`` (``trl/generation/vllm_client.py``; ``trl/extras/`` before
1.0) raises a bare ``Exception(f"Request failed: {status}, {body}")`` for any
reply that is not 200. The mined record of that line is dropped as too vague
(three words and two placeholders: any HTTP client could print them), but the
404 case has one cause users meet again and again: the trainer points at a
server that has no route the client calls (``/get_world_size``,
``/init_communicator``). Through trl 0.x the client wants the server that
``trl vllm-serve`` starts; from 1.0 it talks to ``vllm serve`` itself, whose
weight-sync routes exist only with ``VLLM_SERVER_DEV_MODE=1`` and a
``--weight-transfer-config``, as the client's own docstring shows. The record
is for the 404 only; other statuses are the server's own errors and stay
unanswered here.

>>> import regex
>>> bool(regex.fullmatch(RECORDS[0].pattern or "", 'Request failed: 404, {"detail":"Not Found"}'))
True
>>> bool(regex.fullmatch(RECORDS[0].pattern or "", "Request failed: 500, Internal Server Error"))
False
>>> [r.path for r in RECORDS]
['trl/generation/vllm_client.py', 'trl/extras/vllm_client.py']
"""

from __future__ import annotations

import dataclasses

from stack_curated.spec import Curated

__all__ = ["RECORDS"]

_NEW = Curated(
    repo="huggingface/trl",
    path="trl/generation/vllm_client.py",
    line=258,
    revision="v1.16.0",
    error_class="Exception",
    template="Request failed: 404, {body}",
    pattern=r"Request failed: 404, (.*?)",
    error_type="configuration",
    documentation="TRL's vLLM client (vllm_mode='server' in GRPOTrainer, OnlineDPO and the"
    " other online trainers) sent a request to a route the server at vllm_server_host and"
    " vllm_server_port does not have, and the server answered 404 Not Found. The route is"
    " one of TRL's own (get_world_size, init_communicator, update_named_param): with trl"
    " before 1.0 they exist only on the server that 'trl vllm-serve' starts, not on a plain"
    " 'vllm serve' or an OpenAI-compatible endpoint; with trl 1.0 and later the client talks"
    " to 'vllm serve' itself, but its weight-sync routes are off unless the server runs in"
    " development mode with a weight-transfer backend. A server of another trl release, or"
    " another port's process, gives the same 404.",
    solutions=(
        "trl before 1.0: start the server with 'trl vllm-serve --model <the model>"
        " --tensor-parallel-size N' (not 'vllm serve'), on the GPUs the trainer does not"
        " use, and point the trainer at its port",
        "trl 1.0 and later: start 'VLLM_SERVER_DEV_MODE=1 vllm serve <the model>"
        ' --weight-transfer-config \'{"backend": "nccl"}\'\' so the weight-sync routes exist'
        " ('trl vllm-serve', deprecated there, runs that very command)",
        "Check that host and port reach that server (curl http://HOST:PORT/v1/models) and"
        " that the server and the trainer run the same trl release",
        "Without a separate server: vllm_mode='colocate' runs vLLM inside the trainer",
    ),
    example_fix="# before (trl < 1.0)\nvllm serve Qwen/Qwen2.5-7B\n"
    "# after\ntrl vllm-serve --model Qwen/Qwen2.5-7B",
    trigger="Starting a TRL online trainer with use_vllm=True and vllm_mode='server'"
    " against a server started with plain 'vllm serve' or by another trl release.",
    prevention=(
        "Start the generation server with the command of the installed trl release's"
        " documentation (trl vllm-serve before 1.0)",
    ),
    tags=("trl", "vllm-server"),
    references=(
        "https://github.com/huggingface/trl/issues/3587",
        "https://github.com/huggingface/trl/blob/v1.16.0/trl/generation/vllm_client.py",
    ),
)

#: The same raise in trl/extras/vllm_client.py, where the client sat through 0.27
#: (init_communicator asks the server's world size first): a traceback of an older
#: trl shows that file, and a frame in another file of the record's repo weighs against it.
_OLD = dataclasses.replace(_NEW, path="trl/extras/vllm_client.py", line=393, revision="v0.27.2")

RECORDS = (_NEW, _OLD)
