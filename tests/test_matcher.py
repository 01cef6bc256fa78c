from __future__ import annotations

import math
import time
import traceback
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from conftest import make_envelope
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.index import fold_whitespace
from errcat.matcher import CONFIDENCE_THRESHOLD, candidates, match_all, match_error
from errcat.models import RecordEnvelope
from errcat.patterns import template_to_pattern


def envelope_of(n: int, template: str, slug: str = "record", /, **fields: object) -> RecordEnvelope:
    """The example envelope as record ``n``, raising ``template`` (camelCase ``fields``)."""
    return make_envelope(
        id=f"{n:016x}",
        slug=f"{slug}-{n}",
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        **fields,
    )


def catalog_of(*templates: str, cls: str = "ValueError", **fields: object) -> Catalog:
    return Catalog(
        [envelope_of(n, template, errorClass=cls, **fields) for n, template in enumerate(templates)]
    )


# -- captured values are whole -------------------------------------------------------

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
values = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    words.map(repr),
    st.lists(words, min_size=0, max_size=3).map(repr),
    st.from_regex(r"/[a-z]{1,6}(/[a-z]{1,6}){0,3}\.py", fullmatch=True),
    st.sampled_from(["None", "torch.bfloat16", "3.5 GiB", "a.b; c.d", "{'k': [1, 2]}"]),
)
prefixes = st.sampled_from(
    [
        "",
        "ValueError: ",
        "[2026-03-02 10:11:12 TP0] ValueError: ",
        "(Worker_TP1 pid=88) ValueError: ",
        "INFO 03-06 10:05:08 engine.py:190] ValueError: ",
        "E   ValueError: ",
    ]
)


