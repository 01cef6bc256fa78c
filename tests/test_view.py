"""Record views: the shown fields read from stored JSON equal the validated record's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SEEDS_FILE, seed_objects
from errcat.advice import Advice
from errcat.catalog import Catalog
from errcat.matcher import match_error
from errcat.models import RecordEnvelope
from errcat.view import RecordFields, RecordView

FIELDS = [
    name
    for name in dir(RecordFields)
    if not name.startswith("_") and isinstance(getattr(RecordFields, name), property)
]


def test_the_protocol_lists_what_renderers_read() -> None:
    assert {"id", "title", "solutions", "example_fix", "tags", "github_url"} <= set(FIELDS)


def test_view_equals_the_validated_record_for_every_shown_field() -> None:
    for obj in seed_objects():
        record = RecordEnvelope.model_validate(obj).record
        view = RecordView(obj["record"])
        for name in FIELDS:
            assert getattr(view, name) == getattr(record, name), name


@settings(max_examples=60)
@given(
    st.dictionaries(
        st.sampled_from(
            ["id", "errorMessage", "solutions", "lineNumber", "tags", "sourceCodeStart", "extra"]
        ),
        st.one_of(st.none(), st.integers(), st.text(), st.lists(st.one_of(st.text(), st.none()))),
    )
)
def test_a_view_of_any_json_never_raises_and_keeps_its_types(data: dict[str, Any]) -> None:
    view = RecordView(data)
    for name in FIELDS:
        value = getattr(view, name)
        if name in ("line_number", "source_code_start"):
            assert isinstance(value, int)
        elif name in ("solutions", "prevention_tips", "tags"):
            assert isinstance(value, tuple) and all(isinstance(v, str) for v in value)
        else:
            assert isinstance(value, str)


def test_a_stored_catalog_answers_through_views_and_the_record_stays_full(tmp_path: Path) -> None:
    path = tmp_path / "seeds.jsonl"
    path.write_bytes(SEEDS_FILE.read_bytes())
    catalog = Catalog.from_path(path, lazy=True)
    obj = seed_objects()[0]["record"]
    text = obj["errorMessage"]
    match = match_error(f"{obj['errorClass']}: {text}", catalog)
    assert match is not None
    assert isinstance(match.view, RecordView)
    advice = Advice.from_match(match)
    assert advice.record is match.view
    assert advice.to_dict()["solutions"] == obj["solutions"]
    assert match.record.model_dump(mode="json", by_alias=True)["id"] == obj["id"]


def test_errcat_match_on_a_stored_catalog_does_not_import_pydantic(tmp_path: Path) -> None:
    """One-shot answers skip re-validation, so the CLI never pays for pydantic's import."""
    path = tmp_path / "seeds.jsonl"
    path.write_bytes(SEEDS_FILE.read_bytes())
    Catalog.from_path(path, lazy=True)  # builds the stored index next to the file
    obj = seed_objects()[0]["record"]
    code = (
        "import sys\n"
        "import errcat.sources\n"
        "errcat.sources.LAZY_BYTES = 0  # as for the bundled data: served by its stored index\n"
        "from errcat.cli import main\n"
        "rc = main(['match', '--no-bundled', '--catalog', sys.argv[1], sys.argv[2]])\n"
        "print(json.dumps({'rc': rc, 'pydantic': 'pydantic' in sys.modules}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import json\n" + code, str(path), obj["errorMessage"]],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    last = json.loads(out.strip().splitlines()[-1])
    assert last == {"rc": 0, "pydantic": False}
    assert obj["id"] in out
