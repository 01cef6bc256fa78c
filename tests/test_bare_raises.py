"""Raises without a message (``assert x is not None``, ``raise NotImplementedError``).

Their record has the empty template; the traceback's innermost frame, at the
record's line or printing the record's statement, is the evidence. The module
is mined, then imported and run, so the tracebacks are Python's own.
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errcat import Catalog, match_all, match_error
from errcat.loaders import write_jsonl
from errcat.mine import mine_paths, slugify

WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)
REPO = "example/pool"
SHA = "0" * 40

_NAMES = st.from_regex(r"[a-z][a-z_]{2,10}", fullmatch=True).filter(
    lambda n: n not in {"self", "none", "true", "false", "not", "and", "for", "def", "del"}
)


def _module(attrs: list[str]) -> str:
    """A class whose ``check`` asserts, one after another, that each attribute is set."""
    lines = ["class Pool:", "    def check(self):"]
    lines += [f"        assert self.{name} is not None" for name in attrs]
    lines += ["        raise NotImplementedError", ""]
    return "\n".join(lines)


def _traceback(source: str, folder: Path, setup: Callable[[object], None]) -> str:
    """Run ``Pool().check()`` of ``source`` (as ``pool/core.py`` under ``folder``)."""
    path = folder / "pool" / "core.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    name = f"_bare_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pool = module.Pool()
    setup(pool)
    try:
        pool.check()
    except Exception:
        return traceback.format_exc()
    finally:
        sys.modules.pop(name, None)
    raise AssertionError("check() did not raise")


def _catalog(source: str, folder: Path) -> Catalog:
    mined = folder / "mined" / "pool"
    mined.mkdir(parents=True, exist_ok=True)
    (mined / "core.py").write_text(source, encoding="utf-8")
    result = mine_paths([mined], repo=REPO, sha=SHA, path_prefix="src/pool", analyzed_at=WHEN)
    out = folder / "catalog.jsonl"
    write_jsonl(out, result.envelopes)
    return Catalog.from_path(out)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(attrs=st.lists(_NAMES, min_size=1, max_size=5, unique=True), data=st.data())
def test_a_failed_assert_is_answered_by_its_statement(
    tmp_path_factory: object, attrs: list[str], data: st.DataObject
) -> None:
    folder = tmp_path_factory.mktemp("bare")  # type: ignore[attr-defined]
    source = _module(attrs)
    catalog = _catalog(source, folder)
    failing = data.draw(st.integers(0, len(attrs)), label="failing")
    shift = data.draw(st.integers(0, 30), label="lines added above")

    def setup(pool: object) -> None:
        for name in attrs[:failing]:
            setattr(pool, name, 1)
        for name in attrs[failing:]:
            setattr(pool, name, None)

    # The user's version has ``shift`` lines more above the class: another line number.
    text = _traceback("\n" * shift + source, folder / "run", setup)
    m = match_error(text, catalog=catalog)
    if failing < len(attrs):
        assert m is not None, text
        assert m.summary.error_message == ""
        assert m.summary.line_number == 3 + failing
        assert m.summary.slug == slugify(f"assert self.{attrs[failing]} is not None")
        # Answers show the statement where the message would be.
        shown = f"AssertionError: (no message) assert self.{attrs[failing]} is not None"
        assert m.record.title == m.view.title == shown
    elif shift == 0:
        # `raise NotImplementedError` names nothing of its own: only its very line tells.
        assert m is not None and m.summary.error_class == "NotImplementedError"
        assert m.summary.line_number == 3 + len(attrs)
    else:
        assert m is None, m


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(attrs=st.lists(_NAMES, min_size=2, max_size=4, unique=True))
def test_another_statement_at_the_line_or_a_message_is_not_a_bare_record(
    tmp_path_factory: object, attrs: list[str]
) -> None:
    folder = tmp_path_factory.mktemp("bare")  # type: ignore[attr-defined]
    catalog = _catalog(_module(attrs), folder)

    def unset(pool: object) -> None:
        for name in [*attrs, "zz_" + attrs[0]]:
            setattr(pool, name, None)

    # The user's version asserts something else at the first record's line.
    other = _module(["zz_" + attrs[0], *attrs[1:]])
    text = _traceback(other, folder / "other", unset)
    assert match_error(text, catalog=catalog) is None
    # The same statement with a message: not the raise without one.
    worded = _module(attrs).replace(
        f"assert self.{attrs[0]} is not None", f"assert self.{attrs[0]} is not None, 'unset'"
    )
    text = _traceback(worded, folder / "worded", unset)
    assert not [m for m in match_all(text, catalog=catalog) if not m.summary.error_message]
    # Without frames, `AssertionError` alone is nobody's.
    assert match_all("AssertionError", catalog=catalog) == []


@settings(max_examples=15, deadline=None)
@given(shift=st.integers(1, 20), which=st.sampled_from(["load_a", "load_b", "dup"]))
def test_a_statement_written_at_several_places_names_none_of_them(
    tmp_path_factory: pytest.TempPathFactory, shift: int, which: str
) -> None:
    # `assert w.shape == x.shape` in three methods: two named apart, two of one name.
    source = "\n".join(
        [
            "class A:",
            "    def load_a(self, w, x):",
            "        assert w.shape == x.shape",
            "    def load_b(self, w, x):",
            "        assert w.shape == x.shape",
            "class B:",
            "    def dup(self, w, x):",
            "        assert w.shape == x.shape",
            "class C:",
            "    def dup(self, w, x):",
            "        assert w.shape == x.shape",
            "    def other(self, w):",
            "        assert w.other is None",
            "",
        ]
    )
    # A shift that puts B.dup's assert on C.dup's line (same statement, same function name)
    # is no other version to any reader: that frame is C.dup's. Left out.
    assume(not (which == "dup" and 8 + shift == 11))
    folder = tmp_path_factory.mktemp("dup")
    catalog = _catalog(source, folder)
    path = folder / "run" / "pool" / "core.py"
    path.parent.mkdir(parents=True)
    path.write_text("\n" * shift + source, encoding="utf-8")
    namespace: dict[str, object] = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    owner = namespace["A" if which != "dup" else "B"]
    shape = type("S", (), {"shape": 1})
    other = type("T", (), {"shape": 2})
    try:
        getattr(owner(), which)(shape, other)  # type: ignore[operator]
    except AssertionError:
        text = traceback.format_exc()
    m = match_error(text, catalog=catalog)
    if which == "dup":
        assert m is None, m  # two `dup` methods print the same statement: no telling
        # ... but they are the first hints, before the file's other raises without a message.
        hints = match_all(text, catalog=catalog)
        assert {h.summary.line_number for h in hints[:2]} == {8, 11}, hints
    else:
        assert m is not None and m.summary.line_number == {"load_a": 3, "load_b": 5}[which]


@pytest.mark.parametrize("shift", [0, 4])
def test_a_statement_that_names_only_its_class_tells_only_at_its_line(
    tmp_path: Path, shift: int
) -> None:
    source = (
        "import xml.dom\n\n\nclass Pool:\n    def check(self):\n"
        "        raise xml.dom.NotFoundErr()\n"
    )
    catalog = _catalog(source, tmp_path)
    [record] = [r for r in catalog if not r.error_message]
    assert record.error_class == "xml.dom.NotFoundErr"
    text = _traceback("\n" * shift + source, tmp_path / "run", lambda pool: None)
    m = match_error(text, catalog=catalog)
    # `raise xml.dom.NotFoundErr()` names nothing but its class: another line is another raise.
    assert (m is not None and m.summary.id == record.id) if shift == 0 else m is None


def test_a_bare_assert_in_a_server_log_is_one_event_with_its_record(tmp_path: Path) -> None:
    from errcat.scan import scan_text

    source = _module(["pool", "queue"])
    catalog = _catalog(source, tmp_path)

    def setup(pool: object) -> None:
        pool.pool, pool.queue = 1, None  # type: ignore[attr-defined]

    text = _traceback("\n" * 3 + source, tmp_path / "run", setup)
    prefix = "[2026-11-30 10:00:00 TP0] "
    log = "".join(
        [f"{prefix}Scheduler hit an exception: " + text.splitlines()[0] + "\n"]
        + [prefix + line + "\n" for line in text.splitlines()[1:]]
        + ["[2026-11-30 10:00:01] Received sigquit from a child process.\n"]
    )
    [event] = list(scan_text(log, catalog=catalog))
    assert event.error_class == "AssertionError" and event.message == ""
    [record] = [r for r in catalog if r.slug == "assert-self-queue-is-not-none"]
    assert event.record_id == record.id
