"""A placeholder renamed between revisions keeps its lineage, only when nothing else could be it."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.history import Revision
from errcat.mine.history import Snapshot, build_history
from errcat.mine.pairing import Msg, follow_renames, pair_messages, printed

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
NAMES = ["n", "size", "self.size", "cfg.size", "view.page", "backend", "x", "args.k"]

#: A message's shape: words and placeholder slots (None), with at least one slot.
shape = st.lists(st.one_of(st.sampled_from(WORDS), st.none()), min_size=2, max_size=6).filter(
    lambda parts: None in parts and any(p is not None for p in parts)
)


def fill(parts: list[str | None], names: list[str]) -> str:
    """The template of a shape, its slots named in turn from ``names``."""
    it = iter(names)
    return " ".join(p if p is not None else "{" + next(it) + "}" for p in parts)


def slots(parts: list[str | None]) -> int:
    return sum(1 for p in parts if p is None)


names_for = st.lists(st.sampled_from(NAMES), min_size=6, max_size=6)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(shape, min_size=1, max_size=5, unique_by=lambda s: printed(fill(s, ["a"] * 6))),
    st.data(),
)
def test_a_renamed_placeholder_pairs_with_its_old_self(
    shapes: list[list[str | None]], data: st.DataObject
) -> None:
    """One message per printed text in a file: each renamed one continues as itself."""
    before = [data.draw(names_for) for _ in shapes]
    after = [data.draw(names_for) for _ in shapes]
    shift = data.draw(st.integers(min_value=-3, max_value=20))
    old = [
        Msg(f"o{k}", "p/hook.py", 10 * (k + 1), "ValueError", fill(s, before[k]))
        for k, s in enumerate(shapes)
    ]
    new = [
        Msg(f"n{k}", "p/hook.py", 10 * (k + 1) + shift, "ValueError", fill(s, after[k]))
        for k, s in enumerate(shapes)
    ]
    pairs = pair_messages(old, new)
    assert [(i, j) for i, j, _ in pairs] == [(k, k) for k in range(len(shapes))]
    assert all(kind in ("same", "moved") for _i, _j, kind in pairs)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape,
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=0, max_value=4),
    st.data(),
)
def test_two_sites_of_one_revision_never_pair_by_a_rename(
    parts: list[str | None], sites: int, later: int, data: st.DataObject
) -> None:
    """The same printed words raised at several sites of a file: no rename pairs them.

    Every template differs from every other (renamed on each side), so only the
    rename rule could carry a site on as itself; the sites are distinct and
    nothing says which became which.
    """
    n = slots(parts)
    templates = data.draw(
        st.lists(
            names_for.map(lambda names: fill(parts, names)),
            min_size=sites + later,
            max_size=sites + later,
            unique=True,
        )
    )
    old = [
        Msg(f"o{k}", "p/hook.py", 100 * (k + 1), "ValueError", t)
        for k, t in enumerate(templates[:sites])
    ]
    new = [
        Msg(f"n{k}", "p/hook.py", 100 * (k + 1) + 7, "ValueError", t)
        for k, t in enumerate(templates[sites:])
    ]
    assert n >= 1
    assert follow_renames(old, new, []) == []
    for i, j, kind in pair_messages(old, new):
        assert kind == "reworded" or old[i].template == new[j].template


#: Few shapes and names, so that revisions often print the same words at several sites.
crowded = st.tuples(
    st.sampled_from(["a.py", "b.py"]),
    st.sampled_from([["alpha", None], ["bravo", None, "charlie", None]]),
    st.lists(st.sampled_from(["a", "self.a", "b"]), min_size=2, max_size=2),
    st.sampled_from(["f", "g", ""]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(crowded, max_size=6), st.lists(crowded, max_size=6))
def test_a_rename_pairs_only_what_is_alone_in_its_file_or_function(
    old_spec: list[tuple[str, list[str | None], list[str], str]],
    new_spec: list[tuple[str, list[str | None], list[str], str]],
) -> None:
    """Whatever the revisions: pairs are one to one, and a rename pair is unambiguous."""
    old = [
        Msg(f"o{k}", f, k + 1, "ValueError", fill(s, names), fn)
        for k, (f, s, names, fn) in enumerate(old_spec)
    ]
    new = [
        Msg(f"n{k}", f, k + 1, "ValueError", fill(s, names), fn)
        for k, (f, s, names, fn) in enumerate(new_spec)
    ]
    pairs = pair_messages(old, new)
    assert len({i for i, _, _ in pairs}) == len({j for _, j, _ in pairs}) == len(pairs)
    in_file_old = Counter((m.file_path, printed(m.template)) for m in old)
    in_file_new = Counter((m.file_path, printed(m.template)) for m in new)
    in_func_old = Counter((m.file_path, m.function, printed(m.template)) for m in old)
    in_func_new = Counter((m.file_path, m.function, printed(m.template)) for m in new)
    for i, j, kind in pairs:
        o, n = old[i], new[j]
        if kind == "reworded" or o.template == n.template:
            continue
        words = printed(o.template)
        assert printed(n.template) == words
        assert (in_file_old[(o.file_path, words)], in_file_new[(n.file_path, words)]) == (1, 1) or (
            o.function == n.function
            and in_func_old[(o.file_path, o.function, words)] == 1
            and in_func_new[(n.file_path, n.function, words)] == 1
        )


def test_one_message_per_function_pairs_by_its_function() -> None:
    """Raised in two functions of one file: each site continues as its function's."""
    text = "topk {a} > 1 with page size {b} is unsupported"
    old = [
        Msg("o1", "p/hook.py", 423, "ValueError", text.format(a="{k}", b="{p}"), "_ngram"),
        Msg("o2", "p/hook.py", 710, "ValueError", text.format(a="{cfg.k}", b="{v.p}"), "_eagle"),
    ]
    new = [
        Msg("n1", "p/hook.py", 700, "ValueError", text.format(a="{args.k}", b="{v.p}"), "_eagle"),
        Msg("n2", "p/hook.py", 430, "ValueError", text.format(a="{s.k}", b="{s.p}"), "_ngram"),
    ]
    assert follow_renames(old, new, []) == [(0, 1), (1, 0)]
    # Without the functions nothing tells the two sites apart: neither pairs as moved.
    bare = [Msg(m.id, m.file_path, m.line, m.error_class, m.template) for m in new]
    assert follow_renames(old, bare, []) == []


