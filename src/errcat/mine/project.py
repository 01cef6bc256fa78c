r"""What the advice writer knows of a whole mined project, joined from its files' scans.

:class:`ProjectIndex` holds, beside the options (:class:`~errcat.mine.options.OptionIndex`)
and the calls (:class:`~errcat.mine.bindings.CallIndex`): the literal
collections of texts by dotted name (the values a user may choose from), the
classes with their bases and fields (request models, the model's config
classes), what each class's methods assign to ``self.<attr>``, the packages
the project imports, and how the project is launched.

>>> from errcat.mine.facts import _AttrDef, _ClassFields, _FileScan
>>> scan = _FileScan(
...     "f",
...     "f",
...     "pkg.api",
...     class_fields=(
...         _ClassFields("pkg.api.BaseRequest", (), ("model",)),
...         _ClassFields("pkg.api.ChatRequest", ("pkg.api.BaseRequest",), ("max_tokens",)),
...     ),
...     attr_defs=(_AttrDef("pkg.api.Engine", "limit", "args.max_len", "pkg.api.Engine.__init__"),),
...     collections=(("pkg.api.MODES", ("a", "b")),),
...     imported=("torch",),
... )
>>> index = ProjectIndex([scan])
>>> index.request_field(("pkg.api.ChatRequest",), "model"), index.collection("pkg.api.MODES")
('model', ('a', 'b'))
>>> [d.expr for d in index.attr_defs("pkg.api.Engine", "limit")], "torch" in index.imported
(['args.max_len'], True)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from errcat.mine.facts import _AttrDef, _ClassFields, _FileScan

__all__ = ["ProjectIndex", "is_request_class"]

#: Class names of what a client sends: OpenAI-style request models, sampling parameters.
_REQUEST_CLASS = re.compile(r"(?:Request|ReqInput|SamplingParams|RequestInput|Req)$")
#: Classes of the model's own config (transformers).
#: A model's config class: transformers' ``*Config`` classes (not its processors, tokenizers
#: or feature extractors, whose attributes are no ``config.json`` keys; not
#: ``GenerationConfig``, read from ``generation_config.json``).
_MODEL_CONFIG_CLASS = re.compile(
    r"(?:^transformers\.(?:\w+\.)*(?!Generation)\w*Config$|PretrainedConfig$|PreTrainedConfig$)"
)
_MAX_MRO = 12


def is_request_class(name: str) -> bool:
    """Whether a dotted class name reads as a request a client sends.

    >>> is_request_class("pkg.protocol.ChatCompletionRequest"), is_request_class("pkg.Engine")
    (True, False)
    """
    return bool(_REQUEST_CLASS.search(name.rsplit(".", 1)[-1]))


class ProjectIndex:
    """Facts of a whole project for reading guards (see the module docstring)."""

    def __init__(self, scans: Sequence[_FileScan], canonical: Callable[[str], str] = str) -> None:
        self.canonical = canonical
        self.classes: dict[str, _ClassFields] = {}
        self._attrs: defaultdict[tuple[str, str], list[_AttrDef]] = defaultdict(list)
        self._collections: dict[str, tuple[str, ...]] = {}
        imported: set[str] = set()
        called: set[str] = set()
        own: set[str] = set()
        modules: set[str] = set()
        for scan in scans:
            modules.add(scan.module)
            own.add(scan.module.partition(".")[0])
            imported.update(scan.imported)
            called.update(scan.called)
            for cls in scan.class_fields:
                self.classes.setdefault(cls.name, cls)
            for d in scan.attr_defs:
                self._attrs[(d.owner, d.attr)].append(d)
            for name, items in scan.collections:
                self._collections.setdefault(name, items)
        #: Top-level packages the project imports that are not its own.
        self.imported: frozenset[str] = frozenset(imported - own - {""})
        self.modules: frozenset[str] = frozenset(modules)
        #: Bare names of the functions and methods the project's own code calls.
        self.called: frozenset[str] = frozenset(called)
        self._mro: dict[str, tuple[str, ...]] = {}
        #: What readers worked out about ``self.x`` of a class, shared by every guard.
        self.memo: dict[tuple[str, str, str], object] = {}
        #: How many such answers are being worked out, one inside another.
        self.active = 0
        self._all_request_fields: frozenset[str] | None = None

    def mro(self, name: str) -> tuple[str, ...]:
        """A class and its bases of the mined code, nearest first."""
        found = self._mro.get(name)
        if found is not None:
            return found
        out: list[str] = []
        todo = [name]
        while todo and len(out) < _MAX_MRO:
            current = self.canonical(todo.pop(0))
            if current in out:
                continue
            out.append(current)
            cls = self.classes.get(current)
            if cls is not None:
                todo.extend(cls.bases)
        self._mro[name] = tuple(out)
        return self._mro[name]

    def attr_defs(self, owner: str, attr: str) -> list[_AttrDef]:
        """What the methods of a class (or its nearest base that does) assign to ``self.attr``."""
        for cls in self.mro(owner):
            found = self._attrs.get((cls, attr))
            if found:
                return found
        return []

    def collection(self, dotted: str) -> tuple[str, ...] | None:
        """The texts of a literal collection (or enum) by dotted name, if the project has it."""
        found = self._collections.get(dotted)
        if found is None:
            found = self._collections.get(self.canonical(dotted))
        return found

    def is_request(self, classes: Iterable[str]) -> bool:
        """Whether any of some classes (or their bases) is a request model."""
        return any(is_request_class(c) for name in classes for c in self.mro(name))

    def request_field(self, classes: Iterable[str], attr: str) -> str | None:
        """``attr`` when one of some request classes (or a base) declares it as a field.

        A request class that declares no such field may hand it on (a ``Req``
        whose ``__getattr__`` reads its ``sampling_params``): a field of that
        name in another request class counts then.
        """
        found_request = False
        for name in classes:
            chain = self.mro(name)
            if not any(is_request_class(c) for c in chain):
                continue
            found_request = True
            for cls in chain:
                info = self.classes.get(cls)
                if info is not None and attr in info.fields:
                    return attr
        if found_request and attr in self._request_fields():
            return attr
        return None

    def _request_fields(self) -> frozenset[str]:
        if self._all_request_fields is None:
            self._all_request_fields = frozenset(
                f
                for name, info in self.classes.items()
                if is_request_class(name)
                for f in info.fields
            )
        return self._all_request_fields

    def is_model_config(self, classes: Iterable[str]) -> bool:
        """Whether some classes are the model's config (a ``transformers`` config class)."""
        return any(_MODEL_CONFIG_CLASS.search(c) for name in classes for c in self.mro(name))

    def is_entry_point(self, function: str) -> bool:
        """Whether no code of the project calls a function (by its bare name): a user does.

        Its arguments are then the user's to choose; those of a function the
        project calls itself are internal state (unless callers pass a lever).
        """
        bare = [p for p in function.split(".") if p and p != "<locals>"][-1:]
        return bool(bare) and bare[0] not in self.called and not bare[0].startswith("_")

    def launcher(self, package: str) -> tuple[str, str] | None:
        """How the project starts its server: (command prefix, model argument), if it says.

        ``python -m pkg.launch_server --model-path M`` when the project has that
        module, ``pkg serve M`` when it has a ``serve`` CLI subcommand.
        """
        if f"{package}.launch_server" in self.modules:
            return f"python -m {package}.launch_server", "--model-path <model>"
        if f"{package}.entrypoints.cli.serve" in self.modules:
            return f"{package} serve", "<model>"
        return None
