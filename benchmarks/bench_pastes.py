"""Measure errcat on real error pastes from public sglang and vllm issues.

Run with ``python benchmarks/bench_pastes.py [--catalog FILE ...] [--data FILE]``
after ``benchmarks/mine_wheels.py`` (the default catalog is the union it
writes). Each paste of ``benchmarks/data/real_pastes.jsonl`` carries a label:
the raise site (``file_path``, ``error_class``, ``message_prefix``) when the
error was raised by sglang/vllm code whose message is in the newest catalog,
else ``answerable: false`` and why. A right answer is a record at the
labelled file whose template starts with the labelled prefix.

Prints, per repo and in total: for answerable pastes, how many
``match_error`` answered, right and wrong, and how often the right record is
``match_all``'s first or among its candidates; for unanswerable pastes, how
many got a confident answer (false-confident). Then every miss, with its top
candidates (id, file:line, confidence, mode, reasons), so one can see why.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import errcat
from errcat import Catalog, Match

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE / "data" / "real_pastes.jsonl"
TEST_DATA = HERE.parent / "tests" / "data"
#: The pastes of the checked-in regression sample (tests/test_real_pastes.py):
#: answerable ones of varied shapes, some answered right today and some not,
#: and a few that no record answers.
SAMPLE_IDS = (
    "sglang-10408",
    "lmcache-2306",
    "vllm-1157-title",
    "nim-7",
    "vllm-52435",
    "sglang-4205",
    "vllm-39279-title",
    "llamafactory-9512",
    "intel-arc-4",
    "sglang-25118",
    "sglang-8102",
    "recipes-51",
    "sglang-322-title",
    "xinference-1804",
    "vllm-10439",
    "qwen3-1321",
    "sglang-7338",
    "vllm-46232-title",
    "vllm-omni-276",
    "xinference-3745",
    "sglang-13352",
    "vllm-omni-1397",
    "db-gpt-1043",
    "sglang-165",
)
#: Distractor records taken from each labelled file of the sample.
DISTRACTORS_PER_FILE = 2
DEFAULT_CATALOG = Path("/root/.cache/errcat-bench/wheels/catalog-sglang-vllm.jsonl")
CANDIDATES = 5


@dataclass(frozen=True)
class Paste:
    """One labelled paste (see the module docstring)."""

    id: str
    url: str
    repo: str
    text: str
    expect: dict[str, Any]
    version: str | None = None

    @property
    def answerable(self) -> bool:
        """True when the label names a raise site in the catalog."""
        return "file_path" in self.expect


def load_pastes(path: Path) -> list[Paste]:
    """The pastes of a JSON Lines file, in file order."""
    pastes = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        obj = json.loads(line)
        try:
            pastes.append(
                Paste(
                    id=obj["id"],
                    url=obj["url"],
                    repo=obj["repo"],
                    text=obj["text"],
                    expect=obj["expect"],
                    version=obj.get("version"),
                )
            )
        except KeyError as exc:
            raise SystemExit(f"{path}:{n}: missing field {exc}") from None
    return pastes


def _fits(file_path: str, message: str, expect: dict[str, Any], any_site: bool) -> bool:
    files = {expect["file_path"], *(expect.get("also", ()) if any_site else ())}
    return file_path in files and message.startswith(expect["message_prefix"])


def newest_form(match: Match, catalog: Catalog | None) -> tuple[str, str] | None:
    """The file and template of the newest record of ``match``'s lineage, when it was reworded.

    With a history catalog (``errcat history``), an old message answers its old
    record, anchored where it was last raised; that record's lineage leads to
    the labelled one.
    """
    history = catalog.history if catalog is not None else None
    if history is None:
        return None
    lineage = history.current(match.summary.id)
    if lineage is None or lineage.record_id == match.summary.id:
        return None
    newest = catalog.get(lineage.record_id) if catalog is not None else None
    if newest is None:
        return None
    return newest.file_path, newest.error_message


def is_old_record(match: Match | None, catalog: Catalog | None) -> bool:
    """Whether ``match``'s record is a message the newest revision no longer raises.

    Only a history catalog holds such records; the labels of
    ``real_pastes.jsonl`` are made against the newest catalog, so an old
    message answered from its old record (often unlinked to the message that
    replaced it elsewhere) is neither right nor plainly wrong there.
    """
    history = catalog.history if catalog is not None else None
    if match is None or history is None:
        return False
    lineage = history.lineage(match.summary.id)
    return lineage is not None and lineage.status != "current"


def is_right(
    match: Match | None,
    expect: dict[str, Any],
    *,
    any_site: bool = False,
    catalog: Catalog | None = None,
) -> bool:
    """True when ``match`` is the labelled record: same file, template with the labelled start.

    With ``any_site``, a file of the label's ``also`` list (other sites that raise
    the same template, which only frames can tell apart) counts too. With a
    history ``catalog``, an older form of the labelled record (a record whose
    lineage was reworded into it) counts too.
    """
    if match is None or "file_path" not in expect:
        return False
    summary = match.summary
    if _fits(summary.file_path, summary.error_message, expect, any_site):
        return True
    newest = newest_form(match, catalog)
    return newest is not None and _fits(*newest, expect, any_site)


@dataclass
class Outcome:
    """What errcat did with one paste."""

    paste: Paste
    answer: Match | None
    candidates: list[Match]
    seconds: float
    catalog: Catalog | None = None

    @property
    def right(self) -> bool:
        """The confident answer is the labelled record."""
        return is_right(self.answer, self.paste.expect, catalog=self.catalog)

    @property
    def old(self) -> bool:
        """The answer is a record of a message the newest revision no longer raises."""
        return is_old_record(self.answer, self.catalog)

    @property
    def right_any(self) -> bool:
        """The confident answer raises the labelled template at the labelled or another site."""
        return is_right(self.answer, self.paste.expect, any_site=True, catalog=self.catalog)

    @property
    def first_right(self) -> bool:
        """``match_all``'s first candidate is the labelled record (any confidence)."""
        return bool(self.candidates) and is_right(
            self.candidates[0], self.paste.expect, catalog=self.catalog
        )

    @property
    def listed(self) -> bool:
        """The labelled record is among ``match_all``'s candidates."""
        return any(is_right(m, self.paste.expect, catalog=self.catalog) for m in self.candidates)


