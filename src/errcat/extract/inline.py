"""Exceptions inside one line: ``Class: message``, reprs, pydantic lines, HTTP error bodies."""

from __future__ import annotations

import builtins
import json
import re
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from errcat.extract.cut_bodies import cut_body
from errcat.extract.error_dicts import error_dict_messages
from errcat.extract.grammar import (
    _CLASS_MSG_RE,
    _CODE_BEFORE_RE,
    _EXC_LINE_RE,
    _HINT_RE,
    _MAX_HITS_PER_LINE,
    _MAX_JSON_STARTS,
    _MAX_LITERAL,
    _MAX_MESSAGE_CHARS,
    _MAX_MULTILINE_JSON,
    _MAX_REPR_SCAN,
    _REPR_RE,
    _TYPE_NAME_RE,
    _indent,
    _looks_like_exception,
)
from errcat.extract.lines import _Line
from errcat.extract.literals import _DQ_RE, _FAIL, _QUOTE_PAIRS, _SQ_RE, _parse_literal
from errcat.extract.objects import keyword_objects
from errcat.extract.reports import ExceptionReport, ReportKind, _Found

# --------------------------------------------------------------------------
# Other report forms.

# Pydantic v2 validation lines: "  Value error, msg [type=value_error, ...]".
_PYDANTIC_RE: Final = re.compile(r"[ \t]*(?P<kind>Value error|Assertion failed), (?P<rest>.*)")
# The exception class behind each pydantic wording, and the tail that ends the message.
_PYDANTIC_CLASSES: Final = {"Value error": "ValueError", "Assertion failed": "AssertionError"}
_PYDANTIC_TAIL: Final = " [type="
# Brackets and quotes, the tokens that matter when looking for a repr's ")".
_CALL_TOKEN_RE: Final = re.compile(r"['\"()\[\]{}]")


@dataclass(slots=True)
class _Hit:
    """An exception found inside one line."""

    start: int  # where the report begins in the line
    end: int  # where its message ends in the line
    error_class: str | None  # None for an HTTP body that names no exception class
    message: str
    kind: ReportKind
    decoded: bool  # the message is new text (from JSON or a literal), not a slice
    open_ended: bool  # the message runs to the end of the line
    closer: str | None = None  # an unmatched closing quote to look for on later lines


# --------------------------------------------------------------------------
# Inline forms: "Class: msg", reprs, pydantic lines, HTTP error bodies.


def _line_hits(text: str) -> list[_Hit]:
    """Every exception form found inside one line, left to right."""
    if len(text) < 4:
        return []
    hits: list[_Hit] = []
    if "{" in text and (
        (("message" in text or "msg" in text) and "type" in text) or "detail" in text
    ):
        hits.extend(_json_hits(text))
    elif "{" in text and "message" in text:
        hits.extend(_cut_body_hits(text))  # a body wrapped or cut before its "type"
    if "message=" in text and "(" in text:
        hits.extend(_object_hits(text))
    if _HINT_RE.search(text) is not None:
        spans = [(hit.start, hit.end) for hit in hits]
        if "(" in text:
            for hit in _repr_hits(text, spans):
                hits.append(hit)
                if not hit.open_ended:
                    spans.append((hit.start, hit.end))
        if ": " in text:
            hits.extend(_class_msg_hits(text, spans))
    if "Value error, " in text or "Assertion failed, " in text:
        pydantic = _pydantic_hit(text)
        if pydantic is not None:
            hits.append(pydantic)
        if "msg" in text:
            hits.extend(_error_dict_hits(text, hits))
    hits.sort(key=lambda hit: hit.start)
    if len(hits) > _MAX_HITS_PER_LINE:
        half = _MAX_HITS_PER_LINE // 2
        hits = hits[:half] + hits[-half:]
    return hits


