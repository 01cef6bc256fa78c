"""safetensors' header error: a weight shard that is not (all) a safetensors file.

Every engine loads weights through safetensors. Its Rust core reads the first
8 bytes of a shard as the header's length and the header as JSON; when that
fails the Python binding raises ``SafetensorError`` with ``Error while
deserializing header: <the Rust error, Debug-printed>`` (``HeaderTooLarge``,
``HeaderTooSmall``, ``InvalidHeaderDeserialization``, ``MetadataIncompleteBuffer``,
...). The binding is compiled, so no package the stack mines holds the text.
Users meet it at weight loading, and the cause is nearly always the file, not
the code: a git-lfs pointer in place of the shard (a clone without git-lfs), a
download cut short or a full disk.

Sources: huggingface/safetensors ``bindings/python/src/lib.rs`` (``Open::new``:
``SafeTensors::read_metadata(&buffer).map_err(...)``), and ``safetensors/src/
tensor.rs`` for the error variants; the file's lines were not counted at a tag,
so the link points at the file.

>>> import regex
>>> pattern = HEADER.envelope().record.message_pattern
>>> all(
...     regex.fullmatch(pattern, f"Error while deserializing header: {r}")
...     for r in ("HeaderTooLarge", "InvalidHeaderDeserialization", "MetadataIncompleteBuffer")
... )
True
>>> len(RECORDS)
1
"""

from __future__ import annotations

from errcat.imports.site import HIDDEN_SITE_TAG
from stack_curated.spec import Curated

__all__ = ["HEADER", "RECORDS"]

HEADER = Curated(
    repo="huggingface/safetensors",
    path="bindings/python/src/lib.rs",
    line=1,
    revision="v0.8.0",
    error_class="safetensors_rust.SafetensorError",
    template="Error while deserializing header: {reason}",
    pattern=r"Error while deserializing header: (.+?)",
    error_type="data",
    documentation="A weight shard could not be opened as safetensors: its first 8 bytes"
    " give the header's length and the header must be JSON. HeaderTooLarge or"
    " InvalidHeaderDeserialization mean the file is not a safetensors file at all, most"
    " often a git-lfs pointer (a text file of about 130 bytes starting 'version"
    " https://git-lfs') left by a git clone without git-lfs, or an HTML error page saved"
    " in its place; MetadataIncompleteBuffer (or HeaderTooSmall) means the file is"
    " shorter than its header says: a download cut short or a disk that filled up. The"
    " engine's code is not at fault; the file on disk is.",
    solutions=(
        "Look at the shards: ls -l <model dir>/*.safetensors (a shard of a few hundred bytes"
        " is a pointer; head -c 200 <shard> shows 'version https://git-lfs...')",
        "A pointer: fetch the real files with git lfs install && git lfs pull in the model"
        " directory, or download the model instead of cloning it",
        "A cut-short file: check free space (df -h) and download again, e.g. huggingface-cli"
        " download <repo id> --local-dir <model dir> --force-download",
    ),
    example_fix="# before: cloned without git-lfs\ngit clone https://huggingface.co/Qwen/Qwen2.5-7B-Instruct\n"
    "# after\nhuggingface-cli download Qwen/Qwen2.5-7B-Instruct --local-dir ./Qwen2.5-7B-Instruct",
    trigger="Loading weights from a .safetensors file that is a git-lfs pointer, truncated,"
    " or not safetensors.",
    prevention=(
        "Download models with huggingface-cli download (or git lfs), and check the shards'"
        " sizes against the model page",
    ),
    # Raised in the compiled binding: no traceback frame shows the site, so the
    # frames of the loader that called safe_open are no evidence against it.
    tags=("safetensors", "weight-loading", HIDDEN_SITE_TAG),
    references=(
        "safetensors bindings/python/src/lib.rs Open::new (read_metadata's error)",
        "https://github.com/vllm-project/vllm/issues/14596",
    ),
)

RECORDS: tuple[Curated, ...] = (HEADER,)
