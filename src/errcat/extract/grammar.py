"""The shapes of what Python prints: class names, exception lines, traceback headers, frames.

Also the limits that keep extraction linear in the text's size.
"""

from __future__ import annotations

import builtins
import re
from typing import Final

# --------------------------------------------------------------------------
# Limits that keep every input linear and every output bounded.

_MAX_PREFIXES: Final = 8  # stacked prefixes stripped from one line
_MAX_MESSAGE_LINES: Final = 500  # continuation lines of one message
_MAX_MESSAGE_CHARS: Final = 200_000  # characters of one multi-line message
_MAX_HITS_PER_LINE: Final = 32  # inline exceptions kept per line (first and last halves)
_MAX_JSON_STARTS: Final = 4  # "{" positions tried per line for an HTTP error body
_MAX_LITERAL: Final = 100_000  # characters given to json/ast literal parsing
_MAX_REPR_SCAN: Final = 20_000  # characters scanned for the ")" closing a repr
_MAX_EMBED_DEPTH: Final = 8  # decoded messages inside decoded messages
_MAX_EMBEDDED: Final = 512  # embedded reports per top-level report
_MAX_MULTILINE_JSON: Final = 300  # lines of a pretty-printed JSON error body
_MAX_TB_BLANKS: Final = 2  # blank lines tolerated inside a traceback
_MAX_TAIL_PARAGRAPHS: Final = 8  # paragraphs after a blank line kept as a message's tail
_MAX_TAIL_BLANKS: Final = 2  # blank lines in a row a message's tail may hold
_MAX_TAIL_CHARS: Final = 8_000  # characters of a message's tail (tips are a few hundred)

# --------------------------------------------------------------------------
# Exception class names.

# One part of a qualified name, or the "<locals>" marker of a nested class. A name
# starts with an ASCII letter: a class is named in code, and prose in a script without
# spaces runs into it ("帮帮看下问题ValueError: ..." is ValueError).
_PART = r"(?:[A-Za-z_]\w*|<locals>)"
# A dotted name such as json.decoder.JSONDecodeError or f.<locals>.MyError.
_NAME = rf"[A-Za-z_]\w*(?:\.{_PART})*"
# No name goes on before it (the ASCII part of a name: a class after a CJK word starts).
_NOT_AFTER_NAME = r"(?<![A-Za-z0-9_])(?<![A-Za-z0-9_]\.)"
# A class as printed, including Ray's wrapped form RayTaskError(ValueError).
_CLASS = rf"{_NAME}(?:\({_NAME}\))?"

# A whole (left-stripped) line that is an exception line: "Class: msg" or a bare "Class".
_EXC_LINE_RE: Final = re.compile(rf"(?P<cls>{_CLASS})(?:: (?P<msg>.*)|:?[ \t]*)")
# A line that starts with "Class: ".
_EXC_START_RE: Final = re.compile(rf"(?P<cls>{_CLASS}): ")
# A line that is only a class name (an exception without a message).
_BARE_RE: Final = re.compile(rf"(?P<cls>{_CLASS}):?[ \t]*")
# "Class: " anywhere in a line, not in the middle of a longer dotted name.
_CLASS_MSG_RE: Final = re.compile(rf"{_NOT_AFTER_NAME}(?P<cls>{_CLASS}): ")
# "Class(" anywhere in a line: the start of an exception repr.
_REPR_RE: Final = re.compile(rf"{_NOT_AFTER_NAME}(?P<cls>{_NAME})\(")
# A name that may be an HTTP error body's "type" and be a class: CapWords, maybe qualified.
# A lowercase one ("abort", "invalid_request_error") is a category, not a class.
_TYPE_NAME_RE: Final = re.compile(rf"(?:{_PART}\.)*[A-Z]\w*")
# Cheap test that a line may name an exception at all (every builtin matches too).
_HINT_RE: Final = re.compile(
    "Error|Exception|Warning|Exit|Interrupt|Failure|Fault|Timeout|Abort|Iteration"
    r"|[a-z0-9_]\._*[A-Z][A-Za-z0-9]*:|\.(?:error(?:_[a-z]+)?|timeout|gaierror|herror|abort|readonly):"
)
# A module-qualified CapWords class (`gzip.BadGzipFile`, `http.client.InvalidURL`):
# Python prints that form only for exceptions defined outside builtins. A class
# nested in a class keeps its qualified name (`imaplib.IMAP4.error`); the stdlib's
# lowercase exception classes are named one by one (`re.error`, `ftplib.error_perm`).
# A package may hold capitals (`fontTools`, `PyQt5`); a capitalised first name with
# one dot ("Note.Below: ...") is prose, with two or more a module path.
_QUALIFIED_CLASS_RE: Final = re.compile(
    r"(?:[a-z_][A-Za-z0-9_]*|[A-Z][A-Za-z0-9_]*(?=(?:\.[A-Za-z_][A-Za-z0-9_]*){2}))"
    r"(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
    r"\.(?:_*[A-Z][A-Za-z0-9]*|error(?:_[a-z]+)?|timeout|gaierror|herror|abort|readonly)"
)
# Words right before a class name that make it source code, not an error report.
_CODE_BEFORE_RE: Final = re.compile(r"\b(?:raise|except|class|def|import)[ \t]*\Z")