def _inside(pos: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether a position falls inside one of the spans."""
    return any(start <= pos < end for start, end in spans)


def _is_code(text: str, start: int) -> bool:
    """Whether the class name at ``start`` follows ``raise``/``except``/... (source code)."""
    return _CODE_BEFORE_RE.search(text, max(0, start - 12), start) is not None


def _exception_matches(
    pattern: re.Pattern[str], text: str, spans: Sequence[tuple[int, int]]
) -> list[re.Match[str]]:
    """Matches of a class-name pattern that look like exceptions, not code; first and last few."""
    half = _MAX_HITS_PER_LINE // 2
    head: list[re.Match[str]] = []
    tail: deque[re.Match[str]] | None = None
    for match in pattern.finditer(text):
        start = match.start()
        if (
            not _looks_like_exception(match.group("cls"))
            or (spans and _inside(start, spans))
            or _is_code(text, start)
        ):
            continue
        if len(head) < half:
            head.append(match)
        else:
            if tail is None:
                tail = deque(maxlen=half)
            tail.append(match)
    return head if tail is None else head + list(tail)


def _class_msg_hits(text: str, spans: Sequence[tuple[int, int]]) -> Iterator[_Hit]:
    """``Class: msg`` occurrences; a quoted one ends at its closing quote."""
    indent = _indent(text)
    bare = _EXC_LINE_RE.fullmatch(text, indent)
    if bare is not None and bare.group("msg") is None and _looks_like_exception(bare.group("cls")):
        yield _Hit(indent, len(text), bare.group("cls"), "", "line", False, False)
        return
    for match in _exception_matches(_CLASS_MSG_RE, text, spans):
        start = match.start()
        name = match.group("cls")
        closer = _closer_for(text, start)
        msg_start = match.end()
        close = -1 if closer is None else _find_closer(text, msg_start, closer)
        if close < 0:
            message = text[msg_start : msg_start + _MAX_MESSAGE_CHARS]
            yield _Hit(start, len(text), name, message, "line", False, True, closer)
        else:
            yield _Hit(start, close, name, text[msg_start:close], "line", False, False)


def _closer_for(text: str, start: int) -> str | None:
    """The closing delimiter matching a quote, backticks or Markdown emphasis before ``start``.

    >>> _closer_for("**ValueError: x**", 2), _closer_for("`KeyError: 'a'`", 1)
    ('**', '`')
    """
    if start == 0:
        return None
    char = text[start - 1]
    if char in "`*":
        run = start - len(text[:start].rstrip(char))
        return char * run
    return _QUOTE_PAIRS.get(char)


def _find_closer(text: str, start: int, closer: str) -> int:
    """Where a quoted message ends: the next backtick run, else the last fitting quote.

    Markdown emphasis (``**ValueError: x**``) ends at the same run of asterisks
    closing a word (``4 * 8`` or ``**kwargs`` inside the message do not).

    >>> text = "**ValueError: got **kwargs and 4 * 8**, stop"
    >>> text[13 : _find_closer(text, 13, "**")]
    ' got **kwargs and 4 * 8'
    """
    if closer.startswith("`"):
        return text.find(closer, start)
    if closer.startswith("*"):
        emphasis = re.compile(rf"(?<=\S){re.escape(closer)}(?![\w*])")
        found = emphasis.search(text, start)
        return -1 if found is None else found.start()
    if closer not in "'\"":
        return text.rfind(closer, start)
    # The last quote not followed by a letter (so "it's" does not close 'ValueError: x').
    end = len(text)
    for _ in range(50):
        pos = text.rfind(closer, start, end)
        if pos < 0 or pos + 1 >= len(text) or not (text[pos + 1].isalnum() or text[pos + 1] == "_"):
            return pos
        end = pos
    return -1


def _pydantic_hit(text: str) -> _Hit | None:
    """A pydantic v2 ``Value error, ...`` / ``Assertion failed, ...`` line."""
    match = _PYDANTIC_RE.fullmatch(text)
    if match is None:
        return None
    error_class = _PYDANTIC_CLASSES[match.group("kind")]
    rest_start = match.start("rest")
    start = match.start("kind")
    tail = text.rfind(_PYDANTIC_TAIL, rest_start)
    if tail < 0:
        rest = text[rest_start:]
        return _Hit(start, len(text), error_class, rest, "line", False, True, _PYDANTIC_TAIL)
    return _Hit(start, tail, error_class, text[rest_start:tail], "line", False, False)


def _repr_hits(text: str, spans: Sequence[tuple[int, int]]) -> Iterator[_Hit]:
    """Exception reprs such as ``RuntimeError('message')`` or ``ValueError("a", 3)``."""
    for match in _exception_matches(_REPR_RE, text, spans):
        start = match.start()
        name = match.group("cls")
        open_pos = match.end() - 1
        close = _find_call_end(text, open_pos)
        if close is None:
            rest = text[open_pos + 1 :].lstrip()
            if rest[:1] in ("'", '"'):
                cut = rest[1 : 1 + _MAX_MESSAGE_CHARS]
                yield _Hit(start, len(text), name, cut, "repr", False, True)
            continue
        args = _parse_args(text[open_pos + 1 : close])
        if args is None:
            continue
        message = _repr_message(name, args)
        if message is not None:
            yield _Hit(start, close + 1, name, message, "repr", True, False)


def _find_call_end(text: str, open_pos: int) -> int | None:
    """Index of the ``)`` closing the parenthesis at ``open_pos``, skipping string literals."""
    depth = 0
    pos = open_pos
    limit = min(len(text), open_pos + _MAX_REPR_SCAN)
    while pos < limit:
        match = _CALL_TOKEN_RE.search(text, pos, limit)
        if match is None:
            return None
        char = match.group()
        if char in "'\"":
            string = (_SQ_RE if char == "'" else _DQ_RE).match(text, match.start(), limit)
            if string is None:
                return None
            pos = string.end()
            continue
        depth += 1 if char in "([{" else -1
        if depth == 0:
            return match.start() if char == ")" else None
        pos = match.end()
    return None


def _parse_args(inner: str) -> tuple[object, ...] | None:
    """The arguments of a repr as a tuple, or None when they are not literals."""
    if not inner.strip():
        return ()
    for source in (f"({inner},)", f"({inner})"):
        value = _parse_literal(source)
        if isinstance(value, tuple):
            return value
    return None


def _repr_message(name: str, args: tuple[object, ...]) -> str | None:
    """What ``str(exc)`` prints for an exception built with these arguments."""
    last = name.rsplit(".", 1)[-1]
    try:
        if not args:
            return ""
        if len(args) == 1:
            return repr(args[0]) if last == "KeyError" else str(args[0])
        builtin = getattr(builtins, last, None)
        if (
            isinstance(builtin, type)
            and issubclass(builtin, OSError)
            and len(args) in (2, 3)
            and isinstance(args[0], int)
            and isinstance(args[1], str)
        ):
            text = f"[Errno {args[0]}] {args[1]}"
            return f"{text}: {args[2]!r}" if len(args) == 3 else text
        return repr(args)
    except Exception:  # str()/repr() of odd literals (huge ints) may fail
        return None


def _json_hits(text: str) -> list[_Hit]:
    """HTTP error bodies (JSON or a Python dict) with "message" and "type" in a line."""
    last = text.rfind("}")
    tries = 0
    start = text.find("{")
    while 0 <= start < last and tries < _MAX_JSON_STARTS:
        tries += 1
        value = _parse_object(text[start : last + 1])
        if value is not _FAIL:
            return [
                _Hit(start, last + 1, error_class, message, "line", True, False)
                for error_class, message in _error_bodies(value, 0)
            ]
        start = text.find("{", start + 1)
    return _cut_body_hits(text)


def _cut_body_hits(text: str) -> list[_Hit]:
    """A body's message up to where the line has it (:mod:`errcat.extract.cut_bodies`)."""
    cut = cut_body(text)
    if cut is None:
        return []
    start, message, closer, error_class = cut
    return [_Hit(start, len(text), error_class, message, "line", True, closer is not None, closer)]