@st.composite
def template_case(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A template with placeholders at the start, middle and/or end, and values for them."""
    middle = draw(st.lists(words, min_size=2, max_size=5).map(" ".join))
    tail = draw(st.lists(words, min_size=1, max_size=3).map(" ".join))
    start = draw(st.booleans())
    end = draw(st.booleans())
    parts = []
    names = []
    if start:
        parts.append("{first}")
        names.append("first")
    parts.append((" " if start else "") + middle + " {mid!r} " + tail)
    names.append("mid")
    if end:
        parts.append(" {last}")
        names.append("last")
    template = "".join(parts)
    vals = [draw(values) for _ in names]
    # A value that contains the surrounding literal text is ambiguous by nature.
    for v in vals:
        assume(middle not in v and tail not in v)
    return template, vals


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(template_case(), prefixes)
def test_captures_are_whole_values(case: tuple[str, list[str]], prefix: str) -> None:
    template, vals = case
    catalog = catalog_of(template)
    names = ["first", "mid", "last"] if template.startswith("{first}") else ["mid", "last"]
    names = names[: len(vals)]
    rendered = template
    for name, value in zip(names, vals, strict=True):
        rendered = rendered.replace("{" + name + ("!r" if name == "mid" else "") + "}", value)
    m = match_error(prefix + rendered, catalog=catalog)
    assume(m is not None)  # very short random templates may be below the threshold
    assert m is not None
    assert dict(m.params) == {n: fold_whitespace(v) for n, v in zip(names, vals, strict=True)}


def test_trailing_placeholder_takes_the_rest_of_the_message() -> None:
    catalog = catalog_of("Unsupported checkpoint format in model directory: {path}")
    m = match_error(
        "ValueError: Unsupported checkpoint format in model directory: /models/llama-3/ckpt.bin",
        catalog=catalog,
    )
    assert m is not None and m.params == {"path": "/models/llama-3/ckpt.bin"}


def test_leading_placeholder_does_not_swallow_prefixes() -> None:
    catalog = catalog_of("{name} must be a positive integer number of tokens")
    for text in [
        "ValueError: max_new_tokens must be a positive integer number of tokens",
        "[2026-03-02 10:11:12 TP3] ValueError: max_new_tokens must be a positive integer "
        "number of tokens",
        "RuntimeError: worker crashed: max_new_tokens must be a positive integer number of tokens",
    ]:
        m = match_all(text, catalog=catalog)[0]
        assert m.params == {"name": "max_new_tokens"}, text


# -- precision --------------------------------------------------------------------------

GENERIC = [
    "{failure_msg}: {error_msg}",
    "{name} must be {dtype}",
    "{a} {b}",
    "{x}",
    "invalid {what}",
]

unrelated = st.sampled_from(
    [
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
        "ValueError: batch_size must be positive",
        "RuntimeError: CUDA error: out of memory",
        "KeyError: 'model.layers.0.weight'",
        "OSError: [Errno 2] No such file or directory: '/tmp/x'",
        "ValueError: invalid literal for int() with base 10: 'abc'",
        "ConnectionError: HTTPSConnectionPool(host='x', port=443): Max retries exceeded",
        "AttributeError: 'NoneType' object has no attribute 'shape'",
    ]
)


@given(
    unrelated,
    st.sampled_from(["", 'Traceback (most recent call last):\n  File "a.py", line 3, in f\n']),
)
def test_generic_patterns_never_answer_confidently(text: str, head: str) -> None:
    catalog = catalog_of(*GENERIC)
    assert match_error(head + text, catalog=catalog) is None
    for m in match_all(head + text, catalog=catalog):
        assert m.confidence < CONFIDENCE_THRESHOLD


def test_changed_key_words_match_nothing(bundled: Catalog) -> None:
    original = (
        "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
        "Select another --speculative-moe-a2a-backend."
    )
    assert match_error(original, catalog=bundled) is not None
    changed = original.replace("validated", "enabled").replace("draft", "target")
    assert match_error(changed, catalog=bundled) is None
    hints = match_all(changed, catalog=bundled)
    assert all(not h.exact and h.confidence < CONFIDENCE_THRESHOLD for h in hints)


def test_class_disagreement_lowers_confidence() -> None:
    catalog = catalog_of("the tokenizer vocabulary does not match the model embedding size")
    msg = "the tokenizer vocabulary does not match the model embedding size"
    agree = match_error(f"ValueError: {msg}", catalog=catalog)
    differ = match_all(f"TypeError: {msg}", catalog=catalog)[0]
    plain = match_error(msg, catalog=catalog)
    assert agree is not None and plain is not None
    # The fitted model weighs a disagreeing class heavily; an agreeing one adds
    # little over a message with no class (the class is usually right anyway).
    assert differ.confidence < plain.confidence <= agree.confidence


def test_short_exact_messages_with_the_right_class_are_answered() -> None:
    catalog = catalog_of("empty shard list", cls="ZeroDivisionError")
    m = match_error("ZeroDivisionError: empty shard list", catalog=catalog)
    assert m is not None and m.mode == "full"


def test_a_project_s_copy_of_c_s_message_is_not_the_answer_to_a_bare_line() -> None:
    # CPython's C code raises it for every `1 / 0`: the text cannot tell the copy.
    catalog = catalog_of("division by zero", cls="ZeroDivisionError")
    assert match_error("ZeroDivisionError: division by zero", catalog=catalog) is None
    found = match_all("ZeroDivisionError: division by zero", catalog=catalog)
    assert found and found[0].mode == "full" and found[0].confidence < 0.5


# -- ranking ----------------------------------------------------------------------------


def _site(
    n: int,
    path: str,
    line: int,
    template: str = "tensor parallel size {tp} does not divide {n} heads",
) -> RecordEnvelope:
    return envelope_of(
        n,
        template,
        "site",
        filePath=path,
        lineNumber=line,
        sourceCodeStart=max(1, line - 18),
        sourceCodeEnd=line + 18,
    )


def test_identical_messages_are_told_apart_by_frames() -> None:
    catalog = Catalog(
        [_site(1, "pkg/a.py", 40), _site(2, "pkg/b.py", 120), _site(3, "pkg/b.py", 300)]
    )
    message = "ValueError: tensor parallel size 3 does not divide 32 heads"
    for path, line, expected in [("a.py", 40, 1), ("b.py", 120, 2), ("b.py", 301, 3)]:
        tb = (
            "Traceback (most recent call last):\n"
            f'  File "/srv/app/main.py", line 5, in <module>\n'
            f'  File "/usr/lib/python3/site-packages/pkg/{path}", line {line}, in check\n'
            "    raise ValueError(\n"
            f"{message}\n"
        )
        best = match_error(tb, catalog=catalog)
        assert best is not None and best.record.id == f"{expected:016x}", (path, line)
        assert any("raise site" in r for r in best.reasons)
    # Without frames nothing tells them apart: one answer, the others its alternatives.
    ranked = match_all(message, catalog=catalog)
    assert len(ranked) == 1
    assert "3 records share this message" in ranked[0].reasons
    found = {ranked[0].summary.id, *(a.id for a in ranked[0].alternatives)}
    assert found == {f"{n:016x}" for n in (1, 2, 3)}


def test_more_specific_pattern_ranks_first() -> None:
    catalog = catalog_of("could not load {what}", "could not load the model weights from {path}")
    m = match_error("ValueError: could not load the model weights from /m/x.bin", catalog=catalog)
    assert m is not None and m.record.error_message.startswith("could not load the model")


def test_exception_decorations_are_seen_through() -> None:
    catalog = Catalog(
        [
            make_envelope(
                id="a" * 16,
                slug="k",
                errorClass="KeyError",
                errorMessage="no expert named {name}",
                messagePattern="no expert named (.+?)",
            ),
            make_envelope(
                id="b" * 16,
                slug="o",
                errorClass="FileNotFoundError",
                errorMessage="No such file or directory: {path!r}",
                messagePattern="No such file or directory: (.+?)",
            ),
        ]
    )
    key = match_error("KeyError: 'no expert named mixtral_7'", catalog=catalog)
    assert key is not None and key.params == {"name": "mixtral_7"}
    errno = match_error(
        "FileNotFoundError: [Errno 2] No such file or directory: '/x/y.json'", catalog=catalog
    )
    assert errno is not None and errno.params == {"path": "'/x/y.json'"}


def test_truncated_paste_with_a_specific_start_is_found_inexact(bundled: Catalog) -> None:
    cut = (
        "ValueError: flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch "
        "(masked layout). DeepEP normal (pre"
    )
    m = match_error(cut, catalog=bundled)
    assert m is not None and m.record.id == "70e072f5fc32f001"
    assert not m.exact and m.mode == "truncated"
    rest = "(prefill) dispatch has no CuteDSL FP4 handler. Pass --deepep-mode low_latency or auto."
    full = match_error(cut.replace("(pre", rest), catalog=bundled)
    assert full is not None and full.confidence > m.confidence


# -- robustness -------------------------------------------------------------------------


def test_catastrophic_pattern_is_cut_off_by_the_timeout() -> None:
    evil = make_envelope(errorMessage="x", messagePattern=r"(a+)+b")
    catalog = Catalog([evil])
    start = time.perf_counter()
    assert match_error("ValueError: " + "a" * 5000, catalog=catalog) is None
    assert time.perf_counter() - start < 60  # a hang fails, not a loaded machine


def test_non_text_input_is_a_type_error(bundled: Catalog) -> None:
    with pytest.raises(TypeError, match="error text must be str, got bytes"):
        match_error(b"ValueError: x", catalog=bundled)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="limit must be at least 1"):
        match_all("x", catalog=bundled, limit=0)


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(), st.binary().map(lambda b: b.decode("latin-1"))))
def test_match_never_raises_on_arbitrary_text(text: str) -> None:
    catalog = catalog_of(*GENERIC, "DeepEP v2 MoE is not validated for {a!r}")
    assert isinstance(match_all(text, catalog=catalog), list)
    match_error(text, catalog=catalog)


def test_large_and_deep_inputs_finish(bundled: Catalog) -> None:
    log = ("INFO 03-06 10:05:08 engine.py:190] step 1 loss 0.5 tokens/s 1234\n" * 80_000)[
        :5_000_000
    ]
    start = time.perf_counter()
    match_error(log, catalog=bundled)
    chained = ""
    for n in range(300):
        chained += (
            "Traceback (most recent call last):\n"
            f'  File "x.py", line {n}, in f\n'
            f"ValueError: level {n}\n\n"
            "The above exception was the direct cause of the following exception:\n\n"
        )
    match_all(chained + "RuntimeError: top", catalog=bundled)
    assert time.perf_counter() - start < 60  # a generous bound: a hang fails, not a slow machine


def test_real_traceback_from_python_is_matched() -> None:
    template = "shard {index} of {total} is missing from the checkpoint directory"

    def load(index: int) -> None:
        raise ValueError(f"shard {index} of {8} is missing from the checkpoint directory")

    # The record is where the traceback says the error was raised: this file.
    line = load.__code__.co_firstlineno + 1
    catalog = catalog_of(
        template,
        filePath="tests/test_matcher.py",
        lineNumber=line,
        sourceCodeStart=line - 18,
        sourceCodeEnd=line + 18,
    )

    try:
        load(3)
    except ValueError as exc:
        text = "".join(traceback.format_exception(exc))
    m = match_error(text, catalog=catalog)
    assert m is not None and m.params == {"index": "3", "total": "8"}


def test_records_outside_the_traceback_files_are_skipped_without_changing_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import errcat.matcher.collect as collect_module

    template = "{a}: {b}"
    envelopes = [
        make_envelope(
            id=f"{n:016x}",
            slug=f"generic-{n}",
            errorMessage=template,
            messagePattern=template_to_pattern(template),
            filePath=f"pkg{n}/mod.py",
            lineNumber=50,
            sourceCodeStart=32,
            sourceCodeEnd=68,
        )
        for n in range(200)
    ]
    catalog = Catalog(envelopes)
    texts = [
        'Traceback (most recent call last):\n  File "/site/pkg137/mod.py", line 50, in f\n'
        "ValueError: cache: corrupt\n",
        'Traceback (most recent call last):\n  File "/elsewhere/app.py", line 9, in f\n'
        "ValueError: cache: corrupt\n",
        "ValueError: cache: corrupt",
    ]

    def answers() -> list[list[tuple[str, float]]]:
        out = [[(m.summary.id, m.confidence) for m in match_all(t, catalog=catalog)] for t in texts]
        best = [match_error(t, catalog=catalog) for t in texts]
        return [*out, [(m.summary.id, m.confidence) for m in best if m]]

    fast = answers()
    monkeypatch.setattr(collect_module, "_outside_cannot_qualify", lambda logit, floor: False)
    assert answers() == fast
    assert fast[0][0][0] == f"{137:016x}"  # the record whose raise site is in the traceback


# -- chains: the exception that ended the traceback answers ---------------------------


def _chain_text(cause: str, outer: str, phrase: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/loader.py", line 10, in load\n'
        f"    raise ValueError(...)\n{cause}\n\n{phrase}\n\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 20, in main\n'
        f"    raise RuntimeError(...) from e\n{outer}\n"
    )


CHAIN_PHRASES = [
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
]


@pytest.mark.parametrize("phrase", CHAIN_PHRASES)
def test_the_outer_exception_answers_and_its_cause_is_related(phrase: str) -> None:
    cat = Catalog(
        [
            make_envelope(
                id="00000000000000a1",
                slug="cause",
                filePath="app/loader.py",
                lineNumber=10,
                errorClass="ValueError",
                errorMessage="checkpoint shard {n} is missing",
                messagePattern="checkpoint shard (.+?) is missing",
            ),
            make_envelope(
                id="00000000000000b2",
                slug="outer",
                filePath="app/main.py",
                lineNumber=20,
                errorClass="RuntimeError",
                errorMessage="could not load the model weights from {path}; see the cause above",
                messagePattern="could not load the model weights from (.+?); see the cause above",
            ),
        ]
    )
    text = _chain_text(
        "ValueError: checkpoint shard 3 is missing",
        "RuntimeError: could not load the model weights from /ckpt; see the cause above",
        phrase,
    )
    m = match_error(text, catalog=cat)
    assert m is not None and m.summary.id == "00000000000000b2"
    assert [r.summary.id for r in m.related] == ["00000000000000a1"]
    assert match_all(text, catalog=cat)[0].summary.id == "00000000000000b2"


@pytest.mark.parametrize("phrase", CHAIN_PHRASES)
def test_a_wrapper_without_a_record_defers_to_the_nearest_cause(phrase: str) -> None:
    cat = catalog_of(
        "checkpoint shard {n} is missing from the directory",
        filePath="app/loader.py",
        lineNumber=10,
    )
    text = _chain_text(
        "ValueError: checkpoint shard 3 is missing from the directory",
        "RuntimeError: something went wrong in the worker",
        phrase,
    )
    m = match_error(text, catalog=cat)
    assert m is not None and m.params == {"n": "3"}
    assert m.related == ()


@given(label=words, value=words)
def test_a_builtin_class_does_not_lift_the_cap_on_wordless_patterns(label: str, value: str) -> None:
    # "invalid {what}" has next to no evidence in its words, and "{label}: {err!r}" none:
    # in a catalog of a few records nothing else says how common they are, so without a
    # frame at its raise line the first only hints, and the second is not even proposed.
    # So for an unqualified class too: any project may define a ``ParseError``.
    for cls in ("ValueError", "InvalidFileException"):
        catalog = catalog_of("Invalid file", "invalid {what}", "{label}: {err!r}", cls=cls)
        text = f"{cls}: invalid {label}"
        [top, *_] = match_all(text, catalog=catalog)
        assert top.summary.error_message == "invalid {what}"
        assert top.confidence < CONFIDENCE_THRESHOLD
        assert "bits of evidence" in " ".join(top.reasons)
        assert match_error(text, catalog=catalog) is None
        wordless = f"{cls}: {label}: {value!r}"
        assert match_all(wordless, catalog=catalog) == []


@given(label=words)
def test_a_module_qualified_class_with_one_fitting_record_lifts_the_cap(label: str) -> None:
    # ``plistlib.InvalidFileException`` names plistlib's own class: no other project's
    # text can be it, and of its records only "invalid {what}" fits, so the model weighs
    # the few words (and answers); with a second record of the class that fits, the text
    # cannot tell the two apart, and the cap stands.
    cls = "plistlib.InvalidFileException"
    text = f"{cls}: invalid {label}"
    lone = catalog_of("Invalid file", "invalid {what}", "{label}: {err!r}", cls=cls)
    m = match_error(text, catalog=lone)
    assert m is not None and m.summary.error_message == "invalid {what}"
    assert "no other record of it fits" in " ".join(m.reasons)
    two = catalog_of("invalid {what}", "invalid {kind}", cls=cls)
    assert match_error(text, catalog=two) is None
    other_module = catalog_of("invalid {what}", cls="xmllib.InvalidFileException")
    assert match_error(text, catalog=other_module) is None


def test_a_project_class_that_agrees_is_told_from_a_builtin_one() -> None:
    catalog = catalog_of("the tokenizer vocabulary does not match", cls="tok.errors.VocabError")
    [own] = match_all("tok.errors.VocabError: the tokenizer vocabulary does not match", catalog)
    assert own.features is None or own.features.get("class_custom", 1.0) == 1.0
    assert "exception class VocabError agrees" in own.reasons


# -- forms real pastes take --------------------------------------------------------------

_MEMORY = "Not enough memory. Please try to increase --mem-fraction-static."


@given(lead=st.sampled_from(["", "RuntimeError: ", "[Bug]: RuntimeError: ", "[Bug][V1] "]))
def test_a_lost_or_added_final_period_still_matches_whole(lead: str) -> None:
    catalog = catalog_of(_MEMORY, "failed to load {name}", cls="RuntimeError")
    best = match_all(lead + "failed to load llama-3.", catalog=catalog)[0]
    assert best.mode == "full" and best.exact
    # Quoted in prose a message may lose its period; printed after its class by
    # Python it is as raised, so there a missing period is a difference.
    best = match_all(lead + _MEMORY[:-1], catalog=catalog)[0]
    assert (best.mode == "full") == ("Error: " not in lead), best


def test_wrapper_context_tags_before_a_message_are_not_part_of_it() -> None:
    catalog = catalog_of("Initialization failed. Please see the error messages above.")
    text = (
        "ValueError: [address=0.0.0.0:43399, pid=1793] "
        "Initialization failed. Please see the error messages above."
    )
    best = match_all(text, catalog=catalog)[0]
    assert best.mode == "full"
    # Without the tags' key=value shape, the bracket is message text.
    other = match_all("ValueError: [1/3] " + text.split("] ", 1)[1], catalog=catalog)
    assert other[0].mode != "full"


_CUT_TEMPLATE = (
    "DeepEP v2 MoE is not validated as a speculative draft backend. Select another "
    "--speculative-moe-a2a-backend than {backend!r} or disable expert parallelism."
)


@settings(max_examples=60, deadline=None)
@given(
    cut=st.integers(min_value=48, max_value=_CUT_TEMPLATE.index("{")),
    mark=st.sampled_from(["...", " ...", "…", " […]", " [...]", "... (truncated)", "(truncated)"]),
    prefix=prefixes,
)
def test_a_message_cut_off_with_a_mark_is_read_as_truncated(
    cut: int, mark: str, prefix: str
) -> None:
    # Issue trackers end a long title with "…"; people end a clipped paste with "...".
    catalog = catalog_of(_CUT_TEMPLATE, "Speculative decoding is not supported for {arch}")
    # Cut before the placeholder, which would otherwise take in the mark as a value.
    text = _CUT_TEMPLATE[:cut].rstrip()
    best = match_error(prefix + text + mark, catalog=catalog)
    assert best is not None and best.record.id == f"{0:016x}"
    assert best.mode == "truncated" and not best.exact


@settings(max_examples=40, deadline=None)
@given(
    flag=st.from_regex(r"[a-z]{2,8}(-[a-z]{2,8}){1,3}", fullmatch=True),
    dash=st.sampled_from(["\u2014", "\u2013"]),
    prefix=prefixes,
    value=values,
)
def test_a_flag_whose_dashes_a_chat_client_joined_still_matches(
    flag: str, dash: str, prefix: str, value: str
) -> None:
    # Slack, Word and Markdown renderers print "--max-model-len" as "—max-model-len".
    template = "Value {v} is too large for this model. Lower it with --" + flag + " or use TP."
    catalog = catalog_of(template, "Value {v} is too large")
    text = template.replace("{v}", value).replace("--", dash)
    best = match_error(prefix + text, catalog=catalog)
    assert best is not None and best.record.id == f"{0:016x}" and best.mode == "full"
    assert best.params == {"v": value}


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(min_value=60, max_value=140),
    prefix=prefixes,
    value=values.filter(lambda v: "\n" not in v),
)
def test_a_message_a_terminal_wrapped_mid_word_still_matches(
    width: int, prefix: str, value: str
) -> None:
    # A terminal's copy of a long line breaks it at its width, inside words too (60
    # columns at least: a narrower one would break the log prefix and class too).
    template = (
        "DeepEP v2 MoE is not validated as a speculative draft backend for {v}. "
        "Select another --speculative-moe-a2a-backend or turn off expert parallelism."
    )
    catalog = catalog_of(template, "DeepEP v2 MoE is not validated")
    line = prefix + template.replace("{v}", value)
    wrapped = "\n".join(line[i : i + width] for i in range(0, len(line), width))
    best = match_error(wrapped, catalog=catalog)
    assert best is not None and best.record.id == f"{0:016x}" and best.mode == "full"
    if wrapped.count("\n") >= 2:
        assert best.params["v"] == value
    else:  # a break in two lines may be the message's own: it may stay a space
        assert best.params["v"].replace(" ", "") == value.replace(" ", "")


@pytest.mark.parametrize(
    "fixture",
    ["rich/folded-path-80.txt", "ipython/single.txt", "pytest/long.txt", "pytest/short.txt"],
)
def test_a_rich_ipython_or_pytest_frame_tells_apart_two_sites_of_one_message(fixture: str) -> None:
    # Two projects raise the same words; the paste shows the frame at sglang's raise line.
    message = (
        "DeepEP v2 MoE is not validated as a speculative draft backend. "
        "Select another --speculative-moe-a2a-backend."
    )
    sites = [
        ("sgl-project/sglang", "python/sglang/srt/arg_groups/moe_hook.py", 3),
        ("vllm-project/vllm", "vllm/config/moe.py", 20),
    ]
    catalog = Catalog(
        [
            make_envelope(
                id=f"{n:016x}",
                slug=f"record-{n}",
                repo=repo,
                filePath=path,
                lineNumber=line,
                errorMessage=message,
                messagePattern=template_to_pattern(message),
                errorClass="ValueError",
            )
            for n, (repo, path, line) in enumerate(sites)
        ]
    )
    text = (Path(__file__).parent / "fixtures" / fixture).read_text(encoding="utf-8")
    best = match_error(text, catalog=catalog)
    assert best is not None and best.summary.file_path == sites[0][1]
    assert any("is the raise site" in reason for reason in best.reasons)


@settings(max_examples=40, deadline=None)
@given(prefix=prefixes, value=values, quote=st.sampled_from(["&#39;", "&#x27;", "&apos;"]))
def test_a_message_copied_out_of_html_still_matches(prefix: str, value: str, quote: str) -> None:
    # CI pages and log viewers' exports escape quotes and angle brackets.
    template = "Expected <class 'int'> for {v!r}, got a string: use 'int(x)' first"
    catalog = catalog_of(template, "Expected {kind} for {v!r}")
    text = template.replace("{v!r}", value)
    escaped = (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", quote)
    )
    best = match_error(prefix + escaped, catalog=catalog)
    assert best is not None and best.record.id == f"{0:016x}" and best.mode == "full"
    assert best.params == {"v": value}


def test_a_template_ending_in_dots_matches_whole() -> None:
    catalog = catalog_of("Waiting for {count} workers to start the engine core...")
    best = match_error("ValueError: Waiting for 4 workers to start the engine core...", catalog)
    assert best is not None and best.mode == "full" and best.exact


def test_a_cut_off_message_quoted_in_a_title_is_read_as_truncated() -> None:
    catalog = catalog_of(
        "Model architectures {archs} are not supported for now. Supported architectures: {known}"
    )
    title = (
        "[Bug] Trying a new model: \"Model architectures ['DeciLMForCausalLM'] are not "
        'supported for now."'
    )
    best = match_all(title, catalog=catalog)[0]
    assert best.mode == "truncated" and not best.exact
    assert best.params["archs"] == "['DeciLMForCausalLM']"


def test_a_log_record_after_the_message_is_not_part_of_it() -> None:
    catalog = catalog_of("Initialization failed. Please see the error messages above.")
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 5, in <module>\n'
        "RuntimeError: Initialization failed. Please see the error messages above.\n"
        "2025-06-30 06:18:36,707 app.progress 113 DEBUG    Setting progress: 1.0\n"
    )
    best = match_all(tb, catalog=catalog)[0]
    assert best.mode == "full"


def test_an_http_status_name_neither_agrees_nor_disagrees_with_the_class() -> None:
    catalog = catalog_of(
        "As of transformers v4.44, default chat template is no longer allowed", cls="pkg.TplError"
    )
    message = "As of transformers v4.44, default chat template is no longer allowed"
    body = "openai.BadRequestError: Error code: 400 - {'message': '%s', 'type': 'BadRequestError'}"
    http = match_all(body % message, catalog=catalog)[0]
    other = match_all(f"KeyError: {message}", catalog=catalog)[0]
    assert not any("differs" in r for r in http.reasons)
    assert any("differs" in r for r in other.reasons)
    assert http.confidence > other.confidence


def test_a_cut_traceback_after_a_logged_message_does_not_count_against_it() -> None:
    catalog = catalog_of(
        "Bfloat16 is only supported on GPUs with compute capability of at least 8.0"
    )
    text = (
        "Bfloat16 is only supported on GPUs with compute capability of at least 8.0\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/app/factory.py", line 51, in run\n'
        "    engine = Engine.from_args(args)\n"
    )
    best = match_all(text, catalog=catalog)[0]
    assert best.mode == "full"
    assert not any("never passes through" in r for r in best.reasons)


# -- messages that go on after a blank line ---------------------------------------------

sentence = st.lists(words, min_size=4, max_size=8).map(" ".join)


@given(
    head=sentence,
    tip=sentence,
    more=st.lists(sentence, min_size=0, max_size=2),
    value=words,
    bare=st.booleans(),
)
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_a_message_with_tips_after_a_blank_line_finds_its_record(
    head: str, tip: str, more: list[str], value: str, bare: bool
) -> None:
    # The record's template goes on after a blank line; another record (the code it
    # was copied from) holds only the first paragraph.
    assume(head not in tip and tip not in head)
    template = f"{head} {{name!r}}.\n\n{tip} {{url}}docs\n\n" + "\n\n".join(more)
    template = template.rstrip()
    catalog = catalog_of(f"{head} {{name!r}}.", template)
    message = template.replace("{name!r}", repr(value)).replace("{url}", "https://e.org/")
    text = f"ValueError: {message}"
    if not bare:
        # A frame at the records' raise site (both have the example's file and line).
        frame = '  File "/srv/src/project/core.py", line 12, in load\n'
        text = "Traceback (most recent call last):\n" + frame + text
    best = match_error(text, catalog=catalog)
    assert best is not None and best.record.error_message == template
    assert best.mode == "full" and best.params["name"] == repr(value)


@given(head=sentence, after=sentence, value=words)
@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_unrelated_text_after_a_blank_line_changes_nothing(
    head: str, after: str, value: str
) -> None:
    catalog = catalog_of(f"{head} {{name!r}}.")
    # Text that names the record's project (the example's repo, ``example/project``) is
    # evidence, not unrelated text.
    assume("project" not in after.split())
    line = f"ValueError: {head} {value!r}."
    alone = match_all(line, catalog=catalog)[0]
    followed = match_all(f"{line}\n\n{after}\n", catalog=catalog)[0]
    assert followed.mode == alone.mode == "full"
    assert (followed.record.id, followed.confidence) == (alone.record.id, alone.confidence)


# -- a match that explains more ranks first -------------------------------------------


@given(head=sentence, more=sentence, a=words, b=words, tagged=st.booleans())
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_the_pattern_that_explains_more_of_the_message_ranks_first(
    head: str, more: str, a: str, b: str, tagged: bool
) -> None:
    # A short pattern matches the start of the message (or the message without its
    # tag); the long one matches all of it, with more literal text.
    assume(head not in more and more not in head and a != b)
    tag = "[worker] " if tagged else ""
    short, long = f"{head} {{what!r}}", f"{tag}{head} {{what!r}} {more} {{other!r}} now"
    catalog = catalog_of(short, long)
    text = f"ValueError: {tag}{head} {a!r} {more} {b!r} now"
    ranked = match_all(text, catalog=catalog)
    assert ranked[0].record.error_message == long
    answer = match_error(text, catalog=catalog)
    if any(m.confident for m in ranked):
        assert answer is not None  # never silent when some match is confident
    if answer is not None:
        assert answer.record.error_message == long


def test_a_generic_pattern_does_not_rank_above_a_specific_one_it_is_part_of() -> None:
    catalog = catalog_of(
        "{op}; actual {detail}",
        "{op}, {detail}",
        "Too many knobs for {cls}; actual {got}, expected {want}",
        cls="TypeError",
    )
    ranked = match_all("TypeError: Too many knobs for Foo; actual 3, expected 2", catalog=catalog)
    # The pattern without words is not even proposed: only a frame could tell its records.
    assert [m.record.error_message for m in ranked] == [
        "Too many knobs for {cls}; actual {got}, expected {want}",
        "{op}; actual {detail}",
    ]


def test_a_match_on_weaker_evidence_is_not_lifted() -> None:
    # The long pattern explains more, but its class differs: the class decides.
    catalog = Catalog(
        [
            make_envelope(
                id=f"{n:016x}",
                slug=f"r{n}",
                errorMessage=template,
                messagePattern=template_to_pattern(template),
                errorClass=cls,
            )
            for n, (template, cls) in enumerate(
                [
                    ("cannot open the shard {path!r}", "ValueError"),
                    ("cannot open the shard {path!r} for writing", "TypeError"),
                ]
            )
        ]
    )
    ranked = match_all("ValueError: cannot open the shard '/a/b' for writing", catalog=catalog)
    assert ranked[0].record.error_class == "ValueError"


_SENTENCE_WORDS = st.lists(
    st.sampled_from(["cache", "layer", "shard", "quota", "token", "remote", "device"]),
    min_size=3,
    max_size=6,
).map(" ".join)


@settings(max_examples=25, deadline=None)
@given(
    _SENTENCE_WORDS,
    _SENTENCE_WORDS,
    st.sampled_from(["", "ValueError: ", "[Bug]: ValueError: "]),
)
def test_a_message_cut_at_a_sentence_end_inside_a_longer_template_is_truncated(
    first: str, rest: str, lead: str
) -> None:
    # Many templates start with "Model": the first word proposes none of them, and
    # the words after the cut are common; the pattern is found by its rare words
    # before the cut ("kinds").
    common = "Supported: cache layer shard quota token remote device"
    fillers = [f"Model {n} has no field {{name}}. {common}" for n in range(80)]
    template = "Model kinds {kinds} are " + first + ". Supported: " + rest + " {known}"
    catalog = catalog_of(*fillers, template)
    text = lead + "Model kinds ['X', 'Y'] are " + first + "."
    best = match_all(text, catalog=catalog)[0]
    assert best.summary.error_message == template
    assert best.mode == "truncated" and not best.exact
    assert best.params["kinds"] == "['X', 'Y']"


@given(st.sampled_from(["Contradictory suggestions: ", "The log says: ", "Then I got "]))
def test_a_message_ending_a_sentence_without_its_period_is_found_inside_it(lead: str) -> None:
    catalog = catalog_of(_MEMORY, "failed to load {name}", cls="RuntimeError")
    best = match_all(lead + _MEMORY[:-1], catalog=catalog)[0]
    assert best.summary.error_message == _MEMORY
    # A title's own words before a colon are left out (full), other prose is around it.
    assert best.mode == ("full" if lead.endswith(": ") else "inner") and best.exact
    assert best.span == (0, len(lead + _MEMORY[:-1]))
    # Printed by Python after its class, the message is as raised: no period is put back.
    printed = match_all("RuntimeError: " + lead + _MEMORY[:-1], catalog=catalog)
    assert not printed or printed[0].mode != "inner"


@settings(max_examples=40, deadline=None)
@given(
    st.text(alphabet="abcdefghij_.:' ", min_size=1, max_size=30).map(str.strip),
    st.integers(0, 40),
    st.sampled_from(["", "RuntimeError: ", "[Bug][V1]: RuntimeError: "]),
)
def test_a_record_that_explains_more_of_the_message_ranks_above_a_shorter_prefix(
    error: str, cut: int, lead: str
) -> None:
    longer = "Worker failed with error '{e}', please check the stack trace above for the root cause"
    catalog = catalog_of("Worker failed", longer, cls="RuntimeError")
    full = longer.replace("{e}", error)
    # The message cut anywhere after the start of the quoted error.
    text = full[: len("Worker failed with error '") + len(error) + cut]
    assume(not text.endswith(" "))
    ranked = match_all(lead + text, catalog=catalog)
    assert ranked[0].summary.error_message == longer, ranked
    shorter = [m for m in ranked if m.summary.error_message == "Worker failed"]
    assert all(m.confidence < ranked[0].confidence for m in shorter)
    answer = match_error(lead + text, catalog=catalog)
    assert answer is None or answer.summary.error_message == longer
    # Alone, the shorter record still answers the message it starts.
    alone = catalog_of("Worker failed", cls="RuntimeError")
    assert match_all(lead + text, catalog=alone)[0].mode == "prefix"


@settings(max_examples=25, deadline=None)
@given(st.integers(8, 60), st.sampled_from(["ValueError: ", "[Bug]: ValueError: "]))
def test_a_generic_full_match_does_not_outrank_the_cut_off_message_it_swallows(
    cut: int, lead: str
) -> None:
    specific = (
        "TP rank {tp_rank} could finish the model loading, but there are other ranks "
        "that did not finish loading. It is likely due to unexpected failures."
    )
    catalog = catalog_of("TP {tp}", specific)
    rendered = specific.replace("{tp_rank}", "1")
    text = rendered[: len("TP rank 1 could finish the model loading") + cut].rstrip()
    ranked = match_all(lead + text, catalog=catalog)
    assert ranked[0].summary.error_message == specific
    assert ranked[0].mode == "truncated"
    generic = [m for m in ranked if m.summary.error_message == "TP {tp}"]
    assert all(m.confidence < ranked[0].confidence for m in generic)


def test_a_frame_at_the_raise_line_keeps_a_prefix_match_that_a_longer_pattern_covers() -> None:
    longer = "Worker failed with error '{e}', please check the stack trace above for the root cause"
    catalog = Catalog(
        [
            _site(1, "pkg/executor.py", 125, "Worker failed"),
            _site(2, "pkg/executor.py", 525, longer),
        ]
    )
    message = "RuntimeError: Worker failed with error 'boom'"
    bare = match_all(message, catalog=catalog)
    assert bare[0].summary.error_message == longer
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/pkg/executor.py", line 125, in run\n'
        "    raise RuntimeError(\n"
        f"{message}\n"
    )
    framed = match_all(tb, catalog=catalog)
    shorter = next(m for m in framed if m.summary.error_message == "Worker failed")
    assert shorter.mode == "prefix"
    assert framed[0] is shorter
    assert all(m.confidence < shorter.confidence for m in framed[1:])


@given(st.sampled_from(["count", "second item of state", "__length_hint__"]))
def test_a_pattern_that_matched_as_it_is_is_no_cut_off_candidate(name: str) -> None:
    catalog = catalog_of("{name} must be an integer", cls="TypeError")
    ranked = match_all(f"TypeError: {name} must be an integer, not str", catalog=catalog)
    assert [m.mode for m in ranked] == ["prefix"]


@given(st.sampled_from(["Failed to get cache, it might be dead", "peer reset"]))
def test_a_cut_off_reading_with_less_literal_text_does_not_outrank_a_wrapped_match(
    reason: str,
) -> None:
    wrapped = "KVTransferError(room={room}): {reason}"
    other = "KVTransferError(room={room}): Decode lost"
    catalog = catalog_of(wrapped, other, cls="pkg.KVTransferError")
    text = f"Decode failed for request 3 with exception KVTransferError(room=5): {reason}"
    ranked = match_all(text, catalog=catalog)
    assert ranked[0].summary.error_message == wrapped
    assert all(m.confidence < ranked[0].confidence for m in ranked[1:])


def test_a_regex_that_runs_past_the_wall_clock_limit_once_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import errcat.matcher as matcher_module
    import errcat.matcher.verify as verify_module

    real = verify_module._verify_once
    limits: list[float] = []

    def busy_once(*args: Any) -> Any:
        limits.append(args[-1])
        if len(limits) == 1:
            raise TimeoutError  # as when the machine was busy during the first try
        return real(*args)

    monkeypatch.setattr(verify_module, "_verify_once", busy_once)
    catalog = catalog_of("cache of {n} blocks is too small for the {what} model")
    m = match_error("ValueError: cache of 3 blocks is too small for the llama model", catalog)
    assert m is not None and m.params == {"n": "3", "what": "llama"}
    timeout = matcher_module.REGEX_TIMEOUT
    assert limits[:2] == [timeout, timeout * 10]


@given(
    value=words,
    name=st.lists(words, min_size=1, max_size=3).map(".".join),
    tail=st.lists(words, min_size=2, max_size=6).map(" ".join),
)
@settings(max_examples=40, deadline=None)
def test_a_name_placeholder_never_swallows_a_sentence(value: str, name: str, tail: str) -> None:
    catalog = catalog_of("{value!r} is not a valid {cls.__qualname__}")
    named = match_all(f"ValueError: {value!r} is not a valid {name}", catalog=catalog)
    assert named and named[0].mode == "full"
    assert named[0].params["cls.__qualname__"] == name
    # Another library's message of the same start: a qualname never holds spaces.
    text = f"ValueError: {value!r} is not a valid {name} token. It may only hold {tail}"
    assert match_error(text, catalog=catalog) is None
    assert all(m.mode == "fuzzy" for m in match_all(text, catalog=catalog))


@given(
    name=st.lists(words, min_size=1, max_size=3).map(".".join),
    spec=st.tuples(st.sampled_from(["", "<", ">", "^"]), st.integers(0, 40)),
    tail=st.lists(words, min_size=2, max_size=6).map(" ".join),
)
@settings(max_examples=40, deadline=None)
def test_a_name_padded_by_its_format_spec_is_still_a_name(
    name: str, spec: tuple[str, int], tail: str
) -> None:
    # "{date.__class__.__name__:40}" prints the name and spaces up to 40 characters.
    catalog = catalog_of(
        "the date parameter must be a date or datetime object, not"
        " '{date.__class__.__name__:" + f"{spec[0]}{spec[1]}" + "}'",
        cls="TypeError",
    )
    printed = format(name, f"{spec[0]}{spec[1]}")
    line = f"TypeError: the date parameter must be a date or datetime object, not '{printed}'"
    m = match_error(line, catalog=catalog)
    assert m is not None and m.mode == "full"
    assert m.params["date.__class__.__name__"].strip() == name
    # Spaces inside what the name placeholder captured are still not a name.
    line = f"TypeError: the date parameter must be a date or datetime object, not '{name} {tail}'"
    assert match_error(line, catalog=catalog) is None


def test_the_builtin_base_of_a_records_class_is_not_a_disagreement() -> None:
    # vllm raised ValueError for this message before VLLMValidationError(ValueError).
    message = "max_tokens must be at least 1, got {self.max_tokens}."
    tagged = catalog_of(
        message, cls="vllm.exceptions.VLLMValidationError", tags=["errcat:base:ValueError"]
    )
    untagged = catalog_of(message, cls="vllm.exceptions.VLLMValidationError")
    line = "ValueError: max_tokens must be at least 1, got -239."
    base = match_all(line, tagged)[0]
    assert not any("differs" in reason for reason in base.reasons)
    assert base.confidence > match_all(line, untagged)[0].confidence
    assert match_error(line, catalog=tagged) is not None
    # Another builtin class still disagrees.
    other = match_all(line.replace("ValueError", "TypeError"), tagged)[0]
    assert any("differs" in reason for reason in other.reasons)


def test_a_log_line_quoting_a_projects_own_exception_names_its_class() -> None:
    template = "KVTransferError(bootstrap_room={self.bootstrap_room}): {failure_reason}"
    catalog = catalog_of(template, cls="sglang.srt.disaggregation.common.conn.KVTransferError")
    line = (
        "[2025-09-17 16:23:13] Decode transfer failed for request rank=0 "
        "decode_req.req.rid='c5d3a8' decode_req.req.bootstrap_room=3979 with exception "
        "KVTransferError(bootstrap_room=3979): Failed to get kvcache from prefill instance"
    )
    found = match_all(line, catalog)[0]
    assert found.mode == "inner"
    assert "the text names the record's class KVTransferError" in found.reasons
    assert match_error(line, catalog=catalog) is not None
    # A builtin class named in the text is no such evidence.
    builtin = catalog_of("transfer failed: {reason}", cls="ConnectionAbortedError")
    text = "worker said ConnectionAbortedError then: transfer failed: peer gone"
    assert not any("names the record's class" in r for r in match_all(text, builtin)[0].reasons)


def test_a_traceback_cut_before_its_exception_line_answers_from_its_last_frame() -> None:
    template = (
        "No available memory for the cache blocks. Try increasing "
        "`gpu_memory_utilization` when initializing the engine."
    )
    catalog = catalog_of(
        template,
        filePath="vllm/v1/core/kv_cache_utils.py",
        lineNumber=699,
        sourceCodeStart=690,
        sourceCodeEnd=705,
    )
    site = "/opt/venv/lib/python3.13/site-packages/vllm/v1/core/kv_cache_utils.py"
    cut = (
        "ERROR 10-25 13:08:43 [core.py:708] Traceback (most recent call last):\n"
        f'ERROR 10-25 13:08:43 [core.py:708]   File "{site}", line 1243, in get_configs\n'
        "ERROR 10-25 13:08:43 [core.py:708]     check_enough_kv_cache_memory(config)\n"
        f'ERROR 10-25 13:08:43 [core.py:708]   File "{site}", line 699, in check_memory\n'
        'ERROR 10-25 13:08:43 [core.py:708]     raise ValueError("No available "\n'
        'ERROR 10-25 13:08:43 [core.py:708]         "memory for the cache blocks. Try "\n'
        'ERROR 10-25 13:08:43 [core.py:708]         "increasing `gpu_memory_utilization` when "\n'
        'ERROR 10-25 13:08:43 [core.py:708]         "initializing the engine.")\n'
        "ERROR 10-25"
    )
    answer = match_error(cut, catalog=catalog)
    assert answer is not None and not answer.exact
    assert any("stops before its exception line" in r for r in answer.reasons)
    # The last frame on another line: the raise statement shown is not the record's.
    assert match_error(cut.replace("line 699,", "line 640,"), catalog=catalog) is None


def test_a_raise_frame_showing_the_records_code_at_another_line_is_the_raise_site() -> None:
    code = "raise ValueError(f'max_tokens must be at least 1, got {n}.')"
    catalog = catalog_of(
        "max_tokens must be at least 1, got {n}.",
        filePath="pkg/params.py",
        lineNumber=3,
        sourceCode=f"def check(n):\n    if n < 1:\n        {code}\n",
        sourceCodeStart=1,
        sourceCodeEnd=3,
    )
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/pkg/params.py", line 416, in check\n'
        f"    {code}\n"
        "ValueError: max_tokens must be at least 1, got -3.\n"
    )
    same = match_all(traceback, catalog)[0]
    assert any("shows the record's raising code" in reason for reason in same.reasons)
    other_code = match_all(traceback.replace("f'max_tokens", "f'min_tokens"), catalog)[0]
    assert any("another version?" in reason for reason in other_code.reasons)
    assert same.confidence > other_code.confidence
    # Under a log prefix the source line is read too.
    logged = "\n".join(f"(EngineCore pid=1) {line}" for line in traceback.splitlines())
    assert match_all(logged, catalog)[0].confidence == same.confidence
    # Code without the message's words is written at many places: no evidence.
    generic = catalog_of(
        "max_tokens must be at least 1, got {n}.",
        filePath="pkg/params.py",
        lineNumber=3,
        sourceCode="def check(n):\n    if n < 1:\n        raise ValueError(message)\n",
        sourceCodeStart=1,
        sourceCodeEnd=3,
    )
    vague = traceback.replace(code, "raise ValueError(message)")
    assert any("another version?" in r for r in match_all(vague, generic)[0].reasons)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    opening=st.lists(words, min_size=4, max_size=7, unique=True).map(" ".join),
    rare=st.text(alphabet="qxzj", min_size=9, max_size=12),
    fillers=st.integers(3, 8),
    inner=st.lists(words, min_size=2, max_size=6).map(" ".join),
)
def test_a_cut_off_text_says_as_much_for_every_pattern_it_fits(
    opening: str, rare: str, fillers: int, inner: str
) -> None:
    # Two messages open alike and differ after the cut: one has a rare word there,
    # the other only words many patterns share. The cut text holds neither.
    common = "please retry with a smaller batch"
    templates = [
        f"{opening} failed: {{e}}. Possible fix: use the {rare} runner.",
        f"{opening} failed: {{e}}. Possible fix: {common}.",
        *(f"Step {n} stopped: {{why}}. Possible fix: {common} {n}." for n in range(fillers)),
    ]
    catalog = catalog_of(*templates, cls="RuntimeError")
    text = f"[Bug] RuntimeError: {opening} failed: {inner}"
    found = [m for m in match_all(text, catalog, limit=10) if m.mode == "truncated"]
    fitted = {m.summary.slug: m.confidence for m in found}
    assert set(fitted) == {"record-0", "record-1"}
    assert fitted["record-0"] == fitted["record-1"]


@settings(max_examples=40, deadline=None)
@given(
    first=st.lists(words, min_size=3, max_size=6).map(" ".join),
    value=st.from_regex(r"--[a-z]{3,8}-[a-z]{3,8}", fullmatch=True),
    after=st.lists(words, min_size=1, max_size=4).map(" ".join),
    lead=st.sampled_from(["2. Run the server → ", "Then I get ", "- "]),
)
def test_a_message_quoted_in_a_sentence_that_goes_on_without_its_period(
    first: str, value: str, after: str, lead: str
) -> None:
    template = f"Not enough {{what}}. Please try to increase {value}."
    catalog = catalog_of(template, "Something else entirely {x}.", cls="RuntimeError")
    text = f"{lead}RuntimeError: Not enough {first}. Please try to increase {value} {after}."
    found = match_all(text, catalog)[0]
    assert found.summary.slug == "record-0"
    assert found.mode == "prefix" and found.captures == (first,)
    # A word that runs on from the message's last one is another message.
    glued = text.replace(f"{value} {after}", f"{value}{after}")
    assert all(m.mode != "prefix" for m in match_all(glued, catalog))


@pytest.mark.parametrize(
    "text",
    [
        "ValueError",
        'Traceback (most recent call last):\n  File "/x/a.py", line 3, in f\nStopIteration\n',
        "2026-01-02 03:04:05 ERROR worker died: RuntimeError: ",
    ],
)
def test_an_exception_without_a_message_is_no_error(text: str) -> None:
    catalog = catalog_of("Not enough memory. Please try to increase {flag}.")
    assert match_all(text, catalog) == []
    assert match_error(text, catalog) is None


@settings(max_examples=40, deadline=None)
@example(lead="Error", what="abc def", period=False)
@example(lead="Warning", what="abc def", period=True)
@given(
    lead=st.lists(words, min_size=1, max_size=5).map(lambda ws: " ".join(ws).capitalize()),
    what=st.lists(words, min_size=2, max_size=4).map(" ".join),
    period=st.booleans(),
)
def test_a_titles_own_words_before_a_colon_are_not_the_message(
    lead: str, what: str, period: bool
) -> None:
    template = "Not enough memory for {what}. Please try to increase --mem-fraction-static."
    catalog = catalog_of(template, "{label}: {detail}", cls="RuntimeError")
    message = f"Not enough memory for {what}. Please try to increase --mem-fraction-static"
    text = f"{lead}: {message}{'.' if period else ''}"
    found = match_all(text, catalog)[0]
    assert found.summary.slug == "record-0" and found.captures == (what,)
    # A lead read as an exception class ("Error", "Warning": hypothesis draws such words
    # from errcat's own constants) makes the line one Python printed, where a missing
    # final period is a cut, not a title's loss.
    printed = extract_reports(text)[0].kind != "text"
    assert found.mode == ("truncated" if printed and not period else "full")


def _mined(tmp_path: Any, name: str, source: str) -> tuple[RecordEnvelope, ...]:
    """The records mined from one module ``pkg/<name>`` (repo ``o/pkg``)."""
    from errcat.mine import mine_paths

    root = tmp_path / "src" / "pkg"
    root.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(source)
    return mine_paths([root], repo="o/pkg", sha="0" * 40, path_prefix="pkg").envelopes


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(shift=st.integers(10, 400), first=st.booleans())
def test_a_raise_frame_in_the_function_that_raises_the_message_is_its_site(
    tmp_path: Any, shift: int, first: bool
) -> None:
    # One message raised by two methods of one file; a traceback from another version
    # (lines moved) names the method in its raise frame.
    records = _mined(
        tmp_path,
        "runner.py",
        "class Runner:\n"
        "    def capture(self, n):\n"
        "        raise ValueError(f'capture size {n} is larger than the graph limit')\n"
        "\n"
        "    def replay(self, n):\n"
        "        raise ValueError(f'capture size {n} is larger than the graph limit')\n",
    )
    catalog = Catalog(records)
    function, line = ("capture", 3) if first else ("replay", 6)

    def answer(name: str) -> Any:
        text = (
            "Traceback (most recent call last):\n"
            f'  File "/venv/lib/python3.12/site-packages/pkg/runner.py", line {line + shift}, '
            f"in {name}\n    raise ValueError(\n"
            "ValueError: capture size 9 is larger than the graph limit\n"
        )
        return match_all(text, catalog)

    found = answer(function)
    assert found[0].summary.line_number == line
    assert any(f"is in {function}()" in reason for reason in found[0].reasons)
    assert found[0].confidence > found[1].confidence
    # A frame in another function of the file is only the raise file.
    elsewhere = answer("warmup")
    assert elsewhere[0].confidence < found[0].confidence
    assert not any("is in warmup()" in reason for reason in elsewhere[0].reasons)


def test_a_raise_frame_on_one_records_line_is_not_another_records_function(tmp_path: Any) -> None:
    # Two classes' __contains__ raise messages that one text fits; the frame sits on the
    # second one's raise line, in a function of the same name as the first's.
    records = _mined(
        tmp_path,
        "flags.py",
        "class Meta:\n"
        "    def __contains__(self, value):\n"
        "        raise TypeError(\n"
        "            f'unsupported operand type(s) for in: {type(value).__name__!r} and {self!r}'\n"
        "        )\n" + "\n" * 40 + "class Flag:\n"
        "    def __contains__(self, other):\n"
        "        raise TypeError(f'unsupported operand type(s) for in: {other!r} and {self!r}')\n",
    )
    second = max(e.record.line_number for e in records)
    text = (
        "Traceback (most recent call last):\n"
        f'  File "/venv/lib/python3.12/site-packages/pkg/flags.py", line {second}, '
        "in __contains__\n    raise TypeError(\n"
        "TypeError: unsupported operand type(s) for in: 'str' and 'Flag.Perm'\n"
    )
    found = match_all(text, Catalog(records))
    assert found[0].summary.line_number == second
    assert not any("is in __contains__()" in r for m in found for r in m.reasons)


def test_matching_reads_only_the_index_when_the_source_is_gone(tmp_path: Any) -> None:
    # A stored index shipped without its source (as to Spark executors) still answers
    # a traceback from another version; the evidence that needs the source is skipped.
    from errcat.loaders import write_jsonl

    records = _mined(
        tmp_path,
        "runner.py",
        "def capture(n):\n"
        "    raise ValueError(f'capture size {n} is larger than the graph limit')\n"
        "\ndef replay(n):\n"
        "    raise ValueError(f'replay size {n} is larger than the graph limit')\n",
    )
    source = tmp_path / "cat.jsonl"
    write_jsonl(source, records)
    catalog = Catalog.from_path(source, lazy=True)
    catalog.index  # noqa: B018 - built and stored before the source goes
    source.unlink()
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/pkg/runner.py", line 40, in replay\n'
        "    raise ValueError(f'replay size {n} is larger than the graph limit')\n"
        "ValueError: capture size 9 is larger than the graph limit\n"
    )
    found = match_all(text, catalog)
    assert found and found[0].summary.line_number == 2


def test_a_message_c_code_also_raises_says_so() -> None:
    # `_pydecimal` raises the words of the C argument parser; a bare line cannot tell them apart.
    wording = catalog_of(
        "'{key}' is an invalid keyword argument for this function", cls="TypeError"
    )
    found = match_all(
        "TypeError: 'precision' is an invalid keyword argument for this function", wording
    )
    assert any("raises the same words" in r for r in found[0].reasons)
    own = catalog_of("'{key}' is not a field of the speculative draft config", cls="TypeError")
    mine = match_all("TypeError: 'precision' is not a field of the speculative draft config", own)
    assert not any("raises the same words" in r for r in mine[0].reasons)


@pytest.mark.parametrize(
    ("template", "cls", "line", "c_s"),
    [
        ("list index out of range", "IndexError", "IndexError: list index out of range", True),
        # C's words raised as a pure-Python class: C did not raise that.
        (
            "list index out of range",
            "tarfile.ReadError",
            "tarfile.ReadError: list index out of range",
            False,
        ),
        ("No module named {name!r}", "ModuleNotFoundError", "No module named 'x.y'", True),
        # C prints `No module named`: a record that prints `no module` is not C's copy.
        ("no module named {name!r}", "ModuleNotFoundError", "no module named 'x.y'", False),
        (
            "unsupported operand type(s) for {op}: {a!r} and {b!r}",
            "TypeError",
            "unsupported operand type(s) for +: 'int' and 'Flag'",
            True,
        ),
        # C never quotes the operator: this record never prints C's message.
        (
            "unsupported operand type(s) for 'in': {a!r} and {b!r}",
            "TypeError",
            "unsupported operand type(s) for 'in': 'int' and 'Flag'",
            False,
        ),
    ],
)
def test_a_record_copies_c_only_with_c_s_class_and_as_c_prints_it(
    template: str, cls: str, line: str, c_s: bool
) -> None:
    catalog = catalog_of(template, cls=cls)
    text = line if line.startswith(cls) else f"{cls}: {line}"
    (found,) = match_all(text, catalog)
    assert found.mode == "full"
    assert any("raises the same words" in r for r in found.reasons) is c_s


message_texts = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N"), whitelist_characters=" .:'-_"),
    min_size=1,
    max_size=60,
).filter(lambda t: t.strip() == t and t)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    message=message_texts,
    cls=st.sampled_from(["ValueError", "RuntimeError", "KeyError"]),
    site=st.sampled_from([3, 6]),
)
def test_a_message_of_values_only_is_found_through_its_raise_frame(
    tmp_path: Any, message: str, cls: str, site: int
) -> None:
    # `raise ValueError(msg)` with `msg` built elsewhere: no text can say which record raised
    # it; a traceback's frame at the raise line can, when the class agrees.
    records = _mined(
        tmp_path,
        "loader.py",
        "def load(path, describe):\n"
        "    msg = describe(path)\n"
        "    raise ValueError(msg)\n"
        "\n"
        "def save(path, describe):\n"
        "    raise RuntimeError(f'{path}: {describe(path)}')\n",
    )
    catalog = Catalog(records)
    assert {r.record.line_number for r in records} == {3, 6}
    function, code, raised = {
        3: ("load", "raise ValueError(msg)", "ValueError"),
        6: ("save", "raise RuntimeError(f'{path}: {describe(path)}')", "RuntimeError"),
    }[site]
    line = f"{cls}: {message}"
    traceback_text = (
        "Traceback (most recent call last):\n"
        '  File "/app/main.py", line 9, in <module>\n    run()\n'
        f'  File "/venv/lib/python3.12/site-packages/pkg/loader.py", line {site}, in {function}\n'
        f"    {code}\n"
        f"{line}\n"
    )
    found = match_error(traceback_text, catalog)
    fits = site == 3 or ": " in message
    if cls == raised and fits:
        assert found is not None and found.summary.line_number == site
        assert found.mode == "full"
    else:
        # Another class raised on that line (a lookup inside the raise), or a message
        # the record's template cannot print: the frame alone is no answer.
        assert found is None
    # Without a frame in the file, the text alone proposes neither record.
    assert match_all(line, catalog) == []
    elsewhere = traceback_text.replace("pkg/loader.py", "other/reader.py")
    assert match_all(elsewhere, catalog) == []


# -- a large catalog reads word counts as shares ---------------------------------------


def _catalog_with_share(patterns: int, holding: int) -> Catalog:
    """``patterns`` templates: one to find, ``holding - 1`` each sharing one of its two words."""
    others = [f"zorpish alpha{n} thing {{x}}" for n in range(holding - 1)]
    others += [f"bliblet beta{n} item {{x}}" for n in range(holding - 1)]
    others += [f"gamma{n} delta{n} epsilon {{x}}" for n in range(patterns - 1 - len(others))]
    return catalog_of("zorpish bliblet {x}", *others)


@pytest.mark.parametrize("scale", [40, 100])
def test_a_word_is_as_common_in_a_large_catalog_as_its_share_says(
    monkeypatch: pytest.MonkeyPatch, scale: int
) -> None:
    from errcat import confidence
    from errcat.matcher import candidates

    line = "ValueError: zorpish bliblet 7"
    small, large = _catalog_with_share(100, 10), _catalog_with_share(400, 40)

    def feature_and_confidence(catalog: Catalog) -> tuple[float, float]:
        top = candidates(line, catalog)[0]
        assert top.summary.id == f"{0:016x}"
        assert top.features is not None
        return top.features["bare_catalog_common"], top.confidence

    monkeypatch.setattr(confidence, "RARITY_SCALE", scale)
    small_common, _ = feature_and_confidence(small)
    large_common, large_confidence = feature_and_confidence(large)
    # 10 of 100 patterns and 40 of 400 hold the word: the same share, the same evidence
    # once a catalog is above the size word counts are taken at (a catalog at or below
    # it counts as it is).
    assert large_common == pytest.approx(small_common)
    assert small_common == pytest.approx(math.log(min(10, 10 * scale / 100)))
    assert large_common == pytest.approx(math.log(40 * scale / 400))
    # Counted raw, the larger catalog would make the same words look four times as common.
    monkeypatch.setattr(confidence, "RARITY_SCALE", 10**9)
    raw_common, raw_confidence = feature_and_confidence(large)
    assert raw_common == pytest.approx(math.log(40))
    assert raw_confidence <= large_confidence


@settings(max_examples=25, deadline=None)
@given(
    raised=st.sampled_from(["tarfile.ReadError", "ReadError", "pkg.errors.ShortRead", "EOFError"]),
    default=st.sampled_from(["OSError", "exception"]),
)
def test_a_class_the_caller_chooses_never_disagrees(raised: str, default: str) -> None:
    # tarfile's copyfileobj raises `exception(...)`, OSError by default, ReadError from
    # its callers: the frame on the raise line is the answer whatever class it shows.
    def site(tags: list[str]) -> Catalog:
        return Catalog(
            [
                make_envelope(
                    id="0" * 16,
                    slug="short-read",
                    errorMessage="unexpected end of data",
                    messagePattern=template_to_pattern("unexpected end of data"),
                    errorClass=default,
                    filePath="Lib/tarfile.py",
                    lineNumber=254,
                    sourceCodeStart=240,
                    sourceCodeEnd=260,
                    tags=tags,
                )
            ]
        )

    tb = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.12/tarfile.py", line 2463, in makefile\n'
        "    copyfileobj(source, target, tarinfo.size, ReadError, bufsize)\n"
        '  File "/usr/lib/python3.12/tarfile.py", line 254, in copyfileobj\n'
        '    raise exception("unexpected end of data")\n'
        f"{raised}: unexpected end of data\n"
    )
    chosen = match_error(tb, catalog=site(["errcat:class:caller"]))
    assert chosen is not None and chosen.record.id == "0" * 16
    assert not any("differs" in r for r in chosen.reasons)
    fixed = match_all(tb, catalog=site([]))
    # Without the tag, the class shown contradicts the record's.
    assert any("differs" in r for r in fixed[0].reasons)
    assert fixed[0].confidence < chosen.confidence


# -- a wrapper holding another record's message ----------------------------------------

_WRAPPERS = st.sampled_from(
    [
        "{exc} in {where!r}",
        "{e} (while reading {source!r})",
        "cannot load {name!r}: {err}",
        "{err}",
    ]
)


def _wrapper_catalog(
    inner: str, wrapper: str, wrapper_repo: str, wrapper_class: str = "project.core.LoadError"
) -> Catalog:
    def envelope(n: int, template: str, cls: str, repo: str) -> RecordEnvelope:
        url = f"https://github.com/{repo}/blob/{'0' * 40}/src/project/core.py#L1-L30"
        return envelope_of(n, template, errorClass=cls, repo=repo, githubUrl=url)

    return Catalog(
        [
            envelope(0, inner, "ValueError", "example/project"),
            envelope(1, wrapper, wrapper_class, wrapper_repo),
        ]
    )


@settings(max_examples=80, deadline=None)
@given(
    head=st.lists(words, min_size=3, max_size=5, unique=True).map(" ".join),
    wrapper=_WRAPPERS,
    value=words,
    where=words,
)
def test_a_wrapper_holding_its_projects_message_is_the_answer(
    head: str, wrapper: str, value: str, where: str
) -> None:
    # ipaddress re-raises "Only hex digits permitted in 'axy'" as AddressValueError
    # "... in '1234:axy::b'": the wrapper is what raised, and its few literal
    # characters are not all it explains: its placeholder holds the other message whole.
    inner_template = head + " {value!r}"
    inner_message = f"{head} {value!r}"
    assume(" in " not in head and ": " not in head and "(" not in head)
    fields = {"exc": inner_message, "e": inner_message, "err": inner_message}
    message = wrapper.format(**fields, where=where, source=where, name=where)
    catalog = _wrapper_catalog(inner_template, wrapper, "example/project")
    text = f"project.core.LoadError: {message}"
    best = match_error(text, catalog=catalog)
    if wrapper == "{err}":
        # Nothing of the wrapper's own: the class alone cannot make it the answer.
        assert best is None or best.record.id == f"{0:016x}"
        return
    assert best is not None and best.record.id == f"{1:016x}", match_all(text, catalog=catalog)
    held = {"exc", "e", "err"} & set(best.params)
    assert [best.params[k] for k in held] == [inner_message]
    assert any("holds the whole message of another record" in r for r in best.reasons)
    # The inner record, raised on its own, is still the first for its own message (made-up
    # words can be too common to answer on: "non non non").
    alone = match_all(f"ValueError: {inner_message}", catalog=catalog)
    assert alone and alone[0].record.id == f"{0:016x}"


def test_a_wrapper_from_another_project_gets_no_credit_for_the_message_it_holds() -> None:
    inner = "checkpoint shard is missing from the index {value!r}"
    message = "checkpoint shard is missing from the index 'abc' in 'loader'"
    same = _wrapper_catalog(inner, "{exc} in {where!r}", "example/project")
    # The other project's class has the same name, mined without its module (a module
    # the report names would be evidence of its own: see the lone-class tests).
    other = _wrapper_catalog(inner, "{exc} in {where!r}", "someone/else", "LoadError")
    text = f"project.core.LoadError: {message}"
    composed = match_all(text, catalog=same)[0]
    assert composed.record.id == f"{1:016x}" and composed.confident
    # Another project's generic wrapper explains only its own four characters.
    plain = [m for m in match_all(text, catalog=other) if m.record.id == f"{1:016x}"]
    assert all(not m.confident for m in plain)
    assert composed.confidence > max((m.confidence for m in plain), default=0.0)


@settings(max_examples=150, deadline=None)
@given(
    wrapper=st.sampled_from(
        ["{exc} in {where!r}", "cannot load {name!r}: {err}", "{e} (while {what}) in {where}"]
    ),
    inner=st.sampled_from(
        ["{count} shards in {path!r}", "no value for {key}", "bad {x}: got {y} in {z}"]
    ),
    values=st.lists(st.sampled_from(["'a in b'", "3", "x: y", "(1, 2)", "in", "q"]), min_size=6),
)
def test_a_wrapper_is_joined_to_its_message_alike_by_pieces_and_by_regex(
    wrapper: str, inner: str, values: list[str]
) -> None:
    from errcat.index import Entry
    from errcat.matcher.hits import _wrapping
    from errcat.patterns import parse_template

    supply = iter(values)

    def render(template: str, held: str | None = None) -> str:
        literals, fields = parse_template(template)
        out = [literals[0]]
        for f, lit in zip(fields, literals[1:], strict=True):
            out.append(held if held is not None and f.expr in {"exc", "err", "e"} else next(supply))
            out.append(lit)
        return "".join(out)

    text = render(wrapper, render(inner))
    outer = Entry.build(template_to_pattern(wrapper), (0,))
    held = Entry.build(template_to_pattern(inner), (1,))
    assert outer.pieces is not None and held.pieces is not None
    for group in range(outer.groups):
        by_pieces = _wrapping(outer, group, held, text, use_pieces=True)
        by_regex = _wrapping(outer, group, held, text, use_pieces=False)
        assert (by_pieces is None) == (by_regex is None), (text, group)
        if by_pieces is not None and by_regex is not None:
            assert by_pieces[0].groups == by_regex[0].groups and by_pieces[1] == by_regex[1]
    # The group that holds the message finds it (whatever else it finds).
    at = [f.expr for f in parse_template(wrapper)[1]].index(
        next(f.expr for f in parse_template(wrapper)[1] if f.expr in {"exc", "err", "e"})
    )
    assert _wrapping(outer, at, held, text) is not None


def _c_message(kind: int, value: str) -> str:
    """A message CPython's C code raises, for a made-up value."""
    try:
        if kind == 0:
            int(value)
        elif kind == 1:
            len(value.__len__())  # type: ignore[arg-type]
        else:
            getattr(None, value)
    except (ValueError, TypeError, AttributeError) as exc:
        return str(exc)
    raise AssertionError(kind)


@given(kind=st.integers(0, 2), value=words, source=words)
def test_a_placeholder_holding_a_c_message_is_explained_text(
    kind: int, value: str, source: str
) -> None:
    # pip's ``raise DirectUrlValidationError(f"{e} (from {src_name!r})")`` prints C's
    # message whole: that text is the error it caught, explained, not a value; the
    # same length of other text in the placeholder is a value, and explains less.
    cls = "project.direct_url.DirectUrlValidationError"
    catalog = catalog_of("{e} (from {src_name!r})", cls=cls)
    c_message = _c_message(kind, value)
    other = " ".join([value] * (len(c_message) // (len(value) + 1) + 1))[: len(c_message)]
    held = candidates(f"{cls}: {c_message} (from {source!r})", catalog)
    plain = candidates(f"{cls}: {other} (from {source!r})", catalog)
    assert held and plain and held[0].features and plain[0].features
    assert any("a placeholder holds a message CPython raises" in r for r in held[0].reasons)
    assert not any("CPython raises" in r for r in plain[0].reasons)
    assert held[0].features["bare_explained"] > plain[0].features["bare_explained"]
    assert held[0].confidence >= plain[0].confidence
    assert held[0].params["e"] == c_message


def _project_catalog(project: str, *templates: tuple[str, str]) -> Catalog:
    """Records of one project, ``org/<project>``, each a (class, template) pair."""
    url = f"https://github.com/org/{project}/blob/{'0' * 40}/{project}/core.py#L1-L30"
    return Catalog(
        [
            envelope_of(n, template, errorClass=cls, repo=f"org/{project}", githubUrl=url)
            for n, (cls, template) in enumerate(templates)
        ]
    )


@given(project=words, value=words)
def test_a_project_named_only_in_the_values_of_a_message_c_prints_is_not_named(
    project: str, value: str
) -> None:
    # ``No module named 'vllm._C'`` is the import system's message about vllm's module;
    # it does not say vllm raised it. A message in the project's own wording whose value
    # is the project's name (``module attrs has no attribute x``) does, and so does the
    # project's name outside the values (a log prefix).
    assume(project not in {"module", "named", "has", "attribute"})
    catalog = _project_catalog(
        project,
        ("ModuleNotFoundError", "No module named {name!r}"),
        ("AttributeError", "module {mod} has no attribute {name}"),
    )
    names = f"the text names {project}"
    c_message = match_all(
        f"ModuleNotFoundError: No module named '{project}.{value}'", catalog=catalog
    )
    assert c_message and c_message[0].record.id == f"{0:016x}"
    assert not any(names in r for r in c_message[0].reasons)
    prefixed = match_all(
        f"[{project}] ModuleNotFoundError: No module named '{project}.{value}'", catalog=catalog
    )
    assert prefixed and any(names in r for r in prefixed[0].reasons)
    own = match_all(f"AttributeError: module {project} has no attribute {value}", catalog=catalog)
    assert own and own[0].record.id == f"{1:016x}"
    assert any(names in r for r in own[0].reasons)
    # Named or not, a project's own copy of C's message needs a frame to be the answer.
    assert prefixed[0].confidence >= c_message[0].confidence
    assert max(prefixed[0].confidence, c_message[0].confidence) < CONFIDENCE_THRESHOLD


@pytest.mark.parametrize(
    "lead", ["deepseek-v4-flash-0731", "Qwen/Qwen3-8B with TP=2", "gemma-3 on v0.9.1", "Llama"]
)
def test_a_title_s_model_name_before_the_message_is_read_past(lead: str) -> None:
    # "[Bug]: deepseek-v4-flash-0731: Pipeline parallelism is not supported for this model."
    # names the model, then quotes the message (here cut after its first sentence).
    catalog = catalog_of(
        "Pipeline parallelism is not supported for this model. Supported models implement "
        "the `SupportsPP` interface.",
        cls="NotImplementedError",
    )
    m = match_error(
        f"[Bug]: {lead}: Pipeline parallelism is not supported for this model.", catalog=catalog
    )
    assert m is not None and m.record.id == f"{0:016x}"


@given(name=words, value=words, extra=st.lists(words, min_size=1, max_size=30).map(", ".join))
def test_an_exception_raised_with_several_arguments_is_judged_by_its_message(
    name: str, value: str, extra: str
) -> None:
    # attrs raises ValueError(msg, attribute, options, value): str() prints the tuple, and
    # the attribute's repr runs to hundreds of characters. The message is the first
    # argument; however long the values passed along, they do not dilute it.
    template = (
        "(\"'{attr.name}' must be in {options!r} (got {value!r})\", "
        "{attr!r}, {options!r}, {value!r})"
    )
    catalog = catalog_of(template)
    options = ["r", "w"]

    def line(attribute: str) -> str:
        message = f"'{name}' must be in {options!r} (got {value!r})"
        return f"ValueError: ({message!r}, {attribute}, {options!r}, {value!r})"

    short = candidates(line(f"Attribute(name={name!r})"), catalog)
    long = candidates(line(f"Attribute(name={name!r}, {extra})"), catalog)
    assert short and long and short[0].features and long[0].features
    assert long[0].features["bare_explained"] == short[0].features["bare_explained"]
    assert any("first of the arguments" in r for r in long[0].reasons)
    real = (
        "ValueError: (\"'mode' must be in ['r', 'w'] (got 'x')\", Attribute(name='mode', "
        "default=NOTHING, validator=<in_ validator with options ['r', 'w']>, repr=True, "
        "eq=True, eq_key=None, order=True, order_key=None, hash=None, init=True, "
        "metadata=mappingproxy({}), type=None, converter=None, kw_only=False, "
        "inherited=False, on_setattr=None, alias='mode'), ['r', 'w'], 'x')"
    )
    assert match_error(real, catalog=catalog) is not None


@given(n=st.integers(2, 512), prose=st.lists(words, min_size=5, max_size=9).map(" ".join))
def test_a_short_head_cut_off_in_a_capture_of_prose_is_no_cut_off_paste(n: int, prose: str) -> None:
    # "Tensor parallel size (16) cannot be larger than the number of available GPUs (8)"
    # is not "Tensor parallel size {n} > num_experts {m}." cut off after its first value:
    # a value does not run on as prose. Another error's text in the capture does
    # (a wrapper's "{e}"), and so does the value alone, cut where a title ends.
    assume(not {"error", "failed", "failure", "exception"} & set(prose.split()))
    catalog = catalog_of("Tensor parallel size {tp_size} > num_experts {num_experts}.")
    head = f"ValueError: Tensor parallel size ({n}) "
    assert all(m.mode != "truncated" for m in match_all(head + prose, catalog=catalog))
    assert [m.mode for m in match_all(f"{head}RuntimeError: {prose}", catalog=catalog)][:1] == [
        "truncated"
    ]
    assert [m.mode for m in match_all(f"ValueError: Tensor parallel size {n}", catalog=catalog)][
        :1
    ] == ["truncated"]
    # A quoted value is a string, and a string may be prose ("when parsing 'This date
    # has too many punctuation marks", cut where a title ends).
    quoted = match_all(f"ValueError: Tensor parallel size '{prose}", catalog=catalog)
    assert [m.mode for m in quoted][:1] == ["truncated"]


def test_a_script_s_name_before_the_message_is_argparse_not_a_title_s_words() -> None:
    # "launch_server.py: error: unrecognized arguments: --x" (or "vllm: error: ...") is
    # argparse stopping the program it names; a project's copy of argparse's words is no
    # answer for it, whatever the name before "error:" looks like.
    catalog = catalog_of("error: unrecognized arguments: {args}", cls="SystemExit")
    for prog in ("launch_server.py", "vllm", "gemma-3"):
        title = f"[Bug] {prog}: error: unrecognized arguments: --enable-reasoning"
        assert match_error(title, catalog=catalog) is None
    # argparse's own record answers it, the program's name captured.
    argparse = catalog_of("{prog}: error: unrecognized arguments: {args}", cls="SystemExit")
    found = match_error("vllm: error: unrecognized arguments: --x", catalog=argparse)
    assert found is not None and found.params["prog"] == "vllm"


@given(value=words, tail=st.sampled_from(["", " error", " when serving"]))
def test_a_title_cut_before_the_patterns_rarest_words_still_finds_it(value: str, tail: str) -> None:
    # "[Bug] No processor registered for architecture: ['Qwen3VL...'] error": the
    # template's rarest words ("Registered architectures") come after the cut, and its
    # first word opens too many templates to look it up by; the first fragment's own
    # rarest word files it as well.
    fillers = [f"No processor registered for thing {n}: {{x}}" for n in range(80)]
    template = "No processor registered for arch: {arch}.\nRegistered architectures: {known}"
    catalog = catalog_of(*fillers, template)
    text = f"[Bug] ValueError: No processor registered for arch: ['{value}']{tail}"
    m = match_error(text, catalog=catalog)
    assert m is not None and m.record.id == f"{80:016x}" and m.mode == "truncated"


# -- generic shapes need evidence that the catalog holds the error ---------------------


def _generic_catalog(cls: str = "ValueError") -> Catalog:
    # The shape is common in the catalog too (as "must be non-negative" is in sglang's
    # and vllm's), so the words alone leave the model unsure.
    fillers = [
        envelope_of(
            10 + n, f"{{x}} must be non-negative in stage {n}", filePath=f"src/project/s{n}.py"
        )
        for n in range(50)
    ]
    record = envelope_of(
        1,
        "{name} must be non-negative",
        errorClass=cls,
        filePath="src/project/sampling.py",
        lineNumber=40,
        sourceCodeStart=22,
        sourceCodeEnd=58,
    )
    return Catalog([record, *fillers])


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: The order of integration must be non-negative",
        "ValueError: number of bits must be non-negative",
        "[Bug]: ValueError: lo must be non-negative",
    ],
)
def test_a_generic_shape_alone_is_no_confident_answer(text: str) -> None:
    # Any subject completes "{name} must be non-negative": another project's error of
    # that shape is not this record's (it stays a hint, below the threshold).
    catalog = _generic_catalog()
    assert match_error(text, catalog=catalog) is None
    top = match_all(text, catalog=catalog)
    assert top and top[0].summary.id == f"{1:016x}" and not top[0].confident
    assert any("shape many projects raise" in r for r in top[0].reasons)


def test_a_generic_shape_answers_with_a_frame_or_its_class_named_with_its_module() -> None:
    catalog = _generic_catalog()
    message = "ValueError: top_k must be non-negative"
    frame = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/project/sampling.py", line 40, in check\n'
        "    raise ValueError(f'{name} must be non-negative')\n"
    )
    m = match_error(frame + message, catalog=catalog)
    assert m is not None and m.summary.id == f"{1:016x}"
    qualified = _generic_catalog("project.errors.ConfigError")
    for cls in ("project.errors.ConfigError", "project._native.ConfigError"):
        # Its own module, or another of its package (a re-export, as pydantic_core's).
        m = match_error(f"{cls}: top_k must be non-negative", catalog=qualified)
        assert m is not None and m.summary.id == f"{1:016x}", cls


