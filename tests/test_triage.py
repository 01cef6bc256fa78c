"""``errcat triage``: every error of an issue found and answered in one reply, on real issues.

``tests/data/real_issues.jsonl`` holds the title and description of public sglang
and vllm issues (as the API returns them; some descriptions are cut where the
copy we could read ends), each the source of a paste in
``benchmarks/data/real_pastes.jsonl`` or of the same error. Their expected answers
are the records the paste labels name (checked against the sglang 0.5.23 / vllm
0.33.0 sources there), and they are matched against the bundled catalog.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.cli import main
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
from errcat.triage import MARKER, IssueFormatError, blocks, read_issue, triage
from errcat.triage.reply import MAX_ERRORS, render_reply

ISSUES = Path(__file__).parent / "data" / "real_issues.jsonl"
CONTEXT_LENGTH = "b8094559b0e76241"  # sglang: The input ({input_token_num} tokens) is longer ...
ARCHITECTURES = "bf0a730a53c858f9"  # vllm: Model architectures {architectures} are not supported
FP8_CAPABILITY = "e673d85562090ff4"  # vllm: The quantization method {...} is not supported ...
INSPECT = "6aedea3d5b618c6e"  # vllm logs: Error in inspecting model architecture {model_arch!r}

#: issue number -> (answered record ids in order, unanswered error classes, cut tracebacks)
EXPECTED: dict[int, tuple[list[str], list[str], int]] = {
    8096: ([CONTEXT_LENGTH], [], 0),  # an inline code span in the description
    1321: ([CONTEXT_LENGTH], [], 0),  # an HTTP error body in a sentence, unfenced
    9515: ([ARCHITECTURES], [], 0),  # title, <details> summary and a code block: one error
    # title; a log in a fence: vllm's logged line above the subprocess's traceback
    9713: ([ARCHITECTURES, INSPECT], ["subprocess.CalledProcessError"], 0),
    4327: ([FP8_CAPABILITY], [], 0),  # title and a vLLM worker log line
    32338: ([ARCHITECTURES], [], 1),  # a pydantic "Value error, ..." in a sentence; a cut traceback
    7515: ([], [], 0),  # a server log with no error in it
}


def _issues() -> list[dict[str, Any]]:
    return [json.loads(line)["issue"] for line in ISSUES.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.bundled()


@pytest.fixture(scope="module")
def small() -> Catalog:
    return Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])


# -- real issues ---------------------------------------------------------------------------


@pytest.mark.parametrize("issue", _issues(), ids=lambda i: str(i["number"]))
def test_real_issue_gets_the_right_answers_in_one_reply(
    issue: dict[str, Any], catalog: Catalog
) -> None:
    answered, unanswered, cut = EXPECTED[issue["number"]]
    result = triage(json.dumps(issue), catalog=catalog)
    errors = result.findings.errors
    assert [e.record_id for e in errors if e.record_id] == answered
    assert [e.error_class for e in errors if not e.record_id] == unanswered
    assert len(result.findings.cut_tracebacks) == cut
    reply = result.reply
    assert reply.startswith(MARKER + "\n") and reply.count(MARKER) == 1
    for record_id in answered:
        record = catalog[record_id]
        assert record.github_url in reply  # the answer links the raising code
    assert reply.count("#### ") == len(errors)
    # Idempotent: the same issue gives the same reply, also as an event payload and when
    # the issue's text carries errcat's own earlier reply.
    event = {"action": "edited", "issue": issue, "repository": {"full_name": "o/r"}}
    assert triage(json.dumps(event), catalog=catalog).reply == reply
    quoted = {**issue, "body": (issue["body"] or "") + "\n\n" + reply}
    assert triage(json.dumps(quoted), catalog=catalog).reply == reply


def test_an_error_in_title_and_body_is_answered_once(catalog: Catalog) -> None:
    issue = next(i for i in _issues() if i["number"] == 9515)
    result = triage(json.dumps(issue), catalog=catalog)
    (error,) = result.findings.errors
    assert [p.describe() for p in error.places] == [
        "the title",
        "a <details> block (line 4)",
        "code block 3 (line 19)",
    ]
    assert "In the title, a <details> block (line 4) and code block 3 (line 19)" in result.reply


def test_no_match_is_said_honestly(catalog: Catalog) -> None:
    issue = next(i for i in _issues() if i["number"] == 9713)
    reply = triage(json.dumps(issue), catalog=catalog).reply
    assert "#### 2. In code block 2 (lines 11-16): no record" in reply
    assert "No record in errcat's catalog answers this error with confidence." in reply


# -- where errors hide in Markdown ---------------------------------------------------------

ERROR = "ValueError: bad value 'x'"
WRAPPINGS = {
    "fenced": f"Here:\n\n```python\n{ERROR}\n```\n",
    "tildes": f"~~~\n{ERROR}\n~~~",
    "unclosed fence": f"log:\n```\n{ERROR}\n",
    "indented fence in a list": f"1. run it\n   ```\n   {ERROR}\n   ```\n",
    "details": f"<details>\n<summary>log</summary>\n\n```\n{ERROR}\n```\n\n</details>",
    "details summary": f"<details><summary>{ERROR}</summary>\n\nmore\n</details>",
    "quote": f"As reported:\n> {ERROR}\n\nthanks",
    "nested quote with fence": f"> > ```\n> > {ERROR}\n> > ```",
    "pre with entities": "<pre>ValueError: bad value &#39;x&#39;</pre>",
    "inline code": f"It fails with `{ERROR}` on start.",
    "plain": f"It fails:\n{ERROR}",
}


@pytest.mark.parametrize("markdown", WRAPPINGS.values(), ids=list(WRAPPINGS))
def test_an_error_is_found_wherever_it_is_pasted(markdown: str, small: Catalog) -> None:
    result = triage(markdown, catalog=small)
    assert [e.record_id for e in result.findings.errors] == ["0123456789abcdef"]


def test_html_comments_of_issue_templates_are_not_read(small: Catalog) -> None:
    markdown = f"<!-- Paste the error, e.g.\n{ERROR}\n-->\nNothing failed."
    assert triage(markdown, catalog=small).findings.errors == []


def test_block_lines_point_into_the_markdown() -> None:
    markdown = "intro\n\n<details>\n<summary>s</summary>\n\n```\na\nb\n```\n</details>\n> q"
    found = [(b.kind, b.line, b.in_details) for b in blocks(markdown)]
    assert found == [
        ("text", 1, False),
        ("details", 4, True),
        ("code", 7, True),
        ("quote", 11, False),
    ]


_LINE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40
).map(lambda s: s.replace("`", "").replace("<", "").replace("~", "").strip() or "x")


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(_LINE, min_size=1, max_size=6),
    how=st.sampled_from(["fence", "quote", "details"]),
)
def test_blocks_keep_the_lines_of_every_container(lines: list[str], how: str) -> None:
    inner = "\n".join(lines)
    if how == "fence":
        markdown = f"before\n```\n{inner}\n```\nafter"
    elif how == "quote":
        markdown = "\n".join(f"> {line}" for line in lines)
    else:
        markdown = f"<details>\n<summary>s</summary>\n\n```\n{inner}\n```\n</details>"
    text = "\n".join(b.text for b in blocks(markdown))
    for line in lines:
        assert line.strip().lstrip(">").strip() in text


@settings(max_examples=60, deadline=None)
@given(body=st.text(max_size=400), title=st.text(max_size=80))
def test_any_issue_gets_one_deterministic_reply(body: str, title: str) -> None:
    first = triage(json.dumps({"title": title, "body": body}), catalog=_SMALL)
    assert first.reply.startswith(MARKER) and first.reply.count(MARKER) == 1
    assert triage(json.dumps({"title": title, "body": body}), catalog=_SMALL).reply == first.reply


_SMALL = Catalog([RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON)])


def test_many_errors_fit_one_comment(catalog: Catalog) -> None:
    names = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
    ]
    body = "\n\n".join(
        f"```\nValueError: The input ({n}000 tokens) is longer than the model's context length "
        f"(32768 tokens).\nRuntimeError: worker {name} stopped\n```"
        for n, name in enumerate(names, 1)
    )
    result = triage(body, catalog=catalog)
    reply = result.reply
    assert len(result.findings.errors) == 15  # one record, 14 distinct RuntimeErrors
    assert reply.count("#### ") == MAX_ERRORS
    assert "5 more errors are not shown." in reply
    assert len(render_reply(result.findings, max_chars=3000)) <= 3000


# -- reading issues ------------------------------------------------------------------------


def test_read_issue_accepts_events_api_objects_and_markdown() -> None:
    event = {
        "action": "opened",
        "issue": {"number": 3, "title": "t", "body": None, "html_url": "https://x/issues/3"},
        "repository": {"full_name": "o/r"},
    }
    issue = read_issue(json.dumps(event))
    assert (issue.number, issue.title, issue.body, issue.repo) == (3, "t", "", "o/r")
    pr = read_issue(json.dumps({"pull_request": {"number": 4, "title": "p", "body": "b"}}))
    assert pr.pull_request and pr.number == 4
    gh_view = read_issue('{"body": "b", "number": 5, "title": "t", "url": "https://x/issues/5"}')
    assert (gh_view.number, gh_view.url) == (5, "https://x/issues/5")
    assert read_issue("  plain *markdown*", title="T").body == "  plain *markdown*"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"title": "t",', "invalid JSON"),
        ('{"number": 1}', "keys: number"),
        ('{"issue": {"title": 5}}', "title must be a string"),
        ('{"title": "t", "number": "7"}', "number must be an integer"),
    ],
)
def test_json_that_is_no_issue_is_refused_with_a_reason(text: str, words: str) -> None:
    with pytest.raises(IssueFormatError, match=words) as caught:
        read_issue(text, source="event.json")
    assert str(caught.value).startswith("event.json")
    assert isinstance(caught.value, ValueError)


# -- the command ---------------------------------------------------------------------------


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_command_prints_the_reply_and_says_whether_errors_were_found(tmp_path: Path) -> None:
    seeds = ["--no-bundled", "--catalog", str(Path(__file__).parents[1] / "curated")]
    text = (
        "```\nValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
        "Select another --speculative-moe-a2a-backend.\n```"
    )
    code, out, err = _run(["triage", *seeds], stdin=text)
    assert code == 0 and out.startswith(MARKER) and "1 answered" in err
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"issue": {"number": 9, "title": "crash", "body": text}}))
    code, out, _ = _run(["triage", str(event), "--json", *seeds])
    data = json.loads(out)
    assert code == 0 and data["issue"]["number"] == 9
    assert data["errors"][0]["recordId"] == "3fe9ad44079a5344"
    code, out, _ = _run(["triage", "--title", "question", *seeds], stdin="How do I set it up?")
    assert code == 1 and "found no Python error" in out
    code, _, err = _run(["triage", str(tmp_path / "missing.json"), *seeds])
    assert code == 2 and "missing.json" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"nothing": 1}')
    code, _, err = _run(["triage", str(bad), *seeds])
    assert code == 2 and "bad.json" in err and "keys: nothing" in err
