"""Ray's resource options refused by their validators: texts a checker returns, not raises.

``ray.remote(...)`` and ``.options(...)`` check each option with a value constraint that
*returns* an error text (``_validate_resource_quantity`` for ``num_cpus``, ``num_gpus``,
``resources``); ``Option.validate`` raises ``ValueError(possible_error_message)``, so the
mined record of that raise is the bare ``{possible_error_message}`` and the texts had no
record. Ray keeps resource quantities as integers of 1/10000 of a unit, so a fraction
below 0.0001 is refused; the engines ask Ray for a fraction of a ``node:<ip>`` resource
to pin a worker to a node, and a release that asked for less than that broke when Ray
began to check.

Read in the ray 2.58.0 wheel (python/ray/_common/ray_option_utils.py: the texts at lines
84 and 90-93, the raise at line 50). Threads learned from (even-numbered):
ray-project/ray#30260 (the 0.0001 precision, asked to be an error), ray-project/ray#34590
(the check that added these texts).

>>> import regex
>>> pattern = PRECISION.envelope().record.message_pattern
>>> bool(
...     regex.fullmatch(
...         pattern,
...         "The precision of the fractional quantity of resource node:172.17.0.8 cannot go"
...         " beyond 0.0001",
...     )
... )
True
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["NEGATIVE", "PRECISION", "RECORDS"]

RAY = "ray-project/ray"
TAG = "ray-2.58.0"
PATH = "python/ray/_common/ray_option_utils.py"
LINE = 50
_REFERENCES = (
    "https://docs.ray.io/en/latest/ray-core/scheduling/resources.html",
    "https://github.com/ray-project/ray/issues/30260",
    "https://github.com/ray-project/ray/pull/34590",
)

PRECISION = Curated(
    repo=RAY,
    path=PATH,
    line=LINE,
    revision=TAG,
    error_class="ValueError",
    template="The precision of the fractional quantity of resource {name} cannot go beyond 0.0001",
    error_type="configuration",
    documentation="A task or actor asked Ray for a fraction of a resource finer than Ray"
    " keeps (1/10000 of a unit): num_gpus, num_cpus or a custom resource such as"
    " node:<ip> below 0.0001. Ray checks it when the remote function or actor class is"
    " made; an engine or framework release written before the check asks for such a"
    " fraction of node:<ip> to place its workers.",
    solutions=(
        "Ask for at least 0.0001 of the resource in your own code: resources={'node:10.0.0.1':"
        " 0.001}, num_gpus=0.01",
        "When the request is the engine's or framework's own (the traceback ends in its"
        " worker creation), upgrade it to a release written for your Ray: pip install -U"
        " vllm, or keep the Ray release it was tested with",
    ),
    example_fix="# before\nWorker = ray.remote(num_gpus=1, resources={f'node:{ip}': 1e-5})(W)\n"
    "# after\nWorker = ray.remote(num_gpus=1, resources={f'node:{ip}': 1e-3})(W)",
    trigger="ray.remote(...) or .options(...) with a resource quantity below 0.0001.",
    tags=("ray", "resources"),
    references=_REFERENCES,
)

NEGATIVE = Curated(
    repo=RAY,
    path=PATH,
    line=LINE,
    revision=TAG,
    error_class="ValueError",
    template="The quantity of resource {name} cannot be negative",
    error_type="configuration",
    documentation="A task or actor asked Ray for a negative quantity of a resource"
    " (num_cpus, num_gpus, memory or a custom resource), usually a quantity computed from"
    " a count that came out below zero (GPUs per worker from a wrong division, a memory"
    " budget minus more than it holds).",
    solutions=(
        "Print the quantities passed to ray.remote(...) or .options(...) and make each"
        " 0 or more: num_gpus=max(0, n), memory=max(0, m)",
    ),
    example_fix="# before\nW.options(num_gpus=total - used)\n# after\n"
    "W.options(num_gpus=max(0, total - used))",
    trigger="ray.remote(...) or .options(...) with a negative resource quantity.",
    tags=("ray", "resources"),
    references=_REFERENCES,
)

RECORDS = (PRECISION, NEGATIVE)