def test_the_project_named_is_no_evidence_for_a_generic_shape() -> None:
    # A project built on this one (a trainer on an engine) names it in every report
    # of its own errors: "project serve failed" does not say who raised the shape.
    catalog = _generic_catalog()
    text = "project serve failed: ValueError: top_k must be non-negative"
    assert match_error(text, catalog=catalog) is None
    top = match_all(text, catalog=catalog)
    assert top and top[0].summary.id == f"{1:016x}" and not top[0].confident


@given(project=words, cls_name=st.from_regex(r"[A-Z][a-z]{2,8}ForCausalLM", fullmatch=True))
def test_a_project_s_copy_of_the_interpreter_s_wording_needs_a_frame(
    project: str, cls_name: str
) -> None:
    # A model class's "'X' object has no attribute 'y'" is the interpreter's, whoever's
    # __getattr__ copied its words: the project named in the text is not evidence enough.
    assume(project not in {"object", "has", "attribute", "tp_size"})
    template = "'{self.__class__.__name__}' object has no attribute '{name}'"
    url = f"https://github.com/org/{project}/blob/{'0' * 40}/{project}/core.py#L1-L30"
    catalog = Catalog(
        [
            envelope_of(
                0,
                template,
                errorClass="AttributeError",
                repo=f"org/{project}",
                githubUrl=url,
                filePath=f"{project}/core.py",
                lineNumber=12,
                sourceCodeStart=1,
                sourceCodeEnd=30,
            )
        ]
    )
    named = (
        f"python -m {project}.launch_server\n"
        f"AttributeError: '{cls_name}' object has no attribute 'tp_size'"
    )
    assert match_error(named, catalog=catalog) is None
    reasons = match_all(named, catalog=catalog)[0].reasons
    assert any("the interpreter prints this message for any object" in r for r in reasons)
    framed = (
        "Traceback (most recent call last):\n"
        f'  File "/venv/lib/python3.12/site-packages/{project}/core.py", line 12, in __getattr__\n'
        "    raise AttributeError(name)\n"
        f"AttributeError: '{cls_name}' object has no attribute 'tp_size'"
    )
    assert match_error(framed, catalog=catalog) is not None


