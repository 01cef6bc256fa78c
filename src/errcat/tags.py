"""The tag vocabulary errcat writes into records' ``tags`` and reads back when matching.

A leaf module (no pydantic): the store, the matcher and the miner read these
names, and none of them should import the record models to do so.

>>> f"{FUNCTION_TAG_PREFIX}__init__"
'errcat:in:__init__'
>>> GENERATED_TAG
'errcat:generated'
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "BASE_TAG_PREFIX",
    "CALLER_CLASS_TAG",
    "DUAL_CAUSE_TAG_PREFIX",
    "ENGINE_NAMED_TAG",
    "FAMILY_TAG",
    "FUNCTION_TAG_PREFIX",
    "GENERATED_TAG",
    "IMPORT_SYSTEM_TAGS",
    "PHRASE_TAG_PREFIX",
    "RESPONSE_TAG",
    "SCOPE_TAG_PREFIX",
    "WAS_TAG_PREFIX",
    "WRAPPER_TAG",
    "tag_values",
]

#: The tag of a record whose advice (documentation, solutions, ...) the miner
#: wrote from the code at its raise site, not a curator (see errcat.mine.advice).
GENERATED_TAG = "errcat:generated"
#: The tag prefix naming the builtin exception a project's own class derives from
#: (``errcat:base:ValueError`` on ``vllm.exceptions.VLLMValidationError``, written by
#: the miner): a paste of that builtin class is the same error from a version that
#: raised it.
BASE_TAG_PREFIX = "errcat:base:"
#: The tag prefix naming a class an older revision raised the record's message as
#: (``errcat:was:ValueError``, written by ``errcat history``): vllm moved messages
#: from ``ValueError`` to ``VLLMValidationError``, which no longer derives from it.
WAS_TAG_PREFIX = "errcat:was:"
#: The tag prefix naming the function that raises the record's message, as a traceback
#: prints it (``errcat:in:__init__``, written by the miner; none at module level): a
#: raise frame in that function, at another line, is the same statement in another
#: version.
FUNCTION_TAG_PREFIX = "errcat:in:"
#: The tag of a record whose class each caller chooses (``raise exception(msg)`` with
#: ``exception`` a parameter, written by the miner; the record's class is the
#: parameter's default): a traceback may show any class there.
CALLER_CLASS_TAG = "errcat:class:caller"
#: The tags of the import system's own records for any module (``No module named
#: {name!r}``, ``cannot import name {name!r} from {module!r}``; curated in
#: benchmarks/native_catalog/imports.py), whose patterns quote the names as CPython
#: prints them, and of its loader's ``{path}: undefined symbol: {symbol}`` for a torch
#: or CUDA symbol (benchmarks/stack_curated/symbols.py).
IMPORT_SYSTEM_TAGS = frozenset(
    {
        "errcat:native:import-missing-module",
        "errcat:native:import-cannot-import-name",
        "errcat:native:import-undefined-symbol",
    }
)
#: The tag prefix of words that name a record's error wherever they stand in a text
#: (``errcat:phrase:illegal memory access``, curated on a few native records): an issue
#: title that says them, with no message a pattern holds, is that error (see
#: :mod:`errcat.matcher.phrases`).
PHRASE_TAG_PREFIX = "errcat:phrase:"
#: The tag prefix of the dual classes a record answers when the paste cut the cause's
#: message: ``errcat:dual-cause:RayTaskError(OutOfMemoryError)`` on the record of Ray's
#: own ``OutOfMemoryError`` (see :mod:`errcat.matcher.dual_cause`).
DUAL_CAUSE_TAG_PREFIX = "errcat:dual-cause:"
#: The tag of a record that only wraps another error (``Engine core initialization
#: failed. See root cause above.``): a cause with a record in the same paste answers first.
WRAPPER_TAG = "errcat:wrapper"
#: The tag of a mined record for a message the code logs at WARNING or above
#: (``logger.warning("Input prompt (%d tokens) is too long ...", n)``), not raises: its
#: class is the level (see :mod:`errcat.mine.logged`); a paste shows it as a log line,
#: with no traceback of its own.
LOGGED_TAG = "errcat:logged"
#: The tag of a mined record for an HTTP error body a server returns, not raises
#: (``return self.create_error_response("...")``): its class is the body's ``type``,
#: its ``httpStatus`` the status the body carries (see :mod:`errcat.mine.responses`);
#: a paste shows it as the body a client printed (``Error code: 400 - {...}``).
RESPONSE_TAG = "errcat:response"
#: The tag of a curated record for a family of errors the Python interpreter raises
#: in a project's code, with no raise statement of its own (``KeyError:
#: 'model.layers.3.mlp.experts.w2_weight_scale_inv'`` at ``params_dict[name]`` in any
#: model's ``load_weights``): its file is one example of where; a raise frame anywhere
#: in its scope (:data:`SCOPE_TAG_PREFIX`), in a function its ``errcat:in:`` tags name,
#: is its raise site (see :mod:`errcat.matcher.family`).
FAMILY_TAG = "errcat:family"
#: The tag of a family record whose message shape only its engine's code prints among
#: what a serving stack runs (a ``KeyError`` on a checkpoint tensor name: only a model's
#: weight loader looks those up): a paste without frames that names the engine
#: (:func:`errcat.engine.detect`) is answered by it (see :mod:`errcat.matcher.family_named`).
ENGINE_NAMED_TAG = "errcat:answer:engine-named"
#: The tag prefix naming a directory of the repository a family record's errors are
#: raised in (``errcat:scope:python/sglang/srt/models``, subdirectories included; one
#: tag per directory). Without one, the directory of the record's file.
SCOPE_TAG_PREFIX = "errcat:scope:"


def tag_values(tags: Iterable[str], prefix: str) -> tuple[str, ...]:
    """What the tags of one prefix name, in order (``errcat:in:load_weights``: ``load_weights``).

    >>> tag_values(("errcat:in:f", "cli", "errcat:in:g"), FUNCTION_TAG_PREFIX)
    ('f', 'g')
    """
    return tuple(t[len(prefix) :] for t in tags if t.startswith(prefix))
