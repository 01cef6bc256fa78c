"""errcat data package errcat-data-imports.

Import errors of the sglang and vllm stacks: which distribution installs a module, which
releases have a name.

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