# Last-name endings that make a class name look like an exception outside a traceback.
_EXC_SUFFIXES: Final = (
    "Error",
    "Exception",
    "Warning",
    "Exit",
    "Interrupt",
    "Failure",
    "Fault",
    "Timeout",
    "Abort",
    "Iteration",
)
# Builtin exception names (ExceptionGroup is builtin from 3.11 only).
_BUILTIN_EXCEPTIONS: Final = frozenset(
    name
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
) | {"ExceptionGroup", "BaseExceptionGroup"}

# --------------------------------------------------------------------------
# Traceback structure.

# The traceback header, and the words before it in an exception group's header.
_TB_HEADER: Final = "Traceback (most recent call last):"
_GROUP_WORDS: Final = "Exception Group "
# A frame line: File "path", line 12, in func (", in func" is absent for SyntaxError).
_FRAME_RE: Final = re.compile(
    r'File "(?P<path>[^"\n]*)", line (?P<line>\d{1,9})(?:, in (?P<func>.*))?'
)
# The two phrases that join chained exceptions.
_CHAIN_RE: Final = re.compile(
    r"The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:"
)
# Recursion summary inside a traceback.
_REPEATED_RE: Final = re.compile(r"\[Previous line repeated \d+ more times?\]")
# The ^^^^/~~~~ markers printed under a source line (3.11+).
_CARET_RE: Final = re.compile(r"[ \t]*[~^][~^ \t]*")
# A horizontal rule or pytest section line: a new record, never a message line.
_RULE_RE: Final = re.compile(r"(?:={3,}|-{3,}|_{3,}|\*{3,})")
# The start of a log line that no known prefix matched: a level word as loggers print
# it ("INFO ok", "WARNING: x", "ERROR] y"), or a date and time ("2026/01/04 08:00",
# "08:00:01 ..."). Such a line is a new log record, not a message's next line.
LOG_LINE_START_RE: Final = re.compile(
    r"(?:TRACE|DEBUG|INFO|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL)(?:[ \t:\]|]|$)"
    r"|\d{4}[-/.]\d\d[-/.]\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d(?:[.,]\d+)?[ \t\]]"
)


def _indent(text: str) -> int:
    """Width of the leading whitespace of a line."""
    return len(text) - len(text.lstrip(" \t"))


def _looks_like_exception(name: str) -> bool:
    """Whether a class name looks like an exception outside a traceback."""
    if "(" in name:
        name = name.split("(", 1)[0]
    # The suffixes hold no dot: testing the whole name tests its last part.
    return (
        name.endswith(_EXC_SUFFIXES)
        or name.rsplit(".", 1)[-1] in _BUILTIN_EXCEPTIONS
        or _QUALIFIED_CLASS_RE.fullmatch(name) is not None
    )
