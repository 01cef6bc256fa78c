"""Chat replies: Advice.to_markdown(max_chars=...), render_no_match and chat_reply."""

from __future__ import annotations

import re
from types import MappingProxyType

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import errcat
from conftest import SEEDS_FILE
from errcat.advice import (
    DISCORD_MESSAGE_LIMIT,
    MIN_MARKDOWN_CHARS,
    SLACK_SECTION_LIMIT,
    Advice,
    Flavor,
    chat_reply,
    markdown_length,
    render_no_match,
)
from errcat.catalog import Catalog
from errcat.models import EXAMPLE_ENVELOPE_JSON, ErrorRecord, RecordEnvelope

SEED_IDS = ["e06cd5f724ab16c0", "3fe9ad44079a5344", "70e072f5fc32f001"]
FLAVORS: list[Flavor] = ["markdown", "mrkdwn"]
MATCHED_TEXT = (
    "ValueError: DeepEP v2 MoE is not validated for 'GemmaForCausalLM'; supported "
    "architectures are ['DeepseekV3ForCausalLM', 'Qwen3MoeForCausalLM']. Other model "
    "workflows may require an all-reduce after A2A combine. Use --moe-a2a-backend deepep."
)
DRIFTED_TEXT = (
    "DeepEP v2 MoE is not supported as a speculative draft backend. "
    "Pick another --speculative-moe-a2a-backend."
)
LIMITS = [MIN_MARKDOWN_CHARS, 150, 200, 300, 500, 800, 1200, DISCORD_MESSAGE_LIMIT, 3000]

# A fence opener or closer, also inside a list item ("1. ```" opens one in CommonMark).
_FENCE_LINE = re.compile(r"^(?: {0,3}(?:[-*+]|\d+[.)]) +)? {0,3}(`{3,}|~{3,})(.*)$")


def open_fence(markdown: str) -> str | None:
    """The fence left open at the end of a Markdown text (None when all are closed)."""
    current: str | None = None
    for line in markdown.split("\n"):
        m = _FENCE_LINE.match(line)
        if m is None:
            continue
        marker, rest = m.groups()
        if current is None:
            if not (marker[0] == "`" and "`" in rest):  # a backtick info string is no fence
                current = marker
        elif marker[0] == current[0] and len(marker) >= len(current) and not rest.strip():
            current = None
    return current


def fences_balanced(text: str, flavor: Flavor) -> bool:
    if flavor == "markdown":
        return open_fence(text) is None
    # Slack: a block opens and closes at "```"; only whole fence lines may hold one.
    fence_lines = [line for line in text.split("\n") if line == "```"]
    return text.count("```") == len(fence_lines) and len(fence_lines) % 2 == 0


def check_reply(advice: Advice, max_chars: int, flavor: Flavor) -> str:
    out = advice.to_markdown(max_chars=max_chars, flavor=flavor)
    assert markdown_length(out) <= max_chars
    assert len(out) <= max_chars
    assert fences_balanced(out, flavor), out
    solutions = [s for s in advice.solutions if s in out]
    tips = [t for t in advice.prevention_tips if t in out]
    if tips:  # solutions are kept until every prevention tip is gone
        assert solutions == list(advice.solutions), out
    assert out.startswith(("**`", "*`"))
    return out


def seed_advices(catalog: Catalog) -> list[Advice]:
    advices = [Advice.from_record(catalog[rid]) for rid in SEED_IDS]
    match = errcat.match_error(MATCHED_TEXT, catalog=catalog)
    assert match is not None and match.params
    return [*advices, Advice.from_match(match)]


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("max_chars", LIMITS)
def test_every_seed_fits_every_limit(bundled: Catalog, max_chars: int, flavor: Flavor) -> None:
    for advice in seed_advices(bundled):
        out = check_reply(advice, max_chars, flavor)
        if max_chars >= 200:  # a seed's source link always fits from here on
            assert advice.source_url in out.replace("%28", "(").replace("%29", ")")


@settings(max_examples=150, deadline=None)
@given(
    index=st.integers(min_value=0, max_value=3),
    max_chars=st.integers(min_value=MIN_MARKDOWN_CHARS, max_value=4000),
    flavor=st.sampled_from(FLAVORS),
)
def test_property_seed_replies_fit(index: int, max_chars: int, flavor: Flavor) -> None:
    check_reply(seed_advices(Catalog.from_path(SEEDS_FILE))[index], max_chars, flavor)


