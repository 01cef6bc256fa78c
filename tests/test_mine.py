"""Tests of errcat.mine: message forms, class names, ids, skips, re-anchoring, the CLI."""

from __future__ import annotations

import argparse
import io
import itertools
import json
import keyword
import shutil
import sys
import textwrap
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from errcat.errors import CatalogSourceError, InvalidRecordError
from errcat.loaders import iter_path, write_jsonl
from errcat.mine import (
    CONTROL_FLOW,
    DYNAMIC_CLASS,
    EXISTING_OBJECT,
    KEYWORD_ONLY,
    NO_MESSAGE,
    NO_STATIC_TEXT,
    NON_STRING,
    OWN_FORMAT,
    STARRED,
    MineResult,
    add_arguments,
    github_url,
    guess_error_type,
    mine_paths,
    mine_source,
    reanchor,
    record_id,
    run,
    slugify,
)
from errcat.models import ErrorRecord, RecordEnvelope, validate_envelope
from errcat.patterns import compile_pattern, parse_template, template_to_pattern

FIXTURES = Path(__file__).parent / "fixtures" / "mine"
SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds.jsonl"
REPO = "example/project"
SHA = "a" * 40
WHEN = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=timezone.utc)


def mine_text(tmp_path: Path, source: str, name: str = "mod.py", **kwargs: Any) -> MineResult:
    """Write one module to tmp_path/src and mine that folder."""
    root = tmp_path / "src"
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    kwargs.setdefault("analyzed_at", WHEN)
    return mine_paths([root], repo=REPO, sha=SHA, **kwargs)


def templates(tmp_path: Path, source: str) -> list[tuple[str, str]]:
    """(errorClass, errorMessage) of every record mined from a module, in order."""
    return [(r.error_class, r.error_message) for r in mine_text(tmp_path, source).records]


def seed_objects() -> list[dict[str, Any]]:
    """The three seed envelopes (the bundled data holds them unchanged)."""
    lines = SEEDS.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def copy_fixture(version: str, dest: Path) -> Path:
    """Copy tests/fixtures/mine/<version> to dest, renaming *.py.txt to *.py."""
    src = FIXTURES / version
    for file in src.rglob("*.py.txt"):
        target = dest / file.relative_to(src).with_suffix("")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, target)
    return dest


# --------------------------------------------------------------------------
# Message forms
# --------------------------------------------------------------------------

