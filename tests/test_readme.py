"""The README's commands are the ones CI runs and they do what the README says."""

from __future__ import annotations

import io
import json
import re

import pytest

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
    advice = answer["advice"]
    assert advice["documentation"] and advice["solutions"]
    # the advice names what the user changes: a flag, not a code expression
    assert "--" in advice["solutions"][1] and "`self." not in " ".join(advice["solutions"])


@pytest.mark.parametrize("marker", ["<!-- sample-output -->", "<!-- generated-output -->"])
def test_sample_output_is_what_the_command_prints(marker: str) -> None:
    block = re.search(r"```\n(.+?)\n```", README[README.index(marker) :], flags=re.DOTALL)
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


def test_generated_sample_is_mined_knowledge() -> None:
    block = README[README.index("<!-- generated-output -->") :]
    text = re.search(r'errcat match "([^"]+)"', block)
    assert text is not None
    out = io.StringIO()
    assert main(["match", "--json", text.group(1)], stdout=out, stderr=io.StringIO()) == 0
    answer = json.loads(out.getvalue())
    lines = SEEDS_FILE.read_text(encoding="utf-8").splitlines()
    assert answer["id"] not in {json.loads(line)["record"]["id"] for line in lines}
    assert answer["advice"]["generated"] and answer["advice"]["solutions"]