def test_limits_used_by_chat_services_keep_the_useful_parts(bundled: Catalog) -> None:
    for advice in seed_advices(bundled):
        full = advice.to_markdown()
        assert markdown_length(full) < DISCORD_MESSAGE_LIMIT
        assert advice.to_markdown(max_chars=DISCORD_MESSAGE_LIMIT) == full
        assert advice.to_markdown(max_chars=SLACK_SECTION_LIMIT, flavor="mrkdwn") == (
            advice.to_markdown(flavor="mrkdwn")
        )
        short = advice.to_markdown(max_chars=700)
        assert advice.solutions[0] in short
        assert "**Prevention**" not in short


def test_shortening_order(bundled: Catalog) -> None:
    advice = next(a for a in seed_advices(bundled) if a.params)
    full = advice.to_markdown()
    size = markdown_length(full)
    tip_gone = advice.to_markdown(max_chars=size - 1)
    assert advice.prevention_tips[-1] not in tip_gone
    assert advice.prevention_tips[0] in tip_gone
    assert advice.documentation in tip_gone
    without_tips = markdown_length(full.split("\n\n**Prevention**")[0])
    assert advice.to_markdown(max_chars=without_tips) == full.split("\n\n**Prevention**")[0]
    no_tips = advice.to_markdown(max_chars=without_tips - 1)
    assert "**Prevention**" not in no_tips
    first_sentence = advice.documentation.split(". ")[0]
    assert first_sentence in no_tips and advice.documentation not in no_tips
    # Then the example fix goes as a whole block: never a fence without its end.
    sizes = range(size, MIN_MARKDOWN_CHARS - 1, -7)
    seen_fix = [("**Example fix**" in advice.to_markdown(max_chars=n)) for n in sizes]
    assert seen_fix[0] and not seen_fix[-1]
    assert seen_fix == sorted(seen_fix, reverse=True)  # once gone, it stays gone
    seen_solutions = [
        sum(s in advice.to_markdown(max_chars=n) for s in advice.solutions) for n in sizes
    ]
    assert seen_solutions == sorted(seen_solutions, reverse=True)


def test_captured_values_are_shortened_then_dropped(bundled: Catalog) -> None:
    record = bundled["e06cd5f724ab16c0"]
    long_value = "[" + ", ".join(f"'Arch{n}ForCausalLM'" for n in range(60)) + "]"
    advice = Advice(
        record,
        MappingProxyType({"architecture": "'X'", "sorted(validated_architectures)": long_value}),
        0.9,
        True,
    )
    assert long_value in advice.to_markdown()
    shortened = advice.to_markdown(max_chars=1600)
    assert long_value not in shortened and "'Arch0ForCausalLM'" in shortened
    assert "…" in shortened


def test_no_arg_rendering_is_unlimited_and_holds_everything(bundled: Catalog) -> None:
    for advice in seed_advices(bundled):
        out = advice.to_markdown()
        for part in (*advice.solutions, *advice.prevention_tips, advice.source_url):
            assert part in out
        assert advice.example_fix.splitlines()[0] in out
        if advice.confidence is not None:
            assert f"confidence {advice.confidence:.2f}" in out


def test_mrkdwn_escapes_and_links(bundled: Catalog) -> None:
    advice = Advice.from_record(bundled["3fe9ad44079a5344"])
    out = advice.to_markdown(flavor="mrkdwn")
    assert f"<{advice.source_url}|python/sglang/srt/server_args.py:7632>" in out
    assert "*Solutions*" in out and "**" not in out
    record = _record(solutions=("use a < b && c > d",), exampleFix="x = '```'\nif a < b: pass")
    out = Advice.from_record(record).to_markdown(flavor="mrkdwn")
    assert "use a &lt; b &amp;&amp; c &gt; d" in out
    assert "if a &lt; b: pass" in out
    assert fences_balanced(out, "mrkdwn")


def test_limit_below_the_minimum_is_refused(bundled: Catalog) -> None:
    advice = Advice.from_record(bundled["3fe9ad44079a5344"])
    with pytest.raises(ValueError, match="max_chars must be at least 100"):
        advice.to_markdown(max_chars=99)
    with pytest.raises(ValueError, match="Unknown flavor"):
        advice.to_markdown(flavor="html")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_chars"):
        render_no_match([], max_chars=10)


