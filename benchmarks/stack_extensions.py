"""Mine the error texts of compiled extensions (Rust, C) from a git mirror (``build_stack.py``).

A package's ``extensionSources`` in ``stack/SOURCES.json`` name projects whose
errors are written in Rust or C (safetensors, tokenizers, openai-harmony,
msgspec), which the Python miner never sees. Each entry names the mirror's
commit read (``commit``, which the records link to; ``ref`` names it in the manifest: the
release tag, or the commit when the mirror has no tag of the release), its ``language`` and folders
(``under``), and the wheel (``dist``, ``version``: the release the engines pin)
whose compiled files must hold every literal piece of a text: a text of the
mirror's commit that the pinned release does not ship is dropped, so a commit
near the release (when the mirror lacks the release's tag) gives the release's
texts, never a newer one's. Rust texts are read by :mod:`rust_messages` (the
``classes`` entry maps a binding's own exception types to their Python names,
``wrapped`` names the class an ``#[error]``/``anyhow``/``Display`` text reaches
Python as, or is absent when the binding only shows them inside its own
messages); C texts are msgspec's own exceptions (``classes`` maps its state's exception
fields, ``ValidationError``, to their Python names) and, only with ``"builtins": true``,
the built-in ones :mod:`cpython_c_messages` reads (``PyErr_Format(PyExc_X, ...)``): a C
extension copies some of the interpreter's checks word for word, so its built-in-class
texts would answer the interpreter's own errors.

Records are tagged ``errcat:generated`` (their advice is the project's generic
advice of :data:`ADVICE`) and :data:`HIDDEN_SITE_TAG` (no traceback frame shows a
compiled site), so ``build_stack``'s vague filter and hand-written records
(:func:`build_stack.covered`) apply to them as to mined Python records.

>>> import regex
>>> template, pattern = c_template("Expected `%U`, got `%s`%U", suffix=True)
>>> template
'Expected `{value}`, got `{value}`'
>>> [
...     bool(regex.fullmatch(pattern, t))
...     for t in ("Expected `int`, got `str`", "Expected `int`, got `str` - at `$.max_tokens`")
... ]
[True, True]
>>> regex.fullmatch(
...     c_template("Expected `array` of length %zd%U", suffix=True)[1],
...     "Expected `array` of length 3 - at `$.x`",
... ).groups()
('3',)
>>> c_template("Unexpected keyword argument '%U'")
("Unexpected keyword argument '{value}'", "Unexpected keyword argument '(.+?)'")
>>> pieces_of("File does not contain tensor {name}", "rust")
['File does not contain tensor ']
"""

from __future__ import annotations

import re
import subprocess
import time
import zipfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cpython_c_messages import _CONVERSION, _LITERAL, messages_in
from errcat.imports.site import HIDDEN_SITE_TAG
from errcat.mine.records import github_url
from errcat.models import GENERATED_TAG, RecordEnvelope
from errcat.patterns import GROUP, escape_literal, template_to_pattern
from rust_messages import messages_in as rust_messages_in
from rust_messages import python_class
from stack_closure import fetch
from stack_curated.spec import CURATED_TAG, Curated
from stack_mine import MinedProject, Project

__all__ = ["ADVICE", "c_template", "mine_extension_source", "pieces_of"]

#: Per repository: what the project is, and the generic advice of its mined texts.
ADVICE: dict[str, tuple[str, tuple[str, ...], str]] = {
    "huggingface/safetensors": (
        "safetensors' Rust binding (safe_open, load_file, save_file) refused a file or"
        " a tensor: the text names what it could not read or write.",
        (
            "Check the file the loader opened: ls -l <model dir>/*.safetensors, and"
            " download it again if it is short or a git-lfs pointer: huggingface-cli"
            " download <repo id> --local-dir <model dir> --force-download",
            'Install the safetensors release the engine pins: pip install "safetensors==0.8.0"',
        ),
        'pip install "safetensors==0.8.0"\n'
        "huggingface-cli download <repo id> --local-dir <model dir> --force-download",
    ),
    "huggingface/tokenizers": (
        "The tokenizers library's Rust code refused the tokenizer's files or its input:"
        " the text names what it could not read.",
        (
            "Install the tokenizers and transformers releases the engine pins, or newer:"
            ' pip install -U "tokenizers>=0.23.2" "transformers>=5.20.2"',
            "Download the tokenizer files again: huggingface-cli download <repo id>"
            " tokenizer.json tokenizer_config.json --local-dir <model dir> --force-download",
        ),
        'pip install -U "tokenizers>=0.23.2" "transformers>=5.20.2"',
    ),
    "openai/harmony": (
        "openai-harmony's Rust encoder or parser (gpt-oss's chat format) refused the"
        " conversation or the model's output: the text says what it could not render or"
        " parse.",
        (
            "Upgrade the engine and the parser together: pip install -U vllm"
            ' "openai-harmony>=0.0.8" (or sglang)',
            "Serve gpt-oss with the engine's gpt-oss parsers: --reasoning-parser gpt-oss"
            " (sglang) and --tool-call-parser openai (vllm) or gpt-oss (sglang)",
        ),
        'pip install -U vllm "openai-harmony>=0.0.8"',
    ),
    "jcrist/msgspec": (
        "msgspec's C code refused a value while building or decoding a msgspec Struct"
        " (vllm's and sglang's messages between processes, and vllm's SamplingParams,"
        " are Structs): a field the installed release does not define, or a value of the"
        " wrong type.",
        (
            "Keep the engine and whatever sends it requests (a plug-in, a client library,"
            " a framework) at matching releases: pip install -U vllm, then the plug-in's"
            " release for it",
            "Drop the keyword or field the message names, or rename it to the one the"
            " installed release documents (python -c 'import vllm, inspect;"
            " print(inspect.signature(vllm.SamplingParams))')",
        ),
        "# before\nSamplingParams(max_length=64)\n# after\nSamplingParams(max_tokens=64)",
    ),
}

