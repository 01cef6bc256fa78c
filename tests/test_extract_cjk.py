"""The message after a writer's words in Chinese (errcat.extract.cjk and its form)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import errcat
from errcat.catalog import Catalog
from errcat.extract import extract_reports
from errcat.extract.cjk import CJK_TAIL_MIN, cjk_tail
from errcat.extract.forms import message_forms
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope

_WORDS = st.lists(
    st.from_regex(r"zq[a-z]{2,8}", fullmatch=True), min_size=5, max_size=8
)  # five words: the shortest tail a message may be
_PROSE = st.sampled_from(
    ["部署模型时\uff0c报错\uff1a", "运行时报错 ", "启动服务后出现\u3010", "エラー\uff1a"]
)


@settings(max_examples=60, deadline=None)
@given(_PROSE, _WORDS)
def test_the_tail_is_the_quoted_words_whole(prose: str, words: list[str]) -> None:
    message = " ".join(words)
    assert cjk_tail(prose + message) == message


@settings(max_examples=60, deadline=None)
@given(_WORDS)
def test_a_text_without_cjk_has_no_tail(words: list[str]) -> None:
    assert cjk_tail("the server says: " + " ".join(words)) is None


def test_a_short_tail_is_a_name_not_a_message() -> None:
    assert cjk_tail("部署" + "x" * (CJK_TAIL_MIN - 1)) is None


def test_the_tail_is_tried_after_the_text_as_written_and_answers() -> None:
    record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record.model_copy(
        update={
            "error_message": "zqalpha zqbeta {name} zqgamma zqdelta",
            "message_pattern": "zqalpha zqbeta (.+?) zqgamma zqdelta",
        }
    )
    title = "[Bug] 启动服务时\uff0c报错\uff1azqalpha zqbeta zqname zqgamma zqdelta"
    forms = message_forms(extract_reports(title)[0])
    assert forms[0] != "zqalpha zqbeta zqname zqgamma zqdelta"
    assert "zqalpha zqbeta zqname zqgamma zqdelta" in forms
    match = errcat.match_error(title, catalog=Catalog([record]))
    assert match is not None and match.record.id == record.id
