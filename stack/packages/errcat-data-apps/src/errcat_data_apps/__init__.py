"""errcat data package errcat-data-apps.

The applications built on the engines whose own errors users paste beside the engines':
mineru (document parsing on a vllm or sglang backend; 2.7.6, the last 2.x, and 3.4.4,
without the ocr and formula models it ports from paddleocr and unimernet) with its vlm
client mineru-vl-utils (1.2.1), xinference (model serving on vllm, sglang and others;
1.16.0 and 3.2.1, without its vendored third-party models), lm-evaluation-harness (its
vllm and sglang model backends; 0.4.9.1 and 0.4.12, without its task folders) and
gpustack (a cluster manager that deploys models on vllm, sglang and other backends and
logs why a deployment failed; 0.7.1, the last 0.x, 2.0.3, the release of the winter of
2025-26, and 2.2.3, without its database migrations); none pins vllm 0.33.0 or sglang
0.5.23, so the newest is the newest release the repository had tagged by 2026-08. hand-
written: the rdma errors mooncake's transfer engine logs during pd-disaggregated kv
transfers (compiled, so never mined).

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
