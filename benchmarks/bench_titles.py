"""How the matcher reads an engine message quoted in an issue title, form by form (synthetic).

Run: .venv/bin/python benchmarks/bench_titles.py [--catalog data] [--sample 300] [--seed 7]

Issue titles are half of what the stack census holds, and writers wrap the
message they quote in many ways: a tag, their own words before it with a
colon, a dash, parentheses or nothing at all, its first letter recased, cut
short. This bench samples raised (not logged) records of the bundled sglang
and vllm data whose message is at least 25 characters, renders each message
with placeholder values (the release check's ``words`` samples), wraps it in
each title form below and prints, per form, how often ``match_error`` answers
with a record of that very message (right), with another (wrong) or not at
all. It is a probe of forms, not a measure of real pastes: the census
(``bench_stack.py``) is that. The leads are invented and fixed; the sample is
seeded.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import errcat
from errcat.catalog import Catalog
from errcat.lint.self_match import sample_messages

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("sgl-project__sglang", "vllm-project__vllm")
#: A writer's own words before the message (invented, fixed).
LEADS = (
    "vLLM crashes with",
    "Error when serving Qwen3-8B:",
    "Qwen2.5-VL fails to start:",
    "got",
    "Model loading fails -",
)


def _cut(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0]


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


#: Each form: a name and how it wraps (class, message, lead).
FORMS: dict[str, Callable[[str, str, str], str]] = {
    "[Bug]: Class: msg": lambda c, m, lead: f"[Bug]: {c}: {m}",
    "[Bug] msg": lambda c, m, lead: f"[Bug] {m}",
    '[Bug]: "msg"': lambda c, m, lead: f'[Bug]: "{m}"',
    "[Bug]: lead `msg`": lambda c, m, lead: f"[Bug]: {lead} `{m}`",
    "[Bug]: lead Class: msg": lambda c, m, lead: f"[Bug]: {lead} {c}: {m}",
    "[Bug]: lead msg": lambda c, m, lead: f"[Bug]: {lead} {m}",
    "[Bug]: lead (msg)": lambda c, m, lead: f"[Bug]: {lead} ({m})",
    "[Bug]: msg, then words": lambda c, m, lead: f"[Bug]: {m} when running DeepSeek-V3 with TP=8",
    "[Bug]: msg cut at 60": lambda c, m, lead: f"[Bug]: {_cut(m)}",
    "[Bug]: Class: msg cut at 60": lambda c, m, lead: f"[Bug]: {c}: {_cut(m)}",
    "[Bug]: msg, first letter upper": lambda c, m, lead: f"[Bug]: {m[:1].upper()}{m[1:]}",
    "[Bug]: msg, first letter lower": lambda c, m, lead: f"[Bug]: {_lower_first(m)}",
    "[Bug]: words, msg first lower": lambda c, m, lead: f"[Bug]: Qwen3 fails, {_lower_first(m)}",
    "[Bug]: msg lowercased": lambda c, m, lead: f"[Bug]: {m.lower()}",
}


def sample_records(data: Path, size: int, seed: int) -> list[dict[str, object]]:
    """``size`` raised engine records with a message of 25 characters or more, seeded."""
    pool = []
    for name in ENGINES:
        with gzip.open(data / "records" / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
            for line in fh:
                record = json.loads(line)["record"]
                message = record["errorMessage"] or ""
                if "errcat:logged" in record["tags"] or len(message) < 25:
                    continue
                if record["errorClass"] == "AssertionError":
                    continue
                pool.append(record)
    pool.sort(key=lambda r: str(r["id"]))
    return random.Random(seed).sample(pool, min(size, len(pool)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=ROOT / "data")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if not (args.catalog / "records").is_dir():
        raise SystemExit(f"{args.catalog}: no records/ folder (a data release is expected)")
    catalog = Catalog.from_path(args.catalog)
    records = sample_records(args.catalog, args.sample, args.seed)
    counts: dict[str, Counter[str]] = {form: Counter() for form in FORMS}
    for record in records:
        template = str(record["errorMessage"])
        message = sample_messages(template)["words"].split("\n")[0].strip()
        lead = LEADS[len(message) % len(LEADS)]
        for form, wrap in FORMS.items():
            match = errcat.match_error(wrap(str(record["errorClass"]), message, lead), catalog)
            if match is None:
                counts[form]["none"] += 1
            elif match.record.error_message == template:
                counts[form]["right"] += 1
            else:
                counts[form]["wrong"] += 1
    n = len(records)
    print(f"{n} records sampled (seed {args.seed}) from {args.catalog}")
    print(f"{'title form':34} {'right':>12} {'wrong':>6} {'none':>6}")
    for form, c in counts.items():
        print(f"{form:34} {c['right']:>5} ({c['right'] / n:4.0%}) {c['wrong']:>6} {c['none']:>6}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
