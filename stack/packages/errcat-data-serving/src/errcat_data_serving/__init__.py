"""errcat data package errcat-data-serving.

The http and template layers of the engines: fastapi, starlette, uvicorn, jinja2 (chat
templates), openai, aiohttp, and the http clients their users' scripts and the hubs call
them with: requests, urllib3, httpx, httpcore.

Installed, it adds its records to errcat's default catalog through the
``errcat.catalogs`` entry point; built by errcat's ``benchmarks/build_stack.py``
from the versions its ``manifest.json`` lists under ``builtFrom``.
"""
