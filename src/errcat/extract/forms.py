"""Every form of a report's message a catalog pattern may match: what extraction knows of pastes.

A message reaches errcat decorated by whoever printed or copied it: HTML
entities from a web page, a chat client's dash for a flag's ``--``, a terminal's
fixed-width wrap, an issue title's tags and words, a writer's ``...`` where the
text was cut, ``KeyError``'s quotes, ``OSError``'s ``[Errno 2]``, a JSON
decoder's position, tips after a blank line. :func:`message_forms` lists the
message as printed, then each form that such decoration hides, whitespace
folded; the matcher tries every one.

>>> from errcat.extract import extract_reports
>>> message_forms(extract_reports("[Bug]: ValueError: bad value &quot;x&quot;...")[0])
['bad value &quot;x&quot;...', 'bad value "x"...', 'bad value "x"']
"""

from __future__ import annotations

import re

from errcat.extract.cjk import cjk_tail
from errcat.extract.glued import unglued
from errcat.extract.literals import literal_eval
from errcat.extract.reports import ExceptionReport
from errcat.text import fold_whitespace, short_class

__all__ = ["message_forms"]

#: The narrowest fixed-width wrap read as one (terminals wrap at 80 or more), and the most
#: lines such a message may span.
_MIN_WRAP_WIDTH = 24
_MAX_WRAPPED_LINES = 40
#: An HTML character reference (``&#39;``, ``&#x27;``, ``&lt;``, ``&quot;``).
_HTML_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")
#: An en or em dash glued to the word after it, where a flag's ``--`` was: typographic
#: dashes never start a word in a message as printed.
_CHAT_DASH = re.compile(r"(?<![\w-])[\u2013\u2014](?=[A-Za-z])")
#: The mark a writer (or an issue tracker's title) leaves where it cut a message off:
#: ``...``, ``…``, ``[...]``, ``(truncated)``.
_CUT_MARK = re.compile(
    r"\s*(?:\.{3,}|…|\[(?:\.{3}|…)\]|[(\[]truncated[)\]])(?:\s*[(\[]truncated[)\]])?\s*$",
    re.IGNORECASE,
)
#: How many lines of a class-less paste are tried one by one.
_MAX_TEXT_LINES = 2000
_ERRNO = re.compile(r"^\[(?:Errno|WinError) -?\d+\] ")
_JSON_POSITION = re.compile(r": line \d+ column \d+ \(char \d+\)$")
#: Context a wrapper puts before a re-raised message: ``[address=0.0.0.0:1, pid=7] ``.
#: Tags an issue title puts before the error it quotes: ``[Bug]: ``, ``[Usage][V1] ``.
_TITLE_TAGS = re.compile(r"^(?:\[[A-Za-z][\w .,/+-]{0,30}\] ?)+:? ")
#: A few words of a title's own before a colon, and how long the rest must be to be read
#: as the message they introduce. The words may be a model's or a tool's name
#: (``deepseek-v4-flash-0731: ``, ``Qwen/Qwen3-8B with TP=2: ``), but not a program's:
#: ``launch_server.py: error: ...`` and ``vllm: error: ...`` are argparse naming the
#: program it stops (``{prog}: error: {message}``), part of the message.
_PROSE_LEAD = re.compile(r"^[A-Za-z][\w.+/=-]*(?: [\w][\w.+/=-]*){0,5}(?<!\.py): (?!error: )(?=\S)")
_PROSE_LEAD_REST = 20
#: A title's own project and version before the message it quotes: ``vllm v0.14.0 ``,
#: ``SGLang 0.5.2: ``, ``vLLM 0.6.3.post1, `` (one to three words, the last a release).
_VERSION_LEAD = re.compile(
    r"^[A-Za-z][\w.+/-]*(?: [A-Za-z][\w.+/-]*){0,2} v?\d+(?:\.\d+)+(?:\.?(?:post|rc|dev)\d*)?"
    r"[,:]? (?!(?:is|are|was|were|has|have|had|not|must|should|requires?|and|or)\b)(?=\S)",
    re.IGNORECASE,
)
#: A quoted stretch of prose long enough to be a message; a title also puts the message
#: it quotes in parentheses: ``Server hangs at start (No available shared memory ...)``.
_QUOTED = re.compile(r'"([^"\n]{20,})"|`([^`\n]{20,})`|\(([^()\n]{20,})\)')
#: A title's own words and the message, set apart by a dash or a bar: ``Model loading
#: fails - Cannot find the config file``.
_TITLE_DASH = re.compile(r" [-\u2013\u2014|] ")
#: A quoted name the message ends with, then a writer's own words (an issue title):
#: ``No module named 'vllm._C' at first start``. The words hold no quote, colon or
#: bracket: a program's message that goes on after the name (``Model 'x' is not
#: supported: ...``) is tried as printed first, and a template never ends mid-quote.
_NAME_THEN_WORDS = re.compile(r"""^([^'"\n]*?(['"])[^'"\s]+\2) [A-Za-z][\w ,.-]*$""")
#: Blank lines between the paragraphs of a message's tail.
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_CONTEXT_TAGS = re.compile(r"^\[[\w.-]+=[^,\]\s]*(?:, ?[\w.-]+=[^,\]\s]*)*\] ")
#: A writer's own sentence glued to the message's last word: ``... in Qwen2ForCausalLM.When
#: use GGUF``. It opens with a word that opens sentences, not a name: ``torch.Tensor but``
#: and ``transformers.AutoModel`` are dotted names.
_GLUED_SENTENCE = re.compile(
    r"(?<=[\w)\]'\"])\.(?=(?:When|While|How|What|Why|Is|Are|Any|Please|Also|But|And|It|This|"
    r"That|The|Then|After|Using|With|Can|Could|Does|Do|Help|Need|I) [a-z])"
)


