"""The error texts a Rust extension's source hands to Python, read from the source text.

Users paste errors whose text a compiled Rust binding wrote (safetensors,
tokenizers, openai-harmony), where no Python miner sees a ``raise``. The texts
that reach Python sit in a few shapes of call, and :func:`messages_in` reads each
one with a literal format string:

* ``X::new_err("...")`` and ``X::new_err(format!("...", args))`` (pyo3's way of
  making the exception ``X``), also written ``PyErr::new::<X, _>(...)``;
* ``#[error("...")]`` on an enum variant or struct (thiserror's ``Display``), with
  the variant's name;
* ``Variant => write!(f, "...")``: an arm of a hand-written ``Display`` impl;
* ``anyhow!("...")``, ``bail!("...")`` and ``ensure!(cond, "...")`` (an ``anyhow``
  error, its text the format's).

The last three have no Python class of their own: a binding converts them
(``PyException::new_err(format!("{e}"))``), so the caller says which class they
reach Python as. :func:`rust_template` turns a format string into an errcat
template: each ``{}``, ``{name}``, ``{:?}``, ``{0}`` or ``{name:>8}`` becomes one
``{name}`` placeholder (named after its argument when the argument is a plain
name, else ``value``), ``{{`` and ``}}`` stay literal braces.

>>> src = 'Err(SafetensorError::new_err(format!("File does not contain tensor {name}",)))'
>>> [(m.line, m.rust_class, m.template) for m in messages_in(src)]
[(1, 'SafetensorError', 'File does not contain tensor {name}')]
>>> rust_template("Unknown role: {}", ["role_str"])
'Unknown role: {role_str}'
>>> rust_template("tensor `{0}` of {:?} in {{x}}", ["self.shape()"])
'tensor `{shape}` of {shape} in {{x}}'
>>> attr = '    #[error("Merges text file invalid at line {0}")]\\n    BadMerges(usize),'
>>> [(m.kind, m.variant, m.template) for m in messages_in(attr)]
[('error-attr', 'BadMerges', 'Merges text file invalid at line {value}')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["RustMessage", "messages_in", "python_class", "rust_template", "unescape"]

#: A Rust string literal, plain (``"..."``, escapes and line breaks allowed) or raw
#: (``r"..."``, ``r#"..."#``).
_LITERAL = r'(?P<lit>r(?P<hashes>#*)"(?P<raw>.*?)"(?P=hashes)|"(?P<plain>(?:[^"\\]|\\.)*)")'
#: What comes before the literal, by kind of site (``(?s)``: literals may span lines).
_SITES = {
    "new_err": r"(?P<cls>[A-Za-z_][\w:]*)::new_err\(\s*(?:format!\(\s*)?",
    "pyerr_new": r"PyErr::new::<\s*(?P<cls>[A-Za-z_][\w:]*)\s*,\s*_\s*>\(\s*(?:format!\(\s*)?",
    "error-attr": r"#\[error\(\s*",
    "display": r"(?<![\w:])(?P<variant>[A-Z]\w*)(?:\s*\([^()]*\)|\s*\{[^{}]*\})?\s*=>\s*"
    r"(?:\{\s*)?write!\(\s*\w+\s*,\s*",
    "anyhow": r"(?<![\w])(?:anyhow::)?(?:anyhow|bail)!\(\s*",
    "ensure": r"(?<![\w])(?:anyhow::)?ensure!\(\s*[^;\"]*?,\s*",
}
_KINDS = tuple(_SITES)
_COMPILED = {kind: re.compile(body + _LITERAL, re.S) for kind, body in _SITES.items()}
#: The item a ``#[error]`` attribute sits on: doc comments and attributes skipped.
_ITEM = re.compile(
    r"\s*(?:(?:///|//)[^\n]*\s*|#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?"
    r"(?:struct\s+|enum\s+)?(?P<name>[A-Za-z_]\w*)"
)
#: A placeholder of a Rust format string: ``{}``, ``{0}``, ``{name}``, each with an
#: optional ``:spec`` (``{:?}``, ``{name:>8}``, ``{0:#x}``).
_FIELD = re.compile(r"\{\{|\}\}|\{(?P<arg>[A-Za-z_]\w*|\d+)?(?::(?P<spec>[^{}]*))?\}")
_ESCAPE = re.compile(r"\\(?:\n\s*|u\{([0-9a-fA-F]+)\}|x([0-9a-fA-F]{2})|(.))", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}
#: pyo3's exception types whose Python name is not the type's name less ``Py``.
_PYO3_RENAMED = {"PyIOError": "OSError", "PyEnvironmentError": "OSError"}


@dataclass(frozen=True)
class RustMessage:
    """One literal error text of a Rust source and where it is."""

    #: 1-based line of the call or attribute.
    line: int
    #: ``pyerr`` (a Python exception made here: ``X::new_err``, ``PyErr::new::<X, _>``),
    #: ``error-attr``, ``display``, ``anyhow`` or ``ensure`` (a Rust error whose class the
    #: binding decides).
    kind: str
    #: The format string as Rust reads it (escapes resolved).
    fmt: str
    #: The errcat template (:func:`rust_template` with the call's arguments).
    template: str
    #: The exception type named at the call (``SafetensorError``, ``PyValueError``), if any.
    rust_class: str | None = None
    #: The variant or struct an attribute or ``Display`` arm describes, if any.
    variant: str | None = None


def unescape(body: str) -> str:
    r"""A plain Rust string literal's text: escapes resolved, ``\``-newline continuations joined.

    >>> unescape('a \\"b\\"\\\n     c\\u{e9}\\n')
    'a "b"cé\n'
    """

    def one(found: re.Match[str]) -> str:
        if found.group(1):
            return chr(int(found.group(1), 16))
        if found.group(2):
            return chr(int(found.group(2), 16))
        if found.group(3) is None:
            return ""
        return _SIMPLE.get(found.group(3), "\\" + found.group(3))

    return _ESCAPE.sub(one, body)


def _arguments(source: str, start: int) -> list[str]:
    """The comma-separated arguments after a format literal, up to the call's closing ``)``."""
    args: list[str] = []
    depth = 0
    current: list[str] = []
    i = start
    while i < len(source):
        c = source[i]
        if c == '"':
            end = re.compile(r'"(?:[^"\\]|\\.)*"', re.S).match(source, i)
            stop = end.end() if end else i + 1
            current.append(source[i:stop])
            i = stop
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    args.append("".join(current).strip())
    return [a for a in args if a]


