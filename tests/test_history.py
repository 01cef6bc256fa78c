"""Tests of errcat history: git revisions, distributions, lineages, the sidecar, the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
import zipfile
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.catalog import Catalog
from errcat.cli import main
from errcat.errors import CatalogSourceError, ErrcatError, InvalidRecordError
from errcat.history import History, sidecar_path
from errcat.matcher import Match, match_all
from errcat.mine import reanchor
from errcat.mine.dists import dist_snapshot
from errcat.mine.git import (
    GitRepo,
    NotAGitRepositoryError,
    UnknownRevisionError,
    git_snapshots,
)
from errcat.mine.history import HistoryResult, Snapshot, build_history, module_names
from errcat.mine.pairing import CHANGE_THRESHOLD, Msg, follow_alone, pair_messages, similarity
from errcat.models import RecordEnvelope

REPO = "example/project"
WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)

ARGS_V1 = """
def check(port, backend, mode):
    if port < 0:
        raise ValueError(f"port {port} is out of range")
    if backend not in ("a", "b"):
        raise ValueError(f"unknown backend {backend!r}; choose a or b")
    if mode == "x":
        raise RuntimeError("mode x is gone")
"""

# v2: the checks moved to groups/net.py; the backend message was reworded on the way.
ARGS_V2 = """
def check(mode):
    if mode == "y":
        raise RuntimeError("mode y is not supported")
"""
NET_V2 = """


def check_net(port, backend):
    if port < 0:
        raise ValueError(f"port {port} is out of range")
    if backend not in ("a", "b", "c"):
        raise ValueError(f"unknown backend {backend!r}; choose a, b or c")
"""


def git(cwd: Path, *args: str, date: str | None = None) -> str:
    """Run git in ``cwd`` with a fixed identity (and author and committer date)."""
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "HOME": str(cwd),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, check=True)
    return done.stdout.decode()


def commit(work: Path, files: dict[str, str], date: str, message: str) -> str:
    """Write files and commit them at ``date`` (noon UTC); return the sha."""
    for name, text in files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    git(work, "add", "-A")
    git(work, "commit", "-qm", message, date=f"{date}T12:00:00+00:00")
    return git(work, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A bare clone of a tiny repo whose checks move to another file and get reworded."""
    root = tmp_path_factory.mktemp("history")
    work = root / "work"
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    shas = [
        commit(
            work,
            {"src/pkg/__init__.py": "", "src/pkg/args.py": ARGS_V1, "README": "x"},
            "2025-01-10",
            "one",
        ),
        commit(
            work,
            {
                "src/pkg/args.py": ARGS_V2,
                "src/pkg/groups/__init__.py": "",
                "src/pkg/groups/net.py": NET_V2,
            },
            "2025-04-10",
            "move the checks",
        ),
        commit(work, {"README": "y"}, "2025-07-10", "docs only"),
    ]
    mirror = root / "mirror.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirror)], check=True)
    return mirror, shas


def test_git_repo_reads_bare_mirror(bare: tuple[Path, list[str]]) -> None:
    mirror, shas = bare
    repo = GitRepo(mirror)
    head = repo.commit("main")
    assert head.sha == shas[-1]
    assert head.date == datetime(2025, 7, 10, 12, tzinfo=timezone.utc)
    files = repo.tree(shas[1], "src")
    assert [f.path for f in files] == [
        "src/pkg/__init__.py",
        "src/pkg/args.py",
        "src/pkg/groups/__init__.py",
        "src/pkg/groups/net.py",
    ]
    blobs = dict(repo.blobs([f.blob for f in files]))
    assert blobs[files[1].blob].decode() == textwrap.dedent(ARGS_V2)
    assert repo.has_path(shas[0], "src/pkg") and not repo.has_path(shas[0], "src/pkg/groups")


def test_git_errors(bare: tuple[Path, list[str]], tmp_path: Path) -> None:
    mirror, _ = bare
    with pytest.raises(NotAGitRepositoryError, match="Not a git repository") as info:
        GitRepo(tmp_path)
    assert isinstance(info.value, OSError) and isinstance(info.value, ErrcatError)
    with pytest.raises(NotAGitRepositoryError):
        GitRepo(tmp_path / "missing")
    with pytest.raises(UnknownRevisionError, match="unknown revision 'v9'") as err:
        GitRepo(mirror).commit("v9")
    assert isinstance(err.value, LookupError)


def test_first_parent_steps(bare: tuple[Path, list[str]]) -> None:
    mirror, shas = bare
    repo = GitRepo(mirror)
    from datetime import timedelta

    picked = repo.first_parent_since(datetime(2025, 1, 1, tzinfo=timezone.utc), timedelta(days=90))
    assert [c.sha for c in picked] == shas  # 01-10, then >= 04-01, then >= 06-30
    picked = repo.first_parent_since(datetime(2025, 1, 1, tzinfo=timezone.utc), timedelta(days=365))
    assert [c.sha for c in picked] == [shas[0], shas[-1]]  # the newest always ends the list


def history_of_bare(bare: tuple[Path, list[str]], under: str = "src") -> HistoryResult:
    mirror, shas = bare
    repo = GitRepo(mirror)
    commits = [(f"r{i}", repo.commit(s)) for i, s in enumerate(shas)]
    return build_history(git_snapshots(repo, commits, under=under), repo=REPO, analyzed_at=WHEN)


