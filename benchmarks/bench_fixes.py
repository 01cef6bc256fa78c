"""Does errcat's advice point at the fix the people in the issue thread used?

Run with ``python benchmarks/bench_fixes.py [--data FILE] [--catalog FILE ...] [--misses]``.
Each line of ``benchmarks/data/real_fixes.jsonl`` is a real paste from a
public issue thread, labelled with the raise site that answers it (``expect``:
``file_path``, ``error_class``, ``message_prefix``, as in
``real_pastes.jsonl``), what the thread says fixed it (``fix``), the lever
tokens that name that fix (``levers``: ``--max-model-len``, ``max_tokens``,
``VLLM_USE_V1``, ``transformers``), its kind (``lever_kind``) and its
``split``: ``dev`` (may be looked at) or ``holdout`` (run and reported only:
its lines are never printed).

Printed per split, for the pastes ``errcat.match_error`` answers right (the
labelled record, or one on its lineage):

* **point at fix**: the share whose solutions or example fix name one of the
  thread's lever tokens (goal >= 80%);
* **first lever**: the share whose first solution names a lever (a flag, an
  environment variable, a request field, the model's config, a package) or
  says the check is internal (goal >= 80%);
* **doc words**: the median words of the documentation (goal <= 60);
* **bad**: solutions that ask for internal state (a code expression in
  backticks on ``self.`` or a private name, "Make sure `...`") or for a
  hardware change the message does not speak of (goal 0).

The solutions are those an answer renders (:meth:`errcat.Advice.from_match`:
an upgrade first when the user's release is old, captured values shown).
``--misses`` lists the dev pastes that miss a goal, with their first solutions.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import errcat
from bench_pastes import is_right
from errcat import Advice, Catalog

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE / "data" / "real_fixes.jsonl"
SPLITS = ("dev", "holdout")

_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_ENV = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}\b")
_LEVER_WORDS = re.compile(
    r"(?i)\binternal (?:check|limit)\b|\brequest\b|config\.json|\bpip install\b|\bupgrade\b|"
    r"\binstall\b|\bpackage\b|\bthe model\b|\ba model\b"
)
#: A solution that asks for internal state: code on self or a private name, "Make sure `..`".
_INTERNAL = re.compile(r"`[^`]*\bself\.[^`]*`|`_[A-Za-z]\w*[^`]*`|^Make sure `")
_HARDWARE = re.compile(
    r"(?i)\b(?:gpus?|cuda|rocm|hip|npus?|xpus?|tpus?|devices?|compute capability|sm_?\d+\w*|"
    r"blackwell|hopper|ampere|volta|mi\d{3}\w*|gfx\d+\w*|hardware)\b"
)


@dataclass(frozen=True)
class Fix:
    """One labelled paste: the text, the answering record, and the thread's fix."""

    id: str
    text: str
    expect: dict[str, Any]
    levers: tuple[str, ...]
    split: str
    fix: str = ""
    lever_kind: str = ""


