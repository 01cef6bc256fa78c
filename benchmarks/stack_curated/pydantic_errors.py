"""pydantic-core's validation error types, as a ``ValidationError`` prints each line.

pydantic-core renders its messages in Rust (``src/errors/types.rs``,
``ErrorType::message_template_python``), where no Python miner reads them. A
``ValidationError`` prints one line per failed field::

    1 validation error for ChatCompletionRequest
    max_tokens
      Input should be a valid integer, unable to parse string as an integer [type=int_parsing, ...

:func:`records` reads every ``Self::Name {..} => "template"`` arm of that file
at a pinned commit and makes one record per type, its template the message and
the ``[type=<code>, input_value=..., input_type=...]`` suffix (the code makes a
short message such as ``Field required`` distinctive). The advice is written
for the person who sent the input: the field named on the line above the
message is what they change. Common types have their own advice; the others
share one.

>>> arms = parse_arms('   Self::IntType {..} => "Input should be a valid integer",\\n')
>>> arms
[(1, 'int_type', 'Input should be a valid integer')]
>>> spec = type_record(*arms[0], revision="0" * 40)
>>> spec.template
'Input should be a valid integer [type=int_type, input_value={input_value}, input_type={input_type}]'
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from errcat.tags import WRAPPER_TAG
from stack_curated.spec import Curated

__all__ = ["ADVICE", "header_record", "parse_arms", "records", "type_record"]

REPO = "pydantic/pydantic-core"
TYPES_PATH = "src/errors/types.rs"
HEADER_PATH = "src/errors/validation_exception.rs"
_ARM = re.compile(r'^\s*Self::(\w+) \{\.\.\} => "((?:[^"\\]|\\.)+)",')
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")

_FIELD = (
    "The line above the message names the field (its location: a request field such as"
    " max_tokens, or a nested one such as messages.0.content; 'body' is the request body)."
)
_READ_FIELD = (
    "Find the field on the line just above the message and fix its value in the request"
    " (the JSON body you send, or the keyword argument / flag that sets it)"
)

#: Advice of the types users meet most: (documentation, solutions, example fix).
ADVICE: dict[str, tuple[str, tuple[str, ...], str]] = {
    "missing": (
        "A field that has no default was not sent. " + _FIELD,
        (
            "Add the field named above the message to the request: an OpenAI-style chat"
            ' request needs "model" and "messages"; a completion request needs'
            ' "prompt"',
            "If the field is spelled differently in your request (prompt vs messages,"
            " max_tokens vs max_completion_tokens), use the name the endpoint expects",
        ),
        '# before\n{"messages": [{"role": "user", "content": "hi"}]}\n'
        '# after\n{"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": "hi"}]}',
    ),
    "extra_forbidden": (
        "The input holds a field the model does not define and is set to refuse unknown"
        " fields: a misspelt field, one the installed release does not know yet, or one"
        " meant for another endpoint. " + _FIELD,
        (
            "Remove or rename the field named above the message; check the spelling"
            " against the endpoint's or config class's documentation for the installed"
            " release",
            "If the field is new, upgrade the package that defines the model (the engine:"
            " pip install -U vllm or pip install -U sglang)",
        ),
        '# before\n{"max_token": 64}\n# after\n{"max_tokens": 64}',
    ),
    "int_parsing": (
        "A field that wants an integer got a string that is not one ('8k', '1.5', an"
        " empty string). " + _FIELD,
        (
            'Send the field as a JSON number of whole units: "max_tokens": 128, not'
            ' "128" with a unit or a decimal point',
        ),
        '# before\n{"max_tokens": "1k"}\n# after\n{"max_tokens": 1024}',
    ),
    "int_type": (
        "A field that wants an integer got another kind of value (a list, null, an"
        " object). " + _FIELD,
        ('Send the field as a whole number: "n": 1', _READ_FIELD),
        '# before\n{"n": null}\n# after\n{"n": 1}',
    ),
    "int_from_float": (
        "A field that wants an integer got a number with a fractional part. " + _FIELD,
        ('Round the value to a whole number before sending it: "max_tokens": 512, not 512.5',),
        '# before\n{"max_tokens": 512.5}\n# after\n{"max_tokens": 512}',
    ),
    "float_parsing": (
        "A field that wants a number got a string that is not one. " + _FIELD,
        ('Send the field as a JSON number: "temperature": 0.7, not "0,7" or "warm"',),
        '# before\n{"temperature": "0,7"}\n# after\n{"temperature": 0.7}',
    ),
    "float_type": (
        "A field that wants a number got another kind of value. " + _FIELD,
        ('Send the field as a JSON number: "top_p": 0.9', _READ_FIELD),
        '# before\n{"top_p": [0.9]}\n# after\n{"top_p": 0.9}',
    ),
    "string_type": (
        "A field that wants text got another kind of value: a list of content parts"
        " where this model or endpoint takes a plain string, a number, or null. " + _FIELD,
        (
            'Send the field as a string: "content": "hello"; for content parts'
            " (images, audio) use an endpoint and model that accept them",
            _READ_FIELD,
        ),
        '# before\n{"prompt": 42}\n# after\n{"prompt": "42"}',
    ),
    "bool_parsing": (
        "A field that wants true or false got a value that reads as neither. " + _FIELD,
        ('Send the field as a JSON boolean: "stream": true (not "yes" or 2)',),
        '# before\n{"stream": "on"}\n# after\n{"stream": true}',
    ),
    "literal_error": (
        "A field accepts only the values listed after 'Input should be'; another value"
        " was sent. " + _FIELD,
        (
            "Send one of the values the message lists, spelled as it spells them:"
            ' "tool_choice": "auto", "role": "assistant"',
        ),
        '# before\n{"tool_choice": "any"}\n# after\n{"tool_choice": "auto"}',
    ),
    "enum": (
        "A field accepts only the values listed after 'Input should be'; another value"
        " was sent. " + _FIELD,
        ("Send one of the values the message lists, spelled exactly as listed",),
        '# before\n{"dtype": "bf16"}\n# after\n{"dtype": "bfloat16"}',
    ),
    "greater_than_equal": (
        "A numeric field is below its lower bound. " + _FIELD,
        ('Raise the value to at least the bound the message names: "max_tokens": 1 or more',),
        '# before\n{"max_tokens": 0}\n# after\n{"max_tokens": 16}',
    ),
    "greater_than": (
        "A numeric field is at or below its lower bound. " + _FIELD,
        ('Send a value above the bound the message names: "temperature" above 0',),
        '# before\n{"top_p": 0}\n# after\n{"top_p": 0.9}',
    ),
    "less_than_equal": (
        "A numeric field is above its upper bound. " + _FIELD,
        ('Lower the value to at most the bound the message names: "top_p": 1.0 at most',),
        '# before\n{"top_p": 1.5}\n# after\n{"top_p": 1.0}',
    ),
    "less_than": (
        "A numeric field is at or above its upper bound. " + _FIELD,
        ("Send a value below the bound the message names",),
        '# before\n{"presence_penalty": 2.5}\n# after\n{"presence_penalty": 1.5}',
    ),
    "string_too_long": (
        "A text field is longer than its limit. " + _FIELD,
        ("Shorten the text to the number of characters the message names",),
        '# before\n{"stop": "<a very long stop string>"}\n# after\n{"stop": "###"}',
    ),
    "too_long": (
        "A list field has more items than its limit. " + _FIELD,
        ("Send at most the number of items the message names (split the request in two)",),
        '# before\n{"stop": ["a", "b", "c", "d", "e"]}\n# after\n{"stop": ["a", "b", "c", "d"]}',
    ),
    "list_type": (
        "A field that wants a list got a single value or an object. " + _FIELD,
        ('Wrap the value in a JSON list: "stop": ["###"], "messages": [{...}]',),
        '# before\n{"messages": {"role": "user", "content": "hi"}}\n'
        '# after\n{"messages": [{"role": "user", "content": "hi"}]}',
    ),
    "dict_type": (
        "A field that wants a JSON object got a string, a list or null. " + _FIELD,
        (
            'Send the field as a JSON object: "response_format": {"type":'
            ' "json_object"}; on a command line pass the JSON in single quotes',
        ),
        '# before\n{"response_format": "json"}\n# after\n{"response_format": {"type": "json_object"}}',
    ),
    "json_invalid": (
        "The request body (or a field that holds JSON text) is not valid JSON: a trailing"
        " comma, single quotes, an unescaped newline or a cut-off body.",
        (
            "Validate the body before sending it (python -m json.tool body.json); use"
            " double quotes and no trailing commas",
            "With curl, send the body from a file (curl -d @body.json) so the shell does"
            " not change the quotes",
        ),
        "# before\ncurl ... -d \"{'model': 'M'}\"\n# after\ncurl ... -d '{\"model\": \"M\"}'",
    ),
    "model_type": (
        "A field that holds a nested object got a string or a list instead. " + _FIELD,
        ("Send the field as a JSON object with the nested fields the message's class needs",),
        '# before\n{"messages": ["hi"]}\n# after\n{"messages": [{"role": "user", "content": "hi"}]}',
    ),
    "dataclass_type": (
        "A field that holds a nested config got a value of another kind. " + _FIELD,
        ("Send the field as a JSON object (on a command line: a JSON text in single quotes)",),
        "# before\n--compilation-config 3\n# after\n--compilation-config '{\"level\": 3}'",
    ),
    "union_tag_invalid": (
        "A field whose 'type' (or other tag) picks one of several shapes got a tag the"
        " installed release does not know (a content part type such as 'input_audio',"
        " a tool type). " + _FIELD,
        (
            "Use one of the tags the message lists after 'expected tags'",
            "If the tag is new, upgrade the engine to a release that supports it",
        ),
        '# before\n{"type": "image"}\n# after\n{"type": "image_url"}',
    ),
    "value_error": (
        "A validator of the model rejected the value and said why after 'Value error,'."
        " In the engines this wraps their own checks of a config or a request (vllm's"
        " ModelConfig wraps the error raised while reading the model's config). " + _FIELD,
        (
            "Read the text after 'Value error,': it is the real error; look it up on its"
            " own (errcat match on that line) and fix what it names",
        ),
        "# before\nvllm serve ./model --max-model-len 1000000\n"
        "# after\nvllm serve ./model --max-model-len 32768",
    ),
    "assertion_error": (
        "An assert in a validator of the model failed; the text after 'Assertion failed,'"
        " says which. " + _FIELD,
        ("Read the text after 'Assertion failed,' and fix the value it names",),
        '# before\n{"n": 0}\n# after\n{"n": 1}',
    ),
}

_GENERIC = (
    "The input's value for one field does not have the type or form the model wants; the"
    " message says what it wants. " + _FIELD,
    (
        _READ_FIELD,
        "Compare the value with what the message asks for (its input_value shows what was sent)",
    ),
    '# before\n{"seed": "random"}\n# after\n{"seed": 42}',
)


def parse_arms(text: str) -> list[tuple[int, str, str]]:
    """The ``Self::Name {..} => "template"`` arms of ``types.rs``: line, type code, template."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        found = _ARM.match(line)
        if found:
            code = _CAMEL.sub("_", found.group(1)).lower()
            out.append((number, code, found.group(2).replace('\\"', '"')))
    return out