FORMS: list[tuple[str, str, list[str]]] = [
    ("constant", 'raise ValueError("bad value")', ["bad value"]),
    ("implicit concatenation", 'raise ValueError("bad "\n        "value")', ["bad value"]),
    (
        "f-string conversions and specs",
        "raise ValueError(f\"got {x!r} and {y!s} as {z:>10} of {d['k']} {n:.{p}f}\")",
        ["got {x!r} and {y!s} as {z:>10} of {d['k']} {n:.{p}f}"],
    ),
    (
        "f-string nested quotes and calls",
        """raise ValueError(f"supported are {sorted(v)}; {', '.join(map(str, v))}")""",
        ["supported are {sorted(v)}; {', '.join(map(str, v))}"],
    ),
    ("f-string debug", 'raise ValueError(f"bad {x=}")', ["bad x={x!r}"]),
    (
        "percent tuple",
        'raise ValueError("%s and %r, %d%% %5.2f done" % (a, b, c, d))',
        ["{a} and {b!r}, {c}% {d:5.2f} done"],
    ),
    ("percent single", 'raise ValueError("bad value %r" % x)', ["bad value {x!r}"]),
    (
        "percent single tuple",
        'raise ValueError("bad value %r" % (x,))',
        ["bad value {x!r}"],
    ),
    (
        "percent mapping",
        'raise ValueError("bad %(name)s: %(value)r" % {"name": n, "value": v})',
        ["bad {n}: {v!r}"],
    ),
    (
        "percent dict call",
        'raise ValueError("bad %(name)s" % dict(name=n))',
        ["bad {n}"],
    ),
    (
        "percent unknown mapping",
        'raise ValueError("bad %(name)s here" % mapping)',
        ["bad {name} here"],
    ),
    (
        "format positional and keyword",
        'raise ValueError("{} of {1} in {name} at {0.pos}".format(a, b, name=c))',
        ["{a} of {b} in {c} at {a.pos}"],
    ),
    (
        "format conversion and literal braces",
        'raise ValueError("{!r} is not {{valid}}".format(x))',
        ["{x!r} is not {{valid}}"],
    ),
    (
        "plus concatenation",
        'raise ValueError("bad: " + repr(x) + " in " + str(y) + "!")',
        ["bad: {x!r} in {y}!"],
    ),
    (
        "several arguments print as their tuple",
        'raise ValueError("bad thing", 3, x)',
        ["('bad thing', 3, {x!r})"],
    ),
    (
        "several arguments, a quote inside",
        """raise RuntimeError(f"can't load {name}", "retry\\n")""",
        ["(\"can't load {name}\", 'retry\\n')"],
    ),
    ("from", 'raise ValueError("bad input") from None', ["bad input"]),
    ("gettext", 'raise ValueError(_("translated message %s") % x)', ["translated message {x}"]),
    (
        "join",
        'raise ValueError(", ".join(["first part", str(x), "last"]))',
        ["first part, {x}, last"],
    ),
    (
        "literal braces",
        'raise ValueError("expected a {key: value} mapping")',
        ["expected a {{key: value}} mapping"],
    ),
    (
        "conditional expression",
        'raise ValueError("too big" if x else "too small")',
        [
            "too big",
            "too small",
        ],
    ),
    (
        "local variable",
        'msg = f"bad value {x!r}"\n    raise ValueError(msg)',
        ["bad value {x!r}"],
    ),
    (
        "local variable with +=",
        'msg = "bad value"\n    if x:\n        msg += f" for {x}"\n    raise ValueError(msg)',
        ["bad value", "bad value for {x}"],
    ),
    (
        "branches",
        'if x:\n        msg = "x is set"\n    else:\n        msg = "x is not set"\n'
        "    raise ValueError(msg)",
        ["x is not set", "x is set"],
    ),
    (
        "format on a variable",
        'msg = "bad {} value"\n    raise ValueError(msg.format(x))',
        ["bad {x} value"],
    ),
    (
        "exception object in a variable",
        'err = KeyError("no such key")\n    raise err',
        ["no such key"],
    ),
    ("assert", 'assert x > 0, f"x must be positive, got {x}"', ["x must be positive, got {x}"]),
    (
        "OSError errno form",
        'raise OSError(errno.ENOENT, "No such file", path)',
        ["[Errno {errno.ENOENT}] No such file: {path!r}"],
    ),
    (
        "edges stripped",
        'raise ValueError("\\n  bad value  \\n")',
        ["bad value"],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [f[1:] for f in FORMS], ids=[f[0] for f in FORMS])
def test_message_forms(tmp_path: Path, source: str, expected: list[str]) -> None:
    body = f"def f(x=None, y=None, z=None, a=None, b=None, c=None, d=None):\n    {source}\n"
    found = sorted(r.error_message for r in mine_text(tmp_path, body).records)
    assert found == sorted(expected)
    for template in found:
        literals, _fields = parse_template(template)
        assert "".join(literals).strip()


def test_module_constant_message(tmp_path: Path) -> None:
    source = """
    _BAD = "a filename was not supplied"

    def load(name):
        if not name:
            raise ValueError(_BAD)
    """
    assert templates(tmp_path, source) == [("ValueError", "a filename was not supplied")]


def test_seed_message_form(tmp_path: Path) -> None:
    source = """
    def check(architecture, validated_architectures):
        if architecture not in validated_architectures:
            raise ValueError(
                f"DeepEP v2 MoE is not validated for {architecture!r}; supported "
                f"architectures are {sorted(validated_architectures)}. "
                "Other model workflows may require an all-reduce after A2A "
                "combine. Use --moe-a2a-backend deepep."
            )
    """
    seed = seed_objects()[0]["record"]
    [record] = mine_text(tmp_path, source).records
    assert record.error_message == seed["errorMessage"]
    assert record.message_pattern == seed["messagePattern"]
    assert record.slug == seed["slug"]
    assert record.line_number == 4


def test_messages_from_own_exception_classes(tmp_path: Path) -> None:
    source = """
    class Error(Exception):
        def __init__(self, msg=""):
            self.message = msg
            Exception.__init__(self, msg)

        def __repr__(self):
            return self.message

        __str__ = __repr__

    class NoSectionError(Error):
        def __init__(self, section):
            Error.__init__(self, "No section: %r" % (section,))
            self.section = section

    class DecodeError(ValueError):
        def __init__(self, msg, doc, pos):
            lineno = doc.count("\\n", 0, pos) + 1
            errmsg = "%s: line %d (char %d)" % (msg, lineno, pos)
            ValueError.__init__(self, errmsg)

    class ArgError(Exception):
        def __init__(self, argument, message):
            self.argument_name = argument
            self.message = message

        def __str__(self):
            return f"argument {self.argument_name}: {self.message}"

    def get(section, doc, arg):
        if not section:
            raise NoSectionError(section)
        if not doc:
            raise DecodeError("Expecting value", doc, 0)
        raise ArgError(arg, "expected one argument")
    """
    assert templates(tmp_path, source) == [
        ("mod.NoSectionError", "No section: {section!r}"),
        ("mod.DecodeError", "Expecting value: line {lineno} (char 0)"),
        ("mod.ArgError", "argument {arg}: expected one argument"),
    ]


def test_messages_through_keyword_super_calls(tmp_path: Path) -> None:
    source = """
    class Mixin:
        def __init__(self, message, *, code):
            self.message = message
            self.code = code

        def __str__(self):
            return f"{self.message} (see /errors/{self.code})"

    class UserError(Mixin, TypeError):
        pass

    class SchemaError(UserError):
        def __init__(self, message):
            super().__init__(message, code="bad-schema")

    class Plain(Exception):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

    def f(x):
        if x:
            raise SchemaError(f"cannot build a schema for {x!r}")
        raise Plain("passed through unchanged")
    """
    result = mine_text(tmp_path, source)
    assert [(r.error_class, r.error_message, r.error_type) for r in result.records] == [
        (
            "mod.SchemaError",
            "cannot build a schema for {x!r} (see /errors/bad-schema)",
            "validation",
        ),
        ("mod.Plain", "passed through unchanged", "runtime"),
    ]


def test_str_that_appends_details_to_the_base_message(tmp_path: Path) -> None:
    # vllm's VLLMValidationError: str() is the message given, then "(parameter=...)" when
    # details were passed. A paste starts with the message given, so it is recorded.
    source = """
    class ValidationError(ValueError):
        def __init__(self, message, *, parameter=None):
            super().__init__(message)
            self.parameter = parameter

        def __str__(self):
            base = super().__str__()
            extras = []
            if self.parameter is not None:
                extras.append(f"parameter={self.parameter}")
            return f"{base} ({', '.join(extras)})" if extras else base

    class Shown(Exception):
        def __str__(self):
            return "shown: " + Exception.__str__(self)

    def f(x):
        if x:
            raise ValidationError(f"bad value {x!r}", parameter="x")
        raise Shown("nothing to do")
    """
    found = templates(tmp_path, source)
    assert ("mod.ValidationError", "bad value {x!r}") in found
    assert ("mod.Shown", "shown: nothing to do") in found
    assert all(message != "{base}" for _, message in found)


def test_message_from_exception_factory(tmp_path: Path) -> None:
    source = """
    class ParseError(ValueError):
        pass

    def suffixed_err(src, pos, msg):
        return ParseError(f"{msg} (at {pos})")

    class Parser:
        def _error(self, what):
            return KeyError(f"no such {what}")

        def parse(self, src, pos):
            if not src:
                raise suffixed_err(src, pos, "Invalid value")
            raise self._error("table")
    """
    assert templates(tmp_path, source) == [
        ("mod.ParseError", "Invalid value (at {pos})"),
        ("KeyError", "no such table"),
    ]


def test_same_message_at_several_sites(tmp_path: Path) -> None:
    source = """
    def a(x):
        if x:
            raise ValueError("size must be positive")
        raise ValueError("size must be positive")

    def b(x):
        raise ValueError("size must be positive")
    """
    records = mine_text(tmp_path, source).records
    assert [r.line_number for r in records] == [4, 5, 8]
    assert len({r.id for r in records}) == 3
    assert records[2].id == record_id(REPO, "mod.py", "size must be positive", "b")
    assert records[0].id == record_id(REPO, "mod.py", "size must be positive", "a", "0")


def test_ids_stable_when_lines_move(tmp_path: Path) -> None:
    source = """
    def a(x):
        if x:
            raise ValueError(f"bad value {x!r}")
        raise ValueError("size must be positive")

    def b(x):
        raise ValueError("size must be positive")
    """
    before = mine_text(tmp_path / "1", source).records
    moved = "import os\n\n\n# a comment\n" + textwrap.dedent(source).replace(
        "    if x:", "    x = os.fspath(x)\n    if x:"
    )
    after = mine_text(tmp_path / "2", moved).records
    assert [r.id for r in before] == [r.id for r in after]
    assert [r.line_number + 5 for r in before] == [r.line_number for r in after]
    assert before[0].id == record_id(REPO, "mod.py", "bad value {x!r}")


# --------------------------------------------------------------------------
# Class names
# --------------------------------------------------------------------------


def test_class_names(tmp_path: Path) -> None:
    root = tmp_path / "src"
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .errors import PkgError\n")
    (pkg / "errors.py").write_text(
        "class PkgError(Exception):\n    pass\n\nerror = PkgError\n", encoding="utf-8"
    )
    (pkg / "core.py").write_text(
        textwrap.dedent(
            """
            import socket
            import json as j
            from pkg import PkgError
            from . import errors
            from .errors import error
            from thirdparty.exc import VendorError

            class Outer:
                class Inner(KeyError):
                    pass

            def f(x):
                if x == 1:
                    raise IOError("old name for an OSError")
                if x == 2:
                    raise Outer.Inner("nested class raised")
                if x == 3:
                    raise PkgError("re-exported class raised")
                if x == 4:
                    raise errors.PkgError("module attribute raised")
                if x == 5:
                    raise j.JSONDecodeError("aliased module raised", "", 0)
                if x == 6:
                    raise VendorError("third party class raised")
                if x == 7:
                    raise error("module alias raised")
                if x == 8:
                    raise socket.error("socket error alias raised")
                raise x.Error("attribute of a value raised")
            """
        ),
        encoding="utf-8",
    )
    result = mine_paths([root], repo=REPO, sha=SHA)
    got = {r.error_message: r.error_class for r in result.records}
    assert got == {
        "old name for an OSError": "OSError",
        "nested class raised": "pkg.core.Outer.Inner",
        "re-exported class raised": "pkg.errors.PkgError",
        "module attribute raised": "pkg.errors.PkgError",
        "aliased module raised": "json.JSONDecodeError",
        "third party class raised": "thirdparty.exc.VendorError",
        "module alias raised": "pkg.errors.PkgError",
        "socket error alias raised": "OSError",
        "attribute of a value raised": "x.Error",
    }
    types = {r.error_message: r.error_type for r in result.records}
    assert types["nested class raised"] == "lookup"
    assert types["old name for an OSError"] == "io"
    assert types["re-exported class raised"] == "runtime"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ValueError", "validation"),
        ("TypeError", "validation"),
        ("UnicodeDecodeError", "validation"),
        ("KeyError", "lookup"),
        ("IndexError", "lookup"),
        ("FileNotFoundError", "io"),
        ("TimeoutError", "io"),
        ("NotImplementedError", "unsupported"),
        ("AssertionError", "assertion"),
        ("ModuleNotFoundError", "dependency"),
        ("DeprecationWarning", "warning"),
        ("RuntimeError", "runtime"),
        ("NoSuchBuiltin", "runtime"),
        (None, "runtime"),
    ],
)
def test_guess_error_type(name: str | None, expected: str) -> None:
    assert guess_error_type(name) == expected