@dataclass
class Tally:
    """Counts for one row of the table."""

    answerable: int = 0
    answered: int = 0
    right: int = 0
    right_any: int = 0
    wrong: int = 0
    first_right: int = 0
    listed: int = 0
    #: Wrong answers (answerable) and answers (unanswerable) from a record of an
    #: older revision (history catalogs only).
    wrong_old: int = 0
    unanswerable: int = 0
    false_confident: int = 0
    old_answered: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, o: Outcome) -> None:
        """Count one outcome."""
        self.seconds.append(o.seconds)
        if o.paste.answerable:
            self.answerable += 1
            self.answered += o.answer is not None
            self.right += o.right
            self.right_any += o.right_any
            self.wrong += o.answer is not None and not o.right
            self.wrong_old += o.answer is not None and not o.right and o.old
            self.first_right += o.first_right
            self.listed += o.listed
        else:
            self.unanswerable += 1
            self.false_confident += o.answer is not None and not o.old
            self.old_answered += o.answer is not None and o.old


def run(pastes: list[Paste], catalog: Catalog) -> list[Outcome]:
    """Match every paste; the outcomes in paste order."""
    outcomes = []
    for paste in pastes:
        started = time.perf_counter()
        answer = errcat.match_error(paste.text, catalog=catalog)
        candidates = errcat.match_all(paste.text, catalog=catalog, limit=CANDIDATES)
        outcomes.append(Outcome(paste, answer, candidates, time.perf_counter() - started, catalog))
    return outcomes


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}%" if d else "    -"


