"""Chat templates that refuse a conversation: the model's own ``raise_exception`` texts.

transformers renders a model's chat template with a helper ``raise_exception(message)``
that raises ``jinja2.exceptions.TemplateError(message)`` (utils/chat_template_utils.py);
the message is written in the model's template, so the mined record of that raise is
the bare ``{message}``, which says nothing. A few of those texts come with whole model
families and are pasted again and again from the engines' servers (a 400 or 500 on
/v1/chat/completions): Gemma's templates refuse a system message, and the Llama 2,
Mistral and Gemma templates require user and assistant turns to alternate. Each record
names the raise site and the ways out: merge or move the messages the client sends, or
serve the model with a template that accepts them (the engines' ``--chat-template``).

Read in the transformers 4.57.6 wheel. Threads learned from (even-numbered, in
benchmarks/data/study_stack.jsonl): sgl-project/sglang#1342, sgl-project/sglang#892.

>>> import regex
>>> alt = ALTERNATE.envelope().record.message_pattern
>>> bool(
...     regex.fullmatch(alt, "Conversation roles must alternate user/assistant/user/assistant/...")
... )
True
>>> bool(
...     regex.fullmatch(
...         alt,
...         "After the optional system message, conversation roles must"
...         " alternate user/assistant/user/assistant/...",
...     )
... )
True
>>> bool(
...     regex.fullmatch(SYSTEM_ROLE.envelope().record.message_pattern, "System role not supported")
... )
True
"""

from __future__ import annotations

from stack_curated.spec import Curated

__all__ = ["ALTERNATE", "RECORDS", "SYSTEM_ROLE"]

TRANSFORMERS = "huggingface/transformers"
TAG = "v4.57.6"
PATH = "src/transformers/utils/chat_template_utils.py"
LINE = 447
ERROR_CLASS = "jinja2.exceptions.TemplateError"

_TEMPLATE_FLAG = (
    "Or serve the model with a template that accepts the conversation: vllm serve M"
    " --chat-template ./template.jinja, sglang --chat-template ./template.jinja (a copy of"
    " the model's template without the raise_exception check, or one the model card"
    " offers)"
)

SYSTEM_ROLE = Curated(
    repo=TRANSFORMERS,
    path=PATH,
    line=LINE,
    revision=TAG,
    error_class=ERROR_CLASS,
    template="System role not supported",
    pattern=r"System role not supported\.?",
    error_type="validation",
    documentation="The model's chat template (Gemma 1 and 2 and models built on them)"
    " refuses a message with role 'system' and raises through transformers'"
    " raise_exception helper; the engine's OpenAI server answers the request with an error"
    " (400, or 500 in older releases). The client sent a system prompt: chat UIs (Open"
    " WebUI, agents) add one by default.",
    solutions=(
        "Send no system message: put its text at the start of the first user message",
        "In the chat UI or agent, turn off or empty the default system prompt for this model",
        _TEMPLATE_FLAG,
    ),
    example_fix='# before\nmessages = [{"role": "system", "content": S}, {"role": "user",'
    ' "content": Q}]\n# after\nmessages = [{"role": "user", "content": S + "\\n\\n" + Q}]',
    trigger="A chat request whose messages include role 'system', to a model whose template"
    " has no system turn.",
    tags=("chat-template", "jinja2"),
    references=(
        "https://huggingface.co/docs/transformers/main/en/chat_templating",
        "https://github.com/sgl-project/sglang/issues/1342",
        "https://github.com/sgl-project/sglang/issues/892",
    ),
)

ALTERNATE = Curated(
    repo=TRANSFORMERS,
    path=PATH,
    line=LINE,
    revision=TAG,
    error_class=ERROR_CLASS,
    template="Conversation roles must alternate user/assistant/user/assistant/...",
    pattern=r"(?:After the optional system message, )?[Cc]onversation roles must alternate"
    r" user/assistant/user/assistant/\.\.\.",
    error_type="validation",
    documentation="The model's chat template (Llama 2, Mistral, Mixtral, Gemma) requires"
    " the turns after an optional system message to alternate user, assistant, user, ..."
    " and raised through transformers' raise_exception helper: the request holds two user"
    " (or two assistant) messages in a row, a tool message the template does not know, or"
    " starts with an assistant turn.",
    solutions=(
        "Merge consecutive messages of the same role into one before sending (join their"
        " contents with a blank line), and start with a user message",
        "Send tool results as the roles the template knows, or use a model whose template"
        " supports tools",
        _TEMPLATE_FLAG,
    ),
    example_fix='# before\nmessages = [{"role": "user", "content": A}, {"role": "user",'
    ' "content": B}]\n# after\nmessages = [{"role": "user", "content": A + "\\n\\n" + B}]',
    trigger="A chat request whose roles do not alternate, to a model whose template checks it.",
    tags=("chat-template", "jinja2"),
    references=("https://huggingface.co/docs/transformers/main/en/chat_templating",),
)

RECORDS = (SYSTEM_ROLE, ALTERNATE)
