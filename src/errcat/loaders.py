"""Read records from JSON Lines files, JSON files, directories and the bundled data.

Every reader yields :class:`Loaded` items: an envelope, or the
:class:`~errcat.errors.InvalidRecordError` that says which file, line and field
kept a line from loading. Callers decide whether a problem is fatal
(``strict=True``) or is reported and skipped; nothing else is dropped.

>>> from errcat.loaders import bundled_data_dir, read_manifest
>>> read_manifest(bundled_data_dir())["schemaVersion"]
2
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import struct
import sys
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

from errcat.errors import CatalogSourceError, InvalidRecordError

if TYPE_CHECKING:
    from errcat.models import RecordEnvelope

__all__ = [
    "ARTIFACT_SUFFIX",
    "COMPRESSED_SUFFIX",
    "MANIFEST_NAME",
    "SOURCES_NAME",
    "Loaded",
    "bundled_data_dir",
    "data_files",
    "dump_envelope",
    "is_artifact",
    "is_compressed",
    "iter_data_files",
    "iter_path",
    "load_envelopes",
    "open_data",
    "read_artifact",
    "read_manifest",
    "sha256_file",
    "write_jsonl",
]

#: Name of the manifest file at the top of a data directory.
MANIFEST_NAME = "manifest.json"

#: Name of the file that says what a data directory was built from (never read as records).
SOURCES_NAME = "SOURCES.json"

#: A data file whose name ends with this (``cat.jsonl.gz``) is gzip-compressed; it is read
#: as the file without it would be, line numbers counted in the decompressed text.
COMPRESSED_SUFFIX = ".gz"

#: File name ending of a release artifact: a zip of ``manifest.json`` and ``records/*.jsonl``.
ARTIFACT_SUFFIX = ".zip"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
#: An artifact member larger than this is refused (a zip bomb, not a catalog).
_MAX_MEMBER_BYTES = 1 << 30

#: File name endings read as JSON Lines, as one JSON document, or sniffed.
_JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
_JSON_SUFFIXES = frozenset({".json"})
_SNIFFED_SUFFIXES = frozenset({".txt"})


@dataclass(frozen=True, slots=True)
class Loaded:
    """One item read from a source: an envelope or the problem that replaced it."""

    source: str
    line: int
    envelope: RecordEnvelope | None = None
    problem: InvalidRecordError | None = None


def bundled_data_dir() -> Traversable:
    """The data directory shipped inside the errcat package (``data/`` in a checkout)."""
    return files("errcat") / "_data"


def read_manifest(directory: Traversable | Path) -> dict[str, Any]:
    """Read the ``manifest.json`` of a data directory.

    Raises :class:`~errcat.errors.CatalogSourceError` when it is missing or unreadable.
    A manifest on disk is parsed once per process while its file is unchanged
    (a large release lists every record id); each call gets its own top-level dict.
    """
    manifest = directory / MANIFEST_NAME
    try:
        if isinstance(manifest, Path):
            stat = manifest.stat()
            key = (str(manifest), stat.st_mtime_ns, stat.st_size)
            cached = _MANIFESTS.get(key)
            if cached is None:
                cached = _MANIFESTS[key] = json.loads(manifest.read_bytes().decode("utf-8"))
            data = cached
        else:
            data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogSourceError(f"Cannot read manifest {manifest}: {exc}") from None
    if not isinstance(data, dict):
        raise CatalogSourceError(f"Manifest {manifest} is not a JSON object")
    return dict(data)


_MANIFESTS: dict[tuple[str, int, int], Any] = {}


def sha256_file(path: Traversable | Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def is_compressed(name: str | os.PathLike[str]) -> bool:
    """True for a data file name that ends with :data:`COMPRESSED_SUFFIX`.

    >>> is_compressed("records/sgl-project__sglang.jsonl.gz"), is_compressed("cat.jsonl")
    (True, False)
    """
    return Path(name).name.lower().endswith(COMPRESSED_SUFFIX)


def _data_suffix(name: str) -> str:
    """The suffix that says how a data file is read, with the compression suffix dropped.

    >>> _data_suffix("cat.JSONL.gz"), _data_suffix("one.json"), _data_suffix("x.gz")
    ('.jsonl', '.json', '')
    """
    base = Path(name).name.lower()
    if base.endswith(COMPRESSED_SUFFIX):
        base = base[: -len(COMPRESSED_SUFFIX)]
    return Path(base).suffix


@contextmanager
def open_data(path: Traversable | Path) -> Iterator[IO[bytes]]:
    """Open a data file for reading bytes, decompressing it when its name ends with ``.gz``.

    >>> import gzip, tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "cat.jsonl.gz"
    ...     _ = p.write_bytes(gzip.compress(b"[1, 2]"))
    ...     with open_data(p) as fh:
    ...         fh.read()
    b'[1, 2]'
    """
    with path.open("rb") as fh:
        if not is_compressed(path.name):
            yield fh
            return
        with gzip.GzipFile(fileobj=fh, mode="rb") as unpacked:
            yield cast(IO[bytes], unpacked)


class _DamagedError(Exception):
    """A compressed data file that stops decompressing partway (raised inside the reader)."""


class _GuardedLines:
    """The lines of a compressed file; damage (cut short, bad CRC) gives :class:`_DamagedError`."""

    def __init__(self, fh: Iterable[bytes]) -> None:
        self._fh = fh

    def __iter__(self) -> Iterator[bytes]:
        iterator = iter(self._fh)
        while True:
            try:
                line = next(iterator)
            except StopIteration:
                return
            except (OSError, EOFError, zlib.error) as exc:
                raise _DamagedError(str(exc) or type(exc).__name__) from None
            yield line


def _validated(obj: Any, source: str, line: int, *, strict: bool) -> Loaded:
    from errcat.models import validate_envelope  # pydantic: only once records are read

    try:
        envelope = validate_envelope(obj, strict=strict, path=source, line=line)
    except InvalidRecordError as exc:
        return Loaded(source, line, problem=exc)
    return Loaded(source, line, envelope=envelope)


class _LineCounter:
    """Iterate over lines while remembering the number of the last one read."""

    def __init__(self, lines: Iterable[bytes]) -> None:
        self._lines = lines
        self.number = 0

    def __iter__(self) -> Iterator[bytes]:
        for line in self._lines:
            self.number += 1
            yield line


def _iter_jsonl(lines: Iterable[bytes], source: str, *, strict: bool) -> Iterator[Loaded]:
    import jsonlines

    counter = _LineCounter(lines)
    reader = jsonlines.Reader(counter)
    while True:
        try:
            obj = reader.read(skip_empty=True)
        except EOFError:
            return
        except _DamagedError as exc:
            raise CatalogSourceError(
                f"{source}:{counter.number + 1}: the compressed data is damaged or cut short "
                f"after line {counter.number} ({exc})"
            ) from None
        except jsonlines.InvalidLineError as exc:
            reason = str(exc).removesuffix(f" (line {exc.lineno})")
            problem = InvalidRecordError(reason, path=source, line=exc.lineno)
            yield Loaded(source, exc.lineno, problem=problem)
            continue
        yield _validated(obj, source, counter.number, strict=strict)


def _iter_json_document(text: str, source: str, *, strict: bool) -> Iterator[Loaded]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        yield Loaded(
            source,
            line or 1,
            problem=InvalidRecordError(f"invalid JSON: {exc}", path=source, line=line),
        )
        return
    items = data if isinstance(data, list) else [data]
    for index, item in enumerate(items, start=1):
        # A list's items are numbered as lines would be: the n-th envelope.
        yield _validated(item, source, index, strict=strict)


def _iter_file(path: Traversable | Path, source: str, *, strict: bool) -> Iterator[Loaded]:
    suffix = _data_suffix(path.name)
    compressed = is_compressed(path.name)
    try:
        if suffix in _JSONL_SUFFIXES:
            with open_data(path) as fh:
                yield from _iter_jsonl(
                    _GuardedLines(fh) if compressed else fh, source, strict=strict
                )
            return
        with open_data(path) as fh:
            raw = fh.read()
    except (OSError, EOFError, zlib.error) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise CatalogSourceError(f"Cannot read {source}: {reason}") from None
    text = raw.decode("utf-8", errors="surrogateescape")
    if suffix in _JSON_SUFFIXES or _is_single_document(text):
        yield from _iter_json_document(text, source, strict=strict)
        return
    yield from _iter_jsonl(raw.splitlines(keepends=True), source, strict=strict)


def _is_single_document(text: str) -> bool:
    """True when ``text`` holds one JSON value (a pretty-printed or one-line envelope)."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return False
    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