#: A question or exclamation mark a writer put after the message it quotes, where the
#: message's own period was or where the writer cut it (a title asks: ``... are not
#: supported for now?``). Programs seldom end a message so; when one does, the form as
#: written comes first and still explains it.
_WRITER_MARK = re.compile(r"(?<=[\w)\]'\"])[ \t]*[?!]$")


#: A line break lost between two sentences of a message: ``batch size.Try to allocate``
#: where the message printed ``batch size.\nTry to allocate`` (a title, a Markdown
#: paragraph, a log viewer join the lines). A capitalised word right after a period that
#: ends a word: dotted names go on with a lowercase letter or are CamelCase.
_LOST_BREAK = re.compile(r"(?<=[a-z0-9)\]'\"])\.(?=[A-Z][a-z]+\b)")


def message_forms(report: ExceptionReport) -> list[str]:
    """The message as printed plus the forms the exception's own decoration hides."""
    message = report.message
    if not message.strip():
        # ``AssertionError`` alone under its frames (``assert x is not None``): the empty
        # message, which only a record raised without one, at the raise frame, explains.
        return [""] if report.frames and report.error_class else []
    out = [message]
    if "&" in message and _HTML_ENTITY.search(message):
        # Copied from HTML (a CI page, a log viewer's export): &#39;x&#39;, &lt;class 'int'&gt;.
        import html

        out.append(html.unescape(message))
        message = out[-1]
    flags = _CHAT_DASH.sub("--", message)
    if flags != message:
        # A chat client or a Markdown renderer made a command-line flag's "--" a dash
        # ("—max-model-len"): every form below is read with the flag put back.
        out.append(flags)
        message = flags
    # The lines as pasted: a text's lines are tried one by one even when they look like
    # a terminal's wrap (three log lines, the middle one the longest, are read as one),
    # unless they hold a traceback's frames (a cut traceback is read joined, as before).
    printed = message
    if _hard_wrapped(message):
        joined = message.replace("\n", "")
        if message.count("\n") >= 2:
            # Three lines or more of one width are a wrap for sure: the joined text
            # comes first (a value the wrap broke is captured whole) and every form
            # below is read from it.
            out.insert(0, joined)
            message = joined
        else:  # two lines may be two
            out.append(joined)
    short = short_class(report.error_class) if report.error_class else None
    stripped = message.strip()
    cut = _CUT_MARK.search(stripped)
    if cut and cut.start() > 0:
        # Cut off by its writer: the text before the mark, which may end partway
        # through the pattern (a mark the template itself ends with matched as printed).
        out.append(stripped[: cut.start()])
    # KeyError and its subclasses (whatever their names) print their message quoted.
    if short and len(stripped) >= 2 and stripped[0] in "'\"" and stripped[-1] == stripped[0]:
        try:
            value = literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = None
        if isinstance(value, str):
            out.append(value)
    if stripped.startswith("(") and stripped.endswith(")") and "," in stripped:
        # str(exc) of an exception raised with several arguments: its args tuple.
        try:
            args = literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            args = None
        if isinstance(args, tuple) and args and isinstance(args[0], str):
            out.append(args[0])
    errno = _ERRNO.match(stripped)
    if errno:
        out.append(stripped[errno.end() :])
    if "`" in stripped:
        # Markdown code marks the writer put around a value or the message
        # (``model type `qwen3_moe` but``): the message as printed had none.
        out.append(stripped.replace("`", ""))
    tags = _CONTEXT_TAGS.match(stripped) or _TITLE_TAGS.match(stripped)
    untagged = stripped[tags.end() :] if tags else None
    if untagged:
        out.append(untagged)
    for form in (stripped, untagged):
        if not form:
            continue
        if form.endswith(".") and not form.endswith(".."):
            out.append(form[:-1])  # a period the writer added after the message
    position = _JSON_POSITION.search(stripped)
    if position:
        out.append(stripped[: position.start()])
    if report.kind == "text":
        # A message quoted in prose (an issue title): "...", `...`.
        out.extend(q.group(1) or q.group(2) or q.group(3) for q in _QUOTED.finditer(stripped))
        # A title's own words before a colon: "Contradictory suggestions: <message>", the
        # colon's space put back where the writer glued it (errcat.extract.glued).
        leads = [f for f in (stripped, untagged) if f]
        leads.extend(spaced for spaced in map(unglued, leads) if spaced is not None)
        for form in dict.fromkeys(leads):
            lead = _PROSE_LEAD.match(form)
            if lead and len(form) - lead.end() >= _PROSE_LEAD_REST:
                out.append(form[lead.end() :])
            # "vllm v0.14.0 GGUF model with architecture x is not supported": the release
            # the writer runs, then the message.
            version = _VERSION_LEAD.match(form)
            if version and len(form) - version.end() >= _PROSE_LEAD_REST:
                out.append(form[version.end() :])
            for dash in _TITLE_DASH.finditer(form):
                if len(form) - dash.end() >= _PROSE_LEAD_REST:
                    out.append(form[dash.end() :])
            # The writer's words in Chinese (or Japanese, Korean) before the message:
            # "...报错<full-width colon><message>" (errcat.extract.cjk).
            tail = cjk_tail(form)
            if tail is not None:
                out.append(tail)
    if report.kind in ("line", "text") and not report.frames:
        named = _NAME_THEN_WORDS.match(untagged or stripped)
        if named:
            out.append(named.group(1))
    if _LOST_BREAK.search(stripped):
        out.append(_LOST_BREAK.sub(". ", stripped))
    glued = _GLUED_SENTENCE.search(stripped)
    if glued:
        # The message ended at that period; the writer's words follow it (a title).
        out.append(stripped[: glued.start()])
    pasted = message if report.frames else printed
    if report.kind == "text" and "\n" in pasted:
        lines = [line for line in pasted.splitlines() if line.strip()]
        out.extend(lines[:_MAX_TEXT_LINES])
    elif "\n" in stripped and not stripped.split("\n", 1)[1][:1].isspace():
        # A line the paste put under the message, flush left (the writer's next sentence,
        # a command; an indented one goes on with the message): the first line alone may
        # be the whole message. The message as printed stays first, so a template that
        # spans lines still explains it all.
        out.append(stripped.split("\n", 1)[0])
    if report.tail:
        # A message that goes on after a blank line (tips): each paragraph more is tried,
        # as printed and without its tags. The message as it ended stays first, so text
        # that merely follows it changes nothing.
        paragraphs = _PARAGRAPH_BREAK.split(report.tail.strip())
        for form in dict.fromkeys(f for f in (stripped, untagged) if f):
            out.extend(
                "\n\n".join([form, *paragraphs[:taken]]) for taken in range(1, len(paragraphs) + 1)
            )
    seen: set[str] = set()
    folded = []
    for variant in out:
        f = fold_whitespace(variant)
        mark = _WRITER_MARK.search(f)
        # The writer's "?" or "!" after the message (a title's question): right after the
        # form as written, the message without it, which may end partway through its
        # template (a cut-off message is looked for in the first forms only).
        for form in (f, f[: mark.start()] if mark is not None and mark.start() > 0 else ""):
            if form and form not in seen:
                seen.add(form)
                folded.append(form)
    if report.kind == "text" and "\n" not in message.strip():
        # A writer quoting a message in prose recases its first letter: a title's
        # "Cannot ..." for "cannot ...", "expected ..." for "Expected ...". Programs print
        # their own case, so only a line of prose (a title) gets these forms, after every
        # form as written.
        for f in list(folded):
            recased = _recase_first(f)
            if recased is not None and recased not in seen:
                seen.add(recased)
                folded.append(recased)
    return folded