def test_lineages_follow_moves_and_rewordings(bare: tuple[Path, list[str]]) -> None:
    result = history_of_bare(bare)
    by_message = {r.error_message: r for r in result.records}
    assert set(by_message) == {
        "port {port} is out of range",
        "unknown backend {backend!r}; choose a or b",
        "unknown backend {backend!r}; choose a, b or c",
        "mode x is gone",
        "mode y is not supported",
    }
    history = result.history
    moved = by_message["port {port} is out of range"]
    assert moved.file_path == "src/pkg/groups/net.py"  # anchored at its newest revision
    assert moved.analyzed_sha == bare[1][-1]
    assert moved.github_url.startswith(f"https://github.com/{REPO}/blob/{bare[1][-1]}/src/pkg/")
    lin = history.lineage(moved.id)
    assert lin is not None and lin.status == "current"
    assert [s.file_path for s in lin.sites] == ["src/pkg/args.py"] + ["src/pkg/groups/net.py"] * 2
    old = by_message["unknown backend {backend!r}; choose a or b"]
    new = by_message["unknown backend {backend!r}; choose a, b or c"]
    old_lin, new_lin = history.lineage(old.id), history.lineage(new.id)
    assert old_lin is not None and new_lin is not None
    assert (old_lin.status, old_lin.successor, new_lin.predecessor) == ("reworded", new.id, old.id)
    assert old.file_path == "src/pkg/args.py" and old.analyzed_sha == bare[1][0]
    assert history.current(old.id) == new_lin
    removed = history.lineage(by_message["mode x is gone"].id)
    assert removed is not None and removed.status == "removed" and removed.last.label == "r0"
    # "mode x is gone" -> "mode y is not supported" is too different to be a rewording.
    other = history.lineage(by_message["mode y is not supported"].id)
    assert other is not None and other.predecessor is None
    # The third revision changed no Python file: nothing was parsed again.
    # v2 parsed args.py, net.py and groups/__init__.py (same blob as pkg's, another module).
    assert [s.parsed for s in result.revisions] == [2, 3, 0]
    assert [s.records for s in result.revisions] == [3, 3, 3]


def test_under_missing_at_a_revision(bare: tuple[Path, list[str]]) -> None:
    result = history_of_bare(bare, under="src/pkg/groups")
    first = result.revisions[0]
    assert first.missing and first.records == 0 and first.files == 0
    assert result.revisions[1].records == 2


def test_sidecar_round_trip_and_catalog_load(bare: tuple[Path, list[str]], tmp_path: Path) -> None:
    out = tmp_path / "cat.jsonl"
    code = main(
        [
            *("history", str(bare[0]), "--repo", REPO, "--rev", bare[1][0], "--rev", "main"),
            *("--under", "src", "-o", str(out), "--analyzed-at", "2026-01-02T00:00:00Z"),
        ]
    )
    assert code == 0
    assert sidecar_path(out).is_file()
    catalog = Catalog.from_path(out)
    assert catalog.history is not None and len(catalog.history) == len(catalog) == 5
    old = next(r for r in catalog if r.error_message.endswith("choose a or b"))
    text = 'Traceback (most recent call last):\n  File "/x/pkg/args.py", line 6, in check\n'
    text += "ValueError: unknown backend 'z'; choose a or b\n"
    match = match_all(text, catalog)[0]
    assert match.summary.id == old.id
    lineage = match.history
    assert lineage is not None and lineage.status == "reworded"
    assert [r.sha for r in lineage.fits_frames(match.report.frames)] == [bare[1][0]]
    assert lineage.note().startswith("reworded after 2025-01")
    # The history survives filtering, and is reloaded as written.
    assert catalog.filter(error_class="ValueError").history is not None
    again = History.load(sidecar_path(out))
    assert again.to_json() == catalog.history.to_json()


def test_bad_sidecar_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "x.history.json"
    bad.write_text('{"errcatHistory": 1, "revisions": [], "lineages": [{"id": "a"}]}')
    with pytest.raises(InvalidRecordError, match=r"x.history.json: lineages\[0\]"):
        History.load(bad)
    bad.write_text("{")
    with pytest.raises(CatalogSourceError, match="Cannot read history"):
        History.load(bad)


def test_cli_errors(
    bare: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "o.jsonl")
    assert main(["history", str(tmp_path), "--repo", REPO, "--rev", "x", "-o", out]) == 2
    assert "Not a git repository" in capsys.readouterr().err
    assert main(["history", str(bare[0]), "--repo", REPO, "--rev", "nope", "-o", out]) == 2
    assert "unknown revision 'nope'" in capsys.readouterr().err
    assert main(["history", str(bare[0]), "--repo", "bad", "--rev", "main", "-o", out]) == 2
    assert "invalid --repo" in capsys.readouterr().err
    assert main(["history", str(bare[0]), "--repo", REPO, "-o", out]) == 2
    assert "give the revisions" in capsys.readouterr().err
    assert main(["history", "--repo", REPO, "--dist", "nopath", "-o", out]) == 2
    assert "VERSION=PATH" in capsys.readouterr().err
    assert not Path(out).exists()
    code = main(
        [
            *("history", str(bare[0]), "--repo", REPO, "--rev", "main~2", "--rev", "main"),
            *("--under", "src/pkg/groups", "-o", out),
        ]
    )
    assert code == 0
    err = capsys.readouterr().err
    assert "warning: main~2: src/pkg/groups/ does not exist here" in err


def make_wheel(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, textwrap.dedent(text))
        zf.writestr("pkg-1.0.dist-info/METADATA", "Name: pkg\n")
    return path


def test_history_over_wheels(tmp_path: Path) -> None:
    w1 = make_wheel(
        tmp_path / "pkg-1.0-py3-none-any.whl", {"pkg/__init__.py": "", "pkg/args.py": ARGS_V1}
    )
    w2 = make_wheel(
        tmp_path / "pkg-2.0-py3-none-any.whl",
        {
            "pkg/__init__.py": "",
            "pkg/args.py": ARGS_V2,
            "pkg/groups/__init__.py": "",
            "pkg/groups/net.py": NET_V2,
        },
    )
    snaps = [
        dist_snapshot("1.0", w1, path_prefix="src"),
        dist_snapshot("2.0", w2, path_prefix="src"),
    ]
    assert next(p for p, _ in snaps[1].files) == "src/pkg/__init__.py"
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    statuses = Counter(lin.status for lin in result.history)
    assert statuses == {"current": 3, "reworded": 1, "removed": 1}
    out = tmp_path / "d.jsonl"
    code = main(
        ["history", "--repo", REPO, "--dist", f"1.0={w1}", "--dist", f"2.0={w2}", "-o", str(out)]
    )
    assert code == 0 and len(Catalog.from_path(out)) == 5
    (tmp_path / "not.whl").write_bytes(b"nope")
    with pytest.raises(CatalogSourceError, match="Cannot read distribution"):
        dist_snapshot("x", tmp_path / "not.whl")


