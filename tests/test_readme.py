"""The README's commands are the ones CI runs and they do what the README says."""

from __future__ import annotations

import io
import re

from conftest import ROOT
from errcat.cli import main

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _sh_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README, flags=re.DOTALL)


def test_ci_runs_the_readme_test_command() -> None:
    marker = README.index("<!-- test-command -->")
    command = re.search(r"```sh\n(.+?)\n```", README[marker:])
    assert command is not None
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command.group(1) in ci.splitlines()


def test_setup_command_matches_a_real_seed_error() -> None:
    first = _sh_blocks()[0]
    text = re.search(r'errcat match "([^"]+)"', first)
    assert text is not None
    out = io.StringIO()
    assert main(["match", text.group(1)], stdout=out, stderr=io.StringIO()) == 0
    shown = out.getvalue()
    assert "python/sglang/srt/server_args.py:7632" in shown
    assert "Set --speculative-moe-a2a-backend deepep" in shown
    assert "Example fix:" in shown


def test_sample_output_is_what_the_command_prints() -> None:
    marker = README.index("<!-- sample-output -->")
    block = re.search(r"```\n(.+?)\n```", README[marker:], flags=re.DOTALL)
    assert block is not None
    command, *shown = block.group(1).splitlines()
    text = re.search(r'errcat match "([^"]+)"', command)
    assert text is not None
    out = io.StringIO()
    assert main(["match", text.group(1)], stdout=out, stderr=io.StringIO()) == 0
    printed = out.getvalue().splitlines()
    for line in shown:
        if line != "...":
            assert line in printed, line