def print_table(outcomes: list[Outcome]) -> None:
    """The per-repo and total table."""
    rows: dict[str, Tally] = {}
    for o in outcomes:
        rows.setdefault(o.paste.repo, Tally()).add(o)
        rows.setdefault("total", Tally()).add(o)
    header = (
        f"{'repo':<20} {'answerable':>10} {'answered':>8} {'right':>6} {'right%':>7} "
        f"{'any-site':>8} {'wrong':>5} {'w-old':>5} {'top1':>5} {'listed':>6} | "
        f"{'unanswerable':>12} {'false-conf':>10} {'old-ans':>7} {'ms/paste':>8}"
    )
    print(header)
    print("-" * len(header))
    for name in [*sorted(k for k in rows if k != "total"), "total"]:
        t = rows[name]
        ms = 1000 * sum(t.seconds) / len(t.seconds)
        print(
            f"{name:<20} {t.answerable:>10} {t.answered:>8} {t.right:>6} "
            f"{_pct(t.right, t.answerable):>7} {t.right_any:>8} {t.wrong:>5} {t.wrong_old:>5} "
            f"{t.first_right:>5} {t.listed:>6} | "
            f"{t.unanswerable:>12} {t.false_confident:>10} {t.old_answered:>7} {ms:>8.1f}"
        )
    print(
        "\nright: match_error's answer is the labelled record; any-site: or the same template "
        "raised at another\nsite of the label's 'also' list; top1: match_all's first candidate "
        "is the labelled record (any confidence);\nlisted: it is among match_all's "
        f"{CANDIDATES}; false-conf: a confident answer for a paste the catalog cannot answer.\n"
        "With a history catalog: w-old (of wrong) and old-ans (answers to unanswerable pastes, "
        "not counted\nas false-conf) answer with the record of a message the newest revision "
        "no longer raises,\nwhich the labels (made against the newest catalog) cannot judge."
    )


def _describe(m: Match) -> str:
    s = m.summary
    reasons = "; ".join(m.reasons)
    return (
        f"{s.id} {s.file_path}:{s.line_number} conf={m.confidence:.2f} mode={m.mode} "
        f"exact={m.exact} [{s.error_class}] {s.error_message[:70]!r}\n"
        f"          reasons: {reasons}"
    )


def print_misses(outcomes: list[Outcome]) -> None:
    """Every answerable paste not answered right, and every false-confident one."""
    misses = [o for o in outcomes if o.paste.answerable and not o.right]
    false_conf = [o for o in outcomes if not o.paste.answerable and o.answer is not None]
    false_conf.sort(key=lambda o: o.old)
    kinds: Counter[str] = Counter()
    print(f"\nMISSES ({len(misses)} answerable pastes not answered right)")
    for o in misses:
        e = o.paste.expect
        if o.answer is None:
            kind = "listed, below threshold" if o.listed else "not listed"
        elif o.right_any:
            kind = "same template, other site"
        else:
            kind = "wrong answer"
        kinds[kind] += 1
        print(f"\n- {o.paste.id} ({kind}) {o.paste.url}")
        print(f"    expected: {e['file_path']} [{e['error_class']}] {e['message_prefix']!r}")
        if e.get("note"):
            print(f"    label note: {e['note']}")
        first = o.paste.text.strip().splitlines()[-1] if o.paste.text.strip() else ""
        print(f"    paste ends: {first[:110]!r}")
        if o.answer is not None:
            print(f"    answered: {_describe(o.answer)}")
        for i, m in enumerate(o.candidates, 1):
            mark = "*" if is_right(m, e, catalog=o.catalog) else " "
            print(f"    {mark}{i}. {_describe(m)}")
        if not o.candidates:
            print("     (no candidates)")
    if kinds:
        print("\nmisses by kind: " + ", ".join(f"{n} {k}" for k, n in kinds.most_common()))
    print(f"\nFALSE-CONFIDENT ({len(false_conf)} unanswerable pastes given an answer)")
    for o in false_conf:
        assert o.answer is not None
        old = " (old record: not counted as false-confident)" if o.old else ""
        print(
            f"\n- {o.paste.id}{old} {o.paste.url}\n"
            f"    why unanswerable: {o.paste.expect.get('why')}"
        )
        print(f"    answered: {_describe(o.answer)}")