def test_wheel_data_purelib_paths_are_where_pip_installs_them(tmp_path: Path) -> None:
    """A wheel that keeps its modules under ``<dist>.data/purelib/`` (openrlhf's) is mined at
    the package's own paths, not dropped as an sdist's top folder."""
    wheel = make_wheel(
        tmp_path / "pkg-1.0-cp311-cp311-manylinux1_x86_64.whl",
        {
            "pkg-1.0.data/purelib/pkg/__init__.py": "",
            "pkg-1.0.data/purelib/pkg/args.py": ARGS_V1,
            "pkg-1.0.data/scripts/run.py": "raise SystemExit('a script, not the package')\n",
        },
    )
    snap = dist_snapshot("1.0", wheel)
    assert [p for p, _ in snap.files] == [
        "pkg-1.0.data/scripts/run.py",
        "pkg/__init__.py",
        "pkg/args.py",
    ]
    result = build_history([snap], repo=REPO, analyzed_at=WHEN)
    assert "pkg/args.py" in {r.file_path for r in result.records}


def test_reanchor_follows_siblings_to_new_file() -> None:
    """mine --update: a check moved to another file and reworded keeps its curated record."""
    v1 = build_history(
        [_snap("v1", {"src/pkg/__init__.py": "", "src/pkg/args.py": ARGS_V1})],
        repo=REPO,
        analyzed_at=WHEN,
    )
    v2 = build_history(
        [
            _snap(
                "v2",
                {
                    "src/pkg/__init__.py": "",
                    "src/pkg/args.py": ARGS_V2,
                    "src/pkg/groups/__init__.py": "",
                    "src/pkg/groups/net.py": NET_V2,
                },
            )
        ],
        repo=REPO,
        analyzed_at=WHEN,
    )
    curated = []
    for env in v1.envelopes:
        # Curated: its own text, without the errcat:generated tag of a mined draft.
        curated_text = {"documentation": "curated " + env.record.slug, "tags": ("reviewed",)}
        record = env.record.model_copy(update=curated_text)
        curated.append(
            RecordEnvelope.model_validate(
                env.model_copy(update={"record": record}).model_dump(mode="json")
            )
        )
    result = reanchor(curated, v2.envelopes)
    changed = {c["old"]: c for c in result.report["changed"]}
    moved = changed["unknown backend {backend!r}; choose a or b"]
    assert moved["file"] == "src/pkg/groups/net.py"
    kept = {e.record.id: e.record for e in result.envelopes}[moved["id"]]
    assert kept.documentation.startswith("curated ") and kept.error_message.endswith("a, b or c")
    assert [e.record.error_message for e in result.removed] == ["mode x is gone"]


def _snap(label: str, files: dict[str, str], day: int = 1) -> Snapshot:
    blobs = {f"{p}:{t}": textwrap.dedent(t).encode() for p, t in files.items()}
    from errcat.history import Revision

    revision = Revision(
        label, (label.encode().hex() * 40)[:40], datetime(2025, 1, day, tzinfo=timezone.utc)
    )
    return Snapshot(
        revision,
        sorted((p, f"{p}:{t}") for p, t in files.items()),
        lambda keys: ((k, blobs[k]) for k in keys),
    )


def test_module_names_match_the_miner() -> None:
    names = module_names(["a/__init__.py", "a/b/c.py", "x/y.py", "a/b-c/d.py"])
    assert names["a/b/c.py"] == ("a.b.c", False)
    assert names["x/y.py"] == ("y", False)
    assert names["a/b-c/d.py"] == ("d", False)


# -- properties of lineages -----------------------------------------------------------

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]
message = st.lists(st.sampled_from(WORDS), min_size=2, max_size=4).map(" ".join)
module_text = st.lists(message, min_size=0, max_size=4, unique=True)
revision_files = st.dictionaries(
    st.sampled_from(["p/a.py", "p/b.py", "p/c.py"]), module_text, max_size=3
)


def _source(messages: list[str]) -> str:
    body = "".join(
        f"    if x == {i}:\n        raise ValueError('{m} {{x}}'.format(x=x))\n"
        for i, m in enumerate(messages)
    )
    return "def f(x):\n" + (body or "    pass\n")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(revision_files, min_size=1, max_size=4))
