"""Release artifacts: a zip of ``manifest.json`` and the records files, read and verified whole.

>>> is_artifact("errcat-data-2026-09-01T000000Z.zip")
True
"""

from __future__ import annotations

import hashlib
import io
import os
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errcat.errors import CatalogSourceError
from errcat.loaders.limits import inflate_limit, parse_json, too_large
from errcat.loaders.names import ARTIFACT_SUFFIX, MANIFEST_NAME, member_path_problem

__all__ = ["MAX_MEMBER_BYTES", "is_artifact", "read_artifact"]

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
#: An artifact member larger than this is refused (a zip bomb, not a catalog); so is
#: one that inflates to more than :func:`~errcat.loaders.limits.inflate_limit` of its size.
MAX_MEMBER_BYTES = 1 << 30


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
    if member.method == zipfile.ZIP_DEFLATED:  # no more than the header announces
        bound = min(member.size, MAX_MEMBER_BYTES) + 1
        return zlib.decompressobj(-zlib.MAX_WBITS).decompress(member.data, bound)
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
        manifest = parse_json(_inflate(manifest_member))
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
            manifest = parse_json(manifest_bytes)
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
            problem = member_path_problem(name)
            if problem is not None:
                raise CatalogSourceError(f"{source}: {MANIFEST_NAME} lists {problem}")
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
    if info.file_size > MAX_MEMBER_BYTES:
        raise CatalogSourceError(f"{source}: {name} is too large ({info.file_size} bytes)")
    if info.file_size > inflate_limit(info.compress_size):
        raise too_large(f"{source}: {name}", inflate_limit(info.compress_size))
    try:
        return archive.read(info)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError) as exc:
        # The zip's own CRC-32 caught the damage (or its header now names a compression
        # method zipfile lacks); say what the manifest expected, and what the bytes hash
        # to when they can still be inflated.
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