def type_record(line: int, code: str, message: str, *, revision: str) -> Curated:
    """The record of one error type, as a ``ValidationError`` prints its line."""
    documentation, solutions, fix = ADVICE.get(code, _GENERIC)
    wraps = code in ("value_error", "assertion_error")
    return Curated(
        repo=REPO,
        path=TYPES_PATH,
        line=line,
        revision=revision,
        error_class="pydantic_core.ValidationError",
        template=f"{message} [type={code}, input_value={{input_value}}, input_type={{input_type}}]",
        documentation=documentation,
        solutions=solutions,
        example_fix=fix,
        error_type="validation",
        tags=("pydantic", f"pydantic:type:{code}", *((WRAPPER_TAG,) if wraps else ())),
        trigger="Sending a request (or a config) whose field has a value of the wrong type"
        " or form.",
    )


def header_record(line: int, revision: str) -> Curated:
    """``1 validation error for ModelConfig``: the first line, a wrapper of the lines below."""
    return Curated(
        repo=REPO,
        path=HEADER_PATH,
        line=line,
        revision=revision,
        error_class="pydantic_core.ValidationError",
        template="{count} validation error{plural} for {title}",
        pattern=r"(.+?) validation error(.*?) for (.+?)",
        documentation="pydantic rejected the input of the class named after 'for' (a"
        " request such as ChatCompletionRequest, or an engine config such as ModelConfig)."
        " Each failed field follows on two lines: its location, then the message with"
        " [type=...]. The message lines are the errors to read: for 'Value error, ...'"
        " the text after the comma is the engine's own error.",
        solutions=(
            "Read the lines below this one: the field's location, then what it wants;"
            " fix that field's value",
            "For an engine config (ModelConfig, CacheConfig, ...) the field is a flag of"
            " the same name (max_model_len is --max-model-len)",
        ),
        example_fix="# before\nvllm serve M --max-model-len 1k\n# after\nvllm serve M --max-model-len 1024",
        error_type="validation",
        tags=("pydantic", WRAPPER_TAG),
    )


def records(mirror: Path, revision: str) -> list[Curated]:
    """Every error type's record and the header's, read from a pydantic-core git mirror."""

    def show(path: str) -> str:
        try:
            return subprocess.run(
                ["git", "-C", str(mirror), "show", f"{revision}:{path}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError) as exc:
            raise SystemExit(
                f"cannot read {path} at {revision} from the pydantic-core mirror {mirror}:"
                " clone github.com/pydantic/pydantic-core there (a bare clone), or pass"
                " --mirrors"
            ) from exc

    out = [
        type_record(line, code, message, revision=revision)
        for line, code, message in parse_arms(show(TYPES_PATH))
        if message
    ]
    header = show(HEADER_PATH).splitlines()
    line = next(i for i, text in enumerate(header, 1) if "validation error{plural}" in text)
    return [header_record(line, revision), *out]
