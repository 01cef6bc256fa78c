"""A title whose own words run into the message with no mark: read past them when nothing answers.

Writers put a few words of their own before the message they quote, often with
no colon, dash or quotes between ("vLLM crashes with cannot find the config
file for awq"). Read as written, such a title fits no pattern that opens with
the message's first word. Reading past every first word up front would let a
shorter record explain a message a longer one explains whole (argparse's
``vllm: error: unrecognized arguments`` read as ``error: unrecognized
arguments``), so the rest after each of the title's first few words is tried
only when the title as written has no confident answer, the shortest lead first.

>>> from errcat.extract import extract_reports
>>> def rests(text):
...     return [rest for _, rest in lead_word_rests(text, extract_reports(text))]
>>> rests("[Bug]: vLLM crashes with cannot find the config")
['crashes with cannot find the config', 'with cannot find the config', 'cannot find the config']
>>> rests("ValueError: cannot find the config file for awq")
[]
>>> rests("[rank0]: worker crashed while loading the model weights")
[]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from errcat.extract import ExceptionReport
from errcat.matcher.result import Match

__all__ = ["LEAD_WORDS", "MIN_LITERAL", "lead_word_rests", "shifted", "shows_enough"]

#: How many of a title's own words are read past, at most.
LEAD_WORDS = 6
#: How long the rest must be to be read as a message.
_REST = 20
#: How much of a record's literal text an answer past lead words must show: a short
#: template (``Not support {x}``) fits the tail of any sentence ("... does not support
#: flash_attention_2").
MIN_LITERAL = 25
#: An issue tracker's tags before a title (``[Bug]: ``, ``[Usage][V1] ``).
_TAGS = re.compile(r"^\s*(?:\[[A-Za-z][\w .,/+-]{0,30}\] ?)*:? ?")
#: The first tag of an issue title, as the engines' issue templates and their users write
#: it: only such a title is read past its lead words (a log line or a prose line of a
#: paste is not, so that scanning logs pays nothing for it).
_TITLE_TAG = re.compile(
    r"^\s*\[(?:bug|usage|feature|question|installation|performance|perf|doc|docs|misc|rfc"
    r"|help wanted|new model|model|hardware|ci|ci failure|build|roadmap|discussion|issue)\]",
    re.IGNORECASE,
)


def lead_word_rests(text: str, reports: Sequence[ExceptionReport]) -> list[tuple[int, str]]:
    """``(offset, rest)`` after each of a one-line title's first words, shortest lead first.

    ``reports`` are the text's (:func:`errcat.extract.extract_reports`).

    Only for an issue title (a line that opens with a tracker's tag, ``[Bug]``) of
    prose: a line that prints an exception's class (``ValueError:
    ...``) is the program's, which never leads its message with words of its own. Nor
    past a word that ends with a colon: a lead with a colon is read as a form of the
    message already (:mod:`errcat.extract.forms`), and ``launch_server.py: error: ...``
    is argparse's ``{prog}: error: {message}``, whose program name is part of it.

    >>> from errcat.extract import extract_reports
    >>> title = "[Bug] launch_server.py: error: unrecognized arguments: --tp 2"
    >>> lead_word_rests(title, extract_reports(title))
    []
    """
    if "\n" in text.strip() or len(text) > 1000 or not _TITLE_TAG.match(text):
        return []
    if len(reports) != 1 or reports[0].kind != "text":
        return []
    start = _TAGS.match(text)
    begin = start.end() if start else 0
    rests = []
    for space in list(re.finditer(r" +", text[begin:]))[:LEAD_WORDS]:
        offset = begin + space.end()
        if text[:offset].rstrip().endswith(":"):
            break
        rest = text[offset:].rstrip()
        if len(rest) >= _REST:
            rests.append((offset, rest))
    return rests


def shows_enough(match: Match) -> bool:
    """Whether a match found past a title's lead words shows enough of its record's text."""
    coverage = match._coverage
    return coverage is not None and coverage.literal >= MIN_LITERAL


def shifted(match: Match, offset: int, lead: str) -> Match:
    """A match found in the rest of a title, its offsets moved to the whole title's."""
    report = dataclasses.replace(
        match.report, start=match.report.start + offset, end=match.report.end + offset
    )
    return dataclasses.replace(
        match,
        span=(match.span[0] + offset, match.span[1] + offset),
        report=report,
        reasons=(*match.reasons, f"the title's first words ({lead.strip()!r}) are the writer's"),
    )