def test_warning_severity(tmp_path: Path) -> None:
    [record] = mine_text(tmp_path, 'raise DeprecationWarning("old api is deprecated")\n').records
    assert (record.severity, record.error_type) == ("warning", "warning")


# --------------------------------------------------------------------------
# Skipped sites and statistics
# --------------------------------------------------------------------------


@pytest.mark.parametrize("bare_raises", [False, True])
def test_skipped_sites_are_counted(tmp_path: Path, bare_raises: bool) -> None:
    source = """
    import errno

    class Quiet(Exception):
        def __init__(self):
            super().__init__()

    class Pair(Exception):
        def __init__(self, a, b):
            super().__init__(*[a, b])

    def f(msg, exc, args, kind, make):
        if kind == 1:
            raise ValueError(msg)
        if kind == 2:
            raise ValueError
        if kind == 3:
            raise exc
        if kind == 4:
            raise make("helper message")
        if kind == 5:
            raise ValueError(*args)
        if kind == 6:
            raise StopIteration("done here")
        if kind == 7:
            raise ValueError(3)
        if kind == 8:
            raise UnicodeDecodeError("utf-8", b"", 0, 1, "invalid start byte")
        if kind == 9:
            raise TypeError(message="keyword message")
        if kind == 10:
            raise Quiet()
        if kind == 11:
            raise Pair("first message", "second")
        if kind == 12:
            raise exc.with_traceback(None)
        if kind == 13:
            raise ValueError(msg, kind)
        if kind == 14:
            raise ValueError("")
        if kind == 15:
            raise exc.failureException(msg)  # values only, and a class nobody resolved
        if kind == 16:
            raise exc.build("built by another object")  # what the call returns: anything
        assert kind
        try:
            pass
        except Exception:
            raise
        raise ValueError(f"{msg}: {kind}")
    """
    result = mine_text(tmp_path, source, bare_raises=bare_raises)
    stats = result.stats
    # A message of values only (`msg`, f"{msg}: {kind}") is mined: a frame at its line finds it.
    # So is the class a caller passes in (`make`, a parameter): its class is the caller's.
    # With bare_raises, so are the three raises without a message (`raise ValueError`,
    # `raise Quiet()`, `assert kind`): the empty template, found through a frame too.
    bare = 3 if bare_raises else 0
    assert stats.records == 3 + bare
    assert sorted(r.error_message for r in result.records) == [
        *[""] * bare,
        "helper message",
        "{msg}",
        "{msg}: {kind}",
    ]
    assert sorted(r.error_class for r in result.records if not r.error_message) == (
        ["AssertionError", "ValueError", "mod.Quiet"] if bare_raises else []
    )
    assert stats.sites == 18
    assert stats.reraises == 1
    expected = {
        NO_STATIC_TEXT: 3,
        NO_MESSAGE: 3,
        EXISTING_OBJECT: 2,
        DYNAMIC_CLASS: 1,
        STARRED: 1,
        CONTROL_FLOW: 1,
        NON_STRING: 1,
        OWN_FORMAT: 2,
        KEYWORD_ONLY: 1,
    }
    if bare_raises:
        del expected[NO_MESSAGE]
    assert dict(stats.skipped) == expected
    assert stats.skipped_total == 15 - bare
    assert next(iter(stats.skipped)) == (NO_STATIC_TEXT if bare_raises else NO_MESSAGE)
    summary = stats.summary()
    assert f"18 raise sites, {3 + bare} records, {15 - bare} sites skipped" in summary
    assert f"skipped, {NO_STATIC_TEXT}: 3" in summary
    assert stats.as_dict()["skipped"][STARRED] == 1


