"""A status named by its number after an application's own words: the application's error.

A server or client prints a status with its reason phrase (``404 Not Found``,
``"HTTP/1.1" 503 Service Unavailable``); a status record answers such text. A bare
number (``status code 404``, ``HTTP 404``) is how an application words a failure
of its own: ``Credentials validation failed with status code 404`` is a
credential check's error, raised by that application, which a status record does
not explain. Client libraries print bare numbers too, but after generic words only
(axios' ``Request failed with status code 404``, ``Unexpected status code 403``).

So a status phrase with no reason words (:func:`numeric_phrase`) does not name its
record when it tells why a thing of an application's own failed: the phrase follows
``<subject> failed with`` (or ``failed:``), and the subject, in the same clause, has
at least :data:`OWN_WORDS` words that are not the generic words of HTTP failures
(:data:`GENERIC`), nor tags in brackets, numbers or addresses. A writer's title that
names a model or a command beside a status (``deploying zqmodel returns HTTP 500``)
is no failure's message and still names the status.

>>> text = "Credentials validation failed with status code 404"
>>> names_operation(text, text.index("status"))
True
>>> text = "Request failed with status code 404"
>>> names_operation(text, text.index("status"))
False
"""

from __future__ import annotations

import re

__all__ = ["GENERIC", "OWN_WORDS", "names_operation", "numeric_phrase"]

#: How many words of its own the text before the status needs to name an operation.
OWN_WORDS = 2
#: Words any HTTP failure is told with: a client's, a server's, a writer's.
GENERIC = frozenset(
    {
        "a",
        "an",
        "the",
        "this",
        "that",
        "it",
        "my",
        "i",
        "we",
        "got",
        "get",
        "gets",
        "getting",
        "return",
        "returns",
        "returned",
        "returning",
        "receive",
        "received",
        "receiving",
        "response",
        "responses",
        "respond",
        "responded",
        "request",
        "requests",
        "call",
        "calls",
        "called",
        "calling",
        "api",
        "http",
        "https",
        "error",
        "errors",
        "failed",
        "fails",
        "failure",
        "fail",
        "with",
        "status",
        "code",
        "unexpected",
        "bad",
        "server",
        "client",
        "service",
        "endpoint",
        "url",
        "when",
        "while",
        "on",
        "for",
        "to",
        "from",
        "of",
        "in",
        "at",
        "and",
        "or",
        "but",
        "is",
        "was",
        "are",
        "be",
        "been",
        "has",
        "had",
        "have",
        "by",
        "after",
        "then",
        "invalid",
        "wrong",
        "non",
        "ok",
        "error:",
        "exception",
        "raised",
        "raise",
        "throws",
        "thrown",
        "occurred",
        "occurs",
    }
)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
#: A writer's tag (``[Bug]``), an address or a path: not words of a message.
_NOISE = re.compile(r"\[[^\]]*\]|\S*(?:://|/)\S*")


def numeric_phrase(phrase: str) -> bool:
    """Whether a status phrase names the status by its number alone (no reason words).

    >>> numeric_phrase("status code 404"), numeric_phrase("HTTP 404")
    (True, True)
    >>> numeric_phrase("404 Not Found"), numeric_phrase("Not Found")
    (False, False)
    """
    words = phrase.lower().split()
    return any(w.strip(":").isdigit() for w in words) and all(
        w.strip(":").isdigit() or w.strip(":") in GENERIC for w in words
    )


#: ``<subject> failed with`` right before the status, the subject inside one clause.
_FAILED = re.compile(
    r"(?P<subject>[^.!?;:\n]*?)\b(?:failed|failure)\b[\s,:]*(?:with\s+(?:an?\s+|the\s+)?)?\Z",
    re.IGNORECASE,
)


def names_operation(message: str, start: int) -> bool:
    """Whether the status at ``start`` tells why a thing of an application's own failed.

    >>> names_operation("[Bug] zqa zqb got status code 404", 18)
    False
    >>> names_operation("zqa zqb failed with status code 404", 20)
    True
    >>> names_operation("zqa zqb: request failed with status code 404", 29)
    False
    """
    failed = _FAILED.search(message[:start])
    if failed is None:
        return False
    subject = _NOISE.sub(" ", failed.group("subject"))
    own = [w for w in _WORD.findall(subject) if w.lower() not in GENERIC]
    return len(own) >= OWN_WORDS
