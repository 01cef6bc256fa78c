"""Answers for the stack census: per raising group, right, wrong and unanswered; dev and holdout apart.

Run with ``python benchmarks/bench_stack.py [--census FILE] [--split dev|holdout]
[--catalog PATH ...] [--no-bundled]``. It reads ``benchmarks/data/stack_census.jsonl``
(one real paste per line: ``{"id", "url", "repo", "topic", "version", "text",
"group", "raiser", "expect", "engine_phase", "split"}``), matches each paste's
text against the default catalog (the bundled data plus every installed
``errcat.catalogs`` plug-in: install the stack's packages first) and judges the
confident answer (``match_error``) by ``expect``:

* a Python raise ``{"raising_repo", "file_path", "error_class", "message_prefix"}``:
  the record is of that repo and file (for a family record, tagged
  ``errcat:family``: of that repo, the file in its scope, its class the paste's),
  or of that repo with a message that starts as the paste's does;
* ``{"native": kind}``: the record carries the tag ``errcat:native:<kind>``;
* ``{"http": "<status> ..."}`` (an HTTP status with no error text; the label's
  leading number is the status): the record carries the tag
  ``errcat:native:http-<status>`` (a status record of any client form). A label
  with no leading status number has no right record;
* ``{"missing_module": "x"}``, ``{"cannot_import": "y", "from": "x"}``,
  ``{"undefined_symbol": true}``: the import-error record of that module or name,
  or the import system's own record for any module (tagged
  ``errcat:native:import-missing-module`` or ``-cannot-import-name``) whose pattern
  prints that very message: it names the raiser (CPython's import machinery) and
  advice that holds for any module, without the distribution or release a
  per-module record adds;
* ``{"tools": text}`` (a tool's output: the compiler, the linker, docker, pip):
  a record tagged ``errcat:tool:<tool>``, where ``<tool>`` is the label's first
  word (``gcc fatal error: Python.h missing ...``: gcc);
* other free text: no record is right;
* a wrapper whose paste also shows what it wraps (a pydantic ``ValidationError``
  around ``Value error, <the engine's message>``) carries that cause as
  ``expect["cause"]``, a label of the same kinds: the wrapper's record and the
  cause's are both right, as issue 26 asks for the root cause when the paste
  holds it.

A paste is *absent* when no record of the catalog could be right; a confident
answer to one is "confident for absent". Only the split asked for is read
(``dev`` by default): the holdout is for the lead's final figures.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

import errcat
from errcat.catalog import Catalog
from errcat.matcher.family import family_covers, is_family
from errcat.models import ErrorRecord
from errcat.tags import IMPORT_SYSTEM_TAGS

ROOT = Path(__file__).resolve().parents[1]
CENSUS = ROOT / "benchmarks" / "data" / "stack_census.jsonl"
NATIVE_TAG = "errcat:native:"
#: The tool a record answers for: ``errcat:tool:gcc`` (``native_catalog.tools``).
TOOL_TAG = "errcat:tool:"
#: The status an ``{"http": ...}`` label opens with.
_HTTP_STATUS = regex.compile(r"\s*([1-5]\d\d)\b")


def _path_fits(record_path: str, wanted: str) -> bool:
    """Whether a record's repo path is the file a label names (either may carry a prefix)."""
    a, b = record_path.strip("/"), wanted.strip("/")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def _prints(pattern: str, message: str) -> bool:
    """Whether a record's pattern matches a whole message (a bad pattern matches nothing)."""
    try:
        return regex.fullmatch(pattern, message, timeout=1.0) is not None
    except (regex.error, TimeoutError):
        return False


def _tool(expect: dict[str, Any]) -> str:
    """The tool a ``tools`` label names: its first word (``gcc fatal error: ...``: ``gcc``)."""
    words = str(expect["tools"]).split()
    return words[0].lower().rstrip(":,") if words else ""


