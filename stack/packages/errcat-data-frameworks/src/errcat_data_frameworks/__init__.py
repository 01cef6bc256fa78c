"""errcat data package errcat-data-frameworks.

The training and rl frameworks built on the engines: ms-swift (3.12.6, the last 3.x,
whose swift.llm paths users paste, and 4.6.0), trl (0.29.1 and 1.16.0), verl (0.7.1 and
0.9.1, without its copy of torch's state-dict helpers), llama-factory (0.9.3 and 0.9.5),
openrlhf (0.9.10 and 0.11.0, whose wheel keeps its modules under .data/purelib) and
slime (0.2.3 and 0.3.1, read at its tags from its git mirror: it has no wheel on pypi,
where the name slime is another project); none of their releases' engine extras names
vllm 0.33.0 or sglang 0.5.23 (ms-swift and llama-factory 0.9.5 name no engine; trl
1.16.0 allows vllm up to 0.31.0, verl 0.9.1 pins vllm 0.24.0 and sglang 0.5.12), so the
newest is the newest release (for openrlhf and slime: the newest their repositories had
tagged by 2026-08).

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
