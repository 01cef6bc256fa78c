"""Shared fixtures: the seed records and small inline catalogs.

The three curated seeds open ``curated/sgl-project__sglang.jsonl`` (the build
script overlays it on the bundled data; more curated records follow them there);
tests that are about the seeds read them from ``tests/fixtures/seeds.jsonl``, a
copy of those lines, so that they do not depend on what else is curated or bundled.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope

# No per-example deadline: an example's wall time says how busy the machine is, not whether
# the property holds (tests assert behaviour; speed is measured in benchmarks/).
# No explain phase either: after a failure it traces every later example line by line,
# which on a slow machine made CI run out of time instead of printing the failing example.
settings.register_profile(
    "errcat", deadline=None, phases=[p for p in Phase if p is not Phase.explain]
)
# CI draws the same examples on every run (derandomize), so that a red run means the change
# broke a property rather than that this run drew an unlucky example; developers' runs keep
# drawing new ones (the default profile), which is where new failures are found and then
# pinned with @example. .ci/run selects it with ERRCAT_HYPOTHESIS_PROFILE=ci.
settings.register_profile("ci", parent=settings.get_profile("errcat"), derandomize=True)
settings.load_profile(os.environ.get("ERRCAT_HYPOTHESIS_PROFILE", "errcat"))

#: A word no record, phrase or real text holds, for property tests: the "zq" lead keeps
#: hypothesis off the common words ("non", "Is") that real patterns contain.
ZQ_WORD = st.text(alphabet="abcdefghijklm", min_size=2, max_size=6).map(lambda w: f"zq{w}")

ROOT = Path(__file__).resolve().parents[1]
SEEDS_DIR = ROOT.parent / "shared" / "seeds"
DATA_DIR = ROOT / "data"
#: The three hand-written seed records (the first lines of curated/sgl-project__sglang.jsonl,
#: which holds more curated records now): small, fixed data for tests of loading and serving.
SEEDS_FILE = ROOT / "tests" / "fixtures" / "seeds.jsonl"
#: The seeds as a built release (manifest and records): a small, fixed data directory for
#: tests of loading and releasing, which the real bundled data is too large for.
SEED_RELEASE_DIR = ROOT / "tests" / "data" / "seed-release"


def seed_objects() -> list[dict[str, Any]]:
    """The seed envelopes as parsed JSON (identical to shared/seeds)."""
    return [json.loads(line) for line in SEEDS_FILE.read_text(encoding="utf-8").splitlines()]


def make_envelope(**record: Any) -> RecordEnvelope:
    """The example envelope with some record fields replaced (camelCase keys)."""
    data = json.loads(EXAMPLE_ENVELOPE_JSON)
    data["record"].update(record)
    return RecordEnvelope.model_validate(data)


def site_envelope(
    n: int,
    repo: str,
    path: str,
    error_class: str,
    template: str,
    *,
    line: int = 120,
    tags: Sequence[str] | None = None,
) -> RecordEnvelope:
    """A record of ``template`` raised at ``line`` of ``path`` in ``repo`` (id ``n`` in hex).

    ``tags`` replace the example record's when given.
    """
    from errcat.patterns import template_to_pattern

    more: dict[str, Any] = {} if tags is None else {"tags": list(tags)}
    return make_envelope(
        **more,
        id=f"{n:016x}",
        repo=repo,
        filePath=path,
        lineNumber=line,
        sourceCodeStart=max(1, line - 20),
        sourceCodeEnd=line + 10,
        errorClass=error_class,
        errorMessage=template,
        messagePattern=template_to_pattern(template),
        githubUrl=f"https://github.com/{repo}/blob/{'0' * 40}/{path}#L100-L130",
    )


def status_envelope(n: int, code: int, phrase: str, *phrases: str) -> RecordEnvelope:
    """uvicorn's record of a status with no error text, named ``<code> <phrase>`` or ``phrases``."""
    from errcat.patterns import template_to_pattern
    from errcat.tags import PHRASE_TAG_PREFIX, WRAPPER_TAG

    message = f"HTTP/{{http_version}} {code} {phrase}"
    named = [f"{PHRASE_TAG_PREFIX}{p}" for p in (f"{code} {phrase}", *phrases)]
    return make_envelope(
        id=f"{n:016x}",
        slug=f"status-{code}",
        errorMessage=message,
        messagePattern=template_to_pattern(message),
        errorClass="HTTPStatus",
        repo="Kludex/uvicorn",
        filePath="uvicorn/protocols/http/httptools_impl.py",
        tags=[WRAPPER_TAG, "http", f"http-status-{code}", *named],
    )


def context_length_envelope(record_id: str) -> RecordEnvelope:
    """vllm's request-too-long message, the engine's own text inside an HTTP 400 body."""
    return make_envelope(
        id=record_id,
        slug="context-length",
        errorClass="ValueError",
        errorMessage="This model's maximum context length is {n} tokens. However, you"
        " requested {m} tokens. Please reduce the length of the messages.",
        messagePattern="This model's maximum context length is (.+?) tokens\\. However, you"
        " requested (.+?) tokens\\. Please reduce the length of the messages\\.",
        repo="vllm-project/vllm",
        filePath="vllm/entrypoints/openai/serving_engine.py",
    )


def templates_catalog(*templates: str) -> Catalog:
    """A catalog of one ``ValueError`` record per template, each in a file of its own."""
    from errcat.patterns import template_to_pattern

    return Catalog(
        [
            make_envelope(
                id=f"{n:016x}",
                slug=f"record-{n}",
                errorClass="ValueError",
                errorMessage=template,
                messagePattern=template_to_pattern(template),
                repo="example/engine",
                filePath=f"engine/mod{n}.py",
            )
            for n, template in enumerate(templates, 1)
        ]
    )


@pytest.fixture
def example_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_ENVELOPE_JSON)
    return data


@pytest.fixture(scope="session")
def bundled() -> Catalog:
    """The curated seeds, as the bundled catalog holds them (and nothing else)."""
    return Catalog.from_path(SEEDS_FILE)


@cache
def stack_package_catalog(name: str) -> Catalog:
    """The bundled catalog with one committed stack package over it (``hf``, ``serving``, ...)."""
    root = Path(__file__).resolve().parents[1] / "stack" / "packages" / f"errcat-data-{name}"
    return Catalog.bundled().merge(Catalog.from_path(root / "src" / f"errcat_data_{name}"))


@cache
def study_stack_texts() -> dict[str, str]:
    """The stack study set's texts by id (``benchmarks/data/study_stack.jsonl``, all dev)."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "study_stack.jsonl"
    rows = map(json.loads, path.read_text(encoding="utf-8").splitlines())
    return {str(item["id"]): str(item["text"]) for item in rows}


@cache
def curated_over_bundled(*names: str) -> Catalog:
    """The bundled catalog with curated files over it (``pypa__pip.native.jsonl``, ...).

    For records curated since the bundled data was last built: the lead rebuilds
    ``data/`` after merging, until then a test reads them from ``curated/``.
    """
    root = Path(__file__).resolve().parents[1] / "curated"
    return Catalog.bundled().merge(Catalog.from_path(*(root / name for name in names)))


def one_frame_traceback(path: str, function: str, code: str, error: str) -> str:
    """A traceback of one frame (``path``, line 9, in ``function``, running ``code``)."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 9, in {function}\n'
        f"    {code}\n"
        f"{error}\n"
    )
