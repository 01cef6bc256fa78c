"""Which records of a store are raised where a Python traceback shows no frame.

Two kinds: records tagged :data:`errcat.imports.site.HIDDEN_SITE_TAG` (the
import system's, whose frames Python strips, and hand-written records of C++
checks), and records raised in a C, C++ or CUDA source file (a ``TORCH_CHECK``
in ``aten/src/ATen/InferSize.h``, sgl-kernel's ``csrc``). The frames of a
traceback around them are the calling Python code, never the raise site, so
they say nothing for or against such a record: the matcher weighs its text as
it weighs a bare line's (:mod:`errcat.matcher.collect`), instead of holding the
record down because no frame reaches its file.

>>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
>>> from errcat.store import MemoryStore
>>> plain = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
>>> tagged = plain.model_copy(update={"id": "c0ffee", "slug": "t", "tags": (HIDDEN_SITE_TAG,)})
>>> check = plain.model_copy(update={"id": "beef", "slug": "c", "file_path": "csrc/ops.cu"})
>>> sorted(hidden_positions(MemoryStore([plain, tagged, check])))
[1, 2]
"""

from __future__ import annotations

import weakref

from errcat.imports.site import HIDDEN_SITE_TAG, hides_frames
from errcat.store import RecordSummary, Store, file_tail

__all__ = ["NATIVE_SUFFIXES", "hidden_positions", "native_file", "site_hidden"]

#: Source files no Python traceback frame is ever in.
NATIVE_SUFFIXES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cu", ".cuh", ".inl")

_HIDDEN: weakref.WeakKeyDictionary[Store, frozenset[int]] = weakref.WeakKeyDictionary()


def native_file(tail: str) -> bool:
    """Whether a file name is C, C++ or CUDA source.

    >>> native_file("InferSize.h"), native_file("moe_align.cu"), native_file("layer.py")
    (True, True, False)
    """
    return tail.lower().endswith(NATIVE_SUFFIXES)


def site_hidden(record: RecordSummary) -> bool:
    """Whether no traceback frame shows the record's raise site (see :func:`hidden_positions`).

    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> plain = RecordSummary.of(RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record)
    >>> site_hidden(plain), site_hidden(plain._replace(file_path="csrc/ops.cu"))
    (False, True)
    """
    return hides_frames(record.tags) or native_file(file_tail(record.file_path))


def hidden_positions(store: Store) -> frozenset[int]:
    """Positions (in ``store``) of records whose raise site no traceback frame shows.

    Worked out on first use (one scan of the rows for the tag, and of the file
    names the index holds), then kept for the store.
    """
    found = _HIDDEN.get(store)
    if found is None:
        tagged = (p for p in store.tagged(HIDDEN_SITE_TAG) if hides_frames(store.summary(p).tags))
        native = (
            p
            for tail in store.file_tails()
            if native_file(tail)
            for p in store.records_in_file(tail)
        )
        found = _HIDDEN[store] = frozenset((*tagged, *native))
    return found