def _record(**fields: object) -> ErrorRecord:
    base = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    data = base.model_dump(by_alias=True)
    data.update(fields)
    return ErrorRecord.model_validate(data)


# Text that tries to break a reply: backticks, fences, newlines, astral characters.
_nasty = st.lists(
    st.sampled_from([*"ab `~\n*_<>&|()[]#-1.", "```", "~~~", "\n```py\n", "👍", "é", "word "]),
    max_size=40,
).map("".join)


@settings(max_examples=120, deadline=None)
@given(
    message=_nasty.filter(lambda s: s.strip()),
    documentation=_nasty,
    solutions=st.lists(_nasty.filter(lambda s: s.strip()), max_size=4),
    fix=_nasty,
    tips=st.lists(_nasty.filter(lambda s: s.strip()), max_size=3),
    value=_nasty.filter(lambda s: s.strip()),
    max_chars=st.integers(min_value=MIN_MARKDOWN_CHARS, max_value=1500),
    flavor=st.sampled_from(FLAVORS),
)
@example(  # a fence opening inside a list item once slipped through
    message="a",
    documentation="-\n```py\n",
    solutions=["> ~~~", "1. ```"],
    fix="",
    tips=["* ```x"],
    value="a",
    max_chars=100,
    flavor="markdown",
)
def test_property_hostile_records_still_fit(
    *,
    message: str,
    documentation: str,
    solutions: list[str],
    fix: str,
    tips: list[str],
    value: str,
    max_chars: int,
    flavor: Flavor,
) -> None:
    record = _record(
        errorMessage=message,
        documentation=documentation,
        solutions=solutions,
        exampleFix=fix,
        preventionTips=tips,
    )
    advice = Advice(record, MappingProxyType({"x": value}), 0.7, False)
    out = advice.to_markdown(max_chars=max_chars, flavor=flavor)
    assert markdown_length(out) <= max_chars
    assert fences_balanced(out, flavor), out
    assert fences_balanced(advice.to_markdown(flavor=flavor), flavor)
    if "Prevention" in out:
        assert "Solutions" in out or not solutions


def test_no_match_reply_is_short_and_honest() -> None:
    out = render_no_match([])
    assert out.startswith("No record in the errcat catalog matches this error.")
    assert "Did you mean" not in out
    assert len(out) < 200
    assert render_no_match([], max_chars=MIN_MARKDOWN_CHARS) == (
        "No record in the errcat catalog matches this error."
    )


@pytest.mark.parametrize("flavor", FLAVORS)
def test_no_match_offers_near_records(bundled: Catalog, flavor: Flavor) -> None:
    hints = errcat.match_all(DRIFTED_TEXT, catalog=bundled)
    assert hints and hints[0].mode == "fuzzy"
    out = render_no_match(hints, flavor=flavor)
    assert "Did you mean:" in out
    assert "DeepEP v2 MoE is not validated as a speculative draft backend" in out
    assert "inexact, confidence" in out
    for max_chars in (MIN_MARKDOWN_CHARS, 150, 250, 400, 2000):
        short = render_no_match(hints, max_chars=max_chars, flavor=flavor)
        assert markdown_length(short) <= max_chars
        assert short.startswith("No record in the errcat catalog matches this error.")


def test_chat_reply_answers_or_says_no(bundled: Catalog) -> None:
    reply = chat_reply(MATCHED_TEXT, catalog=bundled, max_chars=DISCORD_MESSAGE_LIMIT)
    assert reply.startswith("**`ValueError`**: DeepEP v2 MoE is not validated for")
    assert "`'GemmaForCausalLM'`" in reply
    assert "Exact match, confidence" in reply
    drifted = chat_reply(DRIFTED_TEXT, catalog=bundled)
    assert drifted.startswith("No record") and "Did you mean" in drifted
    nothing = chat_reply("KeyError: 'zzz'", catalog=bundled, flavor="mrkdwn")
    assert nothing.startswith("No record") and "Did you mean" not in nothing


def test_markdown_length_counts_utf16_units() -> None:
    assert markdown_length("a👍b") == 4
    advice = Advice.from_record(_record(solutions=["👍" * 300]))
    out = advice.to_markdown(max_chars=300)
    assert markdown_length(out) <= 300