def test_parse_errors_are_reported_not_fatal(tmp_path: Path) -> None:
    root = tmp_path / "src"
    root.mkdir()
    (root / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    (root / "latin.py").write_bytes(
        b"# -*- coding: latin-1 -*-\nraise ValueError('caf\xe9 ferm\xe9')\n"
    )
    (root / "nul.py").write_bytes(b"x = 1\x00\n")
    result = mine_paths([root], repo=REPO, sha=SHA)
    assert [r.error_message for r in result.records] == ["café fermé"]
    errors = dict(result.stats.parse_errors)
    assert set(errors) == {str(root / "broken.py"), str(root / "nul.py")}
    assert errors[str(root / "broken.py")].startswith("SyntaxError: ")
    assert "could not be parsed" in result.stats.summary()
    assert result.stats.files == 3


def test_walk_skips_tests_unless_asked(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    for rel in (
        "a.py",
        "tests/test_a.py",
        "sub/test_b.py",
        "sub/c_test.py",
        "sub/conftest.py",
        "sub/d.py",
        "idle_test/e.py",
        ".hidden/f.py",
        "__pycache__/g.py",
        "site-packages/h.py",
    ):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'raise ValueError("raised in {rel}")\n', encoding="utf-8")
    (root / "notes.txt").write_text("raise ValueError('not python')\n")
    plain = mine_paths([root], repo=REPO, sha=SHA)
    assert [r.file_path for r in plain.records] == ["a.py", "sub/d.py"]
    everything = mine_paths([root], repo=REPO, sha=SHA, include_tests=True)
    assert [r.file_path for r in everything.records] == [
        "a.py",
        "idle_test/e.py",
        "sub/c_test.py",
        "sub/conftest.py",
        "sub/d.py",
        "sub/test_b.py",
        "tests/test_a.py",
    ]
    # A file given directly; paths given twice are mined once.
    single = mine_paths(
        [root / "sub" / "d.py", root / "sub" / "d.py"], repo=REPO, sha=SHA, path_prefix="./lib/"
    )
    assert [r.file_path for r in single.records] == ["lib/d.py"]


def test_missing_source_and_bad_repo(tmp_path: Path) -> None:
    with pytest.raises(CatalogSourceError, match="No such file or directory"):
        mine_paths([tmp_path / "nope"], repo=REPO, sha=SHA)
    with pytest.raises(InvalidRecordError, match="Invalid repo"):
        mine_paths([tmp_path], repo="not a repo", sha=SHA)
    with pytest.raises(InvalidRecordError, match="Invalid sha"):
        mine_paths([tmp_path], repo=REPO, sha="abc")


def test_progress_callback(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text('raise ValueError("a message")\n')
    mine_paths([tmp_path], repo=REPO, sha=SHA, progress=lambda d, t, _p: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_worker_processes_give_the_same_records(tmp_path: Path) -> None:
    for index in range(6):
        (tmp_path / f"m{index}.py").write_text(f'raise ValueError("message {index} here")\n')
    one = mine_paths([tmp_path], repo=REPO, sha=SHA, analyzed_at=WHEN)
    two = mine_paths([tmp_path], repo=REPO, sha=SHA, analyzed_at=WHEN, workers=2)
    assert one.envelopes == two.envelopes


# --------------------------------------------------------------------------
# The record
# --------------------------------------------------------------------------


def test_record_fields(tmp_path: Path) -> None:
    lines = [f"x{n} = {n}" for n in range(1, 40)]
    lines[24] = 'raise ValueError(f"bad value {x1!r}")'
    result = mine_text(
        tmp_path, "\n".join(lines) + "\n", name="pkg/mod.py", path_prefix="lib", advice=False
    )
    [envelope] = result.envelopes
    record = envelope.record
    assert record.line_number == 25
    assert (record.source_code_start, record.source_code_end) == (7, 39)
    assert record.source_code == "\n".join(lines[6:39])
    assert record.file_path == "lib/pkg/mod.py"
    assert record.github_url == f"https://github.com/{REPO}/blob/{SHA}/lib/pkg/mod.py#L7-L39"
    assert record.id == record_id(REPO, "lib/pkg/mod.py", "bad value {x1!r}")
    assert record.analyzed_at == WHEN
    assert envelope.dataset_version == WHEN
    assert (record.documentation, record.trigger_scenarios, record.common_situations) == (
        "",
        "",
        "",
    )
    assert (record.solutions, record.prevention_tips, record.tags) == ((), (), ())
    assert (record.example_fix, record.handling_strategy) == ("", "")
    nulls = (record.error_code, record.http_status, record.validation_code, record.type_guard)
    assert nulls == (None, None, None, None)
    assert (record.try_catch_pattern, record.background_tag) == (None, None)
    assert (record.severity, record.error_type, record.schema_version) == (
        "error",
        "validation",
        2,
    )
    dumped = json.loads(envelope.model_dump_json())
    assert validate_envelope(dumped, strict=True) == envelope
    assert dumped["datasetVersion"] == "2026-01-02T03:04:05.678Z"


def test_snippet_clipped_at_file_ends(tmp_path: Path) -> None:
    source = 'raise ValueError("at the top")\nx = 1\n'
    [record] = mine_text(tmp_path, source).records
    assert (record.source_code_start, record.line_number, record.source_code_end) == (1, 1, 2)
    assert record.source_code == source.rstrip("\n")


def test_analyzed_at_defaults_to_now_in_milliseconds(tmp_path: Path) -> None:
    before = datetime.now(timezone.utc)
    [record] = mine_text(tmp_path, 'raise ValueError("now")\n', analyzed_at=None).records
    assert record.analyzed_at.microsecond % 1000 == 0
    assert before.replace(microsecond=0) <= record.analyzed_at <= datetime.now(timezone.utc)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_slug_and_pattern_reproduce_the_seeds(index: int) -> None:
    seed = seed_objects()[index]["record"]
    assert slugify(seed["errorMessage"]) == seed["slug"]
    assert template_to_pattern(seed["errorMessage"]) == seed["messagePattern"]
    assert seed["githubUrl"] == github_url(
        seed["repo"],
        seed["analyzedSha"],
        seed["filePath"],
        seed["sourceCodeStart"],
        seed["sourceCodeEnd"],
    )


def test_seed_records_mined_from_their_source(tmp_path: Path) -> None:
    """Rebuild server_args.py around the seeds' snippets; mining gives back the seed fields."""
    seeds = [s["record"] for s in seed_objects()]
    first, second, third = seeds
    lines: dict[int, str] = {}
    for seed in seeds:
        for offset, text in enumerate(seed["sourceCode"].split("\n")):
            lines[seed["sourceCodeStart"] + offset] = text
    body = ["class ServerArgs:", "    def _validate(self):"]
    body += ["        pass"] * (first["sourceCodeStart"] - 5)
    body += ["        if self.x:", "            raise ValueError("]
    assert len(body) == first["sourceCodeStart"] - 1
    for number in range(first["sourceCodeStart"], third["sourceCodeEnd"] + 1):
        body.append(lines.get(number, "        pass"))
    body.append("                )")
    root = tmp_path / "python"
    path = root / "sglang" / "srt" / "server_args.py"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    result = mine_paths(
        [root / "sglang"],
        repo=first["repo"],
        sha=first["analyzedSha"],
        path_prefix="python/sglang",
        analyzed_at=datetime(2026, 8, 28, 5, 10, 5, 995000, tzinfo=timezone.utc),
    )
    by_line = {r.line_number: r for r in result.records}
    same = (
        "repo",
        "slug",
        "errorMessage",
        "messagePattern",
        "errorType",
        "errorClass",
        "severity",
        "filePath",
        "lineNumber",
        "sourceCode",
        "sourceCodeStart",
        "sourceCodeEnd",
        "githubUrl",
        "analyzedSha",
        "analyzedAt",
        "schemaVersion",
    )
    for seed in (first, second, third):
        mined = json.loads(by_line[seed["lineNumber"]].model_dump_json())
        assert {k: mined[k] for k in same} == {k: seed[k] for k in same}


# --------------------------------------------------------------------------
# mine_source
# --------------------------------------------------------------------------


def test_mine_source() -> None:
    source = "def f(x):\n    raise ValueError(f'bad {x}')\n"
    assert mine_source(source, module="pkg.mod") == [(2, "ValueError", "bad {x}")]


# --------------------------------------------------------------------------
# Re-anchoring
# --------------------------------------------------------------------------


def _mine_version(tmp_path: Path, version: str, sha: str) -> MineResult:
    root = copy_fixture(version, tmp_path / version)
    return mine_paths([root], repo="example/shapes", sha=sha, path_prefix="src", analyzed_at=WHEN)


def test_reanchor_fixture_package(tmp_path: Path) -> None:
    v1 = _mine_version(tmp_path, "v1", "1" * 40)
    v2 = _mine_version(tmp_path, "v2", "2" * 40)
    ids = {r.error_message: r.id for r in v1.records if r.line_number != 22}
    ids["size must be positive (rectangle)"] = next(r.id for r in v1.records if r.line_number == 22)
    assert v1.stats.records == 8
    assert {r.error_class for r in v1.records} >= {
        "shapes.errors.ShapeError",
        "shapes.errors.UnitError",
    }
    # Curate one record, as a catalog would.
    curated = [
        e.model_copy(
            update={
                "record": e.record.model_copy(
                    update={"documentation": "Raised for an unknown kind.", "tags": ("kind",)}
                )
            }
        )
        if e.record.id == ids["unknown shape kind {kind!r}"]
        else e
        for e in v1.envelopes
    ]
    result = reanchor(curated, v2)
    assert result.report == {
        "moved": sorted(
            [
                ids["radius must be >= 0, got {radius!r}"],
                ids["side must be a number, not {type(side).__name__}"],
                ids["size must be positive"],
                ids["size must be positive (rectangle)"],
                ids["shape must not be None"],
            ]
        ),
        "changed": [
            {
                "id": ids["unknown shape kind {kind!r}"],
                "old": "unknown shape kind {kind!r}",
                "new": "unknown shape kind {kind!r}; expected 'circle' or 'square'",
                "file": "src/shapes/core.py",
                "line": 40,
            }
        ],
        "removed": [ids["legacy shapes are no longer supported"]],
        "unchanged": [ids["unknown unit {unit!r}; known units: {', '.join(known)}"]],
        "new": 1,
    }
    by_id = {e.record.id: e.record for e in result.envelopes}
    assert len(by_id) == 7
    changed = by_id[ids["unknown shape kind {kind!r}"]]
    assert changed.documentation == "Raised for an unknown kind."
    assert changed.tags == ("kind", "errcat:in:parse_kind")  # curated, plus the code's function
    assert changed.error_message.endswith("expected 'circle' or 'square'")
    assert changed.message_pattern == template_to_pattern(changed.error_message)
    assert changed.slug == "unknown-shape-kind-kind-r"  # slugs are kept
    assert (changed.line_number, changed.analyzed_sha) == (40, "2" * 40)
    assert changed.github_url.endswith(f"/blob/{'2' * 40}/src/shapes/core.py#L22-L49")
    moved = by_id[ids["radius must be >= 0, got {radius!r}"]]
    assert (moved.line_number, moved.source_code_start) == (14, 1)
    assert "import math" in moved.source_code
    assert [e.record.error_message for e in result.new_envelopes] == [
        "sides {a}, {b} and {c} do not make a triangle"
    ]
    assert [e.record.line_number for e in result.removed] == [33]
    text = result.summary()
    assert "1 unchanged, 5 moved, 1 changed, 1 removed; 1 new" in text
    assert "legacy shapes are no longer supported" in text
    # Re-anchoring the result again changes nothing but the report.
    again = reanchor(result.envelopes, v2)
    assert again.envelopes == result.envelopes
    assert len(again.report["unchanged"]) == 7
    assert again.report["new"] == 1


def test_reanchor_by_template_when_ids_differ(tmp_path: Path) -> None:
    v2 = _mine_version(tmp_path, "v2", "2" * 40)
    record = next(r for r in v2.records if r.error_message.startswith("radius"))
    foreign = RecordEnvelope(
        record=record.model_copy(
            update={"id": "0123456789abcdef", "line_number": 9, "file_path": "src/shapes/old.py"}
        ),
        dataset_version=WHEN,
    )
    other_repo = RecordEnvelope(
        record=record.model_copy(update={"id": "fedcba9876543210", "repo": "other/repo"}),
        dataset_version=WHEN,
    )
    result = reanchor([foreign, other_repo], v2)
    assert result.report["moved"] == ["0123456789abcdef"]
    assert result.report["new"] == v2.stats.records - 1
    ours = next(e.record for e in result.envelopes if e.record.id == "0123456789abcdef")
    assert (ours.file_path, ours.line_number) == ("src/shapes/core.py", 14)
    assert other_repo in result.envelopes


def test_reanchor_rejects_duplicate_ids(tmp_path: Path) -> None:
    v2 = _mine_version(tmp_path, "v2", "2" * 40)
    envelope = v2.envelopes[0]
    with pytest.raises(InvalidRecordError, match="duplicate record id"):
        reanchor([envelope, envelope], v2)


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="errcat mine")
    add_arguments(parser)
    return parser


def _run(argv: list[str]) -> int:
    return run(_parser().parse_args(argv))


def test_cli_writes_records_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_fixture("v1", tmp_path / "v1")
    out = tmp_path / "out.jsonl"
    argv = [str(root), "--repo", "example/shapes", "--sha", "B" * 40, "-o", str(out)]
    assert _run([*argv, "--path-prefix", "src", "--analyzed-at", "2026-01-02T03:04:05Z"]) == 0
    loaded = list(iter_path(out, strict=True))
    assert len(loaded) == 8
    assert all(item.envelope is not None for item in loaded)
    first = loaded[0].envelope
    assert first is not None
    assert first.record.analyzed_sha == "b" * 40
    assert first.record.file_path.startswith("src/shapes/")
    err = capsys.readouterr().err
    assert "mined 4 files" in err
    assert "8 raise sites, 8 records, 0 sites skipped" in err


def test_cli_writes_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "m.py").write_text('raise ValueError("printed to stdout")\n')
    assert _run([str(tmp_path), "--repo", REPO, "--sha", SHA]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    assert json.loads(out[0])["record"]["errorMessage"] == "printed to stdout"


def test_cli_update_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    v1 = _mine_version(tmp_path, "v1", "1" * 40)
    copy_fixture("v2", tmp_path / "v2")
    catalog = tmp_path / "catalog.jsonl"
    write_jsonl(catalog, v1.envelopes)
    out, report = tmp_path / "out.jsonl", tmp_path / "report.json"
    argv = [str(tmp_path / "v2"), "--repo", "example/shapes", "--sha", "2" * 40]
    argv += ["--path-prefix", "src", "--update", str(catalog), "-o", str(out)]
    assert _run([*argv, "--report", str(report)]) == 0
    data = json.loads(report.read_text())
    assert sorted(data) == ["changed", "moved", "new", "removed", "unchanged"]
    assert (len(data["moved"]), len(data["changed"]), data["new"]) == (5, 1, 1)
    assert len(list(iter_path(out))) == 7
    assert "5 moved, 1 changed, 1 removed" in capsys.readouterr().err
    assert _run([*argv, "--add-new"]) == 0
    assert len(list(iter_path(out))) == 8


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--report", "r.json"], "--report needs --update"),
        (["--add-new"], "--add-new needs --update"),
        (["--repo", "bad repo"], "invalid --repo"),
        (["--sha", "1234"], "invalid --sha"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--analyzed-at", "yesterday"], "invalid --analyzed-at"),
    ],
)
def test_cli_bad_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    argv = [str(tmp_path), "--repo", REPO, "--sha", SHA, *extra]
    assert _run(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_bad_catalog_raises(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.jsonl"
    catalog.write_text('{"record": {}}\n')
    argv = [str(tmp_path), "--repo", REPO, "--sha", SHA, "--update", str(catalog)]
    with pytest.raises(InvalidRecordError, match=r"catalog\.jsonl:1: "):
        _run(argv)
    with pytest.raises(CatalogSourceError):
        _run([*argv[:-1], str(tmp_path / "missing.jsonl")])


def test_cli_progress_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    (tmp_path / "m.py").write_text('raise ValueError("shown with progress")\n')
    assert _run([str(tmp_path), "--repo", REPO, "--sha", SHA, "-o", str(tmp_path / "o")]) == 0
    assert "mining 1/1" in stream.getvalue()


# --------------------------------------------------------------------------
# Properties: mined patterns match what Python itself raises
# --------------------------------------------------------------------------

_TEXT = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Co", "Cn", "Zl", "Zp"), blacklist_characters="\x85"
    )
    | st.sampled_from(["{", "}", "%", "'", '"', "\\", " ", "\n", "\t", "."]),
    max_size=12,
)
_VALUES = st.one_of(
    st.integers(-1000, 1000),
    st.text(alphabet="abcxyz._-/", min_size=1, max_size=8),
    st.lists(st.integers(0, 9), min_size=1, max_size=3),
)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t")


def _raised_message(source: str, values: list[object]) -> str:
    namespace: dict[str, Any] = {}
    exec(compile(source, "<generated>", "exec"), namespace)  # generated test code
    raiser: Callable[..., None] = namespace["raiser"]
    with pytest.raises(ValueError, match=r"(?s).*") as info:
        raiser(*values)
    return str(info.value)


def _check(source: str, values: list[object]) -> None:
    mined = mine_source(source)
    assume(mined)  # a message with no static word is skipped, by design
    [(line, cls, template)] = mined
    assert (line, cls) == (2, "ValueError")
    message = _raised_message(source, values)
    compiled = compile_pattern(template_to_pattern(template))
    assert compiled.full.fullmatch(message.strip()), (template, message)


def _has_word(texts: list[str]) -> bool:
    return any(a.isalpha() and b.isalpha() for text in texts for a, b in itertools.pairwise(text))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(_TEXT, _VALUES, st.sampled_from(["", "!r", "!s", "!s:>4", "!r:<3"])), max_size=4
    ),
    _TEXT,
)
def test_fstring_pattern_matches_the_raised_message(
    parts: list[tuple[str, object, str]], tail: str
) -> None:
    assume(_has_word([p[0] for p in parts] + [tail]))
    body = "".join(
        _escape(text).replace("{", "{{").replace("}", "}}") + f"{{v{i}{fmt}}}"
        for i, (text, _v, fmt) in enumerate(parts)
    ) + _escape(tail).replace("{", "{{").replace("}", "}}")
    params = ", ".join(f"v{i}" for i in range(len(parts)))
    source = f"def raiser({params}):\n    raise ValueError(f'{body}')\n"
    _check(source, [p[1] for p in parts])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_TEXT, _VALUES, st.sampled_from(["%s", "%r", "%-4s"])), max_size=4),
    _TEXT,
)
def test_percent_pattern_matches_the_raised_message(
    parts: list[tuple[str, object, str]], tail: str
) -> None:
    assume(_has_word([p[0] for p in parts] + [tail]))
    fmt = "".join(_escape(t).replace("%", "%%") + spec for t, _v, spec in parts)
    fmt += _escape(tail).replace("%", "%%")
    params = ", ".join(f"v{i}" for i in range(len(parts)))
    args = "(" + "".join(f"v{i}, " for i in range(len(parts))) + ")"
    source = f"def raiser({params}):\n    raise ValueError('{fmt}' % {args})\n"
    _check(source, [p[1] for p in parts])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(_TEXT, _VALUES, st.sampled_from(["{}", "{!r}", "{%d}", "{k%d}", "{k%d!s}"])),
        max_size=4,
    ),
    _TEXT,
)
def test_format_pattern_matches_the_raised_message(
    parts: list[tuple[str, object, str]], tail: str
) -> None:
    assume(_has_word([p[0] for p in parts] + [tail]))
    auto = any(field.startswith(("{}", "{!")) for _t, _v, field in parts)
    numbered = any(field == "{%d}" for _t, _v, field in parts)
    assume(not (auto and numbered))  # str.format refuses to mix them
    fmt = ""
    for i, (text, _v, field) in enumerate(parts):
        fmt += _escape(text).replace("{", "{{").replace("}", "}}")
        fmt += field % i if "%d" in field else field
    fmt += _escape(tail).replace("{", "{{").replace("}", "}}")
    params = ", ".join(f"v{i}" for i in range(len(parts)))
    positional = ", ".join(f"v{i}" for i in range(len(parts)))
    keywords = ", ".join(f"k{i}=v{i}" for i in range(len(parts)))
    call = ", ".join(x for x in (positional, keywords) if x)
    source = f"def raiser({params}):\n    raise ValueError('{fmt}'.format({call}))\n"
    _check(source, [p[1] for p in parts])


