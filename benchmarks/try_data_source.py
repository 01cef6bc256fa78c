"""Mine one folder of a history source of ``data/SOURCES.json`` on a small scale, as the build does.

Run with ``python benchmarks/try_data_source.py --repo sgl-project/sglang
--under sgl-kernel/python --path-prefix sgl-kernel/python/sgl_kernel
[--revisions 2] [-o OUT.jsonl]``. It takes the source as ``SOURCES.json`` names it,
keeps its last ``--revisions`` git revisions, mines them under ``--under`` only,
and mines the newest revision (the wheel with its ``pinnedWheels``) for the
files under ``--path-prefix`` only, all through
:func:`build_data.mine_history`: the code path of the full rebuild, in a minute
instead of half an hour. It prints the counts per revision and the lineages
by status, so a change of ``under`` or ``pinnedWheels`` can be checked before the
rebuild: a folder the wheels hold should have its records current, not removed.
``-o`` writes the records (and their history sidecar) for ``errcat match --catalog``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections import Counter
from pathlib import Path

from build_data import ROOT, Source, mine_history
from errcat.history import sidecar_path
from errcat.loaders import SOURCES_NAME, write_jsonl
from errcat.mine.git import mined_folders
from mine_wheels import DEFAULT_CACHE


def small_source(source: Source, under: list[str], path_prefix: str, revisions: int) -> Source:
    """``source`` cut down: its last revisions, mined under ``under``, its wheels at the prefix.

    >>> s = Source.of(
    ...     {
    ...         "repo": "o/r",
    ...         "kind": "history",
    ...         "version": "1",
    ...         "under": "python",
    ...         "revisions": [{"label": "a", "sha": "1"}, {"label": "b", "sha": "2"}],
    ...     }
    ... )
    >>> small = small_source(s, ["k/python"], "k/python/k", 1)
    >>> small.under, small.revisions, small.path_prefix
    (('k/python',), (('b', '2'),), 'k/python/k')
    """
    return dataclasses.replace(
        source,
        under=mined_folders(under),
        revisions=source.revisions[-revisions:] if revisions > 0 else (),
        path_prefix=path_prefix.strip("/"),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repo", required=True, help="the source's repo (sgl-project/sglang)")
    parser.add_argument("--under", action="append", required=True, help="folder(s) to mine")
    parser.add_argument(
        "--path-prefix",
        required=True,
        help="the newest revision keeps the wheels' files under this repo path only",
    )
    parser.add_argument("--revisions", type=int, default=2, help="the last N git revisions")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path, help="write the records here")
    args = parser.parse_args(argv)
    spec = json.loads((args.data / SOURCES_NAME).read_text(encoding="utf-8"))
    found = [Source.of(s) for s in spec["sources"] if s["repo"] == args.repo]
    if not found or found[0].kind != "history":
        raise SystemExit(f"{SOURCES_NAME}: no history source for {args.repo}")
    source = small_source(found[0], args.under, args.path_prefix, args.revisions)
    mined = mine_history(source, args.cache, args.workers, args.mirrors)
    assert mined.history is not None
    status = Counter(lin.status for lin in mined.history.history)
    print("lineages | " + " | ".join(f"{k} {v}" for k, v in sorted(status.items())))
    newest = Counter(e.record.file_path.rsplit("/", 1)[0] for e in mined.envelopes)
    for folder, count in sorted(newest.items()):
        print(f"  {folder}: {count} records")
    if args.output:
        write_jsonl(str(args.output), mined.envelopes)
        mined.history.history.dump(sidecar_path(args.output))
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
