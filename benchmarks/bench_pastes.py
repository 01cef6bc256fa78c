"""Measure errcat on real error pastes from public sglang and vllm issues.

Run with ``python benchmarks/bench_pastes.py [--catalog FILE ...] [--data FILE] [--split S]``
after ``benchmarks/mine_wheels.py`` (the default catalog is the union it
writes). Each paste of ``benchmarks/data/real_pastes.jsonl`` carries a label:
the raise site (``file_path``, ``error_class``, ``message_prefix``) when the
error was raised by sglang/vllm code whose message is in the newest catalog,
else ``answerable: false`` and why. A right answer is a record at the
labelled file whose template starts with the labelled prefix (placeholder
names aside: ``{a}`` and ``{b}`` compare equal), or a record that the
release's history data (:mod:`errcat.history`) puts on the same lineage as such
a record: an older or newer revision of the labelled message.

An unanswerable paste whose message the newest revision no longer raises can
carry ``old_site`` (same fields as a label), verified against the project's
git history: the site that raised it in an older revision. A history catalog
can answer it; those pastes are counted in their own columns, so the figure
against the newest revision stays as it was labelled.

Prints, per repo and in total: for answerable pastes, how many
``match_error`` answered, right and wrong, and how often the right record is
``match_all``'s first or among its candidates; for unanswerable pastes, how
many got a confident answer (false-confident). Then every miss, with its top
candidates (id, file:line, confidence, mode, reasons), so one can see why.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import errcat
from errcat import Catalog, Match
from errcat.matcher.family import family_covers, is_family
from errcat.models import ErrorRecord
from errcat.slugs import slugify
from errcat.store import RecordSummary

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

    @property
    def old_site(self) -> dict[str, Any] | None:
        """The verified raise site in an older revision of a message the newest one lacks."""
        site = self.expect.get("old_site")
        return site if not self.answerable and isinstance(site, dict) else None


def load_pastes(path: Path, split: str | None = None) -> list[Paste]:
    """The pastes of a JSON Lines file, in file order (only those of ``split``, when given).

    A line without a ``split`` field is in no split: ``split`` drops it.
    """
    pastes = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        obj = json.loads(line)
        if split is not None and obj.get("split") != split:
            continue  # another split's pastes are not even read past their split
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


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _unnamed(template: str) -> str:
    """A template with its placeholders' names dropped (``{x.y}`` becomes ``{}``).

    >>> _unnamed("got {self.n} of {limit!r}")
    'got {} of {}'
    """
    return _PLACEHOLDER.sub("{}", template)


def _fits(record: RecordSummary | ErrorRecord, expect: dict[str, Any], any_site: bool) -> bool:
    """Whether a record is the labelled one: its file, and its template's start.

    A family record (``errcat:family``) fits a label of its class in a file of its
    scope. A label of a raise without a message (``message_prefix`` empty) names the
    statement by its ``slug`` (``assert-self-pool-is-not-none``), or by its
    ``statement`` (the source line, whose slug the miner gives such a record): the
    file's other raises without one are other statements.
    """
    files = {expect["file_path"], *(expect.get("also", ()) if any_site else ())}
    if is_family(record):
        # A family record speaks for every file of its scope (errcat.matcher.family).
        same_class = expect.get("error_class") == record.error_class
        return same_class and any(family_covers(record, f) for f in files)
    if record.file_path not in files:
        return False
    return _template_fits(record, expect)


def _template_fits(record: RecordSummary | ErrorRecord, expect: dict[str, Any]) -> bool:
    """Whether a record's template is the labelled one (its file aside)."""
    if "slug" in expect:
        return not record.error_message and record.slug == expect["slug"]
    if "statement" in expect:  # a bare raise or assert, labelled by its source line
        return not record.error_message and record.slug == slugify(expect["statement"])
    return _unnamed(record.error_message).startswith(_unnamed(expect["message_prefix"]))


def lineage_of(record_id: str, catalog: Catalog | None) -> list[str]:
    """The other records of ``record_id``'s lineage in the catalog's history, nearest first.

    Follows the history's ``predecessor`` and ``successor`` links both ways (the
    rewordings the release ships); empty without a history catalog.
    """
    history = catalog.history if catalog is not None else None
    if history is None:
        return []
    seen = {record_id}
    found: list[str] = []
    frontier = [record_id]
    while frontier:
        lineage = history.lineage(frontier.pop(0))
        if lineage is None:
            continue
        for other in (lineage.predecessor, lineage.successor):
            if other is not None and other not in seen:
                seen.add(other)
                found.append(other)
                frontier.append(other)
    return found