def _error_dict_hits(text: str, hits: Sequence[_Hit]) -> list[_Hit]:
    """Validator messages in pydantic error dicts (:mod:`errcat.extract.error_dicts`).

    Those a body read whole already gave are not given twice.
    """
    known = {(hit.error_class, hit.message) for hit in hits}
    return [
        _Hit(start, end, error_class, message, "line", True, closer is not None, closer)
        for start, end, error_class, message, closer in error_dict_messages(text)
        if (error_class, message) not in known
    ]


def _object_hits(text: str) -> list[_Hit]:
    """Error bodies a client printed as a model's repr (:mod:`errcat.extract.objects`)."""
    return [
        _Hit(start, end, error_class, message, "line", True, False)
        for start, end, fields in keyword_objects(text)
        for error_class, message in _error_bodies(fields, 0)
    ]


def _parse_object(source: str) -> object:
    """JSON or a Python literal; ``_FAIL`` when neither."""
    if len(source) > _MAX_LITERAL:
        return _FAIL
    try:
        return json.loads(source)
    except (ValueError, RecursionError):
        pass
    if "\\'" in source:
        # A JSON body whose writer escaped single quotes (model\'s): not JSON, but meant so.
        try:
            return json.loads(source.replace("\\'", "'"))
        except (ValueError, RecursionError):
            pass
    return _parse_literal(source)


