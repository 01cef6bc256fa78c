r"""Where in an issue's GitHub Markdown a pasted error can be: code, quotes, details, prose.

:func:`blocks` cuts a Markdown text into :class:`Block`\ s, each with the plain
text an error would be found in and its first line in the Markdown:

* a fenced code block (```` ``` ```` or ``~~~``, closed or running to the end,
  as GitHub renders an unclosed one), its lines as they are;
* a ``<pre>`` block, HTML entities decoded (``&lt;module&gt;``);
* a block quote (``> ...``, nested too), its markers removed and its inside cut
  into blocks again (a fence inside a quote is a code block of the quote);
* a ``<details>`` block's summary and body, which are Markdown again;
* the prose between them, one block per run of lines (inline code spans,
  where issue titles and sentences quote an error, are kept).

>>> text = '''I got this:
... <details><summary>log</summary>
...
... ```text
... Traceback (most recent call last):
... ValueError: boom
... ```
... </details>
...
... > KeyError: 'k'
... '''
>>> [(b.kind, b.line, b.text) for b in blocks(text)]  # doctest: +NORMALIZE_WHITESPACE
[('text', 1, 'I got this:'), ('details', 2, 'log'),
 ('code', 5, 'Traceback (most recent call last):\nValueError: boom'),
 ('quote', 10, "KeyError: 'k'")]
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["Block", "BlockKind", "blocks"]

#: ``code``: a fenced or ``<pre>`` block; ``quote``: prose inside ``>``;
#: ``details``: prose inside ``<details>`` (its summary too); ``text``: other prose.
BlockKind = Literal["code", "quote", "details", "text"]

_FENCE_OPEN: Final = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_QUOTE: Final = re.compile(r"^ {0,3}> ?")
_DETAILS_OPEN: Final = re.compile(r"<details\b[^>]*>", re.IGNORECASE)
_DETAILS_CLOSE: Final = re.compile(r"</details\s*>", re.IGNORECASE)
_SUMMARY: Final = re.compile(r"</?summary\b[^>]*>", re.IGNORECASE)
_PRE_OPEN: Final = re.compile(r"<pre\b[^>]*>", re.IGNORECASE)
_PRE_CLOSE: Final = re.compile(r"</pre\s*>", re.IGNORECASE)
# Tags that only decorate prose; removed, their text kept.
_INLINE_TAGS: Final = re.compile(
    r"</?(?:code|b|i|em|strong|kbd|sub|sup|span|p|div|br|hr)\b[^>]*>", re.IGNORECASE
)
_COMMENT: Final = re.compile(r"<!--.*?-->", re.DOTALL)
#: Deepest block quote read (``>>>>`` ...); deeper markers stay in the text.
_MAX_DEPTH: Final = 8


@dataclass(frozen=True, slots=True)
class Block:
    """A piece of an issue where an error may be: its kind, text, and first line (1-based)."""

    kind: BlockKind
    text: str
    line: int
    #: Inside a ``<details>`` block (also for code and quotes there).
    in_details: bool = False


def _prose(lines: list[str]) -> str:
    text = "\n".join(lines)
    text = _SUMMARY.sub("\n", text)
    text = _INLINE_TAGS.sub("", text)
    return html.unescape(text).strip("\n")


class _Reader:
    """One pass over the lines, keeping prose apart from code, quotes and details."""

    def __init__(self, depth: int = 0) -> None:
        self.out: list[Block] = []
        self.depth = depth

    def read(self, lines: list[str], first: int, *, quoted: bool, details: bool) -> None:
        prose: list[str] = []
        prose_at = first
        details_level = 0
        in_details = details

        def flush() -> None:
            nonlocal prose
            text = _prose(prose)
            if text.strip():
                kind: BlockKind = "quote" if quoted else "details" if in_details else "text"
                # Leading blank lines do not move the block's line.
                skipped = len(prose) - len("\n".join(prose).lstrip("\n").split("\n"))
                self.out.append(Block(kind, text, prose_at + skipped, in_details))
            prose = []

        i = 0
        while i < len(lines):
            line = lines[i]
            number = first + i
            fence = _FENCE_OPEN.match(line)
            if fence is not None and not (fence.group(2)[0] == "`" and "`" in fence.group(3)):
                flush()
                end = self._fence_end(lines, i, fence)
                body = [
                    raw[len(fence.group(1)) :] if raw.startswith(fence.group(1)) else raw.lstrip()
                    for raw in lines[i + 1 : end]
                ]
                text = "\n".join(body).strip("\n")
                if text.strip():
                    self.out.append(Block("code", text, number + 1, in_details))
                i = end + 1
                prose_at = first + i
                continue
            if self.depth < _MAX_DEPTH and _QUOTE.match(line):
                flush()
                end = i
                while end < len(lines) and _QUOTE.match(lines[end]):
                    end += 1
                inner = [_QUOTE.sub("", raw, count=1) for raw in lines[i:end]]
                reader = _Reader(self.depth + 1)
                reader.read(inner, number, quoted=True, details=in_details)
                self.out.extend(reader.out)
                i = end
                prose_at = first + i
                continue
            pre = _PRE_OPEN.search(line)
            if pre is not None:
                flush()
                end = i
                while end < len(lines) and not _PRE_CLOSE.search(lines[end]):
                    end += 1
                raw_pre = "\n".join(lines[i : end + 1])
                start = raw_pre.find(">", pre.start() - 0) + 1
                stop = _PRE_CLOSE.search(raw_pre)
                inner_text = raw_pre[start : stop.start() if stop else len(raw_pre)]
                text = html.unescape(_INLINE_TAGS.sub("", inner_text)).strip("\n")
                if text.strip():
                    self.out.append(Block("code", text, number, in_details))
                i = end + 1
                prose_at = first + i
                continue
            opened = len(_DETAILS_OPEN.findall(line))
            closed = len(_DETAILS_CLOSE.findall(line))
            if opened or closed:
                before = _DETAILS_OPEN.split(line, maxsplit=1)[0] if opened else ""
                if opened:
                    if before.strip():
                        prose.append(before)
                    flush()
                    details_level += opened
                    in_details = True
                    prose_at = number
                    rest = _DETAILS_CLOSE.sub("", _DETAILS_OPEN.sub("", line))
                    if rest.strip():
                        prose.append(rest)
                if closed:
                    if not opened:
                        prose.append(_DETAILS_CLOSE.sub("", line))
                    flush()
                    details_level = max(0, details_level - closed)
                    in_details = details or details_level > 0
                    prose_at = number + 1
                i += 1
                continue
            if not prose:
                prose_at = number
            prose.append(line)
            i += 1
        flush()

    @staticmethod
    def _fence_end(lines: list[str], start: int, fence: re.Match[str]) -> int:
        """The index of the closing fence line (``len(lines)`` when it never closes)."""
        mark = fence.group(2)
        closing = re.compile(r"^ {0,3}" + re.escape(mark[0]) + "{" + str(len(mark)) + r",}\s*$")
        for end in range(start + 1, len(lines)):
            if closing.match(lines[end]):
                return end
        return len(lines)


def blocks(markdown: str) -> list[Block]:
    r"""The blocks of a Markdown text where errors may be, in the order they appear.

    HTML comments (``<!-- ... -->``, issue templates are full of them) are
    removed first, keeping the line count.

    >>> [b.kind for b in blocks("> quoted\n>\n> ```\n> KeyError: 'x'\n> ```\nafter")]
    ['quote', 'code', 'text']
    """
    text = markdown.replace("\r\n", "\n").replace("\r", "\n")
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    reader = _Reader()
    reader.read(text.split("\n"), 1, quoted=False, details=False)
    return reader.out