def test_every_message_belongs_to_one_lineage(revisions: list[dict[str, list[str]]]) -> None:
    snaps = [
        _snap(f"v{i}", {path: _source(msgs) for path, msgs in files.items()}, day=i + 1)
        for i, files in enumerate(revisions)
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    history = result.history
    ids = [e.record.id for e in result.envelopes]
    assert len(ids) == len(set(ids)) == len(history)
    for index, files in enumerate(revisions):
        revision = snaps[index].revision
        present = Counter((path, f"{m} {{x}}") for path, msgs in files.items() for m in msgs)
        seen: Counter[tuple[str, str]] = Counter()
        for record in result.records:
            lin = history.lineage(record.id)
            assert lin is not None
            for site in lin.sites:
                if site.revision == revision:
                    seen[(site.file_path, record.error_message)] += 1
        assert seen == present  # each message of each revision: exactly one lineage
    order = {r.sha: i for i, r in enumerate(history.revisions)}
    for lin in history:
        positions = [order[s.revision.sha] for s in lin.sites]
        assert positions == sorted(set(positions))  # oldest first, one site per revision
        record = next(r for r in result.records if r.id == lin.record_id)
        assert (record.file_path, record.line_number) == (lin.current.file_path, lin.current.line)
        assert record.analyzed_sha == lin.last.sha
        messages = {r.id: r.error_message for r in result.records}
        if lin.successor is not None:
            # Carried on at the next revision: reworded into a new lineage, or the
            # same text raised at a site that remained.
            after = history.lineage(lin.successor)
            assert after is not None
            assert order[lin.last.sha] + 1 in {order[s.revision.sha] for s in after.sites}
            if after.predecessor == lin.record_id or (
                messages[after.record_id] != messages[lin.record_id]
            ):
                assert order[after.first.sha] == order[lin.last.sha] + 1
        elif lin.status != "current":
            # Nothing lost: an ended message whose text is raised at the next revision
            # is linked to it.
            following = snaps[order[lin.last.sha] + 1].revision
            assert not [
                other
                for other in history
                if messages[other.record_id] == messages[lin.record_id]
                and any(s.revision == following for s in other.sites)
            ]
        if lin.predecessor is not None:
            before = history.lineage(lin.predecessor)
            assert before is not None and before.successor == lin.record_id
        if lin.status == "current":
            assert lin.last == history.revisions[-1]


@given(
    st.lists(st.tuples(st.sampled_from(["a.py", "b.py"]), message), max_size=6),
    st.lists(st.tuples(st.sampled_from(["a.py", "b.py"]), message), max_size=6),
)
def test_pairs_are_one_to_one(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> None:
    olds = [Msg(str(i), f, i + 1, "ValueError", t) for i, (f, t) in enumerate(old)]
    news = [Msg(f"n{i}", f, i + 1, "ValueError", t) for i, (f, t) in enumerate(new)]
    pairs = pair_messages(olds, news)
    assert len({i for i, _, _ in pairs}) == len({j for _, j, _ in pairs}) == len(pairs)
    for i, j, kind in pairs:
        if kind in ("same", "moved"):
            assert olds[i].template == news[j].template
    # A template present in both is never left unpaired on both sides.
    left_old = Counter(olds[i].template for i in range(len(olds)) if i not in {p[0] for p in pairs})
    left_new = Counter(news[j].template for j in range(len(news)) if j not in {p[1] for p in pairs})
    assert not set(left_old) & set(left_new)


def test_stats_and_json(bare: tuple[Path, list[str]], tmp_path: Path) -> None:
    stats = tmp_path / "s.json"
    out = tmp_path / "o.jsonl"
    args = ["history", str(bare[0]), "--repo", REPO, "--since", "2025-01-01", "--every", "90d"]
    assert main([*args, "--under", "src", "-o", str(out), "--stats", str(stats)]) == 0
    doc = json.loads(stats.read_text())
    assert [r["sha"] for r in doc["revisions"]] == bare[1]
    assert main([*args[:-1], "soon", "-o", str(out)]) == 2


def test_sibling_rewording_keeps_its_opening() -> None:
    """A moved check whose advice was rewritten is found by its opening, not by a decoy."""
    old_text = (
        "Cache v2 is not enabled for {model!r}; enabled models are {sorted(models)}. "
        "Other models may need a flush after writes. Use --cache v1."
    )
    new_text = (
        "Cache v2 is not enabled for {model!r}. The package must register its model "
        "with register_cache_model, because its flush order must be checked first."
    )
    decoy = "Prefetch is not enabled for models {models}. Enabled models: {sorted(models)}."
    old = [
        Msg("a", "pkg/args.py", 10, "ValueError", "cache size {n} is too small"),
        Msg("b", "pkg/args.py", 20, "ValueError", "unknown cache mode {mode!r}"),
        Msg("c", "pkg/args.py", 30, "ValueError", old_text),
    ]
    new = [
        Msg("d", "pkg/hooks/cache.py", 5, "ValueError", decoy),
        Msg("e", "pkg/hooks/cache.py", 15, "ValueError", "cache size {n} is too small"),
        Msg("f", "pkg/hooks/cache.py", 25, "ValueError", "unknown cache mode {mode!r}"),
        Msg("g", "pkg/hooks/cache.py", 35, "ValueError", new_text),
    ]
    assert similarity(old_text, new_text) < CHANGE_THRESHOLD
    pairs = {old[i].id: (new[j].id, kind) for i, j, kind in pair_messages(old, new)}
    assert pairs == {"a": ("e", "moved"), "b": ("f", "moved"), "c": ("g", "reworded")}
    # Without siblings that moved there, the new file is not searched.
    alone = pair_messages(old[2:], new)
    assert alone == []


_ALONE_WORDS = st.sampled_from(["free", "memory", "on", "device", "rank", "cache", "tokens"])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(_ALONE_WORDS, min_size=4, max_size=9), min_size=1, max_size=6),
    st.lists(st.lists(_ALONE_WORDS, min_size=4, max_size=9), min_size=1, max_size=6),
    st.sampled_from(["ValueError", "RuntimeError"]),
)
def test_messages_moved_alone_pair_one_to_one_with_the_same_opening(
    olds: list[list[str]], news: list[list[str]], cls: str
) -> None:
    old = [Msg(f"o{i}", f"a/m{i}.py", i, "ValueError", " ".join(w)) for i, w in enumerate(olds)]
    new = [Msg(f"n{j}", f"b/n{j}.py", j, cls, " ".join(w)) for j, w in enumerate(news)]
    pairs = follow_alone(old, new, [])
    assert len({i for i, _ in pairs}) == len({j for _, j in pairs}) == len(pairs)
    for i, j in pairs:
        assert cls == "ValueError"
        assert old[i].template.split()[:4] == new[j].template.split()[:4]
        assert similarity(old[i].template, new[j].template) >= 0.7


def test_a_message_moved_alone_and_reworded_keeps_its_lineage() -> None:
    old = [
        Msg(
            "a",
            "vllm/worker/gpu_worker.py",
            181,
            "ValueError",
            "Free memory on device ({f}/{t} GiB) on startup is less than desired",
        )
    ]
    new = [
        Msg(
            "b",
            "vllm/v1/worker/utils.py",
            762,
            "ValueError",
            "Free memory on device {d} ({f}/{t} GiB) on startup is less than desired",
        ),
        Msg("c", "vllm/v1/worker/utils.py", 790, "ValueError", "Free memory on device is unknown"),
    ]
    assert pair_messages(old, new) == [(0, 0, "reworded")]


