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
from errcat.mine.facts import _Binding, _Def, _FileScan
from errcat.mine.options import OptionIndex

__all__ = ["CallIndex", "settings_method"]

#: Classes whose ``self`` holds the settings (``ServerArgs``, ``ModelConfig``).
_SETTINGS_CLASS = re.compile(r"(?:Args|Arguments|Config|Settings|Options)$")


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

    def bound(self, function: str) -> Mapping[str, tuple[Ref, ...]]:
        """Each parameter of a function that some caller passes a flag or variable for."""
        found = self._bound.get(function)
        if found is None:
            found = self._bound[function] = self._read(function)
        return found

    def _read(self, function: str) -> dict[str, tuple[Ref, ...]]:
        params = self._signatures.get(function, ())
        out: dict[str, dict[str, Ref]] = {}
        for binding in self._calls.get(function, ()):
            name = self._param(binding, params)
            if name is None:
                continue
            ref = self._ref(binding)
            if ref is not None:
                out.setdefault(name, {}).setdefault(f"{ref.kind}:{ref.name}", ref)
        return {name: tuple(refs.values()) for name, refs in out.items()}

    @staticmethod
    def _param(binding: _Binding, params: Sequence[str]) -> str | None:
        if not binding.key.startswith("#"):
            return binding.key
        index = int(binding.key[1:]) + (1 if binding.method else 0)
        return params[index] if index < len(params) else None

    def _ref(self, binding: _Binding) -> Ref | None:
        defs: defaultdict[str, list[_Def]] = defaultdict(list)
        for d in binding.defs:
            defs[d.name].append(d)
        reader = Reader(self.options, defs=defs, self_is_config=settings_method(binding.caller))
        try:
            ref = reader.ref(parse_test(binding.expr))
        except SyntaxError:  # pragma: no cover - stored from ast.unparse
            return None
        return ref if ref is not None and ref.kind in ("flag", "env") else None