_ARGUMENT = st.one_of(
    _TEXT.map(lambda t: ("text", t, None)),
    _VALUES.map(lambda v: ("value", "", v)),
    st.tuples(_TEXT, _VALUES).map(lambda p: ("fstring", p[0], p[1])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_ARGUMENT, min_size=2, max_size=4))
def test_several_arguments_pattern_matches_the_printed_tuple(
    arguments: list[tuple[str, str, object]],
) -> None:
    assume(_has_word([text for _kind, text, _v in arguments]))
    written, params, values = [], [], []
    for i, (kind, text, value) in enumerate(arguments):
        if kind == "text":
            written.append(f"'{_escape(text)}'")
            continue
        params.append(f"v{i}")
        values.append(value)
        if kind == "value":
            written.append(f"v{i}")
        else:
            written.append(f"f'{_escape(text).replace('{', '{{').replace('}', '}}')}{{v{i}}}'")
    source = f"def raiser({', '.join(params)}):\n    raise ValueError({', '.join(written)})\n"
    _check(source, values)


@settings(max_examples=150, deadline=None)
@given(_TEXT, _TEXT)
def test_literal_text_round_trips_through_parse_template(head: str, tail: str) -> None:
    text = head + "static words" + tail
    source = f"def raiser():\n    raise ValueError('{_escape(text)}')\n"
    [(_line, _cls, template)] = mine_source(source)
    literals, fields = parse_template(template)
    assert fields == ()
    assert literals == (text.strip(),)


