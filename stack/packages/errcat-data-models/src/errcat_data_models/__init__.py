"""errcat data package errcat-data-models.

The libraries beside the engines that read, tokenize and run a model: mistral_common
(mistral tokenizers and request validation), compressed-tensors and gguf (checkpoint
formats), openai-harmony (gpt-oss chat encoding, its python side; hand-written, its rust
parser's refusals of gpt-oss output) at the releases sglang 0.5.23 and vllm 0.33.0
require, the texts of safetensors', tokenizers' and openai-harmony's rust bindings and
msgspec's c code (read from their sources at the commits named, kept when the pinned
wheel's binary holds them), and xformers (attention kernels vllm required until 2025-11:
0.0.28.post3 and its last pin 0.0.33.post1).

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
