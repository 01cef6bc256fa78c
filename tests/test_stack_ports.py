"""A port another process holds, in errcat-data-serving (written by hand).

``benchmarks/stack_curated/ports.py`` writes the three texts an engine prints
when it cannot bind: pyzmq's ``Address already in use (addr=...)``, asyncio's
``error while attempting to bind on address ...`` (logged by uvicorn) and a
plain socket's ``[Errno 98] Address already in use``. These tests read the
committed package: study-set dev titles (even-numbered threads) get the records,
a bind error of another reason still reaches asyncio's record, the advice names
only flags the engines define, and any address fits the patterns.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import stack_package_catalog, study_stack_texts

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import ports  # noqa: E402
from stack_curated.spec import CURATED_TAG  # noqa: E402


def test_zmq_titles_of_either_engine_get_pyzmqs_record() -> None:
    for item in ("vllm-7196-title", "sglang-9396-title"):
        match = errcat.match_error(
            study_stack_texts()[item], catalog=stack_package_catalog("serving")
        )
        assert match is not None, item
        site = (match.record.repo, match.record.file_path)
        assert site == ("zeromq/pyzmq", "zmq/sugar/socket.py")
        assert CURATED_TAG in match.record.tags
        assert any("--port 8001" in s for s in match.record.solutions)


def test_uvicorns_bind_line_gets_asyncios_record_with_or_without_the_errno() -> None:
    title = study_stack_texts()["vllm-7514-title"]  # the errno dropped
    logged = (
        "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000):"
        " address already in use"
    )
    for text in (title, logged):
        match = errcat.match_error(text, catalog=stack_package_catalog("serving"))
        assert match is not None, text
        assert match.record.file_path == "Lib/asyncio/base_events.py"


def test_a_plain_socket_bind_gets_the_socket_record() -> None:
    match = errcat.match_error(
        "OSError: [Errno 98] Address already in use", catalog=stack_package_catalog("serving")
    )
    assert match is not None and match.record.error_message == ports.SOCKET_IN_USE.template


def test_the_advice_names_only_flags_the_engines_define() -> None:
    flags = json.loads((ROOT / "tests" / "fixtures" / "engine_flags.json").read_text())
    known = frozenset().union(*map(frozenset, flags.values()))
    for record in ports.RECORDS:
        text = " ".join([*record.solutions, record.example_fix, record.trigger])
        named = set(regex.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", text))
        assert named <= known, (record.template, named - known)


def test_every_record_cites_its_source_and_only_even_numbered_threads() -> None:
    for record in ports.RECORDS:
        assert record.references, record.template
        numbers = [int(n) for ref in record.references for n in regex.findall(r"/(\d+)$", ref)]
        assert all(n % 2 == 0 for n in numbers), (record.template, numbers)


_HOSTS = st.sampled_from(["0.0.0.0", "127.0.0.1", "::", "localhost", "10.2.3.4"])
_PORTS = st.integers(min_value=1, max_value=65535)


@settings(max_examples=40, deadline=None)
@given(host=_HOSTS, port=_PORTS, errno=st.sampled_from([98, 99, 48]))
def test_any_address_fits_the_patterns(host: str, port: int, errno: int) -> None:
    zmq = ports.ZMQ_IN_USE.envelope().record.message_pattern
    assert regex.fullmatch(zmq, f"Address already in use (addr='tcp://{host}:{port}')")
    bind = ports.ASYNCIO_BIND.envelope().record.message_pattern
    line = f"[Errno {errno}] error while attempting to bind on address ({host!r}, {port}): x y"
    assert regex.fullmatch(bind, line)
    assert not regex.fullmatch(zmq, f"Address not available (addr='tcp://{host}:{port}')")


def test_a_socket_bind_under_the_caller_s_frames_still_gets_the_socket_record() -> None:
    """socket.bind raises in C: the caller's frames never show the site and say nothing
    against the record (it is tagged as a hidden site)."""
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/vllm/entrypoints/openai/api_server.py", line 1078,'
        " in run_server\n"
        "    sock.bind((host, port))\n"
        "OSError: [Errno 98] Address already in use"
    )
    match = errcat.match_error(paste, catalog=stack_package_catalog("serving"))
    assert match is not None and match.record.error_message == ports.SOCKET_IN_USE.template
