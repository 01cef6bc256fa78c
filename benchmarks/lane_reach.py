"""What a precomputed fast lane for a bare line could reach, and what the present index costs it.

Run: .venv/bin/python benchmarks/lane_reach.py [--size 100000] [--kinds "hit line,miss line"]

The catalog and queries are ``bench_match.py``'s (``corpus.write_catalog``, and
``corpus.make_query_set`` with seed 1), opened as a stored index (one part).
For each kind, how many queries each lane that could be proved equal to the
full path would take, and the floor any lane built on the present index pays:

``own line``
    the text is a record's own line, ``Class: message``, of a pattern without
    a placeholder (all literal): the full path's answer to it depends on the
    text and the catalog alone, so it could be worked out when the index is
    built and stored (a precomputed answer);
``no word filed``
    no word of the text files a pattern in the index (nor in its unticked
    index), none opens one as its first word, beyond the patterns every text
    proposes: the index proposes nothing for them (a "certain miss" exit would
    still have to rule out the rules that do not go through the index: curated
    phrases, the named-class and statement rules, a title's lead words);
``whole``
    how many queries have exactly one pattern with words of its own that the
    message (after ``Class: ``) matches whole: at most what a lane keyed by a
    literal word could answer, before any of the matcher's other rules;
``floor us``
    median CPU time of the index's part of such a lane, per query asked first:
    proposing the patterns filed under the message's words, keeping those
    whose longest fragment it holds, and matching those whole (no extraction,
    no scoring, no ranking).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402 - the generator lives beside this script
import lane_census  # noqa: E402
from errcat.catalog import Catalog  # noqa: E402
from errcat.index import _WORD, PatternIndex  # noqa: E402
from errcat.matcher.find import _wordless  # noqa: E402
from errcat.matcher.summaries import summary  # noqa: E402
from errcat.matcher.unticked import unticked_index  # noqa: E402
from errcat.patterns import pieces_fullmatch  # noqa: E402
from errcat.text import fold_whitespace  # noqa: E402


def message_of(line: str) -> str:
    """A bare line's message: what follows ``Class: `` (the whole line without a class).

    >>> message_of("ValueError: zq  zqa"), message_of("zq zqa: zqb"), message_of("zq")
    ('zq zqa', 'zq zqa: zqb', 'zq')
    """
    head, sep, rest = line.partition(": ")
    if sep and head and " " not in head:
        return fold_whitespace(rest)
    return fold_whitespace(line)


def own_lines(catalog: Catalog) -> frozenset[str]:
    """Every record's own line ``Class: message`` whose pattern has no placeholder.

    >>> from errcat.catalog import Catalog
    >>> from errcat.models import EXAMPLE_ENVELOPE_JSON, RecordEnvelope
    >>> record = RecordEnvelope.model_validate_json(EXAMPLE_ENVELOPE_JSON).record
    >>> fixed = record.model_copy(
    ...     update={"error_message": "zq is gone", "message_pattern": "zq is gone"}
    ... )
    >>> sorted(own_lines(Catalog([fixed])))
    ['ValueError: zq is gone']
    >>> own_lines(Catalog([record]))
    frozenset()
    """
    found: set[str] = set()
    for store in catalog.parts:
        index = store.index
        for pid in range(len(index)):
            entry = index.entry(pid)
            if not entry.pattern or entry.pieces is None or len(entry.pieces) != 1:
                continue
            for position in index.records_of(pid):
                found.add(f"{summary(store, position).error_class}: {entry.pieces[0]}")
    return frozenset(found)


def files_a_pattern(indexes: list[PatternIndex], text: str) -> bool:
    """Whether a word of ``text`` files a pattern (beyond those every text proposes).

    >>> index = PatternIndex(["zqa went (.+?) away", "(.+?)"])
    >>> files_a_pattern([index], "zqa is here"), files_a_pattern([index], "zqb is here")
    (True, False)
    """
    lead = _WORD.match(text)
    for index in indexes:
        if index._find_proposed(text) - set(index.always):
            return True
        if lead and index._first_words.get(lead.group()):
            return True
    return False


def whole_matches(indexes: list[PatternIndex], message: str) -> int:
    """How many patterns with words of their own match all of ``message`` (index's lookup).

    >>> whole_matches([PatternIndex(["zqa went (.+?) away", "(.+?)"])], "zqa went far away")
    1
    """
    count = 0
    for index in indexes:
        proposed = index._find_proposed(message) - _wordless(index)
        for pid in index._with_key(message, proposed):
            entry = index.entry(pid)
            if entry.whole or entry.pieces is None:
                continue
            if pieces_fullmatch(entry.pieces, message) is not None:
                count += 1
    return count


def main() -> None:
    args = lane_census.parse_args(__doc__.splitlines()[0])

    path = corpus.write_catalog(args.size, corpus.catalogs_dir())
    queries = corpus.make_query_set(path, args.queries, seed=1).queries
    catalog = corpus.stored_catalog(path)
    indexes = [store.index for store in catalog.parts]
    filing = indexes + [unticked_index(index).index for index in indexes]
    start = time.perf_counter()
    own = own_lines(catalog)
    took = time.perf_counter() - start
    patterns = sum(len(index) for index in indexes)
    print(f"{args.size:,} records, {patterns:,} patterns; {len(own):,} own lines ({took:.1f} s)")
    print(f"  {'kind':<12} {'queries':>7} {'own line':>8} {'no word filed':>13} {'whole=1':>7}")
    clock = time.thread_time_ns
    floors: dict[str, list[float]] = {}
    for kind in (k for k in args.kinds.split(",") if k):
        texts = [text for text, _ in queries[kind][1:]]
        spent = floors[kind] = []
        one = 0
        for text in texts:
            begin = clock()
            found = whole_matches(indexes, message_of(text))
            spent.append((clock() - begin) / 1e3)
            one += found == 1
        owned = sum(text in own for text in texts)
        unfiled = sum(not files_a_pattern(filing, message_of(text)) for text in texts)
        print(f"  {kind:<12} {len(texts):7d} {owned:8d} {unfiled:13d} {one:7d}")
    for kind, spent in floors.items():
        print(
            f"  {kind:<12} floor us: median {statistics.median(spent):.0f}, "
            f"mean {statistics.mean(spent):.0f}"
        )


if __name__ == "__main__":
    main()
