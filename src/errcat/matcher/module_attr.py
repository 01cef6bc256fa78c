r"""A frameless ``'X' object has no attribute 'y'`` on a torch module: torch's ``__getattr__``.

The interpreter prints ``'X' object has no attribute 'y'`` for any object, so
the words alone never say who raised it (:mod:`errcat.matcher.score` caps every
project's copy of them without a frame in its file). One case is an exception:
when ``X`` is a torch module, a model class (``Qwen3ForCausalLM``,
``Glm4vMoeForConditionalGeneration``) or one of its parts (``...MoeBlock``,
``...DecoderLayer``, ``...Attention``, ``...MLP``), the raiser is torch's
``nn.Module.__getattr__`` (``torch/nn/modules/module.py``): a module keeps its
parameters, buffers and submodules in dicts of its own, so a missing attribute
falls through to that method, which prints this very message. Whose code read
the attribute the message does not say (the engine's model runner, the model's
own ``forward``); torch's record says what failed, and its frames would say where.

So a report without frames whose message is that shape, for a class named as
torch modules are named (:data:`MODULE_CLASS`), is answered with torch's record,
when the catalog holds it (the ``errcat-data-torch`` package) and no other
record of the catalog raises that very attribute's text: a record whose pattern
holds the attribute name as literal text is the engine's own raise of it, and
the matcher's scoring decides between them (then this answers nothing).

The class name is the evidence: ``'NoneType' object has no attribute 'cpu'``,
``'EagleProposer' object ...``, ``'LLMEngine' object ...`` are not modules, and
stay unanswered without a frame. An issue title may carry the message after a
lead-in, or lose its opening quote (``error --Qwen3ForCausalLM' object has no
attribute 'pooler'``); Markdown may have left its emphasis around it.

>>> found = module_attribute("'Qwen3ForCausalLM' object has no attribute 'pooler'")
>>> found.cls, found.attribute, found.whole
('Qwen3ForCausalLM', 'pooler', True)
>>> module_attribute("failed with error --Qwen3ForCausalLM' object has no attribute 'pooler'")
ModuleAttribute(cls='Qwen3ForCausalLM', attribute='pooler', whole=False)
>>> module_attribute("'NoneType' object has no attribute 'cpu'") is None
True
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from errcat.extract import ExceptionReport
from errcat.matcher.context import ReportContext
from errcat.matcher.result import Match
from errcat.store import Store
from errcat.tags import FAMILY_TAG, FUNCTION_TAG_PREFIX

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = [
    "MODULE_CLASS",
    "MODULE_CONFIDENCE",
    "ModuleAttribute",
    "module_answer",
    "module_attribute",
]

#: The confidence of such an answer: set, not fitted. The class name is strong evidence
#: that torch printed the message; what keeps it from sure is that a class named like a
#: module may be something else (a pydantic ``...Model``).
MODULE_CONFIDENCE = 0.8

#: How torch modules are named: the model classes of transformers, vllm and sglang
#: (``<Model>For<Task>``: ``...ForCausalLM``, even misspelt ``...ForCasualLM`` as users
#: often type it, ``...ForConditionalGeneration``; ``...Model``) and their parts
#: (blocks, layers, attention, MLP, MoE, embeddings, parallel linear layers, norms,
#: heads), and torch's own containers.
#: Words that also end ordinary classes (``Runner``, ``Worker``, ``Backend``,
#: ``Decoder``: ``json.JSONDecoder``) are left out.
MODULE_CLASS = re.compile(
    r"[A-Z][A-Za-z0-9_]*(?:"
    r"For[A-Z][A-Za-z]*(?:LM|Generation|Classification|Answering|Training|Embedding|Model"
    r"|Segmentation|Detection|Regression)"
    r"|LMHeadModel|Model|Block|Layer|Attention|MLP|MoE|Moe|Experts|Embedding|Embeddings"
    r"|Linear|Norm|LMHead|Head|ModuleList|ModuleDict|Sequential|ParameterList)"
)

#: The shape, anywhere in a message: the class's opening quote may be lost (not when
#: a word or quote stands right before the name), the attribute quoted whole.
_SHAPE = re.compile(
    r"(?:(?<![A-Za-z0-9])'|(?<![\w']))(?P<cls>[A-Za-z_]\w*)' object has no attribute "
    r"'(?P<attribute>\w+)'"
)
#: What may stand around the whole message: Markdown emphasis or code marks, a period.
_DECORATION = " \t*_`.!"

#: torch's ``Module.__getattr__`` record in each store (its position), found once.
_TORCH_RECORD: weakref.WeakKeyDictionary[Store, int | None] = weakref.WeakKeyDictionary()
_TORCH_FILE = "torch/nn/modules/module.py"
_TORCH_REPO = "pytorch/pytorch"


@dataclass(frozen=True)
class ModuleAttribute:
    """The class and attribute a message names, and whether the message is only that."""

    cls: str
    attribute: str
    #: The message is the shape alone (but for decoration), not inside other text.
    whole: bool


def module_attribute(message: str) -> ModuleAttribute | None:
    """The torch module and attribute of an ``'X' object has no attribute 'y'`` message.

    None when the message does not hold the shape, or its class is not named as a
    torch module is (:data:`MODULE_CLASS`).

    >>> module_attribute("**'Glm4vMoeForConditionalGeneration' object has no attribute 'x'**")
    ModuleAttribute(cls='Glm4vMoeForConditionalGeneration', attribute='x', whole=True)
    >>> module_attribute("'Glm4MoeSparseMoeBlock' object has no attribute '_enable_a2a_moe'.")
    ModuleAttribute(cls='Glm4MoeSparseMoeBlock', attribute='_enable_a2a_moe', whole=True)
    >>> module_attribute("'MHATokenToKVPoolHost' object has no attribute 'start_layer'") is None
    True
    >>> module_attribute("x'LlamaModel' object has no attribute 'y'") is None
    True
    """
    found = _SHAPE.search(message)
    if found is None or not MODULE_CLASS.fullmatch(found.group("cls")):
        return None
    whole = not message[: found.start()].strip(_DECORATION + "'") and not message[
        found.end() :
    ].strip(_DECORATION)
    return ModuleAttribute(found.group("cls"), found.group("attribute"), whole)


def _torch_record(store: Store) -> int | None:
    """The position of torch's ``Module.__getattr__`` record in a store, if it holds one."""
    if store in _TORCH_RECORD:
        return _TORCH_RECORD[store]
    found = None
    for position in store.records_in_file("module.py"):
        summary = store.summary(position)
        if (
            summary.repo == _TORCH_REPO
            and summary.file_path.endswith(_TORCH_FILE)
            and f"{FUNCTION_TAG_PREFIX}__getattr__" in summary.tags
            and "has no attribute" in summary.error_message
        ):
            found = position
            break
    _TORCH_RECORD[store] = found
    return found


