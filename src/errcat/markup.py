"""Chat markup: the two flavours a reply is written in, and lengths as chat services count them.

``"markdown"`` is CommonMark / GitHub-flavoured Markdown (GitHub, Discord, Slack's
``markdown`` blocks); ``"mrkdwn"`` is Slack's own format. Each style renders prose,
bold, code spans, links and blocks so that nothing in a value can break out of them.

>>> style("markdown").code("a`b")
'``a`b``'
>>> style("mrkdwn").link("docs", "https://x.org/a b")
'<https://x.org/a%20b|docs>'
>>> clip("one two three", 9)
'one two…'
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["Flavor", "Style", "clip", "fence", "fold", "markdown_length", "style"]

#: ``"markdown"``: CommonMark/GFM, for GitHub, Discord and Slack's ``markdown``
#: block. ``"mrkdwn"``: Slack's own format, for section blocks and ``text``.
Flavor = Literal["markdown", "mrkdwn"]

_WS = re.compile(r"\s+")
_LONG_TICKS = re.compile(r"`{3,}")
_FENCE_RUN = re.compile(r"`{3,}|~{3,}")


def markdown_length(text: str) -> int:
    """The length of a reply as chat services count it: UTF-16 code units.

    JavaScript clients count a character outside the Basic Multilingual Plane
    (most emoji) as two, so this is never less than ``len(text)``.

    >>> markdown_length("abc"), markdown_length("ok 👍")
    (3, 5)
    """
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def clip(text: str, limit: int) -> str:
    """``text`` shortened to at most ``limit`` UTF-16 units, ending in "…" when cut.

    >>> clip("one two three", 9)
    'one two…'
    >>> clip("short", 9)
    'short'
    """
    if markdown_length(text) <= limit:
        return text
    if limit < 1:
        return ""
    kept: list[str] = []
    used = 0
    for char in text:
        width = 2 if ord(char) > 0xFFFF else 1
        if used + width > limit - 1:
            break
        kept.append(char)
        used += width
    cut = "".join(kept)
    space = cut.rfind(" ")
    if space > 0 and len(cut) - space <= 15:  # end on a word when one ends nearby
        cut = cut[:space]
    return cut.rstrip() + "…"


def fold(text: str) -> str:
    """``text`` on one line, runs of whitespace as one space."""
    return _WS.sub(" ", text).strip()


def fence(code: str, lang: str = "") -> str:
    """A Markdown code fence long enough not to be closed by backticks inside ``code``."""
    longest = 0
    run = 0
    for char in code:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{code.rstrip()}\n{ticks}"


def _guess_lang(code: str) -> str:
    stripped = code.lstrip()
    if stripped.startswith(("python ", "pip ", "--", "$ ")) or "\n--" in code:
        return "bash"
    if stripped.startswith("#") and ("python -m" in code or "\n--" in code):
        return "bash"
    return "python"


class _Markdown:
    """CommonMark / GitHub-flavoured Markdown (GitHub, Discord, Slack ``markdown`` blocks)."""

    bullet = "-"

    @staticmethod
    def text(value: str) -> str:
        """One line of prose; fence markers are escaped so that none can open a block.

        (A fence may also open inside a list item or a quote, as in ``- ```py``.)
        """
        return _FENCE_RUN.sub(lambda m: "\\" + m.group(), fold(value))

    @staticmethod
    def bold(value: str) -> str:
        return f"**{value}**"

    @staticmethod
    def italic(value: str) -> str:
        return f"_{value}_"

    @staticmethod
    def code(value: str) -> str:
        """An inline code span that backticks inside ``value`` cannot close."""
        value = fold(value) or " "
        longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
        ticks = "`" * (longest + 1)
        pad = " " if value.startswith("`") or value.endswith("`") else ""
        return f"{ticks}{pad}{value}{pad}{ticks}"

    @staticmethod
    def link(label: str, url: str) -> str:
        """A link whose label is already rendered."""
        target = url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
        return f"[{label}]({target})"

    @staticmethod
    def block(code: str) -> str:
        return fence(code, _guess_lang(code))


class _Mrkdwn:
    """Slack's mrkdwn: ``*bold*``, ``<url|label>``, ``&<>`` escaped, plain ``` blocks."""

    bullet = "•"

    @staticmethod
    def _escape(value: str) -> str:
        value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        # Slack has no longer fences: break up any run that would open or close a block.
        return _LONG_TICKS.sub(lambda m: "\u200b".join(m.group()), value)

    @classmethod
    def text(cls, value: str) -> str:
        return cls._escape(fold(value))

    @staticmethod
    def bold(value: str) -> str:
        return f"*{value}*"

    @staticmethod
    def italic(value: str) -> str:
        return f"_{value}_"

    @classmethod
    def code(cls, value: str) -> str:
        return "`" + cls._escape(fold(value).replace("`", "\u02cb") or " ") + "`"

    @classmethod
    def link(cls, label: str, url: str) -> str:
        target = url.replace(" ", "%20").replace("|", "%7C").replace(">", "%3E")
        return f"<{target}|{label.replace('|', '/').replace('`', '')}>"

    @classmethod
    def block(cls, code: str) -> str:
        return f"```\n{cls._escape(code.rstrip())}\n```"


Style = type[_Markdown] | type[_Mrkdwn]


def style(flavor: Flavor) -> Style:
    """The style that renders ``flavor``; ValueError for any other name."""
    if flavor == "markdown":
        return _Markdown
    if flavor == "mrkdwn":
        return _Mrkdwn
    raise ValueError(f"Unknown flavor: {flavor!r} (expected 'markdown' or 'mrkdwn')")