def test_curated_records_survive_history(bare: tuple[Path, list[str]], tmp_path: Path) -> None:
    """--update: curated records replace their lineage's draft, keep their id and text."""
    first = history_of_bare(bare)
    curated_path = tmp_path / "curated.jsonl"
    curated: list[RecordEnvelope] = []
    for env in first.envelopes:
        if env.record.error_message.startswith(("unknown backend", "mode x")):
            record = env.record.model_copy(
                update={
                    "id": "c" * 15 + str(len(curated)),
                    "documentation": "curated text",
                    "tags": ("reviewed",),
                }
            )
            curated.append(env.model_copy(update={"record": record}))
    lost = first.envelopes[0].record.model_copy(
        update={"id": "d" * 16, "error_message": "zzz {q}", "message_pattern": "zzz (.+?)"}
    )
    curated.append(first.envelopes[0].model_copy(update={"record": lost}))
    curated_path.write_text(
        "".join(
            RecordEnvelope.model_validate(e.model_dump()).model_dump_json(by_alias=True) + "\n"
            for e in curated
        )
    )
    out = tmp_path / "h.jsonl"
    args = ["history", str(bare[0]), "--repo", REPO, "--rev", bare[1][0], "--rev", "main"]
    assert main([*args, "--under", "src", "--update", str(curated_path), "-o", str(out)]) == 0
    catalog = Catalog.from_path(out)
    assert len(catalog) == 6  # five lineages (three curated) and the curated one matching none
    history = catalog.history
    assert history is not None
    kept = [r for r in catalog if r.documentation == "curated text"]
    assert sorted(r.id for r in kept) == ["c" * 15 + str(i) for i in range(3)]
    assert "d" * 16 in catalog
    for record in kept:
        lineage = history.lineage(record.id)
        assert lineage is not None and lineage.current.line == record.line_number
    old_backend = next(r for r in kept if r.error_message.endswith("choose a or b"))
    successor = history.lineage(old_backend.id).successor  # type: ignore[union-attr]
    assert successor is not None and catalog[successor].error_message.endswith("a, b or c")
    assert history.lineage("d" * 16) is None


def test_unread_blob_is_reported_not_dropped() -> None:
    snap = _snap("v1", {"p/a.py": "def f():\n    raise ValueError('alpha bravo')\n"})
    files = [*snap.files, ("p/b.py", "missing")]
    lossy = Snapshot(
        snap.revision, files, lambda keys: snap.read([k for k in keys if k != "missing"])
    )
    result = build_history([lossy], repo=REPO, analyzed_at=WHEN)
    assert result.revisions[0].parse_errors == (("p/b.py", "blob missing was not read"),)
    assert result.revisions[0].records == 1


segment = st.sampled_from(["a", "b", "c", "not-id", "src"])


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(segment, min_size=0, max_size=3), st.sampled_from(["m.py", "__init__.py"])
        ),
        min_size=1,
        max_size=8,
    )
)
def test_module_names_agree_with_the_folder_miner(entries: list[tuple[list[str], str]]) -> None:
    """Names from a tree listing are the names ``errcat mine`` gives the same files on disk."""
    import tempfile

    from errcat.mine.files import _module_name

    # Under a top folder: a repo-root __init__.py has no folder name to be named after.
    paths = sorted({"/".join(["top", *dirs, name]) for dirs, name in entries})
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        for path in paths:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text("")
        names = module_names(paths)
        for path in paths:
            assert names[path] == _module_name(root / path), path


def test_sdist_paths_drop_the_top_folder(tmp_path: Path) -> None:
    import tarfile

    source = tmp_path / "pkg-1.0"
    (source / "pkg").mkdir(parents=True)
    (source / "pkg" / "__init__.py").write_text("")
    (source / "pkg" / "args.py").write_text(textwrap.dedent(ARGS_V1))
    (source / "tests").mkdir()
    (source / "tests" / "test_x.py").write_text("assert False, 'a test message'\n")
    archive = tmp_path / "pkg-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        tf.add(source, arcname="pkg-1.0")
    snap = dist_snapshot("1.0", archive, path_prefix="python")
    assert [p for p, _ in snap.files] == ["python/pkg/__init__.py", "python/pkg/args.py"]
    result = build_history([snap], repo=REPO, analyzed_at=WHEN)
    assert {r.file_path for r in result.records} == {"python/pkg/args.py"}
    assert result.history.revisions[0].label == "1.0"
    with pytest.raises(CatalogSourceError, match="Not a distribution"):
        dist_snapshot("x", source / "pkg" / "args.py")


