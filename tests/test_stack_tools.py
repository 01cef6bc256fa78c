"""The openai client's ``Connection error.`` (errcat-data-serving) and nvcc's unknown architecture
(errcat-data-kernels), written by hand.

``benchmarks/stack_curated/openai_client.py`` and ``benchmarks/stack_curated/nvcc.py``
write them. These tests read the committed packages: an application's traceback
through the openai client gets the client's record, nvcc's line in a study-set title
(an even-numbered thread) gets the nvcc record, text that only shares words with
them does not, the advice names values a user sets, and any architecture name fits
nvcc's pattern.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import ZQ_WORD, stack_package_catalog, study_stack_texts

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import nvcc, openai_client  # noqa: E402
from stack_curated.spec import CURATED_TAG  # noqa: E402

_CLIENT_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/env/site-packages/httpx/_transports/default.py", line 101, in'
    " map_httpcore_exceptions\n"
    "    yield\n"
    "httpx.ConnectError: [Errno 111] Connection refused\n\n"
    "The above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    '  File "/app/agent.py", line 12, in ask\n'
    "    reply = client.chat.completions.create(model=MODEL, messages=messages)\n"
    '  File "/env/site-packages/openai/_base_client.py", line 1018, in _request\n'
    "    raise APIConnectionError(request=request) from err\n"
    "openai.APIConnectionError: Connection error.\n"
)


def test_an_app_s_traceback_through_the_client_gets_the_client_s_record() -> None:
    match = errcat.match_error(_CLIENT_TRACEBACK, catalog=stack_package_catalog("serving"))
    assert match is not None and match.exact
    assert (match.record.repo, match.record.error_message) == (
        "openai/openai-python",
        "Connection error.",
    )
    assert CURATED_TAG in match.record.tags
    advice = " ".join(match.record.solutions)
    assert "curl http://127.0.0.1:8000/v1/models" in advice and "NO_PROXY=" in advice


def test_the_bare_line_gets_it_and_another_connection_message_does_not() -> None:
    catalog = stack_package_catalog("serving")
    match = errcat.match_error("openai.APIConnectionError: Connection error.", catalog=catalog)
    assert match is not None and match.record.error_message == "Connection error."
    other = errcat.match_error("ValueError: Connection error for zqhost at step 3", catalog=catalog)
    assert other is None or other.record.error_message != "Connection error."


def test_nvcc_s_line_in_a_study_title_gets_the_nvcc_record() -> None:
    title = study_stack_texts()["jetson-containers-1186-title"]
    match = errcat.match_error(title, catalog=stack_package_catalog("kernels"))
    assert match is not None
    assert "errcat:tool:nvcc" in match.record.tags
    assert any("FLASHINFER_CUDA_ARCH_LIST='8.7'" in s for s in match.record.solutions)


def test_nvcc_s_own_line_with_its_padding_gets_the_record() -> None:
    line = "nvcc fatal   : Unsupported gpu architecture 'compute_90'"
    match = errcat.match_error(line, catalog=stack_package_catalog("kernels"))
    assert match is not None and "errcat:tool:nvcc" in match.record.tags


def test_every_record_cites_sources_and_only_even_numbered_threads() -> None:
    for record in (*openai_client.RECORDS, *nvcc.RECORDS):
        assert record.references, record.template
        numbers = [int(n) for ref in record.references for n in regex.findall(r"#(\d+)\b", ref)]
        assert numbers and all(n % 2 == 0 for n in numbers), (record.template, numbers)


_ARCH = st.builds(
    lambda kind, major, suffix: f"{kind}_{major}{suffix}",
    st.sampled_from(["compute", "sm"]),
    st.integers(min_value=10, max_value=130),
    st.sampled_from(["", "a", "f"]),
)


@settings(max_examples=50, deadline=None)
@given(arch=_ARCH, pad=st.sampled_from(["", " ", "   "]), word=ZQ_WORD)
def test_any_architecture_fits_nvcc_s_pattern(arch: str, pad: str, word: str) -> None:
    pattern = nvcc.RECORDS[0].envelope().record.message_pattern
    assert regex.fullmatch(pattern, f"nvcc fatal{pad} : Unsupported gpu architecture '{arch}'")
    assert regex.fullmatch(pattern, f"Unsupported gpu architecture '{arch}'")
    assert not regex.fullmatch(pattern, f"Unsupported {word} architecture '{arch}'")