def test_records_are_valid_models(tmp_path: Path) -> None:
    source = 'raise ValueError("a {weird} [pattern] (with) $meta^ *chars+? | end.")\n'
    [record] = mine_text(tmp_path, source).records
    assert isinstance(record, ErrorRecord)
    compiled = compile_pattern(record.message_pattern)
    assert compiled.full.fullmatch("a {weird} [pattern] (with) $meta^ *chars+? | end.")


def test_own_class_records_carry_their_builtin_base_as_a_tag(tmp_path: Path) -> None:
    source = (
        "class ValidationError(ValueError):\n    pass\n\n"
        "class Plain(Exception):\n    pass\n\n"
        "def f(x):\n"
        "    if x == 1:\n        raise ValidationError('max_tokens must be at least 1')\n"
        "    if x == 2:\n        raise Plain('plain failure happened here')\n"
        "    raise KeyError('builtin failure happened here')\n"
    )
    tags = {r.error_message: r.tags for r in mine_text(tmp_path, source).records}
    assert "errcat:base:ValueError" in tags["max_tokens must be at least 1"]
    assert not [t for t in tags["plain failure happened here"] if t.startswith("errcat:base:")]
    assert not [t for t in tags["builtin failure happened here"] if t.startswith("errcat:base:")]


_NAMES = st.from_regex(r"[a-z][a-z_]{2,10}", fullmatch=True).filter(
    lambda n: n not in {"def", "class", "raise", "return", "pass", "for", "not", "and", "lambda"}
)


