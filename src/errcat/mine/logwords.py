"""The words of advice for a logged line: what to read around it, and whether to act on it.

A raise leaves a traceback; a log call (:mod:`errcat.mine.logged`) leaves one
line among the others a process prints, and the program goes on. So advice
for it never asks for "the whole traceback": it says which lines to read (the
traceback ``logger.exception`` prints right after the line, the error message
the line shows, or the lines just before it from the same process), and a
warning says it may be acted on or left alone.

>>> print(handled("ValueError", "Loader.load", traceback=True, printed=False))
Fix the ValueError in the traceback logged right after this line: Loader.load caught it and logged this line
>>> print(warning_note("vllm"))
This is a warning, not a failure: vllm goes on running. Act on it if what it reports is not what you meant; otherwise you can leave it
"""  # noqa: E501

from __future__ import annotations

__all__ = ["WARNING_LEVELS", "handled", "handled_doc", "internal", "warning_note"]

#: The levels at which a logged line is a warning (the program goes on as it says).
WARNING_LEVELS = frozenset({"WARNING"})


def warning_note(project: str) -> str:
    """The solution that says a warning may be acted on or left alone."""
    return (
        f"This is a warning, not a failure: {project} goes on running. Act on it if what it "
        "reports is not what you meant; otherwise you can leave it"
    )


def handled(what: str, where: str, *, traceback: bool, printed: bool) -> str:
    """The solution for a line logged while handling an error: where that error is shown.

    ``traceback``: the call prints the traceback after the line
    (``logger.exception``); ``printed``: the line shows the error's message.

    >>> print(handled("OSError", "Store.close", traceback=False, printed=True))
    Fix the OSError whose message this line shows: Store.close caught it and logged it
    >>> print(handled("Exception", "Store.close", traceback=False, printed=False))
    Store.close caught an Exception and logged this line without it: the log lines just before it, from the same process, show what failed
    """  # noqa: E501
    if traceback:
        return (
            f"Fix the {what} in the traceback logged right after this line: "
            f"{where} caught it and logged this line"
        )
    if printed:
        return f"Fix the {what} whose message this line shows: {where} caught it and logged it"
    caught = f"an {what}" if what[:1].lower() in "aeiou" else f"a {what}"
    if what.startswith("("):
        caught = f"one of {what}"
    return (
        f"{where} caught {caught} and logged this line without it: the log lines just "
        "before it, from the same process, show what failed"
    )


def handled_doc(where: str, what: str, *, traceback: bool) -> str:
    """The documentation of a line logged while handling an error.

    >>> handled_doc("`Store.close`", "OSError", traceback=True)
    'Logged in `Store.close` while handling OSError: the traceback logged right after this line shows the cause.'
    """  # noqa: E501
    if traceback:
        return (
            f"Logged in {where} while handling {what}: the traceback logged right after "
            "this line shows the cause."
        )
    return f"Logged in {where} while handling {what}."


def internal(project: str, where: str, level: str, report: str, *, traceback: bool) -> str:
    """What to do about a logged line no setting decides: what to read, when to report it.

    >>> print(internal("vllm", "Scheduler.step", "ERROR", "report it", traceback=False))
    This line is logged by an internal check of vllm (in Scheduler.step), not a setting you pass: read the log lines just before it, from the same process, for what led to it; upgrade to the newest vllm release, and if it persists, report it with those lines and this one, the launch command and the version
    """  # noqa: E501
    upgrade = f"upgrade to the newest {project} release, and if it persists, {report}"
    if level in WARNING_LEVELS:
        return (
            f"This warning comes from an internal check of {project} (in {where}), not a "
            f"setting you pass: {project} goes on running, so you can leave it unless requests "
            f"fail or it keeps repeating; then {upgrade} with the log lines around it, the "
            "launch command and the version"
        )
    shown = "the traceback logged right after it" if traceback else "those lines and this one"
    return (
        f"This line is logged by an internal check of {project} (in {where}), not a setting "
        "you pass: read the log lines just before it, from the same process, for what led to "
        f"it; {upgrade} with {shown}, the launch command and the version"
    )