def _data_files(directory: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name in (MANIFEST_NAME, SOURCES_NAME) or name.startswith("."):
                continue
            if name.lower().endswith((".history.json", ".history.json.gz")):
                continue  # a history sidecar (errcat.history), not records
            suffix = _data_suffix(name)
            if suffix in _JSONL_SUFFIXES | _JSON_SUFFIXES | _SNIFFED_SUFFIXES:
                found.append(Path(root) / name)
    return found


def _iter_manifest_dir(directory: Traversable, *, strict: bool) -> Iterator[Loaded]:
    """Read a data directory through its manifest, checking each file's sha256."""
    manifest = read_manifest(directory)
    entries = manifest.get("files")
    if not isinstance(entries, dict):
        raise CatalogSourceError(f"Manifest in {directory} has no 'files' table")
    for name, meta in sorted(entries.items()):
        path = directory
        for part in str(name).split("/"):
            path = path / part
        source = f"{directory}/{name}"
        if not path.is_file():
            raise CatalogSourceError(f"{source}: listed in the manifest but missing")
        expected = meta.get("sha256") if isinstance(meta, dict) else None
        if expected and sha256_file(path) != expected:
            raise CatalogSourceError(
                f"{source}: sha256 does not match the manifest (expected {expected}); "
                "the file was altered or truncated"
            )
        yield from _iter_file(path, source, strict=strict)


def data_files(directory: str | os.PathLike[str]) -> list[Path]:
    """The data files under a directory, sorted, whatever its manifest lists.

    These are the ``.jsonl``, ``.ndjson``, ``.json`` and ``.txt`` files, also
    gzip-compressed (``.jsonl.gz``), the manifest, ``SOURCES.json`` and hidden
    files aside: what a release check reads, so that a
    record added or edited since the last build is seen.
    """
    return _data_files(Path(directory))


def iter_data_files(directory: str | os.PathLike[str], *, strict: bool = False) -> Iterator[Loaded]:
    """Yield every envelope (or problem) of every data file under ``directory``.

    Unlike :func:`iter_path`, a manifest is not used: its checksums describe the
    last build, and a release check reads the files as they are now.
    """
    for file in _data_files(Path(directory)):
        yield from _iter_file(file, str(file), strict=strict)


def is_artifact(path: str | os.PathLike[str]) -> bool:
    """True for a file that is a release artifact (a ``.zip``, or anything starting like one)."""
    p = Path(path)
    if p.suffix.lower() == ARTIFACT_SUFFIX:
        return True
    try:
        with p.open("rb") as fh:
            return fh.read(4) in _ZIP_MAGIC
    except OSError:
        return False


_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_LOCAL_SIGNATURE = b"PK\x03\x04"
_HAS_DATA_DESCRIPTOR = 0x08


@dataclass(frozen=True, slots=True)
class _RawMember:
    """A member read straight from its local header (for a zip whose directory is gone)."""

    name: str
    method: int
    size: int  # uncompressed size the header announces
    data: bytes  # compressed bytes present (fewer than announced when cut short)
    complete: bool


def _raw_members(raw: bytes) -> list[_RawMember]:
    """Walk the local file headers of a (possibly truncated) zip from the start."""
    members: list[_RawMember] = []
    offset = 0
    while raw.startswith(_LOCAL_SIGNATURE, offset):
        if offset + _LOCAL_HEADER.size > len(raw):
            break
        fields = _LOCAL_HEADER.unpack_from(raw, offset)
        flags, method, csize, usize, name_len, extra_len = (
            fields[2],
            fields[3],
            fields[7],
            fields[8],
            fields[9],
            fields[10],
        )
        name_start = offset + _LOCAL_HEADER.size
        name = raw[name_start : name_start + name_len].decode("utf-8", "replace")
        start = name_start + name_len + extra_len
        if flags & _HAS_DATA_DESCRIPTOR:
            break  # sizes are after the data: cannot walk on
        data = raw[start : start + csize]
        members.append(_RawMember(name, method, usize, data, len(data) == csize))
        offset = start + csize
    return members


def _inflate(member: _RawMember) -> bytes:
    if member.method == zipfile.ZIP_STORED:
        return member.data
    if member.method == zipfile.ZIP_DEFLATED:
        return zlib.decompressobj(-zlib.MAX_WBITS).decompress(member.data)
    raise zlib.error(f"unsupported compression method {member.method}")


def _diagnose(source: str, raw: bytes, reason: str) -> CatalogSourceError:
    """Say which member of a damaged artifact is at fault, and its checksum."""
    members = {m.name: m for m in _raw_members(raw)}
    manifest_member = members.get(MANIFEST_NAME)
    if manifest_member is None:
        return CatalogSourceError(
            f"{source}: truncated or corrupted release artifact ({reason}); "
            f"its {MANIFEST_NAME} cannot be read"
        )
    if not manifest_member.complete:
        return CatalogSourceError(
            f"{source}: truncated release artifact ({reason}): its {MANIFEST_NAME} is cut short "
            f"({len(manifest_member.data)} bytes present), so no file can be verified"
        )
    try:
        manifest = json.loads(_inflate(manifest_member))
        entries = manifest["files"]
        assert isinstance(entries, dict)
    except (ValueError, zlib.error, KeyError, TypeError, AssertionError):
        return CatalogSourceError(
            f"{source}: truncated or corrupted release artifact ({reason}); "
            f"its {MANIFEST_NAME} is damaged"
        )
    for name, meta in sorted(entries.items()):
        expected = meta.get("sha256") if isinstance(meta, dict) else None
        member = members.get(name)
        if member is None:
            return CatalogSourceError(
                f"{source}: truncated release artifact ({reason}): {name} is missing "
                f"(expected sha256 {expected})"
            )
        if not member.complete:
            return CatalogSourceError(
                f"{source}: truncated release artifact ({reason}): {name} is cut short "
                f"({len(member.data)} bytes present); expected sha256 {expected}"
            )
        try:
            actual = hashlib.sha256(_inflate(member)).hexdigest()
        except zlib.error as exc:
            return CatalogSourceError(
                f"{source}: corrupted release artifact: {name} cannot be decompressed ({exc}); "
                f"expected sha256 {expected}"
            )
        if actual != expected:
            return _sha_mismatch(source, name, expected, actual)
    return CatalogSourceError(
        f"{source}: truncated or corrupted release artifact ({reason}); every member listed "
        "in its manifest checks out, but the archive itself is incomplete"
    )


def _sha_mismatch(source: str, name: str, expected: object, actual: str) -> CatalogSourceError:
    return CatalogSourceError(
        f"{source}: {name}: sha256 {actual} does not match the manifest's {expected}; "
        "the artifact was altered or truncated"
    )


def read_artifact(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Read a release artifact and verify it: its manifest and every file's bytes by name.

    Every file the manifest lists must be present with the listed sha256, and
    nothing else may be in the archive. Any damage (a truncated or altered
    file) raises :class:`~errcat.errors.CatalogSourceError` naming the artifact,
    the file inside it and the checksum; nothing is returned half-checked.
    """
    source = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise CatalogSourceError(f"Cannot read {source}: {exc.strerror or exc}") from None
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile as exc:
        raise _diagnose(source, raw, str(exc)) from None
    with archive:
        names = archive.namelist()
        if MANIFEST_NAME not in names:
            raise CatalogSourceError(f"{source}: not a release artifact (no {MANIFEST_NAME})")
        manifest_bytes = _read_member(archive, MANIFEST_NAME, source, raw, expected=None)
        try:
            manifest = json.loads(manifest_bytes)
        except ValueError as exc:
            raise CatalogSourceError(
                f"{source}: {MANIFEST_NAME} is not valid JSON: {exc}"
            ) from None
        entries = manifest.get("files") if isinstance(manifest, dict) else None
        if not isinstance(entries, dict):
            raise CatalogSourceError(f"{source}: {MANIFEST_NAME} has no 'files' table")
        members = {name for name in names if not name.endswith("/")}  # not directory entries
        extra = sorted(members - set(entries) - {MANIFEST_NAME})
        if extra:
            raise CatalogSourceError(
                f"{source}: {extra[0]} is in the archive but not in its manifest"
            )
        contents: dict[str, bytes] = {}
        for name, meta in sorted(entries.items()):
            expected = meta.get("sha256") if isinstance(meta, dict) else None
            if not isinstance(expected, str):
                raise CatalogSourceError(f"{source}: {name}: the manifest gives no sha256")
            if name not in names:
                raise CatalogSourceError(
                    f"{source}: {name}: listed in the manifest but missing "
                    f"(expected sha256 {expected})"
                )
            data = _read_member(archive, name, source, raw, expected=expected)
            actual = hashlib.sha256(data).hexdigest()
            if actual != expected:
                raise _sha_mismatch(source, name, expected, actual)
            contents[name] = data
    return manifest, contents


def _read_member(
    archive: zipfile.ZipFile, name: str, source: str, raw: bytes, *, expected: str | None
) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > _MAX_MEMBER_BYTES:
        raise CatalogSourceError(f"{source}: {name} is too large ({info.file_size} bytes)")
    try:
        return archive.read(info)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
        # The zip's own CRC-32 caught the damage; say what the manifest expected, and what
        # the bytes hash to when they can still be inflated.
        member = next((m for m in _raw_members(raw) if m.name == name), None)
        actual = None
        if member is not None and member.complete:
            try:
                actual = hashlib.sha256(_inflate(member)).hexdigest()
            except zlib.error:
                actual = None
        if expected is not None and actual is not None and actual != expected:
            raise _sha_mismatch(source, name, expected, actual) from None
        want = f"; expected sha256 {expected}" if expected else ""
        raise CatalogSourceError(
            f"{source}: {name}: damaged in the archive ({exc}){want}; "
            "the artifact was altered or truncated"
        ) from None


def _iter_artifact(path: Path, *, strict: bool) -> Iterator[Loaded]:
    """Verify a whole artifact first, then yield its records file by file."""
    manifest, contents = read_artifact(path)
    del manifest
    for name, data in contents.items():
        source = f"{path}!{name}"
        text = data
        if is_compressed(name):
            try:
                text = gzip.decompress(data)
            except (OSError, EOFError, zlib.error) as exc:
                raise CatalogSourceError(f"{source}: cannot decompress: {exc}") from None
        yield from _iter_jsonl(text.splitlines(keepends=True), source, strict=strict)


def iter_path(
    path: str | os.PathLike[str] | Traversable, *, strict: bool = False
) -> Iterator[Loaded]:
    """Yield every envelope (or problem) of a file, directory or release artifact.

    A directory with a ``manifest.json`` is read through it (files checked
    against their sha256); any other directory is searched for ``.jsonl``,
    ``.ndjson``, ``.json`` and ``.txt`` files, in sorted order; any of them may
    be gzip-compressed (``cat.jsonl.gz``). A release artifact
    (``errcat-data-<version>.zip``) is verified whole before its first record
    is yielded. A file whose whole text is one JSON value is one envelope
    (or a list of them); other files are JSON Lines.
    """
    if isinstance(path, Traversable) and not isinstance(path, Path):
        if (path / MANIFEST_NAME).is_file():
            yield from _iter_manifest_dir(path, strict=strict)
            return
        raise CatalogSourceError(f"{path}: not a data directory (no {MANIFEST_NAME})")
    p = Path(path)
    if p.is_dir():
        if (p / MANIFEST_NAME).is_file():
            yield from _iter_manifest_dir(p, strict=strict)
            return
        for file in _data_files(p):
            yield from _iter_file(file, str(file), strict=strict)
        return
    if not p.exists():
        raise CatalogSourceError(f"No such file or directory: {str(p)!r}")
    if is_artifact(p):
        yield from _iter_artifact(p, strict=strict)
        return
    yield from _iter_file(p, str(p), strict=strict)


def load_envelopes(path: str | os.PathLike[str]) -> list[RecordEnvelope]:
    """Every envelope of a file, directory or artifact; the first bad line raises its problem.

    For commands that take a catalog to update (``errcat mine --update``):
    such a catalog must load whole, or the command would silently drop records.
    """
    envelopes = []
    for loaded in iter_path(path):
        if loaded.problem is not None:
            raise loaded.problem
        assert loaded.envelope is not None
        envelopes.append(loaded.envelope)
    return envelopes


def dump_envelope(envelope: RecordEnvelope) -> str:
    """One envelope as a compact JSON line, fields in schema order, UTF-8 kept."""
    return json.dumps(envelope.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))


def write_jsonl(path: str | os.PathLike[str], envelopes: Iterable[RecordEnvelope]) -> int:
    """Write envelopes to a JSON Lines file (atomically); return how many were written."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    count = 0
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        for envelope in envelopes:
            fh.write(dump_envelope(envelope))
            fh.write("\n")
            count += 1
    tmp.replace(target)
    return count