@settings(max_examples=30, deadline=None)
@given(outer=_NAMES, inner=_NAMES, cls=st.sampled_from(["", "Holder"]), nested=st.booleans())
def test_a_record_names_the_function_a_traceback_shows_raising_it(
    tmp_path_factory: pytest.TempPathFactory, outer: str, inner: str, cls: str, nested: bool
) -> None:
    body = (
        f"def {outer}(x):\n"
        + (
            f"    def {inner}():\n        raise ValueError(f'inner step failed for {{x}}')\n"
            if nested
            else ""
        )
        + "    raise TypeError(f'outer step failed for {x}')\n"
    )
    if cls:
        body = f"class {cls}:\n" + "".join(f"    {line}\n" for line in body.splitlines())
    source = body + "raise RuntimeError('module level step failed')\n"
    result = mine_text(tmp_path_factory.mktemp("m"), source)
    tags = {
        r.error_class: [t for t in r.tags if t.startswith("errcat:in:")] for r in result.records
    }
    # What a frame prints: the code's own name, never the class or the enclosing def.
    assert tags["TypeError"] == [f"errcat:in:{outer}"]
    assert tags["RuntimeError"] == []
    if nested:
        assert tags["ValueError"] == [f"errcat:in:{inner}"]


def test_a_message_of_values_only_needs_a_class_that_resolves(tmp_path: Path) -> None:
    # A factory method that hands the class on to another object's method: the class the
    # raise gets is nobody's guess, so a message of values only has nothing to agree with.
    source = """
    class Source:
        def parse_error(self, exception, *args):
            return exception(*args)

    class Parser:
        def __init__(self):
            self._src = Source()

        def parse_error(self, exception=ValueError, *args):
            return self._src.parse_error(exception, *args)

        def run(self, text):
            if text:
                raise self.parse_error(KeyError)
            raise LookupError(text)
    """
    result = mine_text(tmp_path, source)
    assert [(r.error_class, r.error_message) for r in result.records] == [("LookupError", "{text}")]
    assert result.stats.skipped_total == 1


