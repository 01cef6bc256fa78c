"""Message forms for writers' additions: a sentence glued to the message, a line under it."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

import errcat
from conftest import make_envelope, templates_catalog
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.extract.forms import _GLUED_SENTENCE, message_forms
from errcat.patterns import template_to_pattern

_catalog = templates_catalog


def _forms(text: str) -> list[str]:
    return message_forms(extract_reports(text)[0])


def test_a_sentence_glued_to_the_message_is_cut_off() -> None:
    text = (
        "[Bug]: ValueError: There is no module or parameter named 'lm_head.qweight_type' "
        "in Qwen2ForCausalLM.When use GGUF and draft model"
    )
    assert _forms(text)[-1].endswith("in Qwen2ForCausalLM")
    catalog = _catalog("There is no module or parameter named {prefix!r} in {model}")
    match = errcat.match_error(text, catalog)
    assert match is not None and match.params == {
        "prefix": "'lm_head.qweight_type'",
        "model": "Qwen2ForCausalLM",
    }


_MODULE = st.from_regex(r"[a-z][a-z0-9_]{1,10}", fullmatch=True)
# A class name, not a word that opens a writer's sentence ("a0.Is aa" reads as a message
# ending at "a0" and a title's "Is aa ...": the glued-sentence form, by design).
_CLASS = st.from_regex(r"[A-Z][a-z]{1,8}[A-Z]?[a-z]{0,6}", fullmatch=True).filter(
    lambda name: not _GLUED_SENTENCE.search(f"a.{name} x")
)
_PROSE = st.from_regex(r"[a-z]{2,8}( [a-z]{1,8}){0,3}", fullmatch=True)


@given(_MODULE, _CLASS, _PROSE)
def test_a_dotted_name_before_lowercase_words_is_never_cut(
    module: str, cls: str, rest: str
) -> None:
    message = f"expected {module}.{cls} {rest}"
    forms = _forms(f"TypeError: {message}")
    assert forms[0] == message
    # (A form may read the period as a lost line break between sentences; none cuts.)
    assert all(f"{module}.{cls}" in form or f"{module}. {cls}" in form for form in forms)


def test_a_line_under_the_message_is_tried_without_it() -> None:
    text = (
        "ValueError: Attempted to assign 6 x 256 = 1536 image tokens to 466 placeholders\n"
        "Command is shown as follows: swift infer --infer_backend vllm"
    )
    assert "Attempted to assign 6 x 256 = 1536 image tokens to 466 placeholders" in _forms(text)
    catalog = _catalog("Attempted to assign {expr} = {total} image tokens to {count} placeholders")
    match = errcat.match_error(text, catalog)
    assert match is not None and match.params["count"] == "466"


def test_a_template_that_spans_lines_still_explains_both() -> None:
    catalog = _catalog("Model failed to load.\nCheck the path {path}", "Model failed to load.")
    match = errcat.match_error("ValueError: Model failed to load.\nCheck the path /m/x", catalog)
    assert match is not None and match.record.error_message.startswith("Model failed to load.\n")


_PROJECT = st.from_regex(r"[A-Za-z][a-z]{2,8}", fullmatch=True)
_RELEASE = st.from_regex(r"v?[0-9]{1,2}(\.[0-9]{1,2}){1,3}(\.post[0-9])?", fullmatch=True)
_MESSAGE = st.from_regex(r"[A-Z][a-z]{3,8}( [a-z0-9-]{2,9}){3,6}", fullmatch=True).filter(
    lambda m: (
        len(m) >= 20 and m.split()[0].lower() not in {"have", "must", "were", "requires", "should"}
    )
)


@given(_PROJECT, _RELEASE, _MESSAGE)
def test_a_title_s_project_and_release_before_the_message_are_read_past(
    project: str, release: str, message: str
) -> None:
    # "[Bug]: vllm v0.14.0 GGUF model with architecture x is not supported yet"
    forms = _forms(f"[Bug]: {project} {release} {message}")
    assert message in forms
    assert forms[0] == f"{project} {release} {message}"  # the title as written stays first


def test_a_release_before_a_predicate_is_not_a_lead() -> None:
    # "Python 3.10 is required ...": the version is the message's subject.
    assert not any(f.startswith("is required") for f in _forms("Python 3.10 is required for it"))


def test_a_placeholder_led_shape_is_not_lent_a_title_s_project_name() -> None:
    # The placeholder swallowed "vllm v0.14.0 GGUF model ...": vllm named inside its value
    # is no sign that vllm raised it, and the message of another record wins.
    catalog = Catalog(
        [
            make_envelope(
                id="0000000000000001",
                slug="generic",
                errorClass="NotImplementedError",
                errorMessage="{speculative_config.method} is not supported yet.",
                messagePattern=template_to_pattern(
                    "{speculative_config.method} is not supported yet."
                ),
                repo="vllm-project/vllm",
                filePath="vllm/spec_decode.py",
            ),
            make_envelope(
                id="0000000000000002",
                slug="gguf",
                errorClass="ValueError",
                errorMessage="GGUF model with architecture {architecture} is not supported yet.",
                messagePattern=template_to_pattern(
                    "GGUF model with architecture {architecture} is not supported yet."
                ),
                repo="huggingface/transformers",
                filePath="src/transformers/gguf.py",
            ),
        ]
    )
    title = "[Bug]: vllm v0.14.0 GGUF model with architecture minimax-m2 is not supported yet"
    assert errcat.match_all(title, catalog)[0].record.id == "0000000000000002"
    # Without the release, "vllm" stays inside the placeholder's value: not named.
    bare = "vllm GGUF model with architecture minimax-m2 is not supported yet"
    generic = next(m for m in errcat.match_all(bare, catalog) if m.record.id.endswith("1"))
    assert not any("the text names vllm" in r for r in generic.reasons)
    named = "vllm: GGUF model with architecture minimax-m2 is not supported yet"
    generic = next(m for m in errcat.match_all(named, catalog) if m.record.id.endswith("1"))
    assert any("the text names vllm" in r for r in generic.reasons)


@given(st.sampled_from(["vllm", "sglang", "launch_server.py", "my-tool"]), _PROSE)
def test_a_program_s_name_before_error_is_kept_as_argparse_prints_it(prog: str, rest: str) -> None:
    # ``vllm: error: unrecognized arguments: --lora-path`` is argparse's ``{prog}: error: ...``:
    # the program's name is part of the message, never a title's words to read past.
    forms = _forms(f"{prog}: error: unrecognized arguments: --{rest.replace(' ', '-')}")
    # (A title's form may recase the name's first letter; it still opens the message.)
    assert all((form[:1].lower() + form[1:]).startswith(f"{prog}: error: ") for form in forms)


_WORD = st.from_regex(r"[a-z]{3,9}", fullmatch=True)


@given(_WORD, st.lists(_WORD, min_size=3, max_size=6), st.booleans())
def test_a_title_that_recases_the_message_s_first_letter_finds_its_record(
    head: str, words: list[str], upper_in_record: bool
) -> None:
    # A writer quoting "cannot load ..." in a title writes "Cannot load ...", and the other
    # way round; the message is the record's all the same.
    recorded = (head.capitalize() if upper_in_record else head) + " " + " ".join(words)
    written = (head if upper_in_record else head.capitalize()) + " " + " ".join(words)
    catalog = _catalog(recorded + " for {name}")
    match = errcat.match_error(f"[Bug]: {written} for qwen3", catalog)
    assert match is not None and match.record.error_message == recorded + " for {name}"


@given(_WORD, st.lists(_WORD, min_size=3, max_size=6))
def test_only_prose_is_recased_and_after_every_form_as_written(head: str, words: list[str]) -> None:
    message = head + " " + " ".join(words)
    title = _forms(f"[Bug]: {message}")
    assert title.index(message.capitalize()) > title.index(message)
    # A program prints its own case: a log line's message is read as printed.
    assert message.capitalize() not in _forms(f"ValueError: {message}")
    # A first word with capitals inside is a name (``iPhone``, ``vLLM``), not sentence case.
    assert not any(f.startswith("VLLM ") for f in _forms(f"[Bug]: vLLM {message}"))


_LOG_LINE = st.from_regex(r'[a-z0-9]{1,6}(?:[ .:/"-][a-z0-9]{1,9}){2,12}', fullmatch=True)


@given(st.lists(_LOG_LINE, min_size=2, max_size=6))
def test_every_line_of_a_text_is_a_form_even_when_it_looks_wrapped(lines: list[str]) -> None:
    # Three log lines whose middle one is the longest look like a terminal's wrap (and are
    # read joined); each line as pasted stays a form of its own all the same.
    text = "\n".join(lines)
    reports = extract_reports(text)
    assume(len(reports) == 1 and reports[0].kind == "text" and "\n" in reports[0].message)
    forms = message_forms(reports[0])
    for line in reports[0].message.splitlines():
        if line.strip():
            assert " ".join(line.split()) in forms


def test_a_log_line_under_one_read_as_a_wrap_still_finds_its_record() -> None:
    text = (
        'INFO:     127.0.0.1:5001 - "GET /v1/models HTTP/1.1" 200 OK\n'
        'INFO:     127.0.0.1:5002 - "POST /v1/embeddings HTTP/1.1" 404 Not Found\n'
        "INFO 07-07 20:12:44 metrics.py:295] Avg prompt throughput: 0.0 tokens/s"
    )
    catalog = _catalog('{client} - "{method} {path} HTTP/{http_version}" 404 Not Found')
    match = errcat.match_error(text, catalog)
    assert match is not None and match.params["path"] == "/v1/embeddings"


@given(
    st.lists(_WORD, min_size=1, max_size=4),
    st.lists(_WORD, min_size=4, max_size=7),
    st.sampled_from(["({m})", "- {m}", "\u2014 {m}", "| {m}"]),
)
def test_a_title_s_message_in_parentheses_or_after_a_dash_finds_its_record(
    lead: list[str], words: list[str], shape: str
) -> None:
    # "Server hangs at start (no available shared memory ...)", "Loading fails - cannot ...".
    message = " ".join(words)
    catalog = _catalog(message + " for {name}")
    title = "[Bug]: " + " ".join(lead) + " " + shape.format(m=message + " for qwen3")
    match = errcat.match_error(title, catalog)
    assert match is not None and match.record.error_message == message + " for {name}"


def test_a_hyphen_inside_a_word_or_a_short_rest_is_no_title_dash() -> None:
    forms = _forms("[Bug]: multi-node TP - slow")
    assert "slow" not in forms and "node TP - slow" not in forms


@given(st.lists(_WORD, min_size=2, max_size=4), st.lists(_WORD, min_size=2, max_size=4))
def test_a_line_break_lost_between_two_sentences_is_put_back(
    first: list[str], second: list[str]
) -> None:
    # sglang printed "Prefill out of memory. Try to lower your batch size.\nTry to allocate
    # 1444 tokens."; a title or a Markdown paragraph joins it to "size.Try to allocate".
    one, two = " ".join(first).capitalize(), " ".join(second).capitalize()
    catalog = _catalog(f"{one}.\nTry {two} {{n}} tokens.")
    match = errcat.match_error(f"RuntimeError: {one}.Try {two} 1444 tokens.", catalog)
    assert match is not None and match.mode == "full"


def test_a_lost_line_break_is_a_form_after_the_message_as_printed() -> None:
    forms = _forms("TypeError: expected torch.Tensor, got numpy.ndarray.Fix the input")
    assert forms[0] == "expected torch.Tensor, got numpy.ndarray.Fix the input"
    assert "expected torch. Tensor, got numpy.ndarray. Fix the input" in forms


@given(st.lists(_WORD, min_size=3, max_size=6), st.sampled_from(["?", "!", " ?", "? "]))
def test_a_writer_s_question_mark_after_the_message_is_a_form_without_it(
    words: list[str], mark: str
) -> None:
    # A title asks: "... are not supported for now?". The form as written comes first,
    # the message without the writer's mark right after it.
    message = " ".join(words)
    forms = _forms(f"ValueError: {message}{mark}")
    assert forms.index(message) == forms.index(f"{message}{mark}".strip()) + 1


def test_a_mark_the_message_itself_ends_with_still_explains_it() -> None:
    catalog = _catalog("Unknown option {name}. Did you mean {other}?")
    match = errcat.match_error("ValueError: Unknown option x. Did you mean y?", catalog)
    assert match is not None and match.mode == "full"
    assert _forms("ValueError: what?!")[:1] == ["what?!"] and "what?" not in _forms("x: what?!")


@given(st.lists(_WORD, min_size=4, max_size=6), st.lists(_WORD, min_size=3, max_size=5))
def test_a_message_cut_off_at_a_sentence_a_writer_ended_with_a_question_finds_its_record(
    first: list[str], second: list[str]
) -> None:
    # "`Model architectures ['X'] are not supported for now? `": the first sentence of
    # a template that goes on, quoted in prose with the writer's "?" for its period.
    one, two = " ".join(first), " ".join(second)
    catalog = _catalog(f"Model architectures {{a}} {one} for now. {two}: {{b}}")
    text = f"in particular `Model architectures ['LlavaNext'] {one} for now? `"
    match = errcat.match_error(text, catalog)
    assert match is not None and match.mode == "truncated"


_DOTTED = st.from_regex(r"[a-z][a-z0-9_]{1,8}(\.[a-z_][a-z0-9_]{0,8}){0,2}", fullmatch=True)


@given(_DOTTED, _PROSE, st.sampled_from(["'", '"']))
def test_a_title_s_words_after_the_quoted_name_the_message_ends_with_are_cut(
    name: str, rest: str, quote: str
) -> None:
    """``No module named 'vllm._C' at first start``: the message ends at the quote."""
    message = f"No module named {quote}{name}{quote}"
    forms = _forms(f"[Bug]: ModuleNotFoundError: {message} {rest}")
    assert forms[0] == f"{message} {rest}"  # as written first
    assert message in forms


def test_a_title_with_words_after_the_module_s_name_gets_the_import_system_s_record() -> None:
    """Study line vllm-14714-title: without the cut, no record explained the whole line."""
    title = "[Bug]: ModuleNotFoundError: No module named 'vllm._C' at first start"
    match = errcat.match_error(title, Catalog.bundled())
    assert match is not None
    assert "errcat:native:import-missing-module" in match.record.tags
    assert "'vllm._C'" in match.params.values()


def test_words_after_a_quoted_name_are_kept_inside_a_traceback_or_before_a_colon() -> None:
    """A program's message goes on after the name: under frames, or with more structure."""
    traceback = (
        'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n'
        "ValueError: Model 'foo' is not supported here"
    )
    assert "Model 'foo'" not in _forms(traceback)
    assert "Model 'foo'" not in _forms("ValueError: Model 'foo' is not supported: see docs")