#: A msgspec validation error: its own macro or helper, the format literal first.
_MS_VALIDATION = re.compile(
    r"\bms_(?:raise_validation_error\(\s*\w+\s*,|error_with_path\()\s*"
    r"((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)"
)
#: ``PyErr_Format(state->ValidationError, "...")``: an exception of the module's state.
_STATE_CALL = re.compile(
    r"\bPyErr_(?:SetString|Format)\(\s*(?:\w+\(\)|\w+)->(\w+)\s*,\s*"
    r"((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)"
)
_RUST_FIELD = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def c_template(fmt: str, *, suffix: bool = False) -> tuple[str, str]:
    """An errcat template for a C format, and its pattern.

    Each conversion is a ``{value}`` (a number's matched as digits); ``%%`` is
    ``%``. With ``suffix`` the last conversion is msgspec's path suffix
    (`` - at `$.field` `` or nothing), left out of the template and matched by an
    optional tail.
    """
    tail = ""
    if suffix and fmt.endswith("%U"):
        fmt, tail = fmt[:-2].rstrip(), r"(?: - at `\$[^`\n]*`(?: in `[^`\n]*`)?)?"
    template: list[str] = []
    pattern: list[str] = []
    last = 0
    for found in _CONVERSION.finditer(fmt):
        literal = fmt[last : found.start()]
        last = found.end()
        if found.group() == "%%":
            template.append(literal.replace("{", "{{").replace("}", "}}") + "%")
            pattern.append(escape_literal(literal + "%"))
            continue
        template.append(literal.replace("{", "{{").replace("}", "}}") + "{value}")
        number = found.group()[-1] in "diuxXo"
        pattern.append(escape_literal(literal) + (r"(-?\d+)" if number else GROUP))
    template.append(fmt[last:].replace("{", "{{").replace("}", "}}"))
    pattern.append(escape_literal(fmt[last:]) + tail)
    return "".join(template), "".join(pattern)


def pieces_of(fmt: str, language: str) -> list[str]:
    """A format's literal pieces (between its placeholders) of three characters or more."""
    if language == "rust":
        pieces = _RUST_FIELD.split(fmt.replace("{{", "\0").replace("}}", "\1"))
        pieces = [p.replace("\0", "{").replace("\1", "}") for p in pieces]
    else:
        pieces = _CONVERSION.split(fmt)
    return [p for p in pieces if len(p.strip()) >= 3]


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(mirror), *args], check=True, capture_output=True, text=True
    ).stdout


def _compiled(wheel: Path) -> bytes:
    """The bytes of every compiled library (``.so``, ``.pyd``) a wheel ships."""
    with zipfile.ZipFile(wheel) as zf:
        return b"".join(zf.read(n) for n in sorted(zf.namelist()) if n.endswith((".so", ".pyd")))