@given(
    name=st.from_regex(r"[a-z_]{3,12}", fullmatch=True),
    cut=st.integers(min_value=0, max_value=2),
)
def test_a_raise_line_cut_before_its_closing_marks_is_still_the_record_s(
    name: str, cut: int
) -> None:
    # A traceback pasted up to its raise line, with no exception line, often loses the
    # line's closing ")" too: the frame, at another line, still shows the record's code.
    template = "{', '.join(" + name + ")}"
    code = f'raise ValueError(f"{template}")'
    catalog = catalog_of(
        template,
        filePath="vllm/lora/peft_helper.py",
        lineNumber=37,
        sourceCode=f"def _validate_features(self):\n    {code}\n",
        sourceCodeStart=36,
        sourceCodeEnd=37,
    )
    shown = code[: len(code) - cut] if cut else code
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.10/site-packages/vllm/lora/peft_helper.py", line 42,'
        " in _validate_features\n"
        f"    {shown}\n"
    )
    found = match_all(text, catalog=catalog)
    assert found and any("shows the record's raising code" in r for r in found[0].reasons)
    other = f'raise ValueError(f"{template}" + extra)'
    text_other = text.replace(shown, other)
    found = match_all(text_other, catalog=catalog)
    assert not found or not any("shows the record's raising code" in r for r in found[0].reasons)


@given(quote=st.sampled_from(['"', "'"]))
def test_a_quoted_message_cut_before_the_patterns_rarest_words_still_finds_it(quote: str) -> None:
    # 'Error: "Cannot use chat template functions because tokenizer.chat_template is not
    # set"': the writer quoted a message cut early; its first words open many templates.
    fillers = [f"Cannot use thing {n} because of {{x}}" for n in range(100)] + [
        f"The chat template functions of tokenizer.chat_template {n} is not set: {{x}}"
        for n in range(20)
    ]
    template = (
        "Cannot use chat template functions because tokenizer.chat_template is not set and "
        "no template argument was passed! See the documentation at {url}"
    )
    catalog = catalog_of(*fillers, template)
    cut = "Cannot use chat template functions because tokenizer.chat_template is not set"
    found = match_error(f"ValueError: {quote}{cut}{quote}", catalog=catalog)
    assert found is not None and found.record.id == f"{120:016x}" and found.mode == "truncated"
