"""The advice of a logged line speaks of log lines, never of a traceback it does not have."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.mine import mine_paths
from errcat.models import ErrorRecord

ARGS = """
import argparse
def make_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-model-len", type=int, help="Model context length.")
    return parser
"""

#: What a raise's advice says and a log line's must not: it has no traceback above it.
TRACEBACK_WORDS = ("whole traceback", "above this error in the traceback", "shown above it")


def _mine(tmp_path: Path, source: str) -> ErrorRecord:
    root = tmp_path / "proj"
    root.mkdir(exist_ok=True)
    (root / "__init__.py").write_text("")
    (root / "arg_utils.py").write_text(textwrap.dedent(ARGS))
    (root / "mod.py").write_text(textwrap.dedent(source))
    records = mine_paths([root], repo="o/proj", sha="0" * 40, path_prefix="proj").records
    [record] = [r for r in records if r.file_path == "proj/mod.py"]
    return record


def _text(record: ErrorRecord) -> str:
    return "\n".join([record.documentation, *record.solutions])


METHODS = st.sampled_from(["warning", "warning_once", "error", "exception", "critical"])
GUARDS = st.sampled_from(
    [
        ("if n > args.max_model_len:", "lever"),
        ("if self.pending:", "internal"),
        ("try:\n                self.load(n)\n            except OSError as e:", "handler"),
    ]
)
MESSAGES = st.sampled_from(
    [
        ("Prompt of %d tokens is too long", "n"),
        ("Could not load %d: %s", "n, e"),
        ("Loader stopped early", ""),
    ]
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    method=METHODS,
    guard=GUARDS,
    message=MESSAGES,
    exc_info=st.booleans(),
)
def test_a_logged_line_is_advised_as_a_log_line(
    tmp_path: Path,
    method: str,
    guard: tuple[str, str],
    message: tuple[str, str],
    exc_info: bool,
) -> None:
    test, kind = guard
    fmt, values = message
    if "e" in values.split(", ") and kind != "handler":
        values = "n, n"
    args = f", {values}" if values else ""
    extra = ", exc_info=True" if exc_info else ""
    source = f"""
    import logging
    logger = logging.getLogger(__name__)
    class Loader:
        def step(self, args, n):
            {test}
                logger.{method}({fmt!r}{args}{extra})
    """
    record = _mine(tmp_path, source)
    text = _text(record)
    assert not any(words in text for words in TRACEBACK_WORDS)
    assert not record.documentation.startswith("Raised")
    warning = method.startswith("warning")
    # A warning says it may be left alone; an error never does.
    assert ("goes on running" in text) is warning
    assert ("you can leave it" in text) is warning
    if kind == "lever":
        assert record.documentation.startswith("Logged when")
        assert record.solutions[0].startswith("Set --max-model-len to a value at least")
    elif kind == "internal":
        assert "internal check" in record.solutions[-1]
        if not warning:
            assert "read the log lines just before it" in record.solutions[-1]
    else:
        shown = "traceback logged right after this line" in text
        assert shown is (method == "exception" or exc_info)
        if not shown:
            says = record.solutions[0]
            if values.endswith("e"):
                assert says.startswith("Fix the OSError whose message this line shows")
            else:
                assert "logged this line without it: the log lines just before it" in says


@pytest.mark.parametrize(
    ("call", "first"),
    [
        (
            "logger.exception('Failed to load the adapter')",
            "Fix the OSError in the traceback logged right after this line: "
            "Loader.load caught it and logged this line",
        ),
        (
            "logger.error(f'Failed to load the adapter with {e}, skipping it')",
            "Fix the OSError whose message this line shows: Loader.load caught it and logged it",
        ),
        (
            "logger.error('Failed to load the adapter')",
            "Loader.load caught an OSError and logged this line without it: the log lines just "
            "before it, from the same process, show what failed",
        ),
    ],
)
def test_a_line_logged_while_handling_an_error_says_where_that_error_is(
    tmp_path: Path, call: str, first: str
) -> None:
    source = f"""
    import logging
    logger = logging.getLogger(__name__)
    class Loader:
        def load(self, path):
            try:
                open(path).read()
            except OSError as e:
                {call}
    """
    record = _mine(tmp_path, source)
    assert record.solutions == (first,)
    assert record.documentation.startswith("Logged in `Loader.load` while handling OSError")


def test_a_raise_still_asks_for_the_whole_traceback(tmp_path: Path) -> None:
    record = _mine(
        tmp_path,
        """
        class Loader:
            def step(self):
                if self.pending:
                    raise RuntimeError("Loader stopped early")
        """,
    )
    assert "whole traceback" in record.solutions[-1]
    assert record.documentation.startswith("Raised when")


def test_a_warning_with_levers_ends_with_the_note_and_keeps_every_lever(tmp_path: Path) -> None:
    record = _mine(
        tmp_path,
        """
        import logging
        logger = logging.getLogger(__name__)
        def admit(args, n):
            if n > args.max_model_len:
                logger.warning("Prompt of %d tokens is too long", n)
        """,
    )
    assert record.solutions[0].startswith("Set --max-model-len to a value at least")
    assert record.solutions[-1] == (
        "This is a warning, not a failure: proj goes on running. Act on it if what it reports "
        "is not what you meant; otherwise you can leave it"
    )
    assert record.validation_code is not None
    assert " logs WARNING when this holds" in record.validation_code
