"""errcat data package errcat-data-python.

The standard library parts stack users hit (argparse, json, subprocess, the import
system), cpython 3.11.7.

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
