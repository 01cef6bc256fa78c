"""errcat data package errcat-data-platforms.

The platform plug-ins and wrappers that run vllm: vllm-ascend (0.9.1 and 0.11.0, the
stable releases of 2025, and 0.23.0, without the cann op wrappers its build generates)
and vllm-omni (0.11.0rc1, its only release of 2025, 0.22.0 and 0.30.0, without the
modules it vendors from vllm and nemo); each release pairs with the vllm of its minor
version and none with vllm 0.33.0, so the newest is the newest release pip can fetch for
linux x86_64 (vllm-ascend 0.26.0rc1 is a release candidate).

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
