"""A logged template that is mostly its values: a frame any project's log line fits.

A log call such as sglang's ``logger.error(f"Error executing {error_context}: {e}")``
prints two words of its own around two values. Those two words and a colon are
what any project writes when something fails (Hydra prints ``Error executing
job with overrides: [...]``), so the template matching a line whole says little
of who printed it: the values could be anything. Such a template
(:func:`mostly_values`: at least two placeholders, at most three words and
twenty characters of its own) answers only with evidence beyond its words: a
frame in its file or package, the text naming its project, or a paste that
reads as its engine's log (:func:`errcat.engine.lean`). The scorer caps it
otherwise (:func:`errcat.matcher.score._score`, ``evidence.value_frame``).

>>> mostly_values("Error executing {error_context}: {e}")
True
>>> mostly_values("Tool call parsing error: {e}")
False
>>> mostly_values("Exception in worker {name} while processing method {method}: {e}")
False
"""

from __future__ import annotations

import functools
import re

from errcat.patterns import parse_template

__all__ = ["MAX_OWN_CHARS", "MAX_OWN_WORDS", "MIN_VALUES", "mostly_values", "own_text"]

#: At least this many placeholders: one value after a phrase is a message's detail.
MIN_VALUES = 2
#: At most this many words of the template's own (two letters or more).
MAX_OWN_WORDS = 3
#: At most this many characters of its own, spaces left out.
MAX_OWN_CHARS = 20

_WORD = re.compile(r"[A-Za-z]{2,}")


def own_text(template: str) -> tuple[str, int]:
    """A template's text without its placeholders, and how many placeholders it has.

    The template is read as :func:`errcat.patterns.parse_template` reads it.

    >>> own_text("Error in {self.name}: {e!r}")
    ('Error in : ', 2)
    >>> own_text("literal {{braces}} only")
    ('literal {braces} only', 0)
    """
    literals, fields = parse_template(template)
    return "".join(literals), len(fields)


@functools.lru_cache(maxsize=4096)
def mostly_values(template: str) -> bool:
    """Whether a template's own words are a frame around its values (see the module doc).

    >>> mostly_values("{label} failed: {err}"), mostly_values("{a}: {b}")
    (True, True)
    >>> mostly_values("Failed to load the zqa checkpoint from {path}")
    False
    """
    own, values = own_text(template)
    return (
        values >= MIN_VALUES
        and len(_WORD.findall(own)) <= MAX_OWN_WORDS
        and len("".join(own.split())) <= MAX_OWN_CHARS
    )