def _raised_by_name(catalog: Catalog, message: str, attribute: str) -> bool:
    """Whether a record (not a family's) holds the attribute's name as literal text.

    Such a record raises that very attribute's message itself (an engine's own
    ``raise AttributeError(f"... has no attribute 'pooler'")``).
    """
    literal = re.compile(rf"(?<!\w){re.escape(attribute)}(?!\w)")
    for store in catalog.parts:
        for entry in store.index.candidates(message):
            fragments = entry.fragments
            if not any(map(literal.search, fragments)) or not all(f in message for f in fragments):
                continue
            if any(FAMILY_TAG not in store.summary(p).tags for p in entry.records):
                return True
    return False


def _frameless(report: ExceptionReport) -> bool:
    """A report without frames, of class AttributeError or of none (a title, prose)."""
    cls = report.error_class
    return not report.frames and (cls is None or cls.rsplit(".", 1)[-1] == "AttributeError")


def module_answer(contexts: Sequence[ReportContext], catalog: Catalog) -> Match | None:
    """The record of torch's ``Module.__getattr__`` for the first frameless report naming a module.

    The reports are read in order (the report that ended the text first); see the
    module's docstring for when it answers.
    """
    for ctx in contexts:
        report = ctx.report
        if not _frameless(report):
            continue
        named = module_attribute(ctx.message)
        if named is None:
            continue
        if _raised_by_name(catalog, ctx.message, named.attribute):
            return None
        for part in range(len(catalog.parts) - 1, -1, -1):
            store = catalog.parts[part]
            position = _torch_record(store)
            if position is None:
                continue
            summary = store.summary(position)
            if catalog.hidden(part, summary.id):
                continue
            return Match.named(
                store,
                position,
                report,
                confidence=MODULE_CONFIDENCE,
                whole=named.whole,
                reasons=(
                    f"'{named.cls}' is named as a torch module is: a module's missing "
                    f"attribute '{named.attribute}' falls through to torch's "
                    "nn.Module.__getattr__, which prints this message",
                    "no record of the catalog raises this attribute's message itself",
                ),
                captures=(named.cls, named.attribute),
            )
        return None
    return None
