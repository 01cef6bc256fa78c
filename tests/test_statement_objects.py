"""Three paste forms of engine errors (study_census): a quoted bare assert, a model's repr
of an error body, and a wrapper's line beside the traceback the paste cut.

errcat.matcher.statement answers ``assert <condition>`` with the bare assert of that
statement (its slug); errcat.extract.objects reads ``Name(message=..., type=...)``
reprs as the error bodies they print; errcat.matcher.cut_wrapper answers a wrapper's
captured cause when the wrapper's own traceback was cut.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.extract.cut_bodies import cut_body
from errcat.extract.objects import keyword_objects
from errcat.matcher import match_all, match_error
from errcat.matcher.statement import STATEMENT_CONFIDENCE, quoted_statements
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope
from errcat.slugs import slugify

#: Words no catalog or grammar knows: hypothesis draws names from them.
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8).map(
    lambda w: f"zq{w}"
)
#: A condition of names, an attribute and a comparison, as asserts are written.
CONDITIONS = st.builds(
    lambda a, b, c, op: f"{a}.{b} {op} {c}",
    WORDS,
    WORDS,
    WORDS,
    st.sampled_from(["==", "<=", "is"]),
)


def _base() -> ErrorRecord:
    return RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record


def _bare(statement: str, n: int = 1, **update: object) -> ErrorRecord:
    """The record of a bare assert at ``statement``, as the miner names it."""
    fields: dict[str, object] = {
        "id": f"{n:016x}",
        "error_class": "AssertionError",
        "error_message": "",
        "message_pattern": "",
        "slug": slugify(statement),
        "file_path": f"zqpkg/zqmod{n}.py",
    }
    fields.update(update)
    return _base().model_copy(update=fields)


@given(
    CONDITIONS,
    st.sampled_from(["{s}", "AssertionError: {s}", "[Bug] crash: `{s}`", "how to fix {s}?"]),
)
def test_a_quoted_bare_assert_is_answered_by_its_statement(condition: str, form: str) -> None:
    statement = f"assert {condition}"
    catalog = Catalog([_bare(statement)])
    found = match_error(form.format(s=statement), catalog=catalog)
    assert found is not None and found.record.slug == slugify(statement)
    assert found.confidence == STATEMENT_CONFIDENCE


@given(CONDITIONS, CONDITIONS)
def test_another_statement_gets_no_answer(condition: str, other: str) -> None:
    if slugify(condition) == slugify(other):
        return
    catalog = Catalog([_bare(f"assert {condition}")])
    assert match_error(f"AssertionError: assert {other}", catalog=catalog) is None


@given(CONDITIONS)
def test_a_record_with_a_message_is_not_a_bare_assert(condition: str) -> None:
    statement = f"assert {condition}"
    said = _bare(statement, error_message="zq said so", message_pattern="zq said so")
    assert match_error(statement, catalog=Catalog([said])) is None


def test_a_frame_shows_the_statement_so_the_rule_stays_out() -> None:
    # The site evidence weighs a traceback's own line; the quoted form is for frameless text.
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/x/zqpkg/zqmod9.py", line 3, in run\n'
        "    assert zqa.zqb == zqc\n"
        "AssertionError: assert zqa.zqb == zqc"
    )
    found = match_all(paste, catalog=Catalog([_bare("assert zqa.zqb == zqc")]))
    assert all(m.confidence != STATEMENT_CONFIDENCE for m in found)


def test_several_files_of_one_statement_pick_the_named_engine_first() -> None:
    statement = "assert zqlocations is not None and zqsizes is not None"
    first = _bare(statement, 1, repo="sgl-project/sglang", file_path="python/sglang/zq1.py")
    second = _bare(statement, 2, repo="vllm-project/vllm", file_path="vllm/zq2.py")
    paste = f"vllm serve my/model failed by {statement}"
    found = match_error(paste, catalog=Catalog([first, second]))
    assert found is not None and found.record.repo == "vllm-project/vllm"
    assert [a.file_path for a in found.alternatives] == ["python/sglang/zq1.py"]


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=40))
def test_too_little_of_its_own_is_no_statement(words: str) -> None:
    # ``assert x`` and ``assert x is not None`` name too little to tell a statement by.
    short = "".join(words.split())[:7]
    assert list(quoted_statements(f"assert {short} is not None")) == []


@given(WORDS, WORDS, st.sampled_from(["BadRequestError", "ZqError"]))
def test_a_models_repr_of_an_error_body_is_read_as_the_body(
    model: str, words: str, kind: str
) -> None:
    message = f"{words} failed for {model}"
    name = model.capitalize()
    line = f"{name}(id=None, object='error', message={message!r}, type={kind!r}, code=400)"
    reports = extract_reports(f"```\n{line}\n```")
    assert [(r.error_class, r.message) for r in reports] == [(kind, message)]


@given(WORDS)
def test_a_nested_models_repr_is_read_too(words: str) -> None:
    line = (
        f"ErrorResponse(error=ErrorInfo(message='{words} broke', type='BadRequestError', code=400))"
    )
    fields = keyword_objects(line)[0][2]
    assert fields["error"] == {"message": f"{words} broke", "type": "BadRequestError", "code": 400}


@given(WORDS)
def test_a_call_in_source_code_is_not_a_repr(words: str) -> None:
    # Names are not literals: ``Foo(message=msg, type=kind)`` is code, not a printed model.
    assert keyword_objects(f"Zq{words}(message={words}, type=kind)") == []


@given(WORDS, st.integers(min_value=1, max_value=999))
def test_a_wrappers_cause_beside_its_cut_traceback_answers(name: str, n: int) -> None:
    wrapper = _base().model_copy(
        update={
            "id": "00000000000000aa",
            "file_path": "zqpkg/zqworker.py",
            "error_message": "Exception in zqworker {name}: {e}, {tb}",
            "message_pattern": r"Exception in zqworker (.+?): (.+?), (.+)",
            "tags": ("errcat:wrapper",),
        }
    )
    cause = _base().model_copy(
        update={
            "id": "00000000000000bb",
            "error_message": "zqshard {n} is missing from zqstore",
            "message_pattern": r"zqshard (.+?) is missing from zqstore",
        }
    )
    log = "(ZqWorker pid=7) ERROR 08-05 23:29:38 zqworker.py:226] "
    paste = (
        f"{log}Exception in zqworker {name}: zqshard {n} is missing from zqstore, "
        "Traceback (most recent call last):\n"
        f'{log}  File "/x/zqpkg/zqworker.py", line 9, in run\n'
        f"{log}    output = executor(*args)"
    )
    found = match_error(paste, catalog=Catalog([wrapper, cause]))
    assert found is not None and found.record.id == "00000000000000bb"
    # Without a cause it holds, the wrapper beside a cut traceback still does not answer.
    assert match_error(paste, catalog=Catalog([wrapper])) is None


@given(WORDS, WORDS, st.sampled_from(["'", '"']))
def test_a_body_wrapped_by_the_terminal_is_read_across_the_break(
    head: str, tail: str, quote: str
) -> None:
    q = quote
    paste = (
        f"E   openai.BadRequestError: Error code: 400 - {{{q}object{q}: {q}error{q}, "
        f"{q}message{q}: {q}{head} requires --zq-flag to\n"
        f" be {tail}{q}, {q}type{q}: {q}BadRe"
    )
    messages = [r.message for r in extract_reports(paste) if r.error_class is None]
    assert f"{head} requires --zq-flag to\n be {tail}" in messages


@given(WORDS, st.sampled_from(["detail", "messages", "msg"]))
def test_a_cut_body_is_read_only_at_a_message_key(word: str, key: str) -> None:
    assert cut_body(f"HTTP 400 - {{'object': 'error', '{key}': '{word} went bad") is None
    found = cut_body(f"HTTP 400 - {{'object': 'error', 'message': '{word} went bad")
    assert found is not None and found[1] == f"{word} went bad" and found[2] == "'"
