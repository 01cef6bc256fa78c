from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errcat.evidence import FrameView, same_file_depth
from errcat.extract import Frame

names = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
module_paths = st.lists(names, min_size=1, max_size=4).map(
    lambda parts: [*parts[:-1], parts[-1] + ".py"]
)
repo_prefixes = st.sampled_from([[], ["Lib"], ["src"], ["python"], ["lib"]])
install_roots = st.sampled_from(
    [
        ["usr", "lib", "python3.12"],
        ["opt", "venv", "lib", "python3.11", "site-packages"],
        ["usr", "local", "lib", "python3.10", "dist-packages"],
        ["C:", "Python311", "Lib", "site-packages"],
        ["root", ".pyenv", "versions", "3.13.1", "lib", "python3.13"],
    ]
)


@given(module_paths, repo_prefixes, install_roots)
def test_an_installed_file_meets_its_repo_path_at_the_import_root(
    module: list[str], prefix: list[str], root: list[str]
) -> None:
    frame = "/" + "/".join(root + module)
    record = "/".join(prefix + module)
    assert same_file_depth(frame, record) >= len(module)


@given(module_paths, module_paths, install_roots)
def test_another_module_with_the_same_file_name_does_not(
    installed: list[str], recorded: list[str], root: list[str]
) -> None:
    recorded = [*recorded[:-1], installed[-1]]  # same file name, maybe another package
    frame = "/" + "/".join(root + installed)
    depth = same_file_depth(frame, "/".join(recorded))
    common = 0
    while common < min(len(installed), len(recorded)) and (
        installed[-1 - common] == recorded[-1 - common]
    ):
        common += 1
    if common == len(recorded):
        assert depth == common
    elif common < len(installed):
        assert depth == 0  # the installed module's package differs from the record's
    else:
        rooted = recorded[-common - 1] in {"lib", "src", "python"}
        assert depth == (common if common >= 2 or rooted else 0)


def test_windows_and_checkout_paths() -> None:
    assert same_file_depth("C:\\Python311\\Lib\\argparse.py", "Lib/argparse.py") == 2
    # A source checkout: the whole repo path is inside the frame's path.
    checkout = "/home/me/sglang/python/sglang/srt/server_args.py"
    assert same_file_depth(checkout, "python/sglang/srt/server_args.py") == 4
    # Unknown root, one shared component under a non-root directory: not enough.
    assert same_file_depth("/home/me/proj/utils.py", "src/other/utils.py") == 0
    assert same_file_depth("/srv/app/__init__.py", "pkg/__init__.py") == 0


def test_frame_view_evidence_kinds() -> None:
    frames = [
        Frame("/usr/lib/python3.12/argparse.py", 1880, "parse_known_args"),
        Frame("/usr/lib/python3.12/argparse.py", 2570, "error"),
    ]
    view = FrameView(frames)
    site = view.evidence("Lib/argparse.py", 2571, "python/cpython")
    assert (site.kind, site.distance, site.depth) == ("site", 1, 1)
    # The innermost frame raised in the record's file: that says more than a nearer
    # frame that only passes through it.
    in_file = view.evidence("Lib/argparse.py", 1500, "python/cpython")
    assert in_file.kind == "raise_file" and in_file.distance == 1070
    passing = FrameView([*frames[:1], Frame("/usr/lib/python3.12/gettext.py", 9, "f")])
    in_file = passing.evidence("Lib/argparse.py", 1500, "python/cpython")
    assert in_file.kind == "file" and in_file.distance == 380
    assert view.evidence("Lib/json/decoder.py", 10, "python/cpython").kind == "elsewhere"
    assert FrameView([]).evidence("Lib/argparse.py", 1, "python/cpython").kind == "none"