def _recase_first(text: str) -> str | None:
    """The text with its first letter's case swapped, or None when that says nothing new.

    Only a word's first letter: ``ValueError``, ``GPU`` or ``iPhone`` as a
    first word are names, not sentence case, and keep theirs.

    >>> _recase_first("cannot find the config")
    'Cannot find the config'
    >>> _recase_first("Expected a tensor")
    'expected a tensor'
    >>> _recase_first("GPU 0 is busy") is None, _recase_first("42 items") is None
    (True, True)
    """
    first = text.split(" ", 1)[0]
    if not first[:1].isalpha() or any(c.isupper() for c in first[1:]):
        return None
    head = text[0]
    swapped = head.lower() if head.isupper() else head.upper()
    return None if swapped == head else swapped + text[1:]


def _hard_wrapped(message: str) -> bool:
    r"""Whether a message's line breaks look like a fixed-width wrap (a terminal's copy).

    Such a wrap breaks wherever the width falls, mid-word too, so the message
    reads whole only with the breaks taken out. Every line but the first and
    the last is that width (the first is less: it followed the class, and
    maybe a log prefix, on its line); of two lines, the first must be long.

    >>> _hard_wrapped("DeepEP v2 MoE is not valid\nated as a speculative draft backend.")
    True
    >>> _hard_wrapped("Model not found.\nTry one of the models below.")
    False
    """
    lines = message.split("\n")
    if len(lines) == 2:
        return len(lines[0]) >= _MIN_WRAP_WIDTH
    if not 2 < len(lines) <= _MAX_WRAPPED_LINES:
        return False
    width = len(lines[1])
    return (
        width >= _MIN_WRAP_WIDTH
        and all(len(line) == width for line in lines[1:-1])
        and len(lines[0]) <= width
        and len(lines[-1]) <= width
    )
