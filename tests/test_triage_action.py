"""The GitHub Action (``action.yml``): its script posts one comment, then edits it, never a second.

The step's shell script is taken from ``action.yml`` and run with bash as the
runner would run it, with ``errcat`` from this environment and a stand-in
``gh`` that keeps the issue's comments in a JSON file (it answers the few
``gh api`` calls the script makes, as GitHub's REST API would).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
ERROR = (
    "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
    "Select another --speculative-moe-a2a-backend."
)

FAKE_GH = textwrap.dedent(
    '''
    """A stand-in for `gh api`: the issue's comments live in $FAKE_GH_STATE."""
    import json, os, sys

    state_path = os.environ["FAKE_GH_STATE"]
    state = json.load(open(state_path))
    args = sys.argv[1:]
    state["calls"].append(args)
    assert args[0] == "api", args
    method, jq, fields, path = "GET", None, {}, None
    i = 1
    while i < len(args):
        a = args[i]
        if a == "--method":
            method = args[i + 1]; i += 2; continue
        if a == "--jq":
            jq = args[i + 1]; i += 2; continue
        if a == "-F":
            key, value = args[i + 1].split("=", 1)
            fields[key] = open(value[1:]).read() if value.startswith("@") else value
            i += 2; continue
        if a == "--paginate":
            i += 1; continue
        path = a; i += 1
    parts = path.split("/")
    if method == "GET" and parts[-1] == "comments":
        result = state["comments"]
    elif method == "GET" and parts[-2] == "comments":
        result = next(c for c in state["comments"] if str(c["id"]) == parts[-1])
    elif method == "GET" and parts[-2] == "issues":
        result = state["issue"]
    elif method == "POST":
        result = {"id": 1000 + len(state["comments"]), "body": fields["body"]}
        state["comments"].append(result)
    elif method == "PATCH":
        result = next(c for c in state["comments"] if str(c["id"]) == parts[-1])
        result["body"] = fields["body"]
    else:
        raise SystemExit(f"unexpected call {args}")
    json.dump(state, open(state_path, "w"))
    if jq is None:
        print(json.dumps(result))
    elif jq.startswith(".[] | select"):
        marker = jq.split('startswith("', 1)[1].split('")', 1)[0]
        for c in result:
            if c["body"].startswith(marker):
                print(c["id"])
    else:
        print(result[jq[1:]])
    '''
)


def _script() -> tuple[str, dict[str, str]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "triage")
    return step["run"], step["env"]


@pytest.fixture
def runner(tmp_path: Path) -> Any:
    if shutil.which("bash") is None:  # pragma: no cover
        pytest.skip("needs bash")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    gh.write_text(f"#!{sys.executable}\n{FAKE_GH}")
    gh.chmod(0o755)
    errcat = bin_dir / "errcat"
    errcat.write_text(
        f"#!{sys.executable}\nimport sys\nfrom errcat.cli import main\nsys.exit(main())\n"
    )
    errcat.chmod(0o755)
    python = bin_dir / "python"
    python.symlink_to(sys.executable)
    state = tmp_path / "gh-state.json"
    script, env_spec = _script()
    assert set(env_spec) == {"GH_TOKEN", "ERRCAT_CATALOG", "ERRCAT_ISSUE"}

    def run(issue: dict[str, Any], *, comments: list[dict[str, Any]] | None = None) -> Any:
        if comments is not None or not state.exists():
            state.write_text(json.dumps({"comments": comments or [], "calls": [], "issue": issue}))
        event = tmp_path / "event.json"
        event.write_text(json.dumps({"action": "edited", "issue": issue}))
        output = tmp_path / "output"
        output.write_text("")
        env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "FAKE_GH_STATE": str(state),
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_REPOSITORY": "octo/serve",
            "GITHUB_OUTPUT": str(output),
            "RUNNER_TEMP": str(tmp_path / "runner"),
            "GH_TOKEN": "not-a-token",
            "ERRCAT_CATALOG": "",
            "ERRCAT_ISSUE": "",
        }
        done = subprocess.run(
            ["bash", "-c", script],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr + done.stdout
        outputs = dict(
            line.split("=", 1) for line in output.read_text().splitlines() if "=" in line
        )
        return json.loads(state.read_text()), outputs, done.stdout

    return run


def test_first_run_posts_a_later_one_edits_the_same_comment(runner: Any) -> None:
    body = f"```\n{ERROR}\n```"
    issue = {"number": 12, "title": "draft backend", "body": body}
    state, outputs, said = runner(issue, comments=[{"id": 7, "body": "thanks for the report"}])
    comments = state["comments"]
    assert len(comments) == 2 and comments[1]["body"].startswith("<!-- errcat-triage -->")
    assert "Set --speculative-moe-a2a-backend deepep" in comments[1]["body"]
    assert outputs == {"errors": "1", "answered": "1", "comment-id": str(comments[1]["id"])}
    assert "posted" in said

    # The same issue again: nothing new, nothing edited.
    state, outputs, said = runner(issue)
    assert len(state["comments"]) == 2 and "up to date" in said
    assert not any("PATCH" in call for call in state["calls"])

    # The issue is edited: the same comment is edited.
    edited = {**issue, "body": body + "\n\nAlso `KeyError: 'draft'` later."}
    state, outputs, said = runner(edited)
    assert len(state["comments"]) == 2 and "updated" in said
    assert "KeyError: 'draft'" in state["comments"][1]["body"]
    assert outputs["errors"] == "2" and outputs["comment-id"] == str(state["comments"][1]["id"])


def test_an_issue_without_errors_gets_no_comment(runner: Any) -> None:
    issue = {"number": 3, "title": "How to install?", "body": "Hi!"}
    state, outputs, said = runner(issue, comments=[])
    assert state["comments"] == [] and outputs["comment-id"] == "" and "nothing to post" in said