def load(path: Path) -> list[Fix]:
    """The labelled pastes of a ``real_fixes.jsonl``; a bad line stops with its number."""
    out = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                out.append(
                    Fix(
                        id=str(data["id"]),
                        text=str(data["text"]),
                        expect=dict(data["expect"]),
                        levers=tuple(str(t) for t in data.get("levers", ())),
                        split=str(data.get("split", "dev")),
                        fix=str(data.get("fix", "")),
                        lever_kind=str(data.get("lever_kind", "")),
                    )
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise SystemExit(f"{path}:{number}: bad line: {exc}") from None
    return out


def _forms(token: str) -> set[str]:
    """The spellings of a lever token: ``--max-model-len``, ``max_model_len``, ``max-model-len``.

    >>> sorted(_forms("--max-model-len"))
    ['--max-model-len', 'max-model-len', 'max_model_len']
    """
    bare = token.strip().lstrip("-")
    forms = {token.strip(), bare, bare.replace("-", "_")}
    if "_" in bare and bare.lower() == bare:
        forms.add("--" + bare.replace("_", "-"))
    return {f for f in forms if f}


def names_lever(text: str, tokens: Iterable[str]) -> bool:
    """Whether a text names one of the thread's lever tokens (any of its spellings, whole).

    >>> names_lever("Set --max-model-len to 8192", ["max_model_len"])
    True
    >>> names_lever("Set --max-model-length", ["--max-model-len"])
    False
    """
    low = text.lower()
    for token in tokens:
        for form in _forms(token):
            pattern = r"(?<![\w-])" + re.escape(form.lower()) + r"(?![\w-])"
            if re.search(pattern, low):
                return True
    return False


def names_any_lever(solution: str) -> bool:
    """Whether a solution names a lever of any kind, or says the check is internal.

    >>> names_any_lever("Set --tp-size to 2"), names_any_lever("Make sure `x` is 0")
    (True, False)
    """
    return bool(_FLAG.search(solution) or _ENV.search(solution) or _LEVER_WORDS.search(solution))


def bad_solutions(solutions: Sequence[str], message: str) -> list[str]:
    """The solutions that ask for internal state, or for a hardware change the message does
    not speak of.

    >>> bad_solutions(["Make sure `self.pool` is set", "Run on a CUDA GPU"], "pool is gone")
    ['Make sure `self.pool` is set', 'Run on a CUDA GPU']
    """
    out = []
    speaks = bool(_HARDWARE.search(message))
    for solution in solutions:
        internal = _INTERNAL.search(solution) and "internal" not in solution
        hardware = not speaks and _HARDWARE.search(solution) and solution.startswith("Run on")
        if internal or hardware:
            out.append(solution)
    return out


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def right_answer(match: errcat.Match, expect: dict[str, Any], catalog: Catalog | None) -> bool:
    """Whether a match is the labelled record (as ``bench_pastes`` judges it).

    A label whose ``message_prefix`` quotes the message with its values
    (``max_num_seqs (1024) exceeds``) counts too when the record is at the
    labelled file and the prefix is the template with values in its placeholders.
    """
    if is_right(match, expect, any_site=True, catalog=catalog):
        return True
    summary = match.summary
    if "file_path" not in expect or summary.file_path != expect["file_path"]:
        return False
    prefix = str(expect.get("message_prefix", ""))
    parts = [re.escape(p) for p in _PLACEHOLDER.split(summary.error_message)]
    if not prefix or len(parts) < 2:
        return False
    # The prefix is the template with values put in, possibly cut after a placeholder.
    return any(
        re.fullmatch(".+?".join(parts[:k]) + ".*", prefix, re.DOTALL)
        for k in range(2, len(parts) + 1)
    )


@dataclass
class Row:
    """The figures of one split."""

    pastes: int = 0
    right: int = 0
    pointed: int = 0
    first: int = 0
    doc_words: list[int] = field(default_factory=list)
    bad: int = 0
    misses: list[tuple[Fix, list[str], str]] = field(default_factory=list)


def measure(fixes: Sequence[Fix], catalog: Catalog | None) -> dict[str, Row]:
    """Match each paste and judge the advice of the right answers (see the module docstring)."""
    rows = {split: Row() for split in SPLITS}
    for fix in fixes:
        row = rows.setdefault(fix.split, Row())
        row.pastes += 1
        match = errcat.match_error(fix.text, catalog=catalog)
        if match is None or not right_answer(match, fix.expect, catalog):
            continue
        row.right += 1
        advice = Advice.from_match(match)
        solutions = list(advice.solutions)
        told = "\n".join([*solutions, advice.example_fix])
        pointed = names_lever(told, fix.levers)
        first = bool(solutions) and names_any_lever(solutions[0])
        row.pointed += pointed
        row.first += first
        row.doc_words.append(len(advice.documentation.split()))
        message = match.report.message if match.report is not None else fix.text
        bad = bad_solutions(solutions, message)
        row.bad += len(bad)
        if not (pointed and first) or bad:
            row.misses.append((fix, solutions[:3], advice.example_fix))
    return rows


def _pct(n: int, d: int) -> str:
    return f"{n / d:.0%} ({n}/{d})" if d else "-"


def print_table(rows: dict[str, Row]) -> None:
    """The figures of each split, dev and holdout apart."""
    print(
        f"{'split':<8} {'pastes':>6} {'right':>6} {'point at fix':>14} {'first lever':>14} "
        f"{'doc words':>10} {'bad':>4}"
    )
    for split, row in rows.items():
        median = statistics.median(row.doc_words) if row.doc_words else 0
        print(
            f"{split:<8} {row.pastes:>6} {row.right:>6} {_pct(row.pointed, row.right):>14} "
            f"{_pct(row.first, row.right):>14} {median:>10.0f} {row.bad:>4}"
        )


def print_misses(row: Row) -> None:
    """The dev pastes that miss a goal, with what errcat said (dev only: never the holdout)."""
    for fix, solutions, example in row.misses:
        print(f"\n{fix.id}: thread's fix ({fix.lever_kind}): {fix.fix}  levers={list(fix.levers)}")
        for n, solution in enumerate(solutions, start=1):
            print(f"  {n}. {solution}")
        if example:
            print("  fix: " + example.replace("\n", " | "))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--catalog",
        type=Path,
        action="append",
        help="catalog file or data directory to use instead of the bundled one (repeatable)",
    )
    parser.add_argument("--misses", action="store_true", help="list the dev pastes that miss")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        sys.exit(f"{args.data}: no such file (labelled real fixes, see the module docstring)")
    catalog = Catalog.from_sources(args.catalog, bundled=False) if args.catalog else None
    rows = measure(load(args.data), catalog)
    print_table(rows)
    if args.misses and "dev" in rows:
        print_misses(rows["dev"])


if __name__ == "__main__":
    main()
