"""errcat data package errcat-data-hf.

Transformers and huggingface_hub at the releases sglang 0.5.23 and vllm 0.33.0 require,
with the older releases (transformers 4.45-4.57, huggingface_hub 0.25 and 0.36) the
engines of 2024-2025 pinned as their history.

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
