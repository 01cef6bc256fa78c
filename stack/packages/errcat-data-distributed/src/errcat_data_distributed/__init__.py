"""errcat data package errcat-data-distributed.

Ray's core, serve and llm parts (2.55.1, the floor of sglang 0.5.23's ray extra, and
2.58.0), peft (0.18.0, the floor of sglang's test extra, and 0.21.0), accelerate 1.15.0
and lmcache 0.5.2; neither engine pins these, so the newest is the newest release as of
2026-07.

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
