"""Jinja's ``UndefinedError``: a chat template read a name, attribute or element that is not there.

Jinja renders a missing value as an ``Undefined`` object; using it (printing it
in strict mode, calling it, ``tojson``, reading an attribute of it) raises
``jinja2.exceptions.UndefinedError`` with a text its ``_undefined_message``
property builds (runtime.py; the records' templates name its parts plainly: the name and
the key in quotes, the object's type as ``object_type_repr`` prints it): ``'x' is undefined`` for a variable the render was
not given, ``'dict object' has no attribute 'name'`` for a key a dict lacks,
``list object has no element 0`` for an index past the end. The raise
(``_fail_with_undefined_error``) passes that property, not a literal, so the mined
record of the raise says nothing and the texts had no record: pastes of them got no
answer. In the engines' servers the template is the model's chat template, rendered
by transformers' ``apply_chat_template`` with the request's messages and tools: the
usual fault is a request (or a client) whose tools or tool calls lack the keys the
template reads, or a template written for a variable the engine does not pass.

Read in the jinja2 3.1.6 wheel (src/jinja2/runtime.py: the property at lines 831-849,
the raise at line 859). Threads learned from (even-numbered, in
benchmarks/data/study_stack.jsonl or read beside it): sgl-project/sglang#9166 (gpt-oss
with tools: ``'dict object' has no attribute 'name'``), sgl-project/sglang#20700 (a
template's ``tojson`` of an undefined tool field, answered 500 instead of 400).

>>> import regex
>>> attr = ATTRIBUTE.envelope().record.message_pattern
>>> bool(regex.fullmatch(attr, "'dict object' has no attribute 'function'"))
True
>>> bool(regex.fullmatch(attr, "'dict' object has no attribute 'function'"))
False
>>> bool(regex.fullmatch(NAME.envelope().record.message_pattern, "'strftime_now' is undefined"))
True
>>> bool(regex.fullmatch(ELEMENT.envelope().record.message_pattern, "list object has no element 0"))
True
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["ATTRIBUTE", "ELEMENT", "NAME", "RECORDS"]

JINJA = "pallets/jinja"
TAG = "3.1.6"
PATH = "src/jinja2/runtime.py"
LINE = 859
ERROR_CLASS = "jinja2.exceptions.UndefinedError"
_TAGS = ("chat-template", "jinja2")
_REFERENCES = (
    "https://jinja.palletsprojects.com/en/stable/api/#undefined-types",
    "https://huggingface.co/docs/transformers/main/en/chat_templating",
)

_TEMPLATE_FLAG = (
    "Or serve the model with a chat template that reads only what the requests send:"
    " vllm serve M --chat-template ./template.jinja, sglang --chat-template"
    " ./template.jinja (the model card's newer template, or a copy of the model's"
    " template that checks the key with 'is defined' before reading it)"
)

NAME = Curated(
    repo=JINJA,
    path=PATH,
    line=LINE,
    revision=TAG,
    error_class=ERROR_CLASS,
    template="'{name}' is undefined",
    pattern=r"'(.+?)' is undefined",
    error_type="validation",
    documentation="The template uses a variable the render was not given (Jinja's"
    " Undefined for a missing name). In a chat template that is a variable the model's"
    " template expects the caller to pass (a date helper such as strftime_now that only"
    " newer transformers releases define, or a template-specific argument such as a"
    " guideline or a thinking switch), or one a client-side template names and the"
    " engine does not provide.",
    solutions=(
        "Pass the variable with the request: the engines forward chat_template_kwargs"
        ' to the template, e.g. {"chat_template_kwargs": {"enable_thinking": false}} in'
        " the body of /v1/chat/completions",
        "For a helper of transformers' own (strftime_now, raise_exception): upgrade"
        " transformers, pip install -U transformers, within the range your engine pins",
        _TEMPLATE_FLAG,
    ),
    example_fix='# before\n{"messages": [...]}\n# after\n{"messages": [...],'
    ' "chat_template_kwargs": {"guideline": "No violence."}}',
    trigger="A chat request rendered by a template that reads a variable neither the"
    " engine nor the request supplies.",
    tags=_TAGS,
    references=_REFERENCES,
)

ATTRIBUTE = Curated(
    repo=JINJA,
    path=PATH,
    line=LINE,
    revision=TAG,
    error_class=ERROR_CLASS,
    template="'{type_name} object' has no attribute '{name}'",
    pattern=r"'(.+?) object' has no attribute '(.+?)'",
    error_type="validation",
    documentation="The template read a key (tool.function, tool_call.name, message.content)"
    " that the object it reads lacks: Jinja names the object's type ('dict object') and"
    " the missing key. In a chat template the object is almost always a message, a tool"
    " or a tool call of the request: tools sent without the OpenAI wrapper"
    ' {"type": "function", "function": {...}}, tool calls without a name or with'
    " arguments in another shape, or a template written for another tool format than the"
    " one the engine passes (tool parsers that unwrap 'function' for some templates).",
    solutions=(
        'Send tools in the OpenAI shape: {"type": "function", "function": {"name": N,'
        ' "description": D, "parameters": P}}, and assistant tool_calls with "id", "type":'
        ' "function" and "function": {"name": N, "arguments": "<JSON string>"}',
        "Serve the model with the tool parser its card names (vllm serve M"
        " --enable-auto-tool-choice --tool-call-parser hermes; sglang --tool-call-parser"
        " qwen25), so the engine renders tools as the template expects",
        _TEMPLATE_FLAG,
    ),
    example_fix='# before\n"tools": [{"name": "get_weather", "parameters": {...}}]\n# after\n'
    '"tools": [{"type": "function", "function": {"name": "get_weather", "parameters":'
    " {...}}}]",
    trigger="A chat request (usually with tools or tool calls) whose messages lack a key"
    " the model's chat template reads.",
    tags=_TAGS,
    references=(*_REFERENCES, "https://github.com/sgl-project/sglang/issues/9166"),
)

ELEMENT = Curated(
    repo=JINJA,
    path=PATH,
    line=LINE,
    revision=TAG,
    error_class=ERROR_CLASS,
    template="{type_name} object has no element {index}",
    pattern=r"(.+?) object has no element (.+?)",
    error_type="validation",
    documentation="The template indexed a list or string past its end (messages[0] of an"
    " empty conversation, content[0] of an empty content list): Jinja names the object's"
    " type and the index it could not read.",
    solutions=(
        "Send at least one message, and give each message's content as a non-empty"
        ' string or list of parts ({"type": "text", "text": T})',
        _TEMPLATE_FLAG,
    ),
    example_fix='# before\n{"messages": []}\n# after\n{"messages": [{"role": "user",'
    ' "content": "Hi"}]}',
    trigger="A chat request with an empty message list or empty content, to a template"
    " that indexes it.",
    tags=_TAGS,
    references=_REFERENCES,
)

RECORDS = (NAME, ATTRIBUTE, ELEMENT)
