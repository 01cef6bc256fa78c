r"""What the callers of a function pass for its parameters, read as flags and variables.

A guard often tests a parameter (``def _check(rule): if rule not in ...``)
whose value is an option only at the call site (``_check(args.rule)``). The
scan notes, per call of a function of the mined code, the arguments that may
read a setting (:class:`~errcat.mine.facts._Binding`); :class:`CallIndex`
joins them across files and reads each argument as the caller's code sees it
(its locals followed back, ``self`` a settings object in a method of a
settings class). One level only: a parameter passed on from the caller's own
parameter is not followed further.

>>> from errcat.mine.facts import _Binding, _FileScan, _Option
>>> from errcat.mine.options import OptionIndex
>>> options = OptionIndex([_Option("tp_size", "--tp-size")], [])
>>> scan = _FileScan(
...     "f",
...     "f",
...     "m",
...     bindings=(_Binding("m.check", "#0", "cfg.tp_size", caller="m.run"),),
...     signatures=(("m.check", ("size",)),),
... )
>>> {k: [r.name for r in v] for k, v in CallIndex([scan], options).bound("m.check").items()}
{'size': ['--tp-size']}
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from errcat.mine.conditions import Reader, Ref, parse_test
from errcat.mine.facts import _Binding, _Def, _FileScan, _Reads
from errcat.mine.options import OptionIndex
from errcat.mine.project import ProjectIndex

__all__ = ["CallIndex", "settings_method"]

#: Classes whose ``self`` holds the settings (``ServerArgs``, ``ModelConfig``).
_SETTINGS_CLASS = re.compile(r"(?:Args|Arguments|Config|Settings|Options)$")
_MAX_HOPS = 2


def settings_method(function: str) -> bool:
    """Whether a dotted function name is a method of a settings class (its ``self`` is one).

    >>> settings_method("pkg.server_args.ServerArgs.check"), settings_method("pkg.run.Engine.go")
    (True, False)
    """
    owner = function.split(".<locals>", maxsplit=1)[0].rsplit(".", 2)
    return len(owner) == 3 and bool(_SETTINGS_CLASS.search(owner[1]))


class CallIndex:
    """The flags and variables the callers of each function pass for its parameters."""

    def __init__(
        self,
        scans: Sequence[_FileScan],
        options: OptionIndex,
        canonical: Callable[[str], str] = str,
    ) -> None:
        self.options = options
        self._signatures: dict[str, tuple[str, ...]] = {}
        for scan in scans:
            for name, params in scan.signatures:
                self._signatures.setdefault(name, params)
        self._calls: defaultdict[str, list[_Binding]] = defaultdict(list)
        for scan in scans:
            for binding in scan.bindings:
                self._calls[canonical(binding.callee)].append(binding)
        self._bound: dict[str, dict[str, tuple[Ref, ...]]] = {}
        self._canonical = canonical
        #: The whole project, when known: a caller's ``self.x`` is traced through it.
        self.project: ProjectIndex | None = None
        self._reads: dict[tuple[str, str], _Reads] = {}
        for scan in scans:
            for reads in scan.reads:
                self._reads.setdefault((reads.function, reads.param), reads)
        self._read_refs: dict[tuple[str, str], tuple[Ref, ...]] = {}

    def reads(self, callee: str, key: str, method: bool = False) -> tuple[Ref, ...]:
        """The flags and variables a function reads on the parameter a call passes ``key`` for.

        ``callee`` is the function's dotted name as the calling module sees it;
        ``key`` a parameter name or ``#i`` (see :class:`~errcat.mine.facts._Binding`).
        What the function passes the parameter on to is followed, two calls deep.
        """
        function = self._canonical(callee)
        name = self._param(key, method, self._signatures.get(function, ()))
        if name is None:
            return ()
        return self._param_refs(function, name, _MAX_HOPS)

    def _param_refs(self, function: str, param: str, hops: int) -> tuple[Ref, ...]:
        cached = self._read_refs.get((function, param))
        if cached is not None:
            return cached
        self._read_refs[(function, param)] = ()  # a recursive helper reads nothing more
        reads = self._reads.get((function, param))
        out: dict[str, Ref] = {}
        if reads is not None:
            for attr in reads.attrs:
                option = self.options.option(attr)
                if option is not None:
                    kind = "env" if option.kind == "env" else "flag"
                    ref = Ref(kind, option.flag, option.choices, option.is_bool, option.default)
                    out.setdefault(f"{kind}:{ref.name}", ref)
            for callee, key, method in reads.forwards if hops > 0 else ():
                target = self._canonical(callee)
                name = self._param(key, method, self._signatures.get(target, ()))
                if name is not None:
                    for ref in self._param_refs(target, name, hops - 1):
                        out.setdefault(f"{ref.kind}:{ref.name}", ref)
        found = tuple(out.values())
        self._read_refs[(function, param)] = found
        return found

    def bound(self, function: str) -> Mapping[str, tuple[Ref, ...]]:
        """Each parameter of a function that some caller passes a flag or variable for."""
        found = self._bound.get(function)
        if found is None:
            found = self._bound[function] = self._read(function)
        return found

    def _read(self, function: str) -> dict[str, tuple[Ref, ...]]:
        params = self._signatures.get(function, ())
        out: dict[str, dict[str, Ref]] = {}
        calls = [(b, b.method) for b in self._calls.get(function, ())]
        if function.endswith(".__init__"):  # Engine(args.x) calls Engine.__init__(self, x)
            calls += [(b, True) for b in self._calls.get(function.removesuffix(".__init__"), ())]
        for binding, method in calls:
            name = self._param(binding.key, method, params)
            if name is None:
                continue
            ref = self._ref(binding)
            if ref is not None:
                out.setdefault(name, {}).setdefault(f"{ref.kind}:{ref.name}", ref)
        return {name: tuple(refs.values()) for name, refs in out.items()}

    @staticmethod
    def _param(key: str, method: bool, params: Sequence[str]) -> str | None:
        """The parameter an argument is passed for (``#i``: by position, after ``self``)."""
        if not key.startswith("#"):
            return key
        index = int(key[1:]) + (1 if method else 0)
        return params[index] if index < len(params) else None

    def _ref(self, binding: _Binding) -> Ref | None:
        defs: defaultdict[str, list[_Def]] = defaultdict(list)
        for d in binding.defs:
            defs[d.name].append(d)
        owner = binding.caller.rsplit(".", 1)[0] if binding.caller else None
        project = self.project
        if project is None or owner not in project.classes:
            owner = None
        reader = Reader(
            self.options,
            defs=defs,
            self_is_config=settings_method(binding.caller),
            project=project,
            owner=owner,
        )
        try:
            ref = reader.ref(parse_test(binding.expr))
        except SyntaxError:  # pragma: no cover - stored from ast.unparse
            return None
        return ref if ref is not None and ref.kind in ("flag", "env", "request", "model") else None