def _name_of(expr: str) -> str:
    """A placeholder name for an argument: its last plain name, else ``value``.

    >>> [_name_of(e) for e in ("name", "&self.filename.display()", "x + 1", "e.to_string()")]
    ['name', 'filename', 'value', 'e']
    """
    expr = re.sub(r"\.(?:display|to_string|as_str|as_ref|clone|unwrap)\(\)", "", expr.strip())
    expr = expr.lstrip("&*").strip()
    expr = re.sub(r"\(\)$", "", expr)
    if re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", expr):
        return expr.rsplit(".", 1)[-1]
    return "value"


def rust_template(fmt: str, args: list[str] | tuple[str, ...] = ()) -> str:
    """An errcat template for a Rust format string (see the module docstring).

    ``name = expr`` arguments name their placeholder; positional ones are taken in order.

    >>> rust_template("{} of {n:?} ({0})", ["a.b", "n = 3"])
    '{b} of {n} ({b})'
    """
    positional = [a for a in args if not re.match(r"[A-Za-z_]\w*\s*=(?!=)", a)]
    out: list[str] = []
    next_index = 0
    last = 0
    for found in _FIELD.finditer(fmt):
        out.append(fmt[last : found.start()])
        last = found.end()
        token = found.group()
        if token in ("{{", "}}"):
            out.append(token)
            continue
        arg = found.group("arg")
        if arg is None:
            index: int | None = next_index
            next_index += 1
        elif arg.isdigit():
            index = int(arg)
        else:
            index = None
        if index is None:
            name = str(arg)
        elif index < len(positional):
            name = _name_of(positional[index])
        else:
            name = "value"
        if name[0].isdigit():
            name = "value"
        out.append("{" + name + "}")
    out.append(fmt[last:])
    return "".join(out)


def python_class(rust_class: str, classes: dict[str, str]) -> str | None:
    """The class Python shows for an exception type named in Rust; None when unknown.

    ``classes`` maps a binding's own types (``SafetensorError``) to their Python
    names; pyo3's built-in types are their Python name less ``Py``.

    >>> python_class("exceptions::PyValueError", {}), python_class("PyIOError", {})
    ('ValueError', 'OSError')
    >>> python_class("SafetensorError", {"SafetensorError": "safetensors_rust.SafetensorError"})
    'safetensors_rust.SafetensorError'
    >>> python_class("MyError", {}) is None
    True
    """
    name = rust_class.rsplit("::", 1)[-1]
    if name in classes:
        return classes[name]
    if name in _PYO3_RENAMED:
        return _PYO3_RENAMED[name]
    if re.fullmatch(r"Py[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration)", name):
        return name[2:]
    return None


def messages_in(source: str) -> list[RustMessage]:
    """Every literal error text of one Rust file, in source order (see the module docstring)."""
    out: list[RustMessage] = []
    for kind in _KINDS:
        for found in _COMPILED[kind].finditer(source):
            if found.group("raw") is not None:
                fmt = found.group("raw")
            else:
                fmt = unescape(found.group("plain"))
            args: list[str] = []
            if kind != "error-attr":
                tail = source[found.end() :]
                if tail.lstrip().startswith(","):
                    args = _arguments(source, found.end() + tail.index(",") + 1)
            variant = found.groupdict().get("variant")
            if kind == "error-attr":
                item = _ITEM.match(source, source.index(")]", found.end()) + 2)
                variant = item.group("name") if item else None
            line = source.count("\n", 0, found.start()) + 1
            out.append(
                RustMessage(
                    line=line,
                    kind="pyerr" if kind in ("new_err", "pyerr_new") else kind,
                    fmt=fmt,
                    template=rust_template(fmt, args),
                    rust_class=found.groupdict().get("cls"),
                    variant=variant,
                )
            )
    return sorted(out, key=lambda m: (m.line, m.kind, m.template))