#: How pydantic words a validator's exception in its error list ("msg").
_PYDANTIC_MSG_PREFIXES: Final = (
    ("Value error, ", "ValueError"),
    ("Assertion failed, ", "AssertionError"),
)


def _error_bodies(value: object, depth: int) -> Iterator[tuple[str | None, str]]:
    """(type, message) of every error a JSON body holds, searched a few levels deep.

    An OpenAI-style body names its class (``{"message": ..., "type":
    "BadRequestError"}``); FastAPI's ``{"detail": "..."}`` names none; a pydantic
    error list (``{"detail": [{"msg": "Value error, ...", "type": "value_error"}]}``)
    carries a validator's ``ValueError`` or ``AssertionError``.
    """
    if depth > 6:
        return
    if isinstance(value, dict):
        error_type, message = value.get("type"), value.get("message")
        if isinstance(error_type, str) and isinstance(message, str) and message.strip():
            # A category ("type": "abort") says how the request ended, not what was raised.
            yield (error_type if _TYPE_NAME_RE.fullmatch(error_type) else None), message
            return
        detail, msg = value.get("detail"), value.get("msg")
        if isinstance(detail, str) and detail.strip():
            yield None, detail
            return
        if isinstance(msg, str) and isinstance(error_type, str) and msg.strip():
            for prefix, name in _PYDANTIC_MSG_PREFIXES:
                if msg.startswith(prefix):
                    yield name, msg[len(prefix) :]
                    return
            yield None, msg
            return
        children: list[object] = list(value.values())
    elif isinstance(value, list):
        children = list(value)
    else:
        return
    for child in children[:20]:
        yield from _error_bodies(child, depth + 1)


def _multiline_json(lines: Sequence[_Line], index: int) -> tuple[list[_Found], int] | None:
    """A pretty-printed HTTP error body starting with a line ``{``."""
    indent = _indent(lines[index].text)
    for last in range(index + 1, min(len(lines), index + _MAX_MULTILINE_JSON)):
        text = lines[last].text
        if text.strip() == "}" and _indent(text) == indent:
            source = "\n".join(line.text for line in lines[index : last + 1])
            value = _parse_object(source)
            if value is _FAIL:
                return None
            first, final = lines[index], lines[last]
            found = [
                _Found(ExceptionReport(cls, msg, (), first.start, final.end, "line"), True)
                for cls, msg in _error_bodies(value, 0)
            ]
            return (found, last) if found else None
    return None
