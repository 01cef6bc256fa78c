"""Smoke test of the benchmark corpus generator (benchmarks/corpus.py) on a small base.

The base is mined from four standard-library modules into a temporary cache, so
the test takes a few seconds and never touches the real cache.
"""

from __future__ import annotations

import ast
import json
import sys
import sysconfig
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from errcat.loaders import iter_path
from errcat.patterns import compile_pattern, literal_fragments, literal_length

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import corpus  # noqa: E402

STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> corpus.MinedBase:
    source = corpus.Source(
        "python/cpython",
        "smoke",
        (
            (STDLIB / "json", "Lib/json"),
            (STDLIB / "argparse.py", "Lib"),
            (STDLIB / "configparser.py", "Lib"),
            (STDLIB / "shlex.py", "Lib"),
            (STDLIB / "ipaddress.py", "Lib"),
        ),
    )
    root = tmp_path_factory.mktemp("cache")
    mined = corpus.load_base(sources=[source], root=root, workers=1)
    assert not mined.meta["cached"]
    again = corpus.load_base(sources=[source], root=root, workers=1)
    assert again.meta["cached"] and again.envelopes == mined.envelopes
    return mined


@pytest.fixture(scope="module")
def catalog(base: corpus.MinedBase, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return corpus.write_catalog(1500, tmp_path_factory.mktemp("catalogs"), seed=3, base=base)


def records(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line)["record"] for line in fh]


def test_base_is_mined_stdlib(base: corpus.MinedBase) -> None:
    assert 100 < len(base.envelopes) < 1000
    assert {e["record"]["repo"] for e in base.envelopes} == {"python/cpython"}


def test_catalog_is_valid_and_varied(base: corpus.MinedBase, catalog: Path) -> None:
    loaded = list(iter_path(catalog, strict=True))
    assert len(loaded) == 1500
    assert all(item.problem is None for item in loaded)
    recs = records(catalog)
    assert len({r["id"] for r in recs}) == 1500
    meta = json.loads(catalog.with_name(catalog.name + ".meta").read_text())
    counts = meta["counts"]
    assert counts["base"] == len(base.envelopes)
    made = ("base", "perturbed", "duplicate", "generic", "shared")
    assert sum(counts[key] for key in made) == 1500
    assert counts["generic"] >= 1
    generated = recs[counts["base"] :]
    repos = Counter(r["repo"] for r in generated)
    assert len(repos) > 5 and all(repo.startswith("org") for repo in repos)

    # A project raises a base message the same way at each of its sites, so about as
    # many generated records share their pattern inside their project as base
    # records share theirs inside the base.
    def sharing(rows: list[dict[str, Any]], key: str) -> float:
        seen = Counter((r[key], r["messagePattern"]) for r in rows)
        return sum(seen[r[key], r["messagePattern"]] > 1 for r in rows) / len(rows)

    base_share = sharing([e["record"] for e in base.envelopes], "repo")
    assert counts["shared"] > 0
    assert sharing(generated, "repo") > base_share / 2 > 0
    # Perturbed templates are new: distinct patterns, none of the base's.
    base_patterns = {e["record"]["messagePattern"] for e in base.envelopes}
    patterns = Counter(r["messagePattern"] for r in generated)
    new = [p for p in patterns if p not in base_patterns]
    assert len(new) >= counts["perturbed"]
    for rec in generated:
        assert corpus._fragments(rec["messagePattern"]) == literal_fragments(rec["messagePattern"])
        # The snippet raises the template at lineNumber.
        lines = rec["sourceCode"].split("\n")
        at = rec["lineNumber"] - rec["sourceCodeStart"]
        assert lines[at].lstrip().startswith("raise ")
        assert rec["githubUrl"].endswith(f"#L{rec['sourceCodeStart']}-L{rec['sourceCodeEnd']}")
        statement = [lines[at]]
        for line in lines[at + 1 :]:
            opened = statement[-1].rstrip().endswith("(")
            if not opened and not line.strip().startswith(("f'", 'f"', "'", '"', ")")):
                break
            statement.append(line)
        ast.parse(textwrap.dedent("\n".join(statement)))


def test_catalog_is_cached_deterministic_and_nested(
    base: corpus.MinedBase, catalog: Path, tmp_path: Path
) -> None:
    stamp = catalog.stat().st_mtime_ns
    assert corpus.write_catalog(1500, catalog.parent, seed=3, base=base) == catalog
    assert catalog.stat().st_mtime_ns == stamp
    smaller = corpus.write_catalog(1200, tmp_path, seed=3, base=base)
    big = catalog.read_text(encoding="utf-8").splitlines()
    assert smaller.read_text(encoding="utf-8").splitlines() == big[:1200]
    sample = corpus.write_catalog(100, tmp_path, seed=3, base=base)
    assert len(records(sample)) == 100


