"""Fuzz the catalog loaders: damaged catalogs give ErrcatErrors or reported lines, nothing else.

Random damage to a ``.jsonl``, a ``.jsonl.gz``, a data directory with its
manifest and a release zip (truncation, bad bytes, JSON nested deep, fields of
the wrong type, a manifest that is not what it should be) is read by every
loader (``iter_path``, ``Catalog.from_path`` eager and through the stored
index, ``release check``). Each must either yield items that are an envelope
or a reported problem, or raise an :class:`~errcat.errors.ErrcatError`; any
other exception is a bug (issue 28: nothing crashes).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import SEED_RELEASE_DIR, seed_objects
from errcat.catalog import Catalog
from errcat.errors import ErrcatError
from errcat.loaders import iter_path
from errcat.release import build, check

SEEDS = seed_objects()
V1 = "2026-09-01T00:00:00Z"

# Values of every JSON type (and a few a strict parser refuses), put where fields were.
WRONG_VALUES: list[Any] = [
    None,
    0,
    -1,
    10**30,
    1e308,
    "",
    "x" * 300,
    "\ud800",
    [],
    [1, "a", None],
    {},
    {"a": {"b": []}},
    True,
]


@contextlib.contextmanager
def _own_cache() -> Iterator[Path]:
    """A temporary directory whose ``cache`` the stored indexes and decompressed copies use."""
    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get("ERRCAT_CACHE_DIR")
        os.environ["ERRCAT_CACHE_DIR"] = str(Path(tmp) / "cache")
        try:
            yield Path(tmp)
        finally:
            if old is None:
                os.environ.pop("ERRCAT_CACHE_DIR", None)
            else:
                os.environ["ERRCAT_CACHE_DIR"] = old


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path of a JSON value (dict keys and list indexes)."""
    out = [prefix]
    if isinstance(obj, dict):
        for key, value in obj.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            out += _paths(value, (*prefix, index))
    return out


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = obj
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return obj


def _damaged_line(rng: random.Random) -> str:
    """One line of damage: a record with a field of the wrong type, deep JSON, junk."""
    kind = rng.randrange(6)
    if kind == 0:
        record = json.loads(json.dumps(rng.choice(SEEDS)))
        path = rng.choice(_paths(record))
        record = _set(record, path, rng.choice(WRONG_VALUES))
        return json.dumps(record)
    if kind == 1:
        depth = rng.choice([100, 999, 1000, 5000, 50_000])
        opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
        inner = opener * depth + ("1" if opener != "[" else "") + closer * depth
        return '{"record": ' + inner + "}" if rng.random() < 0.5 else inner
    if kind == 2:
        record = json.loads(json.dumps(rng.choice(SEEDS)))
        record["record"]["messagePattern"] = rng.choice(
            ["(a{1000000000})", "(a{200}){100}", "((((((((((x))))))))))" * 8, "[", "(?P<", ""]
        )
        return json.dumps(record)
    if kind == 3:
        return json.dumps(rng.choice(WRONG_VALUES))
    if kind == 4:
        return json.dumps(rng.choice(SEEDS))[: rng.randrange(1, 200)]
    return "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(1, 40)))


def _damage_bytes(data: bytes, rng: random.Random) -> bytes:
    """Cut, flip, insert or append bytes."""
    if not data:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 20)))
    kind = rng.randrange(4)
    at = rng.randrange(len(data))
    if kind == 0:
        return data[:at]
    if kind == 1:
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
    if kind == 2:
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
        return data[:at] + junk + data[at:]
    return data + rng.choice([b"\xff\xfe\x00", b"garbage after the end", gzip.compress(b"{")])


def _jsonl(rng: random.Random) -> bytes:
    lines = [json.dumps(s) for s in SEEDS]
    for _ in range(rng.randrange(1, 4)):
        lines.insert(rng.randrange(len(lines) + 1), _damaged_line(rng))
    text = "\n".join(lines) + rng.choice(["\n", "", "\r\n"])
    data = text.encode("utf-8", "surrogatepass")
    return _damage_bytes(data, rng) if rng.random() < 0.5 else data


def _read_all(path: Path) -> None:
    """Every loader on ``path``; items must be an envelope or a reported problem."""
    loaders: list[Callable[[], Any]] = [
        lambda: list(iter_path(path)),
        lambda: Catalog.from_path(path, lazy=False),
        lambda: Catalog.from_path(path, lazy=True),
        lambda: check([path]),
    ]
    for load in loaders:
        try:
            result = load()
        except ErrcatError:
            continue
        if isinstance(result, list):
            for item in result:
                assert (item.envelope is None) != (item.problem is None)
                assert item.problem is None or isinstance(item.problem, ErrcatError)
        elif isinstance(result, Catalog):
            assert all(isinstance(p, ErrcatError) for p in result.problems)
            for record in result:  # every record loaded is readable whole
                assert record.id


