"""The two steps of mining that history needs: scan one file's source, resolve scans into records.

Temporary adapter over :mod:`errcat.mine` internals until its package split.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from errcat import mine as _m
from errcat.models import RecordEnvelope

__all__ = ["FileScan", "module_names", "resolve", "scan_source"]

FileScan = _m._FileScan


def module_names(paths: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """Each ``.py`` path's dotted module and whether it is a package, from the ``__init__.py`` files.

    >>> names = module_names(["src/pkg/__init__.py", "src/pkg/a.py", "src/top.py"])
    >>> names["src/pkg/a.py"], names["src/pkg/__init__.py"], names["src/top.py"]
    (('pkg.a', False), ('pkg', True), ('top', False))
    """
    packages = {p.rsplit("/", 1)[0] if "/" in p else "" for p in paths if p.endswith("__init__.py")}
    out: dict[str, tuple[str, bool]] = {}
    for path in paths:
        directory, _, name = path.rpartition("/")
        is_package = name == "__init__.py"
        parts = [] if is_package else [name[:-3] if name.endswith(".py") else name]
        while directory and directory in packages:
            directory, _, last = directory.rpartition("/")
            parts.insert(0, last)
        if is_package and not parts:
            parts = [path.rsplit("/", 2)[-2] if path.count("/") else "module"]
        out[path] = (".".join(parts), is_package)
    return out


def scan_source(data: bytes, file_path: str, module: str, is_package: bool) -> FileScan:
    """Scan one file's bytes (its encoding declared as Python reads it) into a per-file result."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
        if text.startswith("\ufeff"):
            text = text[1:]
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        tree = ast.parse(text, filename=file_path)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError) as exc:
        return FileScan(file_path, file_path, module, error=_m._describe(exc))
    scanner = _m._Scanner(module, is_package)
    try:
        scanner.scan(tree)
    except RecursionError as exc:
        return FileScan(file_path, file_path, module, error=f"too deeply nested: {exc}")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    snippets = []
    for line in sorted({s.line for s in scanner.sites if s.skip is None}):
        start = max(1, line - _m.SNIPPET_RADIUS)
        end = max(line, min(len(lines), line + _m.SNIPPET_RADIUS))
        snippets.append((line, start, end, "\n".join(lines[start - 1 : end])))
    aliases = [
        (f"{module}.{name}", scanner.imports[name])
        for name in sorted(scanner.top_imports)
        if module and scanner.imports[name] != f"{module}.{name}"
    ]
    for name in scanner.module_aliases:
        ref = scanner.resolve(ast.Name(name))
        if ref.kind != "written" and module and ref.name != f"{module}.{name}":
            aliases.append((f"{module}.{name}", ref.name))
    return FileScan(
        file_path,
        file_path,
        module,
        sites=tuple(scanner.sites),
        snippets=tuple(snippets),
        classes=tuple(scanner.classes),
        functions=tuple(scanner.functions),
        aliases=tuple(aliases),
        reraises=scanner.reraises,
    )


def resolve(
    scans: Sequence[FileScan], repo: str, sha: str, when: datetime
) -> tuple[list[RecordEnvelope], Counter[str], list[tuple[str, str]]]:
    """Resolve one revision's scans into records; also the skipped sites and parse errors."""
    resolver = _m._Resolver(scans)
    skipped: Counter[str] = Counter()
    errors: list[tuple[str, str]] = []
    entries: list[_m._Entry] = []
    for scan in scans:
        if scan.error is not None:
            errors.append((scan.file_path, scan.error))
            continue
        snippets = {line: (start, end, code) for line, start, end, code in scan.snippets}
        for site in scan.sites:
            texts, reason = _m._site_texts(resolver, site)
            if reason is not None:
                skipped[reason] += 1
                continue
            for cls_name, text in texts:
                entries.append(
                    _m._Entry(
                        scan.file_path,
                        site.line,
                        site.qualname,
                        cls_name,
                        text,
                        resolver.builtin_base(cls_name),
                        snippets[site.line],
                    )
                )
    return _m._build_envelopes(entries, repo, sha, when), skipped, errors
