"""A history over several folders of one repository, and a newest revision of several wheels.

sglang's repository holds two Python packages: ``python/sglang`` and the kernel
package ``sgl-kernel/python/sgl_kernel``, released as its own wheel that
sglang's wheel pins. The history mines both folders (``under`` takes several),
and the newest revision joins the pinned wheel's files to the engine's, so the
kernel's messages stay current instead of all turning "removed".
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import ROOT
from errcat.catalog import Catalog
from errcat.cli import main
from errcat.mine.dists import dist_snapshot, join_snapshots
from errcat.mine.git import Commit, GitRepo, git_snapshots, mined_folders
from errcat.mine.history import Snapshot, build_history

BENCH = ROOT / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import build_data  # noqa: E402
import mine_wheels  # noqa: E402

REPO = "example/engine"
WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)

ENGINE = """
def serve(port):
    if port < 0:
        raise ValueError(f"port {port} is out of range")
"""
KERNEL = """
def load(arch):
    if arch < 80:
        raise RuntimeError(f"kernel needs sm80 or newer, got sm{arch}")
"""
KERNEL_TEST = """
def test_load():
    raise AssertionError("a test's message is not mined")
"""


def _git(cwd: Path, *args: str, date: str | None = None) -> str:
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


def _commit(work: Path, files: dict[str, str], date: str) -> str:
    for name, text in files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", date, date=f"{date}T12:00:00+00:00")
    return _git(work, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def two_packages(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, list[str]]:
    """The engine package alone first; then a kernel package beside it (with a test)."""
    work = tmp_path_factory.mktemp("two") / "work"
    work.mkdir()
    _git(work, "init", "-q", "-b", "main")
    shas = [
        _commit(
            work, {"python/engine/__init__.py": "", "python/engine/serve.py": ENGINE}, "2025-01-10"
        ),
        _commit(
            work,
            {
                "kernel/python/kern/__init__.py": "",
                "kernel/python/kern/load.py": KERNEL,
                "kernel/python/kern/tests/test_load.py": KERNEL_TEST,
                "kernel/setup.py": "raise SystemExit('not a package file')\n",
            },
            "2025-04-10",
        ),
    ]
    return GitRepo(work), shas


def _commits(repo: GitRepo, shas: list[str]) -> list[tuple[str, Commit]]:
    return [(f"r{i}", repo.commit(s)) for i, s in enumerate(shas)]


def test_mined_folders_normalise() -> None:
    assert mined_folders(["/python/", "kernel/python", "python"]) == ("python", "kernel/python")
    assert mined_folders("") == () and mined_folders([]) == ()


def test_several_folders_are_mined_side_by_side(two_packages: tuple[GitRepo, list[str]]) -> None:
    repo, shas = two_packages
    snaps = list(git_snapshots(repo, _commits(repo, shas), under=["python", "kernel/python"]))
    # The kernel folder is missing at r0: the revision still has the engine's files.
    assert snaps[0].missing is None
    assert [p for p, _ in snaps[0].files] == ["python/engine/__init__.py", "python/engine/serve.py"]
    # At r1 both folders; the kernel's tests and files outside the folders are left out.
    assert [p for p, _ in snaps[1].files] == [
        "kernel/python/kern/__init__.py",
        "kernel/python/kern/load.py",
        "python/engine/__init__.py",
        "python/engine/serve.py",
    ]


def test_a_revision_with_none_of_the_folders_says_so(
    two_packages: tuple[GitRepo, list[str]],
) -> None:
    repo, shas = two_packages
    (snap,) = git_snapshots(repo, _commits(repo, shas[:1]), under=["kernel/python", "docs"])
    assert snap.files == [] and snap.missing == "kernel/python/, docs/ do not exist here"


def _wheel(path: Path, package: str, files: dict[str, str], requires: list[str]) -> Path:
    """A wheel holding ``files`` of ``package`` (and a METADATA with ``requires``)."""
    name, version = path.name.split("-")[:2]
    with zipfile.ZipFile(path, "w") as zf:
        for rel, text in files.items():
            zf.writestr(f"{package}/{rel}", textwrap.dedent(text))
        meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
        meta += [f"Requires-Dist: {r}" for r in requires]
        zf.writestr(f"{name}-{version}.dist-info/METADATA", "\n".join(meta) + "\n")
    return path


def _history_with_newest(repo: GitRepo, shas: list[str], newest: Snapshot) -> dict[str, str]:
    snaps = [*git_snapshots(repo, _commits(repo, shas), under=["python", "kernel/python"]), newest]
    result = build_history(snaps, repo=REPO, analyzed_at=WHEN)
    out: dict[str, str] = {}
    for record in result.records:
        lineage = result.history.lineage(record.id)
        assert lineage is not None
        out[record.error_message] = lineage.status
    return out


def test_the_pinned_wheel_keeps_the_kernel_s_messages_current(
    two_packages: tuple[GitRepo, list[str]], tmp_path: Path
) -> None:
    repo, shas = two_packages
    engine = _wheel(
        tmp_path / "engine-1.0-py3-none-any.whl",
        "engine",
        {"__init__.py": "", "serve.py": ENGINE},
        ["kern==0.2", "numpy>=1"],
    )
    kernel = _wheel(
        tmp_path / "kern-0.2-py3-none-any.whl",
        "kern",
        {"__init__.py": "", "load.py": KERNEL},
        [],
    )
    alone = build_data.wheel_snapshot("1.0", engine, "python/engine")
    joined = join_snapshots(alone, build_data.wheel_snapshot("0.2", kernel, "kernel/python/kern"))
    kernel_message = "kernel needs sm80 or newer, got sm{arch}"
    assert _history_with_newest(repo, shas, alone)[kernel_message] == "removed"
    statuses = _history_with_newest(repo, shas, joined)
    assert statuses == {"port {port} is out of range": "current", kernel_message: "current"}
    assert build_data.pinned_version(engine, "kern") == "0.2"
    assert build_data.pinned_version(engine, "numpy") is None  # a range is not a pin
    source = build_data.Source.of(
        {
            "repo": REPO,
            "kind": "history",
            "version": "1.0",
            "under": ["python", "kernel/python"],
            "pinnedWheels": [
                {
                    "dist": "kern",
                    "version": "0.3",
                    "package": "kern",
                    "pathPrefix": "kernel/python/kern",
                }
            ],
        }
    )
    assert source.under == ("python", "kernel/python")
    assert source.under_json() == ["python", "kernel/python"]
    with pytest.raises(
        SystemExit, match=r"kern==0\.3, but engine-1\.0-py3-none-any\.whl requires kern==0\.2"
    ):
        build_data.pinned_snapshot(source, engine, source.pinned[0], tmp_path)


def test_a_wheel_whose_name_has_underscores_is_found_in_the_cache(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path / "sglang_kernel-0.4.10-py3-none-any.whl", "sgl_kernel", {}, [])
    assert mine_wheels.download("sglang-kernel", "0.4.10", tmp_path) == wheel


def test_history_cli_takes_several_folders(
    two_packages: tuple[GitRepo, list[str]], tmp_path: Path
) -> None:
    repo, shas = two_packages
    out = tmp_path / "both.jsonl"
    args = ["history", repo.path, "--repo", REPO, "--rev", shas[0], "--rev", shas[1]]
    assert main([*args, "--under", "python", "--under", "kernel/python", "-o", str(out)]) == 0
    paths = sorted(r.file_path for r in Catalog.from_path(out))
    assert paths == ["kernel/python/kern/load.py", "python/engine/serve.py"]


def test_dist_snapshot_of_a_wheel_keeps_other_top_level_packages_out_by_prefix(
    tmp_path: Path,
) -> None:
    wheel = _wheel(tmp_path / "kern-0.2-py3-none-any.whl", "kern", {"load.py": KERNEL}, [])
    with zipfile.ZipFile(wheel, "a") as zf:
        zf.writestr("vendored_kernels/x.py", "raise ValueError('vendored copy')\n")
    assert [p for p, _ in dist_snapshot("0.2", wheel, path_prefix="kernel/python").files] == [
        "kernel/python/kern/load.py",
        "kernel/python/vendored_kernels/x.py",
    ]
    kept = build_data.wheel_snapshot("0.2", wheel, "kernel/python/kern")
    assert [p for p, _ in kept.files] == ["kernel/python/kern/load.py"]