def test_workers_give_the_same_history(bare: tuple[Path, list[str]], tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    args = ["history", str(bare[0]), "--repo", REPO, "--rev", "main~2", "--rev", "main"]
    args += ["--analyzed-at", "2026-01-02T00:00:00Z"]
    assert main([*args, "-o", str(one)]) == 0
    assert main([*args, "-o", str(two), "--jobs", "2"]) == 0
    assert one.read_text() == two.read_text()
    assert sidecar_path(one).read_text() == sidecar_path(two).read_text()
    assert main([*args, "-o", str(two), "--jobs", "0"]) == 2


def test_a_message_back_in_the_file_it_left_gets_its_own_id() -> None:
    src = "def f(x):\n    raise ValueError('alpha bravo {}'.format(x))\n"
    snaps = [
        _snap("v1", {"p/a.py": src}, day=1),
        _snap("v2", {"p/a.py": "", "p/b.py": src}, day=2),
        _snap("v3", {"p/a.py": src, "p/b.py": src}, day=3),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    ids = [r.id for r in result.records]
    assert len(ids) == len(set(ids)) == 2
    moved, back = sorted(result.history, key=lambda lin: lin.first.label)
    assert [s.file_path for s in moved.sites] == ["p/a.py", "p/b.py", "p/b.py"]
    assert [s.file_path for s in back.sites] == ["p/a.py"] and back.first.label == "v3"


def test_compressed_sidecar_beside_compressed_catalog_is_read_lazily(
    bare: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """A ``NAME.jsonl.gz`` catalog finds ``NAME.history.json.gz``; a folder finds its sidecars;
    a damaged sidecar is reported when first needed and answers go on without history."""
    import gzip
    import logging

    from errcat.history import find_sidecar, history_of, is_sidecar

    out = tmp_path / "plain" / "cat.jsonl"
    out.parent.mkdir()
    code = main(
        [
            *("history", str(bare[0]), "--repo", REPO, "--rev", bare[1][0], "--rev", "main"),
            *("--under", "src", "-o", str(out)),
        ]
    )
    assert code == 0
    folder = tmp_path / "data" / "records"
    folder.mkdir(parents=True)
    (folder / "o__r.jsonl.gz").write_bytes(gzip.compress(out.read_bytes()))
    (folder / "o__r.history.json.gz").write_bytes(gzip.compress(sidecar_path(out).read_bytes()))
    assert find_sidecar(folder / "o__r.jsonl.gz") == folder / "o__r.history.json.gz"
    assert is_sidecar("o__r.history.json.gz") and not is_sidecar("o__r.jsonl.gz")
    expected = History.load(sidecar_path(out))
    for source in (folder / "o__r.jsonl.gz", folder.parent):
        catalog = Catalog.from_path(source)
        assert len(catalog) == len(Catalog.from_path(out))  # the sidecar is not read as records
        history = catalog.history
        assert history is not None
        assert [lin.record_id for lin in history] == [lin.record_id for lin in expected]
    (folder / "o__r.history.json.gz").write_bytes(b"not gzip")
    catalog = Catalog.from_path(folder.parent)
    logger = logging.getLogger("errcat")
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger.addHandler(handler)
    try:
        assert catalog.history is None
    finally:
        logger.removeHandler(handler)
    assert any("history skipped" in m and "o__r.history.json.gz" in m for m in seen)
    assert history_of(None) is None


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 2**32),
            st.lists(st.tuples(st.integers(0, 2), st.integers(1, 900)), min_size=1, max_size=3),
            st.booleans(),
        ),
        min_size=1,
        max_size=12,
        unique_by=lambda t: t[0],
    ),
    st.integers(0, 2**32),
)
def test_a_loaded_sidecar_reads_each_lineage_on_demand_as_the_whole_file_would(
    tmp_path: Path, items: list[tuple[int, list[tuple[int, int]], bool]], missing: int
) -> None:
    """History.load reads one lineage per lookup; answers equal a full parse, merged too."""
    from errcat.history import Lineage, Revision, Site

    revs = [
        Revision(f"v{n}", f"{n}" * 40, datetime(2025, n + 1, 1, tzinfo=timezone.utc))
        for n in range(3)
    ]
    ids = [f"{k:016x}" for k, _, _ in items]
    lineages = [
        Lineage(
            rid,
            tuple(Site(revs[r], f"pkg/m{r}.py" if moved else "pkg/a.py", line) for r, line in at),
            successor=ids[i + 1] if moved and i + 1 < len(ids) else None,
        )
        for i, (rid, (_, at, moved)) in enumerate(zip(ids, items, strict=True))
    ]
    eager = History("o/r", revs, lineages)
    path = tmp_path / "h.history.json"
    eager.dump(path)
    lazy = History.load(path)
    assert type(lazy._lineages).__name__ == "_LazyLineages"  # nothing parsed yet beyond the head
    for rid in [*ids, f"{missing:016x}"]:
        assert lazy.lineage(rid) == eager.lineage(rid)
        assert lazy.current(rid) == eager.current(rid)
    assert [lin.record_id for lin in lazy] == ids and len(lazy) == len(eager)
    other = History("o/s", revs[:1], [Lineage(ids[0], (Site(revs[0], "x.py", 1),))])
    assert lazy.merged(other).lineage(ids[0]) == eager.merged(other).lineage(ids[0])
    assert lazy.merged(other).to_json() == eager.merged(other).to_json()