def _import_message(expect: dict[str, Any]) -> str:
    """The message an import label names: ``No module named 'x'`` or ``cannot import name``."""
    if "missing_module" in expect:
        return f"No module named {expect['missing_module']!r}"
    return f"cannot import name {expect['cannot_import']!r} from {expect['from']!r}"


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def http_kind(expect: dict[str, Any]) -> str | None:
    """The native kind an ``{"http": "<status> ..."}`` label asks for, if it names a status.

    >>> http_kind({"http": "404 Not Found on POST /v1/embeddings"})
    'http-404'
    >>> http_kind({"http": "no status in the paste"}) is None
    True
    """
    found = _HTTP_STATUS.match(str(expect.get("http", "")))
    return f"http-{found.group(1)}" if found else None


def is_right(record: ErrorRecord, expect: Any) -> bool:
    """Whether ``record`` is a right answer for a paste labelled ``expect`` (or for its cause)."""
    if not isinstance(expect, dict):
        return False
    if "cause" in expect and is_right(record, expect["cause"]):
        return True
    if "native" in expect:
        return f"{NATIVE_TAG}{expect['native']}" in record.tags
    if "http" in expect:
        kind = http_kind(expect)
        return kind is not None and f"{NATIVE_TAG}{kind}" in record.tags
    if "tools" in expect:
        return f"{TOOL_TAG}{_tool(expect)}" in record.tags
    if "missing_module" in expect or "cannot_import" in expect:
        wanted = _import_message(expect)
        return record.error_message == wanted or (
            bool(IMPORT_SYSTEM_TAGS & set(record.tags)) and _prints(record.message_pattern, wanted)
        )
    if expect.get("undefined_symbol"):
        return "undefined symbol" in record.error_message
    if record.repo.lower() != str(expect.get("raising_repo", "")).lower():
        return False
    if expect.get("file_path") and _path_fits(record.file_path, str(expect["file_path"])):
        return True
    if is_family(record) and expect.get("file_path"):
        # A family record speaks for every file of its scope (errcat.matcher.family).
        same_class = expect.get("error_class") in (None, record.error_class)
        return same_class and family_covers(record, str(expect["file_path"]))
    prefix = _words(str(expect.get("message_prefix", "")))
    literal = _words(record.error_message.split("{", 1)[0])
    if not any(c.isalnum() for c in literal):
        # A template opening with a placeholder (`{count} validation errors for {title}`):
        # its pattern must print the labelled message whole.
        whole = str(expect.get("message_prefix") or "")
        return bool(whole) and _prints(record.message_pattern, whole)
    return bool(prefix and literal) and (prefix.startswith(literal) or literal.startswith(prefix))


@dataclass
class Presence:
    """What the catalog could answer right: repos and files, import messages, native kinds."""

    files: dict[str, list[str]]
    messages: set[str]
    native: set[str]
    literals: dict[str, list[str]]
    #: Per repo, the patterns of templates that open with a placeholder (no literal prefix).
    led: dict[str, list[str]] = field(default_factory=dict)
    #: The patterns of the import system's records for any module.
    import_system: list[str] = field(default_factory=list)
    #: The tools some record answers for (``errcat:tool:<tool>``).
    tools: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, records: Iterable[ErrorRecord]) -> Presence:
        files: dict[str, list[str]] = defaultdict(list)
        literals: dict[str, list[str]] = defaultdict(list)
        led: dict[str, list[str]] = defaultdict(list)
        messages: set[str] = set()
        native: set[str] = set()
        import_system: list[str] = []
        tools: set[str] = set()
        for record in records:
            repo = record.repo.lower()
            files[repo].append(record.file_path)
            literal = _words(record.error_message.split("{", 1)[0])
            literals[repo].append(literal)
            if record.error_message and not any(c.isalnum() for c in literal):
                led[repo].append(record.message_pattern)
            if "errcat:imports" in record.tags or "undefined symbol" in record.error_message:
                messages.add(record.error_message)
            native.update(t[len(NATIVE_TAG) :] for t in record.tags if t.startswith(NATIVE_TAG))
            if IMPORT_SYSTEM_TAGS & set(record.tags):
                import_system.append(record.message_pattern)
            tools.update(t[len(TOOL_TAG) :] for t in record.tags if t.startswith(TOOL_TAG))
        return cls(dict(files), messages, native, dict(literals), dict(led), import_system, tools)

    def has(self, expect: Any) -> bool:
        """Whether some record of the catalog could be right for ``expect`` (or its cause)."""
        if not isinstance(expect, dict):
            return False
        if "cause" in expect and self.has(expect["cause"]):
            return True
        if "native" in expect:
            return str(expect["native"]) in self.native
        if "http" in expect:
            kind = http_kind(expect)
            return kind is not None and kind in self.native
        if "tools" in expect:
            return _tool(expect) in self.tools
        if "missing_module" in expect or "cannot_import" in expect:
            wanted = _import_message(expect)
            return wanted in self.messages or any(_prints(p, wanted) for p in self.import_system)
        if expect.get("undefined_symbol"):
            return any("undefined symbol" in m for m in self.messages)
        repo = str(expect.get("raising_repo", "")).lower()
        wanted = str(expect.get("file_path") or "")
        if wanted and any(_path_fits(p, wanted) for p in self.files.get(repo, [])):
            return True
        prefix = _words(str(expect.get("message_prefix", "")))
        if bool(prefix) and any(
            lit and (prefix.startswith(lit) or lit.startswith(prefix))
            for lit in self.literals.get(repo, [])
        ):
            return True
        whole = str(expect.get("message_prefix") or "")
        return bool(whole) and any(_prints(p, whole) for p in self.led.get(repo, []))


