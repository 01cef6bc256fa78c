r"""A frameless ``'X' object has no attribute 'y'`` on a module only an engine defines.

torch's ``nn.Module.__getattr__`` prints this message for any module
(:mod:`errcat.matcher.module_attr` answers it with torch's record), but when
``X`` is a class that only one engine's code defines (``Glm4MoeSparseMoeBlock``
is sglang's; transformers and torch have no class of that name), the module is
that engine's, and so is the code that read the attribute: the engine's family
record for the shape (:mod:`errcat.matcher.family`: a model class lacking a
feature's hook in this release) says what to change, torch's does not.

The classes come from the engines' wheels (``benchmarks/engine_classes.py``
writes ``_engine_classes.json.gz``). Not being in transformers' or torch's code
does not make a class the engine's: a model repository's remote code
(``--trust-remote-code``) defines classes named as the engines name theirs
(``InternVLChatModel``, ``DeepseekV2MoE``), run by transformers. So the paste must
also name the engine on the evidence advice is picked on (:func:`errcat.engine.detect`:
its command, module paths, log prefixes); a class both engines define is then the
named one's. The answer is the family record of that engine whose pattern prints
the message, when the catalog holds one; else nothing is said here and torch's
record stays the answer.

>>> engines_of("Glm4MoeSparseMoeBlock")
('sgl-project/sglang',)
>>> engines_of("Qwen3ForCausalLM")  # transformers defines it too: any of three
()
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING

from errcat.engine import detect
from errcat.extract import ExceptionReport
from errcat.matcher.context import ReportContext
from errcat.matcher.family import family_members
from errcat.matcher.module_attr import ModuleAttribute, _raised_by_name, module_attribute
from errcat.matcher.result import Match

if TYPE_CHECKING:
    from errcat.catalog import Catalog

__all__ = ["ENGINE_CLASS_CONFIDENCE", "engine_class_answer", "engines_of"]

#: The confidence of such an answer: set, not fitted, a little under torch's own
#: (:data:`~errcat.matcher.module_attr.MODULE_CONFIDENCE`): the class and the paste are
#: the engine's, but which of the engine's code read the attribute no frame shows.
ENGINE_CLASS_CONFIDENCE = 0.75
_RESOURCE = "_engine_classes.json.gz"


@functools.cache
def _classes() -> dict[str, tuple[str, ...]]:
    """Each listed class and the engines (repositories) that define it."""
    raw = resources.files("errcat").joinpath(_RESOURCE).read_bytes()
    data = json.loads(gzip.decompress(raw))
    out: dict[str, list[str]] = {}
    for repo, names in sorted(data["engines"].items()):
        for name in names:
            out.setdefault(name, []).append(repo)
    return {name: tuple(repos) for name, repos in out.items()}


def engines_of(cls: str) -> tuple[str, ...]:
    """The engines whose code alone defines a module class of this name (none: not listed)."""
    return _classes().get(cls, ())


def _frameless_attribute(report: ExceptionReport) -> bool:
    """A report without frames, of class AttributeError or of none (a title, prose)."""
    cls = report.error_class
    return not report.frames and (cls is None or cls.rsplit(".", 1)[-1] == "AttributeError")


def _family_match(
    catalog: Catalog, repo: str, named: ModuleAttribute, ctx: ReportContext
) -> Match | None:
    """The engine's AttributeError family record whose pattern prints the message, as a match."""
    shape = f"'{named.cls}' object has no attribute '{named.attribute}'"
    for part in range(len(catalog.parts) - 1, -1, -1):
        store = catalog.parts[part]
        for entry in store.index.candidates(shape):
            for position in sorted(family_members(store, entry.records)):
                summary = store.summary(position)
                if (
                    summary.repo != repo
                    or summary.error_class != "AttributeError"
                    or catalog.hidden(part, summary.id)
                    or re.fullmatch(entry.pattern, shape) is None
                ):
                    continue
                return Match.named(
                    store,
                    position,
                    ctx.report,
                    confidence=ENGINE_CLASS_CONFIDENCE,
                    whole=named.whole,
                    reasons=(
                        f"'{named.cls}' is a module class only {repo}'s code defines "
                        "(transformers and torch have none of that name) and the paste "
                        f"names that engine: its missing attribute '{named.attribute}' was "
                        "read by the engine",
                        "no frame shows which of the engine's code read it: the family "
                        "record stands for all of it",
                    ),
                    captures=(named.cls, named.attribute),
                )
    return None


def engine_class_answer(
    contexts: Sequence[ReportContext], catalog: Catalog, text: str
) -> Match | None:
    """The engine's family record for the first frameless report naming a module of its own.

    ``text`` is the whole paste: it must name the engine (:func:`errcat.engine.detect`).
    The reports are read in order, as :func:`errcat.matcher.module_attr.module_answer`
    reads them.
    """
    for ctx in contexts:
        if not _frameless_attribute(ctx.report):
            continue
        named = module_attribute(ctx.message)
        if named is None:
            continue
        engine = detect(text).engine
        repos = tuple(r for r in engines_of(named.cls) if engine and r.endswith(f"/{engine}"))
        if len(repos) != 1 or _raised_by_name(catalog, ctx.message, named.attribute):
            return None
        return _family_match(catalog, repos[0], named, ctx)
    return None