def test_an_ended_message_names_the_one_that_carries_it_on() -> None:
    # v1: the same text in two workers, and a message in executor.py; v2: worker_a.py
    # is gone, and executor.py's message was reworded into a new file, with no siblings.
    gpu = "def f():\n    raise ValueError('No available memory for the cache blocks.')\n"
    old = (
        "def g(n):\n    if n:\n        raise ValueError("
        "'The number of required GPUs exceeds the total number of available GPUs.')\n"
        "    raise ValueError("
        "'The number of required TPUs exceeds the total number of available TPUs.')\n"
    )
    new = (
        "def g(n, device):\n    raise ValueError("
        "f'The number of required {device}s exceeds the total number of available {device}s.')\n"
    )
    snaps = [
        _snap("v1", {"p/worker_a.py": gpu, "p/v1/kv.py": gpu, "p/executor.py": old}, day=1),
        _snap("v2", {"p/v1/kv.py": gpu, "p/v1/ray.py": new}, day=2),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    by_file = {r.file_path: r for r in result.records if "TPU" not in r.error_message}
    history = result.history
    gone = history.lineage(by_file["p/worker_a.py"].id)
    assert gone is not None and gone.successor == by_file["p/v1/kv.py"].id
    kept = history.lineage(by_file["p/v1/kv.py"].id)
    assert kept is not None and kept.predecessor is None  # it was raised all along
    messages = {r.id: r.error_message for r in result.records}
    assert history.describe(gone.record_id, messages.get) == (
        "raised elsewhere after 2025-01 (7631763): now at p/v1/kv.py:2"
    )
    reworded = history.lineage(by_file["p/executor.py"].id)
    assert reworded is not None and reworded.successor == by_file["p/v1/ray.py"].id
    after = history.lineage(by_file["p/v1/ray.py"].id)
    assert after is not None and after.predecessor == reworded.record_id
    assert history.current(reworded.record_id) == after
    # Its sibling ended too, and names the same message (which has one predecessor).
    (tpu,) = [r for r in result.records if "TPU" in r.error_message]
    sibling = history.lineage(tpu.id)
    assert sibling is not None and sibling.successor == after.record_id
    assert history.describe(tpu.id, messages.get) == (
        "reworded after 2025-01 (7631763): now 'The number of required {device}s exceeds "
        "the total number of available {device}s.' at p/v1/ray.py:2"
    )


def test_a_frame_at_an_older_revisions_raise_line_is_the_raise_site(tmp_path: Path) -> None:
    # Raised at module level: no function to tell the statement by (see the matcher's
    # errcat:in: evidence), only its line.
    body = "if X:\n    raise ValueError(f'backend {X} cannot start on this node')\n"
    later = "X = 1\n" * 20 + body
    snaps = [_snap("v1", {"pkg/args.py": body}, day=1), _snap("v2", {"pkg/args.py": later}, day=2)]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    (record,) = result.records
    assert record.line_number == 22
    assert not any(tag.startswith("errcat:in:") for tag in record.tags)
    out = tmp_path / "cat.jsonl"
    out.write_text("".join(e.model_dump_json(by_alias=True) + "\n" for e in result.envelopes))
    text = (
        'Traceback (most recent call last):\n  File "/venv/pkg/args.py", line 2, in <module>\n'
        "ValueError: backend gpu cannot start on this node\n"
    )
    without = match_all(text, Catalog.from_path(out))[0]
    assert without.summary.id == record.id
    assert "another version?" in " ".join(without.reasons)
    result.history.dump(sidecar_path(out))
    with_history = match_all(text, Catalog.from_path(out))[0]
    assert with_history.summary.id == record.id
    assert any("is where v1" in reason for reason in with_history.reasons)
    assert with_history.confidence > without.confidence
    # A release between two mined revisions: a line or two off still fits.
    nearby = match_all(text.replace("line 2,", "line 4,"), Catalog.from_path(out))[0]
    assert nearby.confidence == with_history.confidence
    # Another line that no revision raised it at stays "another version".
    elsewhere = match_all(text.replace("line 2,", "line 9,"), Catalog.from_path(out))[0]
    assert elsewhere.confidence == without.confidence


def test_a_class_an_older_revision_raised_the_message_as_is_kept(tmp_path: Path) -> None:
    v1 = "def f(n):\n    raise ValueError(f'max_tokens must be at least 1, got {n}.')\n"
    v2 = (
        "class ClientError(Exception):\n    pass\n\n"
        "def f(n):\n    raise ClientError(f'max_tokens must be at least 1, got {n}.')\n"
    )
    snaps = [_snap("v1", {"pkg/params.py": v1}, day=1), _snap("v2", {"pkg/params.py": v2}, day=2)]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    (record,) = result.records
    assert record.error_class.endswith("ClientError")
    assert "errcat:was:ValueError" in record.tags
    out = tmp_path / "cat.jsonl"
    out.write_text("".join(e.model_dump_json(by_alias=True) + "\n" for e in result.envelopes))
    catalog = Catalog.from_path(out)
    old = match_all("ValueError: max_tokens must be at least 1, got -239.", catalog)[0]
    assert any("another version raised" in reason for reason in old.reasons)
    other = match_all("TypeError: max_tokens must be at least 1, got -239.", catalog)[0]
    assert any("differs" in reason for reason in other.reasons)
    assert old.confidence > other.confidence


def test_a_frame_in_the_file_an_older_revision_raised_from_is_the_raise_file(
    tmp_path: Path,
) -> None:
    body = "if X:\n    raise ValueError(f'backend {X} cannot start on this node')\n"
    snaps = [
        _snap("v1", {"pkg/executor/ray.py": body}, day=1),
        _snap("v2", {"pkg/v1/ray_executor.py": body, "pkg/executor/other.py": "X = 1\n"}, day=2),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    (record,) = result.records
    assert record.file_path == "pkg/v1/ray_executor.py"
    out = tmp_path / "cat.jsonl"
    out.write_text("".join(e.model_dump_json(by_alias=True) + "\n" for e in result.envelopes))
    result.history.dump(sidecar_path(out))
    catalog = Catalog.from_path(out)

    def answer(line: int) -> Match:
        text = (
            'Traceback (most recent call last):\n  File "C:\\venv\\pkg\\executor\\ray.py", '
            f"line {line}, in <module>\nValueError: backend gpu cannot start on this node\n"
        )
        return match_all(text, catalog)[0]

    at_line, in_file = answer(2), answer(40)
    assert any("is where v1" in reason for reason in at_line.reasons)
    assert any("where v1 (" in r and "raised this message" in r for r in in_file.reasons)
    assert at_line.confidence >= in_file.confidence


def test_of_identical_answers_the_message_out_longest_answers_where_it_is_now(
    tmp_path: Path,
) -> None:
    # runner.py's message moved to runners/decode.py at v3, its tips reworded;
    # piecewise.py opens its
    # message with the same words. A title cut after the opening fits all three.
    runner = (
        "def capture(e):\n    raise Exception(\n        f'Capture cuda graph failed: {e}. '\n"
        "        'Possible solutions: lower the static memory fraction.'\n    )\n"
    )
    piecewise = (
        "def capture(e):\n    raise Exception(\n        f'Capture cuda graph failed: {e}. '\n"
        "        'Possible solutions: turn off the piecewise graph.'\n    )\n"
    )
    decode = runner.replace("lower the static memory fraction", "lower --mem-fraction-static")
    snaps = [
        _snap("v1", {"pkg/runner.py": runner}, day=1),
        _snap("v2", {"pkg/runner.py": runner, "pkg/piecewise.py": piecewise}, day=2),
        _snap("v3", {"pkg/runners/decode.py": decode, "pkg/piecewise.py": piecewise}, day=3),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    by_file = {r.file_path: r.id for r in result.records}
    assert set(by_file) == {"pkg/runner.py", "pkg/runners/decode.py", "pkg/piecewise.py"}
    out = tmp_path / "cat.jsonl"
    out.write_text("".join(e.model_dump_json(by_alias=True) + "\n" for e in result.envelopes))
    result.history.dump(sidecar_path(out))
    catalog = Catalog.from_path(out)
    title = "[Bug] Exception: Capture cuda graph failed: Could not run 'rmsnorm' with argu"
    found = match_all(title, catalog)
    ids = [m.summary.id for m in found] + [a.id for m in found for a in m.alternatives]
    assert set(ids) == set(by_file.values())
    # What tells them apart was cut off: the text says as much for each.
    assert len({m.confidence for m in found}) == 1
    # runner.py and decode.py are one message raised v1 to v3, piecewise.py's v2 to v3;
    # of the two, the answer is where it is raised now.
    assert found[0].summary.id == by_file["pkg/runners/decode.py"]


def _source_with_asserts(messages: list[str], asserts: list[str]) -> str:
    checks = "".join(f"    assert {name} is not None\n" for name in asserts)
    return _source(messages).replace("def f(x):\n", "def f(x):\n" + checks, 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(revision_files, st.lists(st.sampled_from(WORDS), max_size=3, unique=True)),
        min_size=1,
        max_size=3,
    )
)
def test_each_raise_without_a_message_of_each_revision_belongs_to_one_lineage(
    revisions: list[tuple[dict[str, list[str]], list[str]]],
) -> None:
    snaps = [
        _snap(
            f"v{i}",
            {path: _source_with_asserts(msgs, asserts) for path, msgs in files.items()},
            day=i + 1,
        )
        for i, (files, asserts) in enumerate(revisions)
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    history = result.history
    bare = [r for r in result.records if not r.error_message]
    # Every record has its lineage (the asserts too); the ids are all distinct.
    assert all(history.lineage(r.id) is not None for r in result.records)
    assert len(result.records) == len(history) == len({r.id for r in result.records})
    sites: Counter[tuple[str, str, str]] = Counter()
    for record in bare:
        lineage = history.lineage(record.id)
        assert lineage is not None
        # Anchored where its statement was raised last.
        last = lineage.sites[-1]
        assert (record.analyzed_sha, record.file_path, record.line_number) == (
            last.revision.sha,
            last.file_path,
            last.line,
        )
        sites.update((s.revision.label, s.file_path, record.slug) for s in lineage.sites)
    # Each assert of each file of each revision is a site of exactly one lineage.
    assert sites == Counter(
        (snap.revision.label, path, f"assert-{name}-is-not-none")
        for snap, (files, asserts) in zip(snaps, revisions, strict=True)
        for path in files
        for name in asserts
    )
    # An assert of the newest revision is a record of it, each once.
    newest_files, newest_asserts = revisions[-1]
    assert sorted(
        (r.file_path, r.slug) for r in bare if r.analyzed_sha == snaps[-1].revision.sha
    ) == sorted(
        (path, f"assert-{name}-is-not-none") for path in newest_files for name in newest_asserts
    )
    assert result.revisions[-1].bare == len(newest_files) * len(newest_asserts)


@pytest.mark.parametrize(
    ("template", "linked"),
    [
        ("The model {name} does not exist in the model registry", True),
        ("bad value {name}", False),  # too little text of its own to be the same check
    ],
)
def test_a_long_message_that_moves_under_another_class_carries_its_lineage_on(
    template: str, linked: bool
) -> None:
    # Both raise it at v0 (two lineages); at v1 only the project's own class does.
    old = f"def f(name):\n    raise ValueError(f'{template}')\n"
    new = (
        "class NotFound(ValueError):\n    pass\n\n"
        f"def g(name):\n    raise NotFound(f'{template}')\n"
    )
    snaps = [
        _snap("v0", {"p/a.py": old, "p/b.py": new}, day=1),
        _snap("v1", {"p/b.py": new}, day=2),
    ]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    [before] = [r for r in result.records if r.file_path == "p/a.py"]
    [after] = [r for r in result.records if r.file_path == "p/b.py"]
    assert (before.error_class, after.error_class) == ("ValueError", "b.NotFound")
    lineage = result.history.lineage(before.id)
    assert lineage is not None
    assert (lineage.successor == after.id) is linked


def test_a_curated_record_keeps_the_classes_its_message_was_raised_as() -> None:
    """Curation replaces the advice, not the code's facts: ``errcat:was:ValueError`` stays.

    vllm moved ``max_tokens must be at least 1, got {n}`` from ``ValueError`` to its own
    ``VLLMValidationError``; a paste from an older release says ``ValueError``.
    """
    old = (
        "def check(n):\n    if n < 1:\n        raise ValueError(f'n must be at least 1, got {n}')\n"
    )
    new = old.replace("ValueError", "ValidationError").replace(
        "def check", "class ValidationError(Exception):\n    pass\n\n\ndef check"
    )
    result = build_history(
        [
            _snap("v1", {"src/pkg/__init__.py": "", "src/pkg/params.py": old}, day=1),
            _snap("v2", {"src/pkg/__init__.py": "", "src/pkg/params.py": new}, day=2),
        ],
        repo=REPO,
        analyzed_at=WHEN,
    )
    (mined,) = [e for e in result.envelopes if "at least 1" in e.record.error_message]
    assert "errcat:was:ValueError" in mined.record.tags
    curated_text = {"documentation": "curated", "tags": ("reviewed",)}
    curated = RecordEnvelope.model_validate(
        mined.model_copy(
            update={"record": mined.record.model_copy(update=curated_text)}
        ).model_dump(mode="json")
    )
    (kept,) = [e.record for e in reanchor([curated], result.envelopes).envelopes]
    assert kept.documentation == "curated" and "reviewed" in kept.tags
    assert "errcat:was:ValueError" in kept.tags and "errcat:in:check" in kept.tags
