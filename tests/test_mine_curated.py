"""Curated records keep answering their old wording and place after a re-anchor (issue 30, 6)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from errcat import Catalog, match_error
from errcat.history import Revision
from errcat.loaders import write_jsonl
from errcat.mine import mine_paths
from errcat.mine.curated import old_wording_id
from errcat.mine.history import Snapshot, build_history, with_curated
from errcat.models import RecordEnvelope

OLD = """
def validate(arch):
    if arch not in ("A", "B"):
        raise ValueError(
            f"DeepEP v2 MoE is not validated for {arch!r}; supported architectures are A, B. "
            "Use --moe-a2a-backend deepep."
        )
"""
NEW = """
def register(arch):
    pass


def validate_architecture(arch):
    if arch not in REGISTERED:
        raise ValueError(
            f"DeepEP v2 MoE is not validated for {arch!r}; register the architecture "
            "first. Use --moe-a2a-backend deepep."
        )
"""


def _snapshot(label: str, day: int, files: dict[str, str]) -> Snapshot:
    revision = Revision(label, label[-1] * 40, datetime(2026, 1, day, tzinfo=timezone.utc))
    blobs = {f"{path}@{label}": text.encode() for path, text in files.items()}
    return Snapshot(
        revision,
        [(path, f"{path}@{label}") for path in files],
        lambda keys: ((k, blobs[k]) for k in keys),
    )


def _curated(tmp_path: Path) -> RecordEnvelope:
    """The seed as a curator wrote it: the old wording, at a commit the history did not mine."""
    root = tmp_path / "seed" / "pkg"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "server_args.py").write_text("\n" * 40 + OLD)
    result = mine_paths(
        [root],
        repo="o/r",
        sha="c" * 40,
        path_prefix="pkg",
        analyzed_at=datetime(2026, 1, 5, tzinfo=timezone.utc),
    )
    [envelope] = [e for e in result.envelopes if e.record.error_message]
    record = envelope.record.model_copy(
        update={
            "documentation": "Curated: DeepEP v2 only runs the validated architectures.",
            "solutions": ("Use --moe-a2a-backend deepep",),
            "tags": ("moe", "deepep"),
        }
    )
    return envelope.model_copy(update={"record": record})


def test_a_reworded_curated_record_keeps_its_old_wording_and_place(tmp_path: Path) -> None:
    curated = _curated(tmp_path)
    old_line = curated.record.line_number
    v1 = _snapshot("v1", 1, {"pkg/__init__.py": "", "pkg/other.py": "x = 1\n"})
    v2 = _snapshot("v2", 9, {"pkg/__init__.py": "", "pkg/server_args.py": NEW})
    history = with_curated(build_history([v1, v2], repo="o/r"), [curated])
    by_id = {e.record.id: e.record for e in history.envelopes}
    now = by_id[curated.record.id]
    assert now.error_message.endswith(
        "register the architecture first. Use --moe-a2a-backend deepep."
    )
    assert now.documentation.startswith("Curated:")
    copy = by_id[old_wording_id(curated)]
    assert copy.error_message == curated.record.error_message
    assert (copy.file_path, copy.line_number) == ("pkg/server_args.py", old_line)
    assert copy.documentation == curated.record.documentation
    lineage = history.history.lineage(copy.id)
    assert lineage is not None and lineage.successor == curated.record.id
    assert lineage.status == "reworded"
    assert history.history.lineage(curated.record.id).predecessor == copy.id  # type: ignore[union-attr]

    # The old wording pasted with its traceback through the old place gets the curated words.
    data = tmp_path / "data.jsonl"
    write_jsonl(data, history.envelopes)
    history.history.dump(tmp_path / "data.history.json")
    catalog = Catalog.from_path(data)
    paste = (
        "Traceback (most recent call last):\n"
        f'  File "/usr/lib/python3/site-packages/pkg/server_args.py", line {old_line}, '
        "in validate\n"
        "    raise ValueError(\n"
        "ValueError: DeepEP v2 MoE is not validated for 'LlamaForCausalLM'; supported "
        "architectures are A, B. Use --moe-a2a-backend deepep.\n"
    )
    match = match_error(paste, catalog=catalog)
    assert match is not None and match.record.id == copy.id
    assert match.record.documentation.startswith("Curated:")
    assert match.history is not None and match.history.successor == curated.record.id


def test_a_flag_newer_than_the_message_says_since_when(tmp_path: Path) -> None:
    v1 = _snapshot(
        "v1",
        1,
        {
            "pkg/__init__.py": "",
            "pkg/args.py": "import argparse\np = argparse.ArgumentParser()\n"
            "p.add_argument('--mode')\n",
            "pkg/run.py": "def run(args):\n    if args.mode == 'x':\n"
            "        raise ValueError('mode x cannot run here')\n",
        },
    )
    v2 = _snapshot(
        "v2",
        9,
        {
            "pkg/__init__.py": "",
            "pkg/args.py": "import argparse\np = argparse.ArgumentParser()\n"
            "p.add_argument('--mode')\np.add_argument('--fallback', action='store_true')\n",
            "pkg/run.py": "def run(args):\n    if args.mode == 'x' and not args.fallback:\n"
            "        raise ValueError('mode x cannot run here')\n",
        },
    )
    result = build_history([v1, v2], repo="o/r")
    [record] = [r for r in result.records if r.error_message.startswith("mode x")]
    assert "Pass --fallback (--fallback exists since v2)" in record.solutions
    assert any(s.startswith("Set --mode to a value other than x") for s in record.solutions)
    assert not any("--mode exists since" in s for s in record.solutions)


def test_each_lineage_gets_the_advice_of_the_revision_it_is_anchored_at() -> None:
    gone = "def f(args):\n    if args.level > 3:\n        raise ValueError('level too high')\n"
    kept = "def g(args):\n    if args.mode == 'x':\n        raise ValueError('mode x is out')\n"
    v1 = _snapshot("v1", 1, {"pkg/__init__.py": "", "pkg/a.py": gone, "pkg/b.py": kept})
    v2 = _snapshot("v2", 9, {"pkg/__init__.py": "", "pkg/b.py": "\n" + kept})
    result = build_history([v1, v2], repo="o/r")
    by_message = {r.error_message: r for r in result.records}
    old, new = by_message["level too high"], by_message["mode x is out"]
    assert old.analyzed_sha == "1" * 40 and "`args.level` is greater than 3" in old.documentation
    assert new.analyzed_sha == "2" * 40 and new.line_number == 4 and new.solutions