def test_a_rename_follows_a_renamed_file() -> None:
    """The file renamed (its siblings went there) and a placeholder renamed on the way."""
    old = [
        Msg("o1", "p/args.py", 10, "ValueError", "port {port} is out of range"),
        Msg("o2", "p/args.py", 20, "ValueError", "unknown cache mode {self.mode!r}"),
    ]
    new = [
        Msg("n1", "p/groups/net.py", 5, "ValueError", "port {port} is out of range"),
        Msg("n2", "p/groups/net.py", 9, "ValueError", "unknown cache mode {mode!r}"),
    ]
    assert pair_messages(old, new) == [(0, 0, "moved"), (1, 1, "moved")]


def _snap(label: str, day: int, files: dict[str, str]) -> Snapshot:
    rev = Revision(label, label[-1] * 40, datetime(2025, 1, day, tzinfo=timezone.utc))
    blobs = {f"{p}@{label}": text.encode() for p, text in files.items()}
    return Snapshot(
        rev, [(p, f"{p}@{label}") for p in files], lambda keys: ((k, blobs[k]) for k in keys)
    )


def test_history_keeps_one_lineage_for_a_renamed_placeholder() -> None:
    """Mined from code: ``{self.size}`` -> ``{size}`` is one record; two like sites stay two."""
    v1 = _snap(
        "v1",
        1,
        {
            "m.py": (
                "class A:\n"
                "    def f(self):\n"
                "        raise ValueError(f'size {self.size} is too large')\n"
                "    def g(self, n, k):\n"
                "        if n:\n"
                "            raise ValueError(f'bad page {n} for block')\n"
                "        raise ValueError(f'bad page {k} for block')\n"
            )
        },
    )
    v2 = _snap(
        "v2",
        9,
        {
            "m.py": (
                "class A:\n"
                "    def f(self, size):\n"
                "        # checked first\n"
                "        raise ValueError(f'size {size} is too large')\n"
                "    def g(self, m, j):\n"
                "        if m:\n"
                "            raise ValueError(f'bad page {m} for block')\n"
                "        raise ValueError(f'bad page {j} for block')\n"
            )
        },
    )
    result = build_history([v1, v2], repo="o/r")
    sizes = [r for r in result.records if r.error_message.startswith("size")]
    assert [(r.error_message, r.line_number) for r in sizes] == [("size {size} is too large", 4)]
    lineage = result.history.lineage(sizes[0].id)
    assert lineage is not None and len(lineage.sites) == 2
    pages = [r for r in result.records if r.error_message.startswith("bad page")]
    # Two sites of one function: each old one ends, reworded into a new one (four records).
    assert len(pages) == 4
    for r in pages:
        lin = result.history.lineage(r.id)
        assert lin is not None and len(lin.sites) == 1
