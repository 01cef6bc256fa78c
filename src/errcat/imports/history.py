"""Which releases of a package have a name or a module: the API history of import errors.

A :class:`NameHistory` lists, in release order, whether each release has the
name; it says it as a user needs it: since which release, until which one,
and the requirement that installs a release that has it.

>>> h = NameHistory(
...     "transformers", "Qwen3Config", ("4.50.0", "4.51.0", "5.0.0"), (False, True, True)
... )
>>> h.status, h.first, h.requirement
('added', '4.51.0', 'transformers>=4.51.0')
>>> h.summary()
'Qwen3Config is in transformers 4.51.0 and later (of the releases checked: not in 4.50.0).'
>>> gone = NameHistory("huggingface_hub", "cached_download", ("0.25.0", "0.26.0"), (True, False))
>>> gone.status, gone.last, gone.requirement
('removed', '0.25.0', 'huggingface_hub<0.26.0')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["NameHistory", "Status"]

#: How a name's presence changed across the releases checked.
Status = Literal["added", "removed", "changing", "always", "never"]


@dataclass(frozen=True)
class NameHistory:
    """Whether each release of ``dist`` (oldest first) has ``name``."""

    dist: str
    name: str
    releases: tuple[str, ...]
    present: tuple[bool, ...]

    def __post_init__(self) -> None:
        if len(self.releases) != len(self.present) or not self.releases:
            raise ValueError(
                f"NameHistory({self.dist!r}, {self.name!r}): {len(self.releases)} releases "
                f"but {len(self.present)} presence flags"
            )

    @property
    def status(self) -> Status:
        """``added`` (absent, then present to the newest), ``removed``, ``changing``, ..."""
        if all(self.present):
            return "always"
        if not any(self.present):
            return "never"
        first = self.present.index(True)
        last = len(self.present) - 1 - self.present[::-1].index(True)
        if all(self.present[first : last + 1]):
            if last == len(self.present) - 1:
                return "added"
            if first == 0:
                return "removed"
        return "changing"

    @property
    def first(self) -> str | None:
        """The oldest release checked that has the name."""
        return self.releases[self.present.index(True)] if any(self.present) else None

    @property
    def last(self) -> str | None:
        """The newest release checked that has the name."""
        if not any(self.present):
            return None
        return self.releases[len(self.present) - 1 - self.present[::-1].index(True)]

    @property
    def removed_in(self) -> str | None:
        """The first release after :attr:`last` (the one that dropped the name), if any."""
        last = self.last
        if last is None:
            return None
        i = self.releases.index(last) + 1
        return self.releases[i] if i < len(self.releases) else None

    @property
    def requirement(self) -> str:
        """A pip requirement that installs a release having the name (newest first)."""
        if self.status in ("added", "always") and self.first is not None:
            return f"{self.dist}>={self.first}"
        last, removed = self.last, self.removed_in
        if last is not None and removed is not None:
            return f"{self.dist}<{removed}"
        return f"{self.dist}=={last}" if last else self.dist

    def ranges(self) -> list[tuple[str, str]]:
        """The runs of consecutive releases that have the name, as (first, last) pairs."""
        out: list[tuple[str, str]] = []
        start: int | None = None
        for i, has in enumerate((*self.present, False)):
            if has and start is None:
                start = i
            elif not has and start is not None:
                out.append((self.releases[start], self.releases[i - 1]))
                start = None
        return out

    def summary(self) -> str:
        """One sentence: which releases checked have the name."""
        absent = [r for r, has in zip(self.releases, self.present, strict=True) if not has]
        status = self.status
        if status == "added":
            before = absent[-1]
            return (
                f"{self.name} is in {self.dist} {self.first} and later "
                f"(of the releases checked: not in {before})."
            )
        if status == "removed":
            return (
                f"{self.name} was removed from {self.dist} in {self.removed_in} "
                f"(last in {self.last} of the releases checked)."
            )
        if status == "always":
            return f"{self.name} is in every release of {self.dist} checked."
        if status == "never":
            return f"{self.name} is in no release of {self.dist} checked."
        spans = ", ".join(a if a == b else f"{a} to {b}" for a, b in self.ranges())
        return f"{self.name} is in {self.dist} {spans} (of the releases checked)."