def split_traceback(text: str) -> tuple[list[str], str]:
    """The ``File`` lines of a traceback and the exception text after them."""
    lines = text.rstrip("\n").split("\n")
    frames: list[str] = []
    i = 1
    while i < len(lines) and lines[i].startswith('  File "'):
        frames.append(lines[i])
        i += 1
        if i < len(lines) and lines[i].startswith("    "):
            i += 1
    return frames, "\n".join(lines[i:])


def text_message(text: str) -> tuple[str, str]:
    line = split_traceback(text)[1] if text.startswith("Traceback") else text
    cls, _, message = line.partition(": ")
    if cls.rsplit(".", 1)[-1] == "KeyError":
        message = ast.literal_eval(message)
    return cls, message


def test_queries(catalog: Path) -> None:
    k = 15
    qs = corpus.make_query_set(catalog, k=k, seed=1)
    assert list(qs.queries) == list(corpus.KINDS)
    assert all(len(items) == k for items in qs.queries.values())
    recs = {r["id"]: r for r in records(catalog)}
    specific = [
        r["messagePattern"]
        for r in recs.values()
        if literal_length(r["messagePattern"]) >= corpus.GENERIC_LITERAL
    ]
    for kind, items in qs.queries.items():
        for text, expected in items:
            if kind.startswith("hit"):
                assert expected is not None and expected in qs.accepted[expected]
                rec = recs[expected]
                cls, message = text_message(text)
                assert cls == rec["errorClass"]
                folded = " ".join(message.split())
                assert compile_pattern(rec["messagePattern"]).full.fullmatch(folded)
                if kind == "hit traceback":
                    frames, _ = split_traceback(text)
                    assert len(frames) == 24
                    frame = frames[-1]
                    assert f", line {rec['lineNumber']}, in " in frame
                    assert frame.split('"')[1].endswith(rec["filePath"].split("/", 1)[1])
                for other in qs.accepted[expected]:
                    assert recs[other]["messagePattern"] == rec["messagePattern"]
                continue
            assert expected is None
            _, message = text_message(text)
            folded = " ".join(message.split())
            for pattern in specific:
                compiled = compile_pattern(pattern)
                assert not compiled.full.match(folded), (text, pattern)
                assert not compiled.inner.search(folded), (text, pattern)
            if kind == "miss traceback":
                assert len(split_traceback(text)[0]) == 24
    assert corpus.make_queries(catalog, k=k, seed=1) == qs.queries  # from the cache
    assert corpus.make_query_set(records(catalog), k=k, seed=1).queries == qs.queries


@pytest.mark.parametrize("seed", range(5))
def test_a_caught_exception_renders_as_an_error_message_and_an_element_as_one_value(
    catalog: Path, seed: int
) -> None:
    import random

    from errcat.patterns import parse_template

    renderer = corpus._Renderer(corpus.build_vocabulary(records(catalog)), random.Random(seed))

    def one(template: str) -> str:
        (field,) = parse_template(template)[1]
        return renderer.value(field)

    # Real code prints another error's text where it formats the exception it caught.
    for template in ("{e}", "{str(err)}", "{exc.args[0]}", "{error}"):
        message = one(template)
        assert " " in message and not message.isidentifier(), (template, message)
    shown = one("{exc!r}")
    assert shown.endswith(")") and "(" in shown and shown.split("(")[0].isidentifier()
    # One element of a list is not the list ("{filters[-1]}" was "['a', 'b']").
    for template in ("{filters[-1]}", "{args[0]}", "{self.names[i]}"):
        value = one(template)
        assert not value.startswith("[") and "," not in value, (template, value)
    assert one("{filters[1:]}").startswith("[")  # a slice is still a list
    assert not one("{effect}").count(" ")  # a name that merely starts with "e"
    # A class placeholder prints as Python prints a class, never as a bare word
    # ("got {type(x)}" rendered "got number", which no real program prints).
    for template in ("{type(x)}", "{type(self.value)!r}"):
        value = one(template)
        assert value.startswith("<class '") and value.endswith("'>"), (template, value)
    assert not one("{type(x).__name__}").startswith("<")  # the name alone stays a name