_KEYWORDS = {"def", "class", "raise", "return", "pass", "for", "not", "and", "lambda", "src", "n"}


@settings(max_examples=40, deadline=None)
@given(
    param=_NAMES.filter(lambda n: n not in _KEYWORDS),
    default=st.sampled_from([None, "OSError", "ValueError", "ReadError", "nothing_here"]),
    keyword_only=st.booleans(),
    shadowed=st.booleans(),
)
def test_a_class_each_caller_passes_is_its_default_and_tagged(
    tmp_path_factory: pytest.TempPathFactory,
    param: str,
    default: str | None,
    keyword_only: bool,
    shadowed: bool,
) -> None:
    # tarfile: `def copyfileobj(src, dst, length=None, exception=OSError, ...)` raises
    # `exception("unexpected end of data")`, and its callers pass `ReadError`.
    spec = param if default is None else f"{param}={default}"
    args = f"src, n, *, {spec}" if keyword_only else f"src, n, {spec}"
    body = f"    raise {param}(f'unexpected end of data after {{n}} bytes')\n"
    if shadowed:  # an inner function's own parameter of the same name has no default
        body = f"    def inner({param}):\n    " + body + f"    inner({param})\n"
    source = f"class ReadError(Exception):\n    pass\n\n\ndef copy({args}):\n{body}"
    result = mine_text(tmp_path_factory.mktemp("m"), source)
    (record,) = result.records
    assert "errcat:class:caller" in record.tags
    known = {"OSError": "OSError", "ValueError": "ValueError", "ReadError": "mod.ReadError"}
    expected = param if shadowed or default not in known else known[default]
    assert record.error_class == expected
    # A class that is not a parameter is the class raised, untagged; so is a builtin bound
    # to a parameter of its own name for speed (json.encoder's `ValueError=ValueError`).
    plain = mine_text(
        tmp_path_factory.mktemp("p"),
        "def copy(n, ValueError=ValueError):\n"
        "    if n:\n        raise OSError(f'short read of {n}')\n"
        "    raise ValueError('Circular reference detected')\n",
    )
    assert [r.error_class for r in plain.records] == ["OSError", "ValueError"]
    assert not any("errcat:class:caller" in r.tags for r in plain.records)


@settings(max_examples=30, deadline=None)
@given(
    attrs=st.lists(
        st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
            lambda a: a != "args" and not keyword.iskeyword(a)
        ),
        max_size=3,
        unique=True,
    ),
    reset_args=st.booleans(),
)
def test_a_factory_may_set_attributes_on_the_exception_it_returns(
    tmp_path_factory: pytest.TempPathFactory, attrs: list[str], reset_args: bool
) -> None:
    # `exc = Error(...); exc.__cause__ = cause; return exc`: setting an attribute keeps the
    # exception (and its message); only `exc.args = ...` changes what str() shows.
    lines = [f"exc.{a} = cause" for a in attrs]
    if reset_args:
        lines.append("exc.args = ('replaced',)")
    body = "".join(f"        {line}\n" for line in lines)
    source = (
        "class InvalidField(ValueError):\n"
        "    def __init__(self, field, message):\n"
        "        self.field = field\n"
        "        super().__init__(message)\n"
        "\n"
        "class Validator:\n"
        "    def _invalid(self, msg, cause=None):\n"
        "        exc = InvalidField(self.name, msg)\n"
        f"{body}"
        "        return exc\n"
        "\n"
        "    def check(self, value):\n"
        "        raise self._invalid(f'{value!r} is not a valid version')\n"
    )
    found = templates(tmp_path_factory.mktemp("factory"), source)
    assert found == (
        [] if reset_args else [("mod.InvalidField", "{value!r} is not a valid version")]
    )


def test_self_attribute_classes_resolve_to_the_class_the_owner_names(tmp_path: Path) -> None:
    source = """
    class IMAP4:
        class error(Exception):
            pass

        class abort(error):
            pass

        def read(self, n):
            raise self.error("got more than %d bytes" % n)

    class IMAP4_SSL(IMAP4):
        def read_line(self):
            raise self.abort("socket error: unterminated line")

    class TestCase:
        failureException = AssertionError

        def fail_first(self, kind):
            raise self.failureException("First sequence is not a %s" % kind)

    class Derived(TestCase):
        def fail_sub(self):
            raise self.failureException("sub failed")

        def unknown(self):
            raise self.something_else("not a class anybody names")
    """
    assert templates(tmp_path, source) == [
        ("mod.IMAP4.error", "got more than {n} bytes"),
        ("mod.IMAP4.abort", "socket error: unterminated line"),
        ("AssertionError", "First sequence is not a {kind}"),
        ("AssertionError", "sub failed"),
    ]