def _sites(text: str, source: dict[str, Any]) -> list[tuple[int, str, str, str, str]]:
    """(line, Python class, template, pattern, format) of each text of one file.

    A Rust text's pattern is its template's (:func:`template_to_pattern`).
    """
    classes: dict[str, str] = source.get("classes", {})
    out: list[tuple[int, str, str, str, str]] = []
    if source["language"] == "rust":
        wrapped = source.get("wrapped")
        for m in rust_messages_in(text):
            cls = python_class(m.rust_class, classes) if m.rust_class else wrapped
            if cls:
                out.append((m.line, cls, m.template, template_to_pattern(m.template), m.fmt))
        return out
    # A C extension re-implements some of the interpreter's own checks word for word
    # (msgspec's Struct: CPython 3.12's "Can't instantiate abstract class ..."), which
    # would then answer the interpreter's error as the extension's: its texts on the
    # built-in classes are read only when the entry says ``"builtins": true``.
    read_builtins = source.get("builtins", False)
    for found in re.finditer(r"\b_?PyErr_(?:SetString|Format)\(", text) if read_builtins else ():
        line = text.count("\n", 0, found.start()) + 1
        for cls, fmt in messages_in(text[found.start() : text.find(";", found.start()) + 1]):
            out.append((line, cls, *c_template(fmt), fmt))
    for found in _STATE_CALL.finditer(text):
        if found.group(1) in classes:
            fmt = "".join(_LITERAL.findall(found.group(2)))
            line = text.count("\n", 0, found.start()) + 1
            out.append((line, classes[found.group(1)], *c_template(fmt, suffix=True), fmt))
    if "ValidationError" in classes:
        for found in _MS_VALIDATION.finditer(text):
            fmt = "".join(_LITERAL.findall(found.group(1)))
            line = text.count("\n", 0, found.start()) + 1
            out.append((line, classes["ValidationError"], *c_template(fmt, suffix=True), fmt))
    return out


def mine_extension_source(source: dict[str, Any], mirrors: Path, cache: Path) -> MinedProject:
    """An ``extensionSources`` entry's records (see the module docstring)."""
    started = time.perf_counter()
    repo, commit, ref = str(source["repo"]), str(source["commit"]), str(source["ref"])
    mirror = mirrors / repo.replace("/", "+") / "repo"
    if not mirror.is_dir():
        raise SystemExit(f"{repo}: no git mirror at {mirror} (fetch github:{repo} first)")
    binary = _compiled(fetch(cache, str(source["dist"]), f"=={source['version']}"))
    suffix = ".rs" if source["language"] == "rust" else ".c"
    paths = [
        p
        for p in _git(
            mirror, "ls-tree", "-r", "--name-only", commit, "--", *source["under"]
        ).splitlines()
        if p.endswith(suffix) and "/tests/" not in f"/{p}" and "/benches/" not in f"/{p}"
    ]
    documentation, solutions, example_fix = ADVICE[repo]
    stamp = int(_git(mirror, "show", "-s", "--format=%ct", commit))
    when = datetime.fromtimestamp(stamp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    envelopes: dict[str, RecordEnvelope] = {}
    found = absent = 0
    seen: set[tuple[str, str]] = set()
    for path in sorted(paths):
        text = _git(mirror, "show", f"{commit}:{path}")
        lines = text.splitlines()
        for line, cls, template, pattern, fmt in _sites(text, source):
            found += 1
            if (cls, template) in seen:
                continue  # the same text raised again elsewhere: one record answers both
            seen.add((cls, template))
            if not pieces_of(fmt, source["language"]):
                absent += 1  # no words of its own (``{0}``): nothing to tell it by
                continue
            if not all(p.encode() in binary for p in pieces_of(fmt, source["language"])):
                absent += 1
                continue
            spec = Curated(
                repo=repo,
                path=path,
                line=line,
                revision=ref,
                error_class=cls,
                template=template,
                pattern=pattern,
                documentation=documentation,
                solutions=solutions,
                example_fix=example_fix,
                error_type="runtime",
                tags=(repo.split("/")[1], "errcat:compiled", HIDDEN_SITE_TAG, GENERATED_TAG),
            )
            data = spec.envelope().model_dump(mode="json", by_alias=True)
            record = data["record"]
            record["tags"] = [t for t in record["tags"] if t != CURATED_TAG]
            record["sourceCode"] = "\n".join(lines[max(0, line - 2) : line + 1])
            record["sourceCodeStart"] = start = max(1, line - 1)
            record["sourceCodeEnd"] = end = min(len(lines), line + 1)
            record["githubUrl"] = github_url(repo, commit, path, start, end)
            record["analyzedSha"] = commit
            record["analyzedAt"] = when
            env = RecordEnvelope.model_validate(data)
            envelopes.setdefault(env.record.id, env)
    print(
        f"  {repo} at {commit[:12]} ({ref}): {len(paths)} {source['language']} files,"
        f" {found} texts, {absent} wordless or not in {source['dist']} {source['version']}'s binary,"
        f" {len(envelopes)} records",
        flush=True,
    )
    project = Project(repo, str(source["dist"]), (), "", (str(source["version"]),), ref)
    return MinedProject(
        project, list(envelopes.values()), None, time.perf_counter() - started, when
    )
