r"""How a mined project lets its users configure it: flags, config fields, environment variables.

Read per file by :func:`collect_options` (it runs in the scan of each file)
and joined across files by :class:`OptionIndex`. Sources read:

* argparse ``add_argument("--flag", ...)`` (``dest``, ``help``, ``choices``,
  ``default``, ``store_true``);
* fields annotated ``Annotated[T, "help"]`` or ``Annotated[T, Arg(help=...,
  choices=..., cli_name=..., no_cli=True)]``, from which a parser is generated
  (sglang's ``A[...]`` fields): ``--`` plus the field name with dashes, unless
  the field opts out with ``no_cli=True``; a ``Literal[...]`` type gives the
  choices;
* dataclass fields of a class handed to a parser generator
  (``add_cli_args_from_dataclass(parser, ServerArgs)``, ``HfArgumentParser``);
* click ``@click.option("--flag")`` and typer ``typer.Option("--flag")``;
* pydantic ``BaseSettings`` fields with their ``env_prefix`` (environment variables);
* environment variables read with ``os.environ[...]``, ``os.environ.get``,
  ``os.getenv``, or declared in a registry class (``SGLANG_X = EnvBool(False)``).

Nothing is guessed: an option exists only when one of these defines it.

>>> src = '''
... import argparse, os
... p = argparse.ArgumentParser()
... p.add_argument("--log-level", choices=["debug", "info"], default="info", help="Verbosity.")
... if os.getenv("APP_DEBUG"):
...     pass
... '''
>>> found = collect_options(ast.parse(src), src, lambda name: name)
>>> [(o.dest, o.flag, o.choices, o.default) for o in found.options]
[('log_level', '--log-level', ('debug', 'info'), 'info')]
>>> found.envs
('APP_DEBUG',)
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from errcat.mine.facts import _FileScan, _Option

__all__ = ["FileOptions", "OptionIndex", "collect_options", "env_read"]

_ANNOTATED = frozenset({"A", "Annotated"})
_NOT_CLI_META = frozenset({"Field", "Option", "Argument", "Parameter", "Query", "Body", "Header"})
#: Calls that build a command-line parser from a dataclass's fields.
_PARSER_GENERATOR = re.compile(
    r"(?i)cli_args|from_dataclass|argumentparser|dataclass_arguments|dataclass_to_(?:args|parser)"
)
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]{2,}$")
_MAX_CHOICES = 40
#: Environment variables read through ``os`` (found in the text: cheaper than a tree walk).
_ENV_READS = (
    re.compile(
        r"""(?:environ\s*\[\s*|environ\.(?:get|setdefault|pop)\(\s*|getenv\(\s*)"""
        r"""['"]([A-Za-z_][A-Za-z0-9_]*)['"]"""
    ),
    re.compile(r"""['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s+(?:not\s+)?in\s+(?:os\.)?environ\b"""),
)


@dataclass
class FileOptions:
    """What one file defines: options, dataclass fields, parsed classes, environment variables."""

    options: list[_Option] = field(default_factory=list)
    fields: list[tuple[str, tuple[_Option, ...]]] = field(default_factory=list)
    parsed: list[str] = field(default_factory=list)
    envs: tuple[str, ...] = ()


def _name_of(node: ast.expr) -> str:
    """The last name of a callee or decorator (``click.option`` -> ``option``)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _literal(node: ast.expr | None, consts: dict[str, ast.expr]) -> object:
    """A literal value (constants, tuples, lists, sets; module-level names), or ``None``."""
    if node is None:
        return None
    if isinstance(node, ast.Name) and node.id in consts:
        node = consts[node.id]
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _texts(value: object) -> tuple[str, ...]:
    """Static choices as texts (``()`` unless a short sequence of scalars)."""
    if isinstance(value, (list, tuple, set, frozenset)) and 0 < len(value) <= _MAX_CHOICES:
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else list(value)
        if all(isinstance(v, (str, int, float, bool)) for v in items):
            return tuple(str(v) for v in items)
    return ()


def _shown(value: object) -> str | None:
    if value is None or isinstance(value, (list, dict, tuple, set)):
        return None
    return str(value)


def _kw(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _help(call: ast.Call) -> str:
    value = _kw(call, "help")
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return " ".join(value.value.split())
    return ""


def _dashes(name: str) -> str:
    return "--" + name.replace("_", "-")


def _flags(call: ast.Call) -> list[str]:
    return [
        a.value
        for a in call.args
        if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("-")
    ]


def _argparse(call: ast.Call, consts: dict[str, ast.expr]) -> _Option | None:
    flags = _flags(call)
    longs = [f for f in flags if f.startswith("--")]
    if not flags:
        return None
    dest_node = _kw(call, "dest")
    if isinstance(dest_node, ast.Constant) and isinstance(dest_node.value, str):
        dest = dest_node.value
    else:
        dest = (longs or flags)[0].lstrip("-").replace("-", "_")
    action = _literal(_kw(call, "action"), consts)
    return _Option(
        dest=dest,
        flag=(longs or flags)[0],
        help=_help(call),
        choices=_texts(_literal(_kw(call, "choices"), consts)),
        default=_shown(_literal(_kw(call, "default"), consts)),
        is_bool=action in ("store_true", "store_false", "BooleanOptionalAction"),
    )


def _click(call: ast.Call, consts: dict[str, ast.expr]) -> _Option | None:
    flags = _flags(call)
    if not flags:
        return None
    names = [
        a.value
        for a in call.args
        if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.isidentifier()
    ]
    longest = max(flags, key=len)
    dest = names[0] if names else longest.lstrip("-").replace("-", "_")
    kind = _kw(call, "type")
    choices: tuple[str, ...] = ()
    if isinstance(kind, ast.Call) and _name_of(kind) == "Choice" and kind.args:
        choices = _texts(_literal(kind.args[0], consts))
    return _Option(
        dest=dest,
        flag=longest,
        help=_help(call),
        choices=choices,
        default=_shown(_literal(_kw(call, "default"), consts)),
        is_bool=_literal(_kw(call, "is_flag"), consts) is True,
    )


def _typer_params(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[_Option]:
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    for arg, default in pairs:
        meta = None
        if isinstance(default, ast.Call) and _name_of(default) == "Option":
            meta = default
        elif isinstance(arg.annotation, ast.Subscript) and isinstance(
            arg.annotation.slice, ast.Tuple
        ):
            meta = next(
                (
                    e
                    for e in arg.annotation.slice.elts[1:]
                    if isinstance(e, ast.Call) and _name_of(e) == "Option"
                ),
                None,
            )
        if meta is None:
            continue
        flags = [f for f in _flags(meta) if f.startswith("--")]
        yield _Option(dest=arg.arg, flag=flags[0] if flags else _dashes(arg.arg), help=_help(meta))


def _annotated_field(stmt: ast.AnnAssign, consts: dict[str, ast.expr]) -> _Option | None:
    """A class field ``name: Annotated[T, "help" | Arg(...)]`` from which a flag is generated."""
    ann = stmt.annotation
    if not (
        isinstance(stmt.target, ast.Name)
        and isinstance(ann, ast.Subscript)
        and _name_of(ann.value) in _ANNOTATED
        and isinstance(ann.slice, ast.Tuple)
        and len(ann.slice.elts) >= 2
    ):
        return None
    name = stmt.target.id
    kind, *metas = ann.slice.elts
    literal = _literal_choices(kind)
    default = _shown(_literal(stmt.value, consts))
    is_bool = isinstance(kind, ast.Name) and kind.id == "bool"
    for meta in metas:
        if isinstance(meta, ast.Constant) and isinstance(meta.value, str):
            help_text = " ".join(meta.value.split())
            return _Option(name, _dashes(name), "flag", help_text, literal, default, is_bool)
        if isinstance(meta, ast.Call) and _name_of(meta) not in _NOT_CLI_META:
            keys = {k.arg for k in meta.keywords}
            if not keys & {"help", "choices", "cli_name", "aliases", "no_cli"}:
                continue
            if _literal(_kw(meta, "no_cli"), consts) is True:
                return None
            cli_name = _literal(_kw(meta, "cli_name"), consts)
            flag = cli_name if isinstance(cli_name, str) else _dashes(name)
            choices = _texts(_literal(_kw(meta, "choices"), consts)) or literal
            return _Option(name, flag, "flag", _help(meta), choices, default, is_bool)
    return None


def _literal_choices(kind: ast.expr) -> tuple[str, ...]:
    """The values of a ``Literal[...]`` type (also inside ``Optional[...]``)."""
    for node in ast.walk(kind):
        if isinstance(node, ast.Subscript) and _name_of(node.value) == "Literal":
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            values = [i.value for i in items if isinstance(i, ast.Constant)]
            return _texts(values) if len(values) == len(items) else ()
    return ()


def _dataclass_fields(node: ast.ClassDef, consts: dict[str, ast.expr]) -> tuple[_Option, ...]:
    out = []
    for stmt in node.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        name = stmt.target.id
        if name.startswith("_") or "ClassVar" in ast.unparse(stmt.annotation):
            continue
        help_text = ""
        default = _shown(_literal(stmt.value, consts))
        if isinstance(stmt.value, ast.Call) and _name_of(stmt.value) == "field":
            meta = _literal(_kw(stmt.value, "metadata"), consts)
            if isinstance(meta, dict) and isinstance(meta.get("help"), str):
                help_text = " ".join(meta["help"].split())
            default = _shown(_literal(_kw(stmt.value, "default"), consts))
        is_bool = isinstance(stmt.annotation, ast.Name) and stmt.annotation.id == "bool"
        out.append(_Option(name, _dashes(name), "flag", help_text, (), default, is_bool))
    return tuple(out)


def _settings_prefix(node: ast.ClassDef, consts: dict[str, ast.expr]) -> str | None:
    """The ``env_prefix`` of a pydantic settings class (``""`` when it has none)."""
    if not any(_name_of(b).endswith("BaseSettings") for b in node.bases):
        return None
    for stmt in node.body:
        if (
            isinstance(stmt, (ast.Assign, ast.AnnAssign))
            and isinstance(stmt.value, ast.Call)
            and ast.unparse(stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target)
            == "model_config"
        ):
            prefix = _literal(_kw(stmt.value, "env_prefix"), consts)
            if isinstance(prefix, str):
                return prefix
        if isinstance(stmt, ast.ClassDef) and stmt.name == "Config":
            for inner in stmt.body:
                if (
                    isinstance(inner, ast.Assign)
                    and ast.unparse(inner.targets[0]) == "env_prefix"
                    and isinstance(inner.value, ast.Constant)
                    and isinstance(inner.value.value, str)
                ):
                    return inner.value.value
    return ""


def env_read(node: ast.expr) -> str | None:
    """The environment variable an expression reads directly, if it is one of the os forms.

    >>> [
    ...     env_read(ast.parse(s, mode="eval").body)
    ...     for s in (
    ...         'os.environ["A_B"]',
    ...         'os.getenv("C_D", "1")',
    ...         'environ.get("E_F")',
    ...         'x.get("G")',
    ...     )
    ... ]
    ['A_B', 'C_D', 'E_F', None]
    """
    key: ast.expr | None = None
    if isinstance(node, ast.Subscript) and _name_of(node.value) == "environ":
        key = node.slice
    elif isinstance(node, ast.Call) and node.args:
        func = node.func
        if _name_of(func) == "getenv" or (
            isinstance(func, ast.Attribute)
            and func.attr in ("get", "setdefault", "pop")
            and _name_of(func.value) == "environ"
        ):
            key = node.args[0]
    if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value:
        return key.value
    return None


def _classes(body: Sequence[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.ClassDef]]:
    for node in body:
        if isinstance(node, ast.ClassDef):
            yield prefix + node.name, node
            yield from _classes(node.body, prefix + node.name + ".")
        elif isinstance(node, (ast.If, ast.Try)):
            yield from _classes(node.body, prefix)


def collect_options(tree: ast.Module, text: str, qualify: Callable[[str], str]) -> FileOptions:
    """The options one module defines (see the module docstring).

    ``qualify`` turns a name read in the module into its dotted name (through
    the imports), for classes handed to a parser generator.
    """
    out = FileOptions()
    consts: dict[str, ast.expr] = {
        t.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    envs: dict[str, None] = {}
    for qual, node in _classes(tree.body, ""):
        prefix = _settings_prefix(node, consts)
        is_dataclass = any(_name_of(d) == "dataclass" for d in node.decorator_list)
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign):
                found = _annotated_field(stmt, consts)
                if found is not None:
                    out.options.append(found)
                elif prefix is not None and isinstance(stmt.target, ast.Name):
                    name = stmt.target.id
                    out.options.append(_Option(name, (prefix + name).upper(), "env"))
            elif (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and _ENV_NAME.match(stmt.targets[0].id)
                and isinstance(stmt.value, ast.Call)
                and _name_of(stmt.value).startswith("Env")
            ):
                envs[stmt.targets[0].id] = None  # a registry: SGLANG_X = EnvBool(False)
        if is_dataclass:
            out.fields.append((qualify(qual), _dataclass_fields(node, consts)))
    if "environ" in text or "getenv" in text:
        for pattern in _ENV_READS:
            envs.update(dict.fromkeys(pattern.findall(text)))
    wanted = ("add_argument", "click", "typer", "ArgumentParser(", "cli_args", "from_dataclass")
    if any(w in text for w in wanted):
        for item in ast.walk(tree):
            if isinstance(item, ast.Call):
                _call(item, consts, out, qualify)
            elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and "typer" in text:
                out.options.extend(_typer_params(item))
    out.envs = tuple(envs)
    return out


def _call(
    node: ast.Call,
    consts: dict[str, ast.expr],
    out: FileOptions,
    qualify: Callable[[str], str],
) -> None:
    name = _name_of(node)
    if name == "add_argument":
        found = _argparse(node, consts)
        if found is not None:
            out.options.append(found)
    elif name == "option" and isinstance(node.func, (ast.Attribute, ast.Name)):
        found = _click(node, consts)
        if found is not None:
            out.options.append(found)
    elif _PARSER_GENERATOR.search(name):
        for arg in node.args:
            items = arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]
            out.parsed.extend(
                qualify(i.id) for i in items if isinstance(i, ast.Name) and i.id[:1].isupper()
            )


class OptionIndex:
    """The options and environment variables of a whole mined project, by attribute name.

    >>> opt = _Option("mode", "--mode", choices=("a", "b"))
    >>> index = OptionIndex.of([_FileScan("f", "f", "m", options=(opt,), envs=("APP_X",))])
    >>> index.option("mode").flag, index.is_env("APP_X"), index.is_env("APP_Y")
    ('--mode', True, False)
    """

    def __init__(self, options: Iterable[_Option], envs: Iterable[str]) -> None:
        self.by_dest: dict[str, _Option] = {}
        for option in options:
            self.by_dest.setdefault(option.dest, option)
        self.envs: frozenset[str] = frozenset(envs) | frozenset(
            o.flag for o in self.by_dest.values() if o.kind == "env"
        )
        self.flags: frozenset[str] = frozenset(
            o.flag for o in self.by_dest.values() if o.kind == "flag"
        )

    @classmethod
    def of(cls, scans: Sequence[_FileScan], canonical: Callable[[str], str] = str) -> OptionIndex:
        """Join the options of every scan; dataclass fields count when a parser is made of them.

        The flags of a module that runs as a program of its own (a benchmark or
        search script with ``if __name__ == "__main__":``) are its own: they
        exist (a message may name them) but no settings object of the project
        reads them.
        """
        explicit = [o for s in scans if not s.script for o in s.options]
        parsed = {canonical(name) for s in scans for name in s.parsed}
        generated = [
            o for s in scans for name, fields in s.fields if name in parsed for o in fields
        ]
        envs = [e for s in scans for e in s.envs]
        index = cls([*explicit, *generated], envs)
        scripts = [o for s in scans if s.script for o in s.options if o.kind == "flag"]
        index.flags = index.flags | {o.flag for o in scripts}
        return index

    def option(self, dest: str) -> _Option | None:
        """The option whose value is read as ``<config>.dest``, if the project defines one."""
        return self.by_dest.get(dest)

    def is_env(self, name: str) -> bool:
        """Whether the project reads (or declares) an environment variable of this name."""
        return name in self.envs
