"""openai-harmony's parser errors: gpt-oss output the Harmony format cannot read.

vLLM and SGLang read gpt-oss's output through openai-harmony's
``StreamableParser`` (``parser.process(token_id)``). The parser is Rust: when
the model's tokens do not follow the Harmony format, ``process`` returns an
``anyhow`` error that the binding raises as ``openai_harmony.HarmonyError``
(a ``RuntimeError``), so no ``raise`` of the mined Python side holds the text.
Users meet it while serving gpt-oss, mostly with tool calls or a long answer,
and the engine logs it as ``Error in chat completion stream generator``.

Sources: openai/harmony ``src/encoding.rs`` at ``v0.0.4`` (the release the
engines pin: ``StreamableParser::process`` and its header parsing), and even
threads: openai/harmony#60 (a newer copy of the model's files ended 'Unexpected
token 12606'), openai/harmony#38 and #80 (malformed headers, refusals written
without the channel tokens), vllm-project/vllm#46464 (the engine's parser
should not let a ``HarmonyError`` end the stream).

>>> import regex
>>> [
...     bool(regex.fullmatch(r.envelope().record.message_pattern, text))
...     for r, text in (
...         (START, "Unexpected token 12606 while expecting start token 200006"),
...         (HEADER, 'unexpected tokens remaining in message header: ["<|constrain|>response"]'),
...         (EOS, "Unexpected EOS while waiting for message header to complete"),
...     )
... ]
[True, True, True]
>>> len(RECORDS)
3
"""

from __future__ import annotations

from functools import partial

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = ["EOS", "HEADER", "RECORDS", "START"]

_REPO = "openai/harmony"
_PATH = "src/encoding.rs"
_REVISION = "v0.0.4"
_CLASS = "openai_harmony.HarmonyError"
# Raised in the compiled binding: the frames shown end in openai_harmony's
# __init__.py (process), which holds no raise of this text.
_TAGS = ("openai-harmony", "gpt-oss", "serving", HIDDEN_SITE_TAG)
#: Every record here: the parser's file at the pinned release, the binding's class.
_record = partial(
    Curated,
    repo=_REPO,
    path=_PATH,
    revision=_REVISION,
    error_class=_CLASS,
    error_type="runtime",
    tags=_TAGS,
)
_UPGRADE = (
    "Upgrade the engine and the parser: pip install -U vllm openai-harmony (openai-harmony"
    " 0.0.8 or newer); newer engines keep the stream alive when the parser refuses a token"
)
_MODEL_FILES = (
    "Fetch the model's current files again, since gpt-oss's generation_config.json and"
    " tokenizer files were corrected after release: huggingface-cli download"
    " openai/gpt-oss-20b --include '*.json' --force-download (or openai/gpt-oss-120b)"
)

START = _record(
    line=1095,
    template="Unexpected token {token} while expecting start token {start}",
    pattern=r"Unexpected token (\d+) while expecting start token (\d+)",
    documentation="The Harmony parser that reads gpt-oss's output expected a new message to"
    " begin with the start token (<|start|>, id 200006) and got another token: the model"
    " wrote plain text (12606 and 13 are ordinary text tokens) or an end token where the"
    " next message's header should be. The model did not follow the Harmony format, most"
    " often in a tool call or after a refusal, with model files older than the fixed"
    " release or sampling settings that keep it from stopping; the engine only passes the"
    " tokens on.",
    solutions=(
        _MODEL_FILES,
        _UPGRADE,
        "Let the model stop where it wants to: leave ignore_eos unset (false) and max_tokens"
        " large enough for the reasoning and the answer",
    ),
    example_fix="pip install -U vllm openai-harmony\n"
    "huggingface-cli download openai/gpt-oss-20b --include '*.json' --force-download\n"
    "vllm serve openai/gpt-oss-20b",
    trigger="Serving gpt-oss: the model emits text where a Harmony message header must start.",
    prevention=("Serve gpt-oss with the engine release its model page recommends",),
    references=(
        "https://github.com/openai/harmony/issues/60",
        "https://github.com/vllm-project/vllm/issues/46464",
    ),
)

HEADER = _record(
    line=1312,
    template="unexpected tokens remaining in message header: {parts}",
    pattern=r"unexpected tokens remaining in message header: (\[.*?\])",
    documentation="The Harmony parser read a message header (role, channel, recipient,"
    " content type) and found words it does not know left over, such as a channel name"
    " with stray dashes in front of it or '<|constrain|>response' when the model"
    " was pushed to call a tool that the request does not declare. The model wrote a"
    " malformed header; the engine passed its tokens on.",
    solutions=(
        "Declare in the request every tool the prompt asks the model to call (tools=[...]),"
        " or ask for no tool call when none is declared",
        _MODEL_FILES,
        _UPGRADE,
    ),
    example_fix="pip install -U vllm openai-harmony",
    trigger="Serving gpt-oss: the model writes a message header with extra or misspelled words.",
    references=(
        "https://github.com/openai/harmony/issues/38",
        "https://github.com/openai/harmony/issues/80",
    ),
)

EOS = _record(
    line=1131,
    template="Unexpected EOS while waiting for message header to complete",
    documentation="The token stream ended inside a Harmony message header: the output"
    " stopped (max_tokens reached, a stop string, or an aborted request) after the start"
    " token and before <|message|>, or the tokens handed to the parser were not a"
    " completion of the rendered conversation.",
    solutions=(
        "Give the answer room: raise max_tokens (for example max_tokens=4096 for a"
        " reasoning answer) and drop stop strings that can cut a header",
        "Parse only the tokens the model generated, with the role the completion was"
        " rendered for (role=Role.ASSISTANT)",
        _UPGRADE,
    ),
    example_fix='client.chat.completions.create(model="openai/gpt-oss-20b", messages=msgs,'
    " max_tokens=4096)",
    trigger="Serving or parsing gpt-oss output that stops in the middle of a message header.",
)

RECORDS: tuple[Curated, ...] = (START, HEADER, EOS)
