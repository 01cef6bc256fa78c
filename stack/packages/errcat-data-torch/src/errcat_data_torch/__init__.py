"""errcat data package errcat-data-torch.

Torch's python side with the c++ checks (aten, c10, torch/csrc) of the headers its wheel
ships, and triton, at the releases sglang 0.5.23 and vllm 0.33.0 require.

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
