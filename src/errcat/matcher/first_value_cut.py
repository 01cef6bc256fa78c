r"""A text cut inside a template's first value: its whole opening literal, then part of a value.

An issue title often stops right after the first value it quotes (``ValueError: The
model's max seq len (32768)`` of ``The model's max seq len ({n}) is larger than the
maximum number of tokens that can be stored in KV cache ({m}). ...``). The index does
not propose that template (it is filed under words past the cut). When the text's first
word opens few templates, the wide pass reads them and accepts such a cut with 20 literal
characters (a cut after a whole first fragment); when it opens more (``The``, ``No``),
the opening-cut pass reads them (:mod:`errcat.matcher.opening_cut`) under the bound of
patterns the index did not propose, 30 characters, since a short head read against a
few nearest patterns may miss the template it was cut from. That fear does not hold for
a text holding a template's *whole* opening literal and then one value-like token (no
space: the cut fell inside the value, or right after it, where the next literal begins):
every pattern opening so is read. There, the wide pass's bound holds instead
(:data:`FIRST_VALUE_MIN_CHARS`).

>>> opening = ("The zqa zqb max zqc len (", ") is larger than zqd")
>>> cut_in_first_value(opening, "The zqa zqb max zqc len (32768)", 26)
True
>>> cut_in_first_value(opening, "The zqa zqb max zqc len (32768) is la", 30)  # the next literal
True
>>> cut_in_first_value(opening, "The zqa zqb max zqc len (32768) for zqe", 25)  # the writer's
False
>>> cut_in_first_value(("Bad zqa (", ")"), "Bad zqa (1)", 10)  # too short an opening to tell
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["FIRST_VALUE_MIN_CHARS", "cut_in_first_value"]

#: The fewest literal characters such a text must hold (the opening, and any start of
#: the next literal): the bound a cut after a whole first fragment meets when proposed.
FIRST_VALUE_MIN_CHARS: Final = 20


def cut_in_first_value(fragments: Sequence[str], text: str, held: int) -> bool:
    """Whether ``text`` is the whole opening literal, one token of a value, then a cut.

    ``fragments`` are the template's literal fragments, the first its opening; ``held``
    is how many of their characters ``text`` holds. After the opening comes one token
    (no space: the cut fell inside the value, or after it), then at most a start of the
    next fragment (``) is la``). The token must not be empty (an opening alone is a
    cut inside the opening, :mod:`errcat.matcher.opening_cut`); words after it that
    are not the next fragment's are the writer's, which the bound for a longer cut reads.
    """
    if held < FIRST_VALUE_MIN_CHARS or not fragments:
        return False
    opening = fragments[0]
    if not opening.strip() or not text.startswith(opening):
        return False
    rest = text[len(opening) :]
    following = fragments[1] if len(fragments) > 1 else ""
    cut = next((n for n in range(len(following), 0, -1) if rest.endswith(following[:n])), 0)
    value = rest[: len(rest) - cut]
    return bool(value) and not any(c.isspace() for c in value)
