"""Acceptance: each seed error, pasted in every raw form users paste, finds its record."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from errcat import Catalog, match_all, match_error

ARCHS = ["DeepseekV3ForCausalLM", "DeepseekV4ForCausalLM", "Qwen3MoeForCausalLM"]
architecture = "LlamaForCausalLM"
# The messages exactly as the raising code renders them (f-strings evaluated here).
SEEDS: dict[str, tuple[str, dict[str, str]]] = {
    "e06cd5f724ab16c0": (
        f"DeepEP v2 MoE is not validated for {architecture!r}; supported "
        f"architectures are {sorted(ARCHS)}. "
        "Other model workflows may require an all-reduce after A2A "
        "combine. Use --moe-a2a-backend deepep.",
        {"architecture": repr(architecture), "sorted(validated_architectures)": str(sorted(ARCHS))},
    ),
    "3fe9ad44079a5344": (
        "DeepEP v2 MoE is not validated as a speculative draft backend. "
        "Select another --speculative-moe-a2a-backend.",
        {},
    ),
    "70e072f5fc32f001": (
        "flashinfer_cutedsl FP4 MoE only supports DeepEP "
        "low_latency dispatch (masked layout). DeepEP normal "
        "(prefill) dispatch has no CuteDSL FP4 handler. Pass "
        "--deepep-mode low_latency or auto.",
        {},
    ),
}
LINES = {"e06cd5f724ab16c0": 7614, "3fe9ad44079a5344": 7632, "70e072f5fc32f001": 7677}
SITE = "/usr/local/lib/python3.11/dist-packages/sglang/srt/server_args.py"


def traceback_text(message: str, line: int, cls: str = "ValueError") -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.11/dist-packages/sglang/launch_server.py", line 11, '
        "in <module>\n"
        "    server_args = prepare_server_args(sys.argv[1:])\n"
        "                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        f'  File "{SITE}", line 4410, in __post_init__\n'
        "    self._handle_a2a_moe()\n"
        f'  File "{SITE}", line {line}, in _validate\n'
        "    raise ValueError(\n"
        f"{cls}: {message}\n"
    )


def prefix_lines(text: str, prefix: str) -> str:
    return "".join(prefix + line + "\n" for line in text.splitlines())


def wrap(message: str, width: int = 60, indent: str = "") -> str:
    out, line = [], ""
    for word in message.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(out)


RAW_FORMS: dict[str, Callable[[str, int], str]] = {
    "bare line": lambda m, n: f"ValueError: {m}",
    "message only": lambda m, n: m,
    "traceback": traceback_text,
    "cause of a wrapper": lambda m, n: (
        traceback_text(m, n)
        + "\nThe above exception was the direct cause of the following exception:\n\n"
        + "Traceback (most recent call last):\n"
        + '  File "/srv/app.py", line 3, in <module>\n    main()\n'
        + "RuntimeError: Server failed to start\n"
    ),
    "raised while handling": lambda m, n: (
        "Traceback (most recent call last):\n"
        + '  File "/srv/app.py", line 3, in load\n    cfg = read()\n'
        + "KeyError: 'moe_a2a_backend'\n"
        + "\nDuring handling of the above exception, another exception occurred:\n\n"
        + traceback_text(m, n)
    ),
    "exception group": lambda m, n: (
        "  + Exception Group Traceback (most recent call last):\n"
        + '  |   File "/srv/launch.py", line 9, in <module>\n'
        + "  |     run_all()\n"
        + "  | ExceptionGroup: server start failed (2 sub-exceptions)\n"
        + "  +-+---------------- 1 ----------------\n"
        + "    | Traceback (most recent call last):\n"
        + f'    |   File "{SITE}", line {n}, in _validate\n'
        + "    |     raise ValueError(\n"
        + f"    | ValueError: {m}\n"
        + "    +---------------- 2 ----------------\n"
        + "    | TimeoutError: port 30000 not ready\n"
        + "    +------------------------------------\n"
    ),
    "ansi colours": lambda m, n: (
        "\x1b[31m"
        + traceback_text(m, n).replace("ValueError:", "\x1b[1;35mValueError\x1b[0m:")
        + "\x1b[0m"
    ),
    "carriage-return progress": lambda m, n: (
        "Loading safetensors: 10%|#  | 1/10\r"
        "Loading safetensors: 100%|##########| 10/10\n" + traceback_text(m, n)
    ),
    "sglang log prefix": lambda m, n: prefix_lines(
        traceback_text(m, n), "[2025-07-16 05:13:15 TP0] "
    ),
    "sglang rank prefixes interleaved": lambda m, n: "".join(
        f"[2025-07-16 05:13:15 TP{r}] {line}\n"
        for line in traceback_text(m, n).splitlines()
        for r in (0, 1)
    ),
    "vllm worker prefix": lambda m, n: prefix_lines(
        traceback_text(m, n), "(Worker_TP1 pid=88) ERROR 03-06 10:05:08 [engine.py:190] "
    ),
    "vllm info prefix": lambda m, n: prefix_lines(
        traceback_text(m, n), "INFO 03-06 10:05:08 engine.py:190] "
    ),
    "docker compose": lambda m, n: prefix_lines(traceback_text(m, n), "sglang-1  | "),
    "kubernetes json": lambda m, n: "".join(
        json.dumps({"log": line + "\n", "stream": "stderr", "time": "2026-01-01T00:00:00Z"}) + "\n"
        for line in traceback_text(m, n).splitlines()
    ),
    "pytest gutter": lambda m, n: (
        "    def test_launch():\n>       launch(args)\n\n"
        + "".join(f"E   {line}\n" for line in f"ValueError: {m}".splitlines())
        + f"\n{SITE}:{n}: ValueError\n"
    ),
    "markdown fence": lambda m, n: (
        "I get this when launching:\n\n```python\n" + traceback_text(m, n) + "```\n\nAny idea?"
    ),
    "backticks in a sentence": lambda m, n: f"Launch fails with `ValueError: {m}` on 8xH100",
    "re-wrapped message": lambda m, n: "ValueError: " + wrap(m, 50),
    "re-wrapped and indented": lambda m, n: "ValueError: " + wrap(m, 70, indent="    "),
}


@pytest.mark.parametrize("form", sorted(RAW_FORMS))
@pytest.mark.parametrize("record_id", sorted(SEEDS))
def test_seed_matches_in_every_raw_form(bundled: Catalog, record_id: str, form: str) -> None:
    message, params = SEEDS[record_id]
    text = RAW_FORMS[form](message, LINES[record_id])
    m = match_error(text, catalog=bundled)
    assert m is not None, text
    assert m.record.id == record_id
    assert m.exact
    assert dict(m.params) == params


@pytest.mark.parametrize("form", sorted(RAW_FORMS))
@pytest.mark.parametrize("record_id", sorted(SEEDS))
def test_changed_key_words_never_match_exactly(bundled: Catalog, record_id: str, form: str) -> None:
    message, _ = SEEDS[record_id]
    changed = (
        message.replace("validated", "tested")
        .replace("supports", "allows")
        .replace("MoE", "dense")
        .replace("dispatch", "routing")
    )
    assert changed != message
    text = RAW_FORMS[form](changed, LINES[record_id])
    assert all(not m.exact for m in match_all(text, catalog=bundled))
    m = match_error(text, catalog=bundled)
    # A frame at the record's raise line: Python's, or the place after pytest's report.
    at_site = f"line {LINES[record_id]}," in text or f"{SITE}:{LINES[record_id]}: " in text
    if at_site:
        # A frame at the record's raise line plus a close message is an answer,
        # marked inexact, saying what differs.
        assert m is not None and m.summary.id == record_id
        assert (m.exact, m.mode) == (False, "drift")
        assert any(r.startswith("the message lacks") for r in m.reasons)
    else:
        # Without the frame, the changed words leave nothing confident.
        assert m is None