@settings(max_examples=60)
@given(seed=st.integers(0, 10**9), compressed=st.booleans())
def test_a_damaged_records_file_gives_errcat_errors_or_reported_lines(
    seed: int, compressed: bool
) -> None:
    rng = random.Random(seed)
    data = _jsonl(rng)
    with _own_cache() as tmp:
        if compressed:
            packed = gzip.compress(data, mtime=0)
            data = _damage_bytes(packed, rng) if rng.random() < 0.6 else packed
        path = tmp / ("cat.jsonl.gz" if compressed else rng.choice(["cat.jsonl", "cat.txt"]))
        path.write_bytes(data)
        _read_all(path)


def _manifest_damage(manifest: dict[str, Any], rng: random.Random) -> Any:
    """A manifest with one thing wrong: a field's type, a file's entry, its whole shape."""
    kind = rng.randrange(5)
    if kind == 0:
        key = rng.choice(sorted(manifest))
        manifest[key] = rng.choice(WRONG_VALUES)
    elif kind == 1:
        files = manifest.get("files") or {}
        name = rng.choice(sorted(files) or ["records/x.jsonl"])
        files[name] = rng.choice([*WRONG_VALUES, {"sha256": "0" * 64}, {"sha256": 5}])
    elif kind == 2:
        files = manifest.get("files") or {}
        bad_name = rng.choice(["../x.jsonl", "/etc/passwd", "records//x", "a\\b", "\x00", ""])
        files[bad_name] = {"count": 1, "sha256": "0" * 64}
        manifest["files"] = files
    elif kind == 3:
        return rng.choice(WRONG_VALUES)
    else:
        manifest["withdrawn"] = rng.choice(
            [[{"id": 5}], [{"id": "x" * 16, "reason": None}], "x", [[]], {}]
        )
    return manifest


@settings(max_examples=40)
@given(seed=st.integers(0, 10**9), compress=st.booleans())
# Found in CI: a record with a lone surrogate (10070), a manifest naming a missing file (20656)
@example(seed=10070, compress=True)
@example(seed=20656, compress=False)
@example(seed=20656, compress=True)
def test_a_damaged_data_directory_gives_errcat_errors_or_reported_lines(
    seed: int, compress: bool
) -> None:
    rng = random.Random(seed)
    with _own_cache() as tmp:
        data = tmp / "data"
        shutil.copytree(SEED_RELEASE_DIR, data)
        if compress:
            for file in (data / "records").glob("*.jsonl"):
                file.with_name(file.name + ".gz").write_bytes(gzip.compress(file.read_bytes()))
                file.unlink()
            manifest = json.loads((data / "manifest.json").read_text())
            manifest["files"] = {n + ".gz": m for n, m in manifest["files"].items()}
            (data / "manifest.json").write_text(json.dumps(manifest))
        target = rng.choice(["manifest", "records", "both"])
        if target in ("manifest", "both"):
            text = (data / "manifest.json").read_bytes()
            if rng.random() < 0.5:
                damaged = json.dumps(_manifest_damage(json.loads(text), rng)).encode()
            else:
                damaged = _damage_bytes(text, rng)
            (data / "manifest.json").write_bytes(damaged)
        if target in ("records", "both"):
            records = sorted((data / "records").iterdir())
            victim = rng.choice(records)
            body = _jsonl(rng)
            victim.write_bytes(gzip.compress(body) if compress else body)
        _read_all(data)
        with contextlib.suppress(ErrcatError):
            build(data, version=V1, dist=tmp / "dist")


@settings(max_examples=30)
@given(seed=st.integers(0, 10**9))
# Found in CI: a damaged byte that names a compression method zipfile lacks (433)
@example(seed=433)
def test_a_damaged_release_zip_gives_errcat_errors(seed: int) -> None:
    rng = random.Random(seed)
    with _own_cache() as tmp:
        data = tmp / "data"
        shutil.copytree(SEED_RELEASE_DIR, data)
        artifact = build(data, version=V1, dist=tmp / "dist").artifact
        artifact.write_bytes(_damage_bytes(artifact.read_bytes(), rng))
        _read_all(artifact)