def read_census(path: Path, split: str) -> list[dict[str, Any]]:
    """The census lines of one split (the others are not even parsed past their split)."""
    out = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            item = json.loads(line)
            if item.get("split", "dev") != split:
                continue  # never look at another split's pastes
            for key in ("id", "text", "group", "expect"):
                if key not in item:
                    raise SystemExit(f"{path}:{number}: no {key!r}")
            out.append(item)
    return out


def measure(items: list[dict[str, Any]], catalog: Catalog) -> dict[str, Counter[str]]:
    """Counts per group: n, right, wrong, none, absent, absent_answered."""
    presence = Presence.of(catalog)
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        counts = out[str(item["group"])]
        counts["n"] += 1
        expect = item["expect"]
        present = presence.has(expect)
        if not present:
            counts["absent"] += 1
        match = errcat.match_error(str(item["text"]), catalog=catalog)
        if match is None:
            counts["none"] += 1
        elif is_right(match.record, expect):
            counts["right"] += 1
        else:
            counts["wrong"] += 1
            if not present:
                counts["absent_answered"] += 1
    return out


def table(counts: dict[str, Counter[str]], split: str) -> str:
    """The table: per group and in all, with the confident-wrong and -for-absent rates."""
    lines = [
        f"split {split}",
        "group | n | right | wrong | none | absent | confident for absent",
        "---|---|---|---|---|---|---",
    ]
    total: Counter[str] = Counter()
    for group, c in sorted(counts.items(), key=lambda kv: (-kv[1]["n"], kv[0])):
        total.update(c)
        lines.append(_row(group, c))
    lines.append(_row("all", total))
    n = max(total["n"], 1)
    lines.append(
        f"\nconfident wrong: {total['wrong']}/{total['n']} = {total['wrong'] / n:.1%}; "
        f"confident for absent: {total['absent_answered']}/{total['absent']} = "
        f"{total['absent_answered'] / max(total['absent'], 1):.1%}"
    )
    return "\n".join(lines)


def _row(group: str, c: Counter[str]) -> str:
    n = max(c["n"], 1)
    return (
        f"{group} | {c['n']} | {c['right']} ({c['right'] / n:.0%}) | {c['wrong']} "
        f"({c['wrong'] / n:.0%}) | {c['none']} | {c['absent']} | {c['absent_answered']}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--census", type=Path, default=CENSUS)
    parser.add_argument("--split", default="dev", choices=("dev", "holdout"))
    parser.add_argument("--catalog", action="append", default=[], type=Path)
    parser.add_argument("--no-bundled", action="store_true")
    args = parser.parse_args(argv)
    items = read_census(args.census, args.split)
    if args.no_bundled:
        catalog = Catalog.from_path(*args.catalog)
    else:
        catalog = Catalog.default()
        if args.catalog:
            catalog = catalog.merge(Catalog.from_path(*args.catalog))
    print(table(measure(items, catalog), args.split))


if __name__ == "__main__":
    main()