def write_test_sample(pastes: list[Paste], catalog_paths: list[Path], out_dir: Path) -> None:
    """Write the regression sample: its pastes, the records they need and a few distractors.

    Needed records are those of the labelled file and of the ``also`` files whose
    template starts with the labelled prefix; distractors are the first
    :data:`DISTRACTORS_PER_FILE` other records of each labelled file.
    """
    by_id = {p.id: p for p in pastes}
    sample = [by_id[i] for i in SAMPLE_IDS]
    envelopes: list[dict[str, Any]] = []
    for path in catalog_paths:
        with path.open(encoding="utf-8") as fh:
            envelopes.extend(json.loads(line) for line in fh if line.strip())
    needed: dict[str, dict[str, Any]] = {}
    distractors: dict[str, dict[str, Any]] = {}
    for paste in sample:
        e = paste.expect
        if "file_path" not in e:
            continue
        files = {e["file_path"], *e.get("also", ())}
        others = []
        for env in envelopes:
            rec = env["record"]
            if rec["filePath"] not in files:
                continue
            if rec["errorMessage"].startswith(e["message_prefix"]):
                needed[rec["id"]] = env
            elif rec["filePath"] == e["file_path"]:
                others.append(env)
        others.sort(key=lambda env: env["record"]["lineNumber"])
        for env in others[:DISTRACTORS_PER_FILE]:
            distractors.setdefault(env["record"]["id"], env)
    records = {**distractors, **needed}
    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "real_pastes_records.jsonl").open("w", encoding="utf-8") as fh:
        for env in sorted(records.values(), key=lambda env: env["record"]["id"]):
            fh.write(json.dumps(env, ensure_ascii=False, sort_keys=True) + "\n")
    with (out_dir / "real_pastes_sample.jsonl").open("w", encoding="utf-8") as fh:
        for paste in sample:
            obj = {
                "id": paste.id,
                "url": paste.url,
                "repo": paste.repo,
                "version": paste.version,
                "text": paste.text,
                "expect": paste.expect,
            }
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
    print(
        f"wrote {len(sample)} pastes and {len(records)} records "
        f"({len(needed)} needed, {len(records) - len(needed)} distractors) to {out_dir}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, nargs="+", default=[DEFAULT_CATALOG])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--no-misses", action="store_true", help="print the table only")
    parser.add_argument(
        "--write-test-sample",
        action="store_true",
        help=f"write the regression sample of tests/test_real_pastes.py into {TEST_DATA}",
    )
    args = parser.parse_args(argv)
    for path in args.catalog:
        if not path.exists():
            raise SystemExit(f"{path} does not exist: run benchmarks/mine_wheels.py first")
    pastes = load_pastes(args.data)
    if args.write_test_sample:
        write_test_sample(pastes, args.catalog, TEST_DATA)
        return
    started = time.perf_counter()
    catalog = Catalog.from_path(*args.catalog)
    size = len(catalog)
    loaded = time.perf_counter() - started
    print(
        f"catalog: {', '.join(map(str, args.catalog))} ({size} records, loaded in {loaded:.1f} s)"
    )
    print(f"pastes: {args.data} ({len(pastes)})\n")
    outcomes = run(pastes, catalog)
    print_table(outcomes)
    if not args.no_misses:
        print_misses(outcomes)


if __name__ == "__main__":
    main()
