"""The README's commands are the ones CI runs and they do what the README says."""

from __future__ import annotations

import io
import json
import re

from conftest import DATA_DIR, ROOT, SEEDS_FILE
from errcat.cli import main
from errcat.loaders import read_manifest

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _sh_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README, flags=re.DOTALL)


def test_ci_runs_the_readme_test_command() -> None:
    marker = README.index("<!-- test-command -->")
    command = re.search(r"```sh\n(.+?)\n```", README[marker:])
    assert command is not None
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command.group(1) in ci.splitlines()


def test_setup_command_answers_a_real_sglang_error_from_the_bundled_knowledge() -> None:
    first = _sh_blocks()[0]
    text = re.search(r'errcat match "([^"]+)"', first)
    assert text is not None
    out = io.StringIO()
    assert main(["match", "--json", text.group(1)], stdout=out, stderr=io.StringIO()) == 0
    answer = json.loads(out.getvalue())
    assert answer["repo"] == "sgl-project/sglang" and answer["exact"]
    assert answer["id"] in read_manifest(DATA_DIR)["ids"]  # bundled, not from elsewhere
    lines = SEEDS_FILE.read_text(encoding="utf-8").splitlines()
    curated = {json.loads(line)["record"]["id"] for line in lines}
    assert answer["id"] not in curated  # the miner's knowledge, not a hand-written seed
    advice = answer["advice"]
    assert advice["generated"] and advice["documentation"] and advice["solutions"]


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
