"""The dynamic loader's refusals (errcat-data-imports), written by hand.

``benchmarks/stack_curated/loader.py`` writes them: a shared library the loader
cannot find (``libcudart.so.12: cannot open shared object file``) and a glibc or
libstdc++ older than a module needs (``version `GLIBC_2.32' not found``), raised as
``ImportError`` by the import system and as ``OSError`` by ctypes. These tests read
the committed imports package: the loader's lines get their records whether the
import or ctypes raised them, the advice names what a user changes, text that only
shares words with them does not match, and any library name fits the patterns.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from conftest import ZQ_WORD, stack_package_catalog

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from stack_curated import loader  # noqa: E402
from stack_curated.spec import CURATED_TAG  # noqa: E402

_NO_FILE = "cannot open shared object file: No such file or directory"
_SGL_KERNEL = (
    "Traceback (most recent call last):\n"
    '  File "/env/site-packages/sgl_kernel/__init__.py", line 12, in <module>\n'
    "    from sgl_kernel import common_ops\n"
    "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
)


def _answer(text: str) -> errcat.Match | None:
    return errcat.match_error(text, catalog=stack_package_catalog("imports"))


def test_a_missing_cuda_library_under_an_import_gets_the_loader_s_record() -> None:
    match = _answer(_SGL_KERNEL)
    assert match is not None
    assert match.record.error_message.endswith(f": {_NO_FILE}")
    assert "errcat:native:import-missing-library" in match.record.tags
    assert CURATED_TAG in match.record.tags
    advice = " ".join(match.record.solutions)
    assert "LD_LIBRARY_PATH=/usr/local/cuda/lib64" in advice and "--gpus all" in advice
    assert "apt-get install -y libnuma1" in advice


def test_ctypes_raises_the_same_text_as_oserror_and_gets_the_ctypes_twin() -> None:
    match = _answer(f"OSError: libnccl.so.2: {_NO_FILE}")
    assert match is not None
    assert (match.record.error_class, match.record.file_path) == (
        "OSError",
        "Modules/_ctypes/callproc.c",
    )


def test_glibc_and_libstdcxx_versions_get_records_with_their_own_advice() -> None:
    glibc = _answer(
        "ImportError: /lib64/libc.so.6: version `GLIBC_2.32' not found (required by"
        " /env/site-packages/vllm/_C.abi3.so)"
    )
    cxx = _answer(
        "ImportError: /opt/conda/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found"
        " (required by /env/site-packages/zqext/_ops.so)"
    )
    assert glibc is not None and cxx is not None
    assert "GLIBC_" in glibc.record.error_message and "GLIBCXX_" in cxx.record.error_message
    assert "ldd --version" in " ".join(glibc.record.solutions)
    assert "libstdcxx-ng>=13" in " ".join(cxx.record.solutions)


def test_prose_about_shared_objects_is_not_the_loader_s_error() -> None:
    match = _answer("ValueError: cannot open zqbook: the shared object file is locked")
    assert match is None or "errcat:native:import-missing-library" not in match.record.tags


def test_every_record_cites_only_even_numbered_threads() -> None:
    for record in loader.RECORDS:
        assert record.references, record.template
        numbers = [int(n) for ref in record.references for n in regex.findall(r"#(\d+)\b", ref)]
        assert all(n % 2 == 0 for n in numbers), (record.template, numbers)


_LIBRARY = st.builds(
    lambda name, major: f"lib{name}.so{major}",
    ZQ_WORD,
    st.sampled_from(["", ".1", ".12", ".6.0.30"]),
)


@settings(max_examples=50, deadline=None)
@given(library=_LIBRARY, folder=st.sampled_from(["", "/usr/lib64/", "/opt/zq/lib/"]))
def test_any_library_fits_the_loader_s_patterns(library: str, folder: str) -> None:
    missing, glibc, cxx = (r.envelope().record.message_pattern for r in loader.RECORDS[:3])
    path = folder + library
    assert regex.fullmatch(missing, f"{path}: {_NO_FILE}")
    assert regex.fullmatch(glibc, f"{path}: version `GLIBC_2.34' not found (required by /x/_C.so)")
    assert regex.fullmatch(cxx, f"{path}: version `GLIBCXX_3.4.32' not found")
    assert not regex.fullmatch(glibc, f"{path}: version `GLIBCXX_3.4.32' not found")
    assert not regex.fullmatch(missing, f"{path}: cannot open the {library} file")