def lineage_fits(
    match: Match | RecordSummary,
    expect: dict[str, Any],
    catalog: Catalog | None,
    *,
    any_site: bool = False,
) -> bool:
    """True when a record on the lineage of ``match``'s record fits the label.

    The record itself fits when its message raised at the labelled file in an
    older revision (code moved: ``vllm/config.py`` became ``vllm/config/model.py``);
    another record of its lineage (a rewording) fits as :func:`_fits` says.
    """
    summary = match.summary if isinstance(match, Match) else match
    history = catalog.history if catalog is not None else None
    own = history.lineage(summary.id) if history is not None else None
    moved_here = own is not None and any(s.file_path == expect.get("file_path") for s in own.sites)
    if moved_here and _template_fits(summary, expect):
        return True
    for other in lineage_of(summary.id, catalog):
        record = catalog.get(other) if catalog is not None else None
        if record is not None and _fits(record, expect, any_site):
            return True
    return False


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
    match: Match | RecordSummary | None,
    expect: dict[str, Any],
    *,
    any_site: bool = False,
    catalog: Catalog | None = None,
) -> bool:
    """True when ``match`` is the labelled record: same file, template with the labelled start.

    With ``any_site``, a file of the label's ``also`` list (other sites that raise
    the same template, which only frames can tell apart) counts too. With a
    history ``catalog``, a record on the same lineage as the labelled one (an
    older or newer revision of its message, as the history data links them)
    counts too. ``expect`` is a paste's label or its ``old_site``. ``match`` may
    be a match or the summary of a record (one of a match's alternatives).
    """
    if match is None or "file_path" not in expect:
        return False
    summary = match.summary if isinstance(match, Match) else match
    if _fits(summary, expect, any_site):
        return True
    return lineage_fits(summary, expect, catalog, any_site=any_site)


def is_right_directly(match: Match | None, expect: dict[str, Any]) -> bool:
    """True when ``match``'s own record fits the label (no history followed)."""
    if match is None or "file_path" not in expect:
        return False
    return _fits(match.summary, expect, False)


@dataclass
class Outcome:
    """What errcat did with one paste."""

    paste: Paste
    answer: Match | None
    candidates: list[Match]
    seconds: float
    catalog: Catalog | None = None

    @property
    def label(self) -> dict[str, Any]:
        """The site a right answer names: the label, or the ``old_site`` of a history paste."""
        return self.paste.old_site or self.paste.expect

    @property
    def right(self) -> bool:
        """The confident answer is the labelled record, or on its lineage."""
        return is_right(self.answer, self.label, catalog=self.catalog)

    @property
    def via_lineage(self) -> bool:
        """Right only through the history's lineage links (another revision's record)."""
        return self.right and not is_right_directly(self.answer, self.label)

    @property
    def old(self) -> bool:
        """The answer is a record of a message the newest revision no longer raises."""
        return is_old_record(self.answer, self.catalog)

    @property
    def right_any(self) -> bool:
        """The confident answer raises the labelled template at the labelled or another site."""
        return is_right(self.answer, self.label, any_site=True, catalog=self.catalog)

    @property
    def first_right(self) -> bool:
        """``match_all``'s first candidate is the labelled record (any confidence)."""
        return bool(self.candidates) and is_right(
            self.candidates[0], self.label, catalog=self.catalog
        )

    @property
    def listed(self) -> bool:
        """The labelled record is among ``match_all``'s candidates or their alternatives.

        Records raising the same message with the same evidence are folded into
        one candidate (:attr:`errcat.Match.alternatives`), shown with it.
        """
        return any(
            is_right(r, self.label, catalog=self.catalog)
            for m in self.candidates
            for r in (m.summary, *m.alternatives)
        )


