"""errcat data package errcat-data-kernels.

The engines' kernel and grammar libraries: flashinfer (0.7.2 for sglang 0.5.23,
0.7.2.post1 for vllm 0.33.0; its python side, and the c++/cuda checks of the include/
and csrc/ its wheel ships), deepep's c++ checks (at the commit sglang's docker image
builds), deepgemm's c++ host assertions (at the commit vllm's tools/install_deepgemm.sh
builds), flash-attn's flashattention-2 and flashattention-3 c++ checks (csrc/flash_attn
and hopper at v2.8.3; pypi has only its sdist), xgrammar (0.2.7 for sglang, 0.2.8 for
vllm), outlines (0.1.11, sglang's pin).

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
