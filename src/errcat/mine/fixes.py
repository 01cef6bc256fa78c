r"""The example fix of a record: the launch command before and after, with the project's launcher.

Where a way out (:mod:`errcat.mine.ways`) sets a flag or an environment
variable to a value the code gives, :func:`example_fix` writes the command
that raised the error and the one that does not, with the project's own
launcher (``python -m sglang.launch_server --model-path <model>``, ``vllm
serve <model>``) when the project has one, else the flags alone.

>>> from errcat.mine.levers import Ref
>>> from errcat.mine.ways import Way
>>> flag = Ref("flag", "--mode", choices=("fast", "safe"))
>>> way = Way("Set --mode to safe", "flag", flag, ("fast", "safe"))
>>> print(example_fix([way], ("python -m pkg.launch_server", "--model-path <model>")))
# before
python -m pkg.launch_server --model-path <model> --mode fast
# after
python -m pkg.launch_server --model-path <model> --mode safe
>>> env = Way("Unset environment variable APP_X", "env", Ref("env", "APP_X"), ("1", None))
>>> print(example_fix([env], ("pkg serve", "<model>")))
# before
APP_X=1 pkg serve <model>
# after
pkg serve <model>
"""

from __future__ import annotations

from collections.abc import Sequence

from errcat.mine.ways import Way

__all__ = ["example_fix"]


def _command(launcher: tuple[str, str] | None, extra: str, env: str = "") -> str:
    parts = [env] if env else []
    if launcher is not None:
        parts.extend(launcher)
    if extra:
        parts.append(extra)
    return " ".join(parts)


def example_fix(ways: Sequence[Way], launcher: tuple[str, str] | None) -> str:
    """The command before and after the first way that sets a flag or variable ("" if none)."""
    for way in ways:
        ref = way.ref
        if ref is None or way.kind not in ("flag", "env") or way.example is None:
            continue
        before, after = way.example
        if way.kind == "flag":
            old = "" if before is None else f"{ref.name} {before}".rstrip()
            new = "" if after is None else f"{ref.name} {after}".rstrip()
            if launcher is None:
                old = old or f"(without {ref.name})"
                new = new or f"(without {ref.name})"
            return f"# before\n{_command(launcher, old)}\n# after\n{_command(launcher, new)}"
        old_env = "" if before is None else f"{ref.name}={before}"
        new_env = "" if after is None else f"{ref.name}={after}"
        if launcher is None:
            old_env = old_env or f"(without {ref.name})"
            new_env = new_env or f"unset {ref.name}"
        return (
            f"# before\n{_command(launcher, '', old_env)}\n"
            f"# after\n{_command(launcher, '', new_env)}"
        )
    return ""