@dataclass
class Tally:
    """Counts for one row of the table."""

    answerable: int = 0
    answered: int = 0
    right: int = 0
    #: Of ``right``: right only through the history's lineage links.
    via_lineage: int = 0
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
    #: Pastes answerable only through history (an ``old_site`` label): how many,
    #: answered right (at the old site or on its lineage), answered wrong.
    history: int = 0
    history_right: int = 0
    history_wrong: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, o: Outcome) -> None:
        """Count one outcome."""
        self.seconds.append(o.seconds)
        if o.paste.answerable:
            self.answerable += 1
            self.answered += o.answer is not None
            self.right += o.right
            self.via_lineage += o.via_lineage
            self.right_any += o.right_any
            self.wrong += o.answer is not None and not o.right
            self.wrong_old += o.answer is not None and not o.right and o.old
            self.first_right += o.first_right
            self.listed += o.listed
        elif o.paste.old_site is not None:
            self.history += 1
            self.history_right += o.right
            self.history_wrong += o.answer is not None and not o.right
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
    """The per-repo and total table, then the figure with the history pastes counted."""
    rows: dict[str, Tally] = {}
    for o in outcomes:
        rows.setdefault(o.paste.repo, Tally()).add(o)
        rows.setdefault("total", Tally()).add(o)
    header = (
        f"{'repo':<20} {'answerable':>10} {'answered':>8} {'right':>6} {'right%':>7} "
        f"{'via-lin':>7} {'any-site':>8} {'wrong':>5} {'w-old':>5} {'top1':>5} {'listed':>6} | "
        f"{'unanswerable':>12} {'false-conf':>10} {'old-ans':>7} | "
        f"{'hist':>4} {'h-right':>7} {'h-wrong':>7} {'ms/paste':>8}"
    )
    print(header)
    print("-" * len(header))
    for name in [*sorted(k for k in rows if k != "total"), "total"]:
        t = rows[name]
        ms = 1000 * sum(t.seconds) / len(t.seconds)
        print(
            f"{name:<20} {t.answerable:>10} {t.answered:>8} {t.right:>6} "
            f"{_pct(t.right, t.answerable):>7} {t.via_lineage:>7} {t.right_any:>8} {t.wrong:>5} "
            f"{t.wrong_old:>5} {t.first_right:>5} {t.listed:>6} | "
            f"{t.unanswerable:>12} {t.false_confident:>10} {t.old_answered:>7} | "
            f"{t.history:>4} {t.history_right:>7} {t.history_wrong:>7} {ms:>8.1f}"
        )
    t = rows["total"]
    both = t.answerable + t.history
    print(
        f"\nanswerable against the newest revision: {t.right}/{t.answerable} right "
        f"({_pct(t.right, t.answerable).strip()}); counting the pastes answerable through "
        f"history: {t.right + t.history_right}/{both} ({_pct(t.right + t.history_right, both).strip()})"
    )
    print(
        "\nright: match_error's answer is the labelled record, or a record the history data "
        "puts on its lineage\n(via-lin: right only that way); any-site: or the same template "
        "raised at another site of the\nlabel's 'also' list; top1: match_all's first candidate "
        "is the labelled record (any confidence);\nlisted: it is among match_all's "
        f"{CANDIDATES} or their alternatives;\nfalse-conf: a confident answer for a paste "
        "the catalog cannot answer.\n"
        "With a history catalog: w-old (of wrong) and old-ans (answers to unanswerable pastes, "
        "not counted\nas false-conf) answer with the record of a message the newest revision "
        "no longer raises,\nwhich the labels (made against the newest catalog) cannot judge. "
        "hist: pastes whose message the\nnewest revision lacks, labelled with the older site "
        "that raised it (verified in git);\nh-right/h-wrong: answered with that site's record "
        "(or its lineage) / with another."
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
    misses = [
        o for o in outcomes if (o.paste.answerable or o.paste.old_site is not None) and not o.right
    ]
    false_conf = [
        o
        for o in outcomes
        if not o.paste.answerable and o.paste.old_site is None and o.answer is not None
    ]
    false_conf.sort(key=lambda o: o.old)
    kinds: Counter[str] = Counter()
    print(f"\nMISSES ({len(misses)} answerable pastes, history ones included, not answered right)")
    for o in misses:
        e = o.label
        if o.answer is None:
            kind = "listed, below threshold" if o.listed else "not listed"
        elif o.right_any:
            kind = "same template, other site"
        else:
            kind = "wrong answer"
        kinds[kind] += 1
        old = " (old site, through history)" if o.paste.old_site is not None else ""
        print(f"\n- {o.paste.id} ({kind}){old} {o.paste.url}")
        said = e.get("message_prefix") or e.get("statement") or ""
        print(f"    expected: {e['file_path']} [{e['error_class']}] {said!r}")
        note = o.paste.expect.get("note")
        if note:
            print(f"    label note: {note}")
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
    parser.add_argument(
        "--no-misses",
        action="store_true",
        help="print the table only (the default for a held-out file: holdout_*.jsonl)",
    )
    parser.add_argument(
        "--misses", action="store_true", help="list the misses even of a held-out file"
    )
    parser.add_argument(
        "--split",
        choices=("dev", "holdout"),
        help="only the pastes of this split (fresh_pastes.jsonl); misses listed for dev only",
    )
    parser.add_argument(
        "--write-test-sample",
        action="store_true",
        help=f"write the regression sample of tests/test_real_pastes.py into {TEST_DATA}",
    )
    args = parser.parse_args(argv)
    for path in args.catalog:
        if not path.exists():
            raise SystemExit(f"{path} does not exist: run benchmarks/mine_wheels.py first")
    pastes = load_pastes(args.data, args.split)
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
    split = f", split {args.split}" if args.split else ""
    print(f"pastes: {args.data} ({len(pastes)}{split})\n")
    outcomes = run(pastes, catalog)
    print_table(outcomes)
    held_out = (
        args.data.name.startswith("holdout")
        or args.split == "holdout"
        or (args.split is None and '"split": "holdout"' in args.data.read_text(encoding="utf-8"))
    )
    if args.misses or not (args.no_misses or held_out):
        print_misses(outcomes)
    elif held_out:
        print("\n(held-out pastes: misses not listed, so that nobody tunes on them; --misses)")


if __name__ == "__main__":
    main()
