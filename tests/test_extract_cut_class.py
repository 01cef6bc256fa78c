"""Exception classes cut at their start (:mod:`errcat.extract.cut_class`).

``[Bug]: alueError: Call to add_lora method failed: ...`` (an issue title that
lost its first letter) was read as class ``alueError``, which no record raises,
and the class mismatch sank every candidate.
"""

from __future__ import annotations

import builtins

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ZQ_WORD
from errcat.extract import extract_reports
from errcat.extract.cut_class import restore_cut_class

BUILTIN_ERRORS = sorted(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type)
    and issubclass(value, BaseException)
    and name.endswith(("Error", "Exception", "Warning"))
)


def _endings(cut: str) -> list[str]:
    return [name for name in BUILTIN_ERRORS if name.endswith(cut) and name != cut]


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(BUILTIN_ERRORS),
    cut=st.integers(1, 8),
    words=st.lists(ZQ_WORD, min_size=2, max_size=4),
)
def test_a_cut_builtin_class_is_restored_when_one_builtin_ends_so(
    name: str, cut: int, words: list[str]
) -> None:
    kept = name[cut:]
    message = " ".join(words)
    reports = extract_reports(f"[Bug]: {kept}: {message}")
    assert len(reports) == 1
    [report] = reports
    if report.error_class is None:
        return  # not read as an exception line at all ("xception: ..."): nothing to restore
    assert report.message == message
    if kept[:1].islower() and len(kept) >= 4 and len(_endings(kept)) == 1:
        assert report.error_class == name
    else:
        assert report.error_class == kept


@settings(max_examples=30, deadline=None)
@given(word=ZQ_WORD, ending=st.sampled_from(["Error", "Exception", "Warning"]))
def test_a_lower_case_class_no_builtin_ends_with_is_left(word: str, ending: str) -> None:
    assert restore_cut_class(word + ending) == word + ending


def test_whole_and_dotted_names_are_left() -> None:
    assert restore_cut_class("ValueError") == "ValueError"
    assert restore_cut_class("socket.timeout") == "socket.timeout"
    assert restore_cut_class("torch.cuda.OutOfMemoryError") == "torch.cuda.OutOfMemoryError"
    # "rror" ends every builtin error: which one was cut cannot be told.
    assert restore_cut_class("rror") == "rror"


def test_a_title_that_lost_its_first_letter_reads_the_class() -> None:
    [report] = extract_reports("[Bug]: alueError: Call to zqmethod failed: zqx")
    assert report.error_class == "ValueError"
    assert report.message == "Call to zqmethod failed: zqx"
