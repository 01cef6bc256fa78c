"""Tests of errcat.extract: raw pasted text -> exception reports."""

from __future__ import annotations

import json
import string
import time
import traceback
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from errcat.extract import ExceptionReport, Frame, clean_text, extract_reports

# --------------------------------------------------------------------------
# Helpers


def summary(text: str) -> list[tuple[str, str | None, str]]:
    """(kind, class, message) of every report."""
    return [(r.kind, r.error_class, r.message) for r in extract_reports(text)]


def only(text: str) -> ExceptionReport:
    """The single report of a text."""
    reports = extract_reports(text)
    assert len(reports) == 1, reports
    return reports[0]


def check_spans(text: str, reports: list[ExceptionReport]) -> None:
    for report in reports:
        assert 0 <= report.start <= report.end <= len(text)


TRACEBACK = """\
Traceback (most recent call last):
  File "/srv/app/main.py", line 12, in <module>
    main()
    ~~~~^^
  File "/srv/app/main.py", line 8, in main
    load(cfg)
  File "/usr/lib/python3.11/site-packages/sglang/srt/server_args.py", line 7614, in load
    raise ValueError(msg)
ValueError: DeepEP v2 MoE is not validated for 'LlamaForCausalLM'
"""
TRACEBACK_FRAMES = (
    Frame("/srv/app/main.py", 12, "<module>"),
    Frame("/srv/app/main.py", 8, "main"),
    Frame("/usr/lib/python3.11/site-packages/sglang/srt/server_args.py", 7614, "load"),
)
TRACEBACK_MESSAGE = "DeepEP v2 MoE is not validated for 'LlamaForCausalLM'"


def prefixed(prefix: str, text: str) -> str:
    return "\n".join(prefix + line for line in text.splitlines())


# --------------------------------------------------------------------------
# Plain tracebacks


def test_plain_traceback() -> None:
    report = only(TRACEBACK)
    assert report.kind == "traceback"
    assert report.error_class == "ValueError"
    assert report.message == TRACEBACK_MESSAGE
    assert report.frames == TRACEBACK_FRAMES
    assert TRACEBACK[report.start : report.end] == "ValueError: " + TRACEBACK_MESSAGE


def test_traceback_with_repeated_frames_and_carets() -> None:
    text = """Traceback (most recent call last):
  File "r.py", line 4, in <module>
    f(0)
  File "r.py", line 2, in f
    return f(n + 1)
           ^^^^^^^^
  File "r.py", line 2, in f
    return f(n + 1)
           ^^^^^^^^
  [Previous line repeated 996 more times]
RecursionError: maximum recursion depth exceeded
"""
    report = only(text)
    assert report.error_class == "RecursionError"
    assert report.message == "maximum recursion depth exceeded"
    assert [f.function for f in report.frames] == ["<module>", "f", "f"]


def test_multiline_message_until_blank_line() -> None:
    text = """Traceback (most recent call last):
  File "x.py", line 1, in <module>
ValueError: first line
  second line, indented
third line

unrelated text afterwards
"""
    report = only(text)
    assert report.message == "first line\n  second line, indented\nthird line"
    # What follows the blank line may be the message's tips or unrelated: kept apart.
    assert report.tail == "unrelated text afterwards"


# Made-up prose lines: words, punctuation and numbers, never an exception line.
prose_line = st.lists(
    st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=8), min_size=1, max_size=6
).map(lambda ws: "Try " + " ".join(ws) + ".")
paragraph = st.lists(prose_line, min_size=1, max_size=3).map("\n".join)


@given(
    head=paragraph,
    tips=st.lists(paragraph, min_size=1, max_size=4),
    blanks=st.integers(1, 2),
    where=st.sampled_from(["line", "traceback", "log"]),
)
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_paragraphs_after_a_blank_line_are_the_message_tail(
    head: str, tips: list[str], blanks: int, where: str
) -> None:
    gap = "\n" * (blanks + 1)
    body = "ValueError: " + head + gap + gap.join(tips)
    if where == "traceback":
        text = 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n' + body
    elif where == "log":
        text = "[2026-03-02 10:11:12 TP0] " + body
    else:
        text = body
    text += "\n[2026-03-02 10:11:13] Received sigquit from a child process.\n"
    report = only(text)
    assert report.message == head
    assert report.tail == gap.join(tips)
    assert report.end == text.index(head) + len(head)


@pytest.mark.parametrize(
    "after",
    [
        "TypeError: another error",
        "Traceback (most recent call last):",
        "The above exception was the direct cause of the following exception:",
        '  File "x.py", line 3, in <module>',
        "[2026-03-02 10:11:13 TP1] next log record",
        "\n\nthree blank lines before this",
    ],
)
def test_a_message_tail_stops_where_the_message_surely_ended(after: str) -> None:
    text = f"ValueError: bad value\n\nTip one.\n\n{after}\nmore\n"
    report = extract_reports(text)[0]
    assert (report.error_class, report.message) == ("ValueError", "bad value")
    assert report.tail == "Tip one."


def test_a_message_tail_is_bounded() -> None:
    paragraphs = "\n\n".join(f"Tip {n}: " + "try this " * 40 for n in range(200))
    report = only(f"ValueError: bad value\n\n{paragraphs}\n")
    assert report.message == "bad value"
    assert 0 < len(report.tail) <= 8_000
    assert report.tail.count("\n\n") < 8  # at most eight paragraphs


def test_no_tail_without_a_blank_line() -> None:
    report = only("ValueError: bad value\nsecond line\n")
    assert (report.message, report.tail) == ("bad value\nsecond line", "")


def test_multiline_message_stops_at_new_log_record() -> None:
    text = """\
[2026-03-02 10:11:12 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl/scheduler.py", line 2100, in run_scheduler_process
    scheduler.event_loop_overlap()
ValueError: bad batch
more about it
[2026-03-02 10:11:13] Received sigquit from a child process.
"""
    report = only(text)
    assert report.kind == "traceback"
    assert report.message == "bad batch\nmore about it"
    assert report.frames == (Frame("/sgl/scheduler.py", 2100, "run_scheduler_process"),)


def test_message_stops_at_next_exception_line() -> None:
    assert summary("ValueError: a\nTypeError: b") == [
        ("line", "ValueError", "a"),
        ("line", "TypeError", "b"),
    ]


@pytest.mark.parametrize("name", ["StopIteration", "KeyboardInterrupt", "AssertionError"])
def test_exception_without_message(name: str) -> None:
    text = f'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n{name}\n'
    report = only(text)
    assert (report.kind, report.error_class, report.message) == ("traceback", name, "")


def test_inside_traceback_any_class_name_counts() -> None:
    text = (
        'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nBoom: it broke\n'
    )
    assert summary(text) == [("traceback", "Boom", "it broke")]


def test_outside_traceback_class_must_look_like_an_exception() -> None:
    reports = extract_reports("Note: this is fine\nStatus: ok")
    assert [r.kind for r in reports] == ["text"]


@pytest.mark.parametrize(
    "name",
    [
        "sglang.srt.managers.scheduler.SchedulerError",
        "__main__.MyError",
        "json.decoder.JSONDecodeError",
        "torch.cuda.OutOfMemoryError",
        "ray.exceptions.RayTaskError(ValueError)",
        "urllib3.exceptions.ReadTimeout",
        "test.<locals>.LocalError",
    ],
)
def test_qualified_class_names(name: str) -> None:
    assert summary(f"{name}: it failed") == [("line", name, "it failed")]


def test_keyerror_keeps_quotes() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in <module>\n'
        "KeyError: 'model.layers.0.weight'\n"
    )
    assert only(text).message == "'model.layers.0.weight'"


def test_syntax_error_frame_without_function() -> None:
    text = """Traceback (most recent call last):
  File "run.py", line 1, in <module>
  File "/tmp/cfg.py", line 3
    def f(:
          ^
SyntaxError: invalid syntax
"""
    report = only(text)
    assert report.frames == (Frame("run.py", 1, "<module>"), Frame("/tmp/cfg.py", 3, ""))
    assert report.message == "invalid syntax"


def test_traceback_with_indentation_lost() -> None:
    text = """Traceback (most recent call last):
File "x.py", line 3, in <module>
foo()
File "x.py", line 2, in foo
raise ValueError("boom")
ValueError: boom
"""
    report = only(text)
    assert (report.error_class, report.message, len(report.frames)) == ("ValueError", "boom", 2)


def test_traceback_behind_unknown_prefix() -> None:
    text = prefixed("myapp | 12:00:01 | ", TRACEBACK)
    report = only(text)
    assert report.error_class == "ValueError"
    assert report.message == TRACEBACK_MESSAGE
    assert report.frames == TRACEBACK_FRAMES


VLLM = "(EngineCore_DP0 pid=123) ERROR 08-01 10:00:00 [core.py:700] "


def test_vllm_engine_core_log() -> None:
    message = "Free memory on device (1.2/79.1 GiB) on startup is less than desired (71.2 GiB)."
    text = f"""{VLLM}EngineCore failed to start.
{VLLM}Traceback (most recent call last):
{VLLM}  File "/vllm/v1/engine/core.py", line 691, in run_engine_core
{VLLM}    engine_core = EngineCoreProc(*args, **kwargs)
{VLLM}                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
{VLLM}  File "/vllm/worker/worker.py", line 200, in determine_available_memory
{VLLM}    raise ValueError(
{VLLM}ValueError: {message}
(EngineCore_DP0 pid=123) Process EngineCore_DP0:
(APIServer pid=1) Traceback (most recent call last):
(APIServer pid=1)   File "/usr/local/bin/vllm", line 10, in <module>
(APIServer pid=1)     sys.exit(main())
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above.
"""
    reports = extract_reports(text)
    assert [(r.error_class, r.message) for r in reports] == [
        ("ValueError", message),
        ("RuntimeError", "Engine core initialization failed. See root cause above."),
    ]
    assert reports[0].frames[-1] == Frame(
        "/vllm/worker/worker.py", 200, "determine_available_memory"
    )


def test_logging_exception_with_multiline_message() -> None:
    text = """2026-01-04 08:00:01,123 - ERROR - worker - Task failed
Traceback (most recent call last):
  File "/app/tasks.py", line 12, in fn
    raise ValueError("bad input shape (3, 4)\\nexpected (4, 3)")
ValueError: bad input shape (3, 4)
expected (4, 3)
2026-01-04 08:00:02,000 - INFO - worker - next task
"""
    assert summary(text) == [("traceback", "ValueError", "bad input shape (3, 4)\nexpected (4, 3)")]


def test_traceback_message_lines_are_verbatim() -> None:
    text = """Traceback (most recent call last):
  File "train.py", line 5, in <module>
    dist.barrier()
torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error
ncclUnhandledCudaError: Call to CUDA function failed.
Last error:
Cuda failure 'out of memory'
"""
    assert summary(text) == [
        (
            "traceback",
            "torch.distributed.DistBackendError",
            "NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error\n"
            "ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "Last error:\nCuda failure 'out of memory'",
        ),
        (
            "embedded",
            "ncclUnhandledCudaError",
            "Call to CUDA function failed.\nLast error:\nCuda failure 'out of memory'",
        ),
    ]


def test_frames_without_header() -> None:
    text = """ray.exceptions.RayTaskError(ValueError): ray::Worker.execute() (pid=5521, ip=10.0.0.2)
  File "/vllm/worker.py", line 10, in execute
    raise ValueError("bad rank")
ValueError: bad rank
"""
    reports = extract_reports(text)
    assert [(r.kind, r.error_class) for r in reports] == [
        ("line", "ray.exceptions.RayTaskError(ValueError)"),
        ("traceback", "ValueError"),
    ]
    assert reports[1].frames == (Frame("/vllm/worker.py", 10, "execute"),)


def test_uvicorn_error_log() -> None:
    text = """ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "/app/server.py", line 30, in generate
    raise HTTPException(status_code=400, detail="bad")
fastapi.exceptions.HTTPException: 400: bad
INFO:     127.0.0.1:5000 - "POST /generate HTTP/1.1" 500 Internal Server Error
"""
    assert summary(text) == [("traceback", "fastapi.exceptions.HTTPException", "400: bad")]


# --------------------------------------------------------------------------
# Chains and exception groups

CHAIN_TEMPLATE = """Traceback (most recent call last):
  File "/sgl/model_runner.py", line 300, in load_model
    self.model = get_model(self.config)
  File "/sgl/loader.py", line 50, in get_model
    raise KeyError(name)
KeyError: 'LlamaForCausalLM'

{phrase}

Traceback (most recent call last):
  File "/sgl/scheduler.py", line 10, in run
    runner = ModelRunner()
RuntimeError: Failed to load the model
"""


@pytest.mark.parametrize(
    "phrase",
    [
        "The above exception was the direct cause of the following exception:",
        "During handling of the above exception, another exception occurred:",
    ],
)
def test_chained_exceptions_root_cause_first(phrase: str) -> None:
    reports = extract_reports(CHAIN_TEMPLATE.format(phrase=phrase))
    assert [(r.kind, r.error_class, r.message) for r in reports] == [
        ("traceback", "KeyError", "'LlamaForCausalLM'"),
        ("traceback", "RuntimeError", "Failed to load the model"),
    ]
    assert reports[0].frames[-1] == Frame("/sgl/loader.py", 50, "get_model")
    assert reports[1].frames == (Frame("/sgl/scheduler.py", 10, "run"),)


# As printed by Python 3.11 for a nested group (one leaf is itself chained).
EXCEPTION_GROUP = """\
  + Exception Group Traceback (most recent call last):
  |   File "/tmp/eg.py", line 18, in <module>
  |     raise ExceptionGroup("outer", excs)
  | ExceptionGroup: outer (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Exception Group Traceback (most recent call last):
    |   File "/tmp/eg.py", line 12, in inner
    |     raise ExceptionGroup("inner", excs)
    | ExceptionGroup: inner (2 sub-exceptions)
    +-+---------------- 1 ----------------
      | Traceback (most recent call last):
      |   File "/tmp/eg.py", line 1, in f
      |     def f(): raise ValueError("a\\nsecond line")
      |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
      | ValueError: a
      | second line
      +---------------- 2 ----------------
      | Traceback (most recent call last):
      |   File "/tmp/eg.py", line 4, in g
      |     f()
      | KeyError: 'k'
      |
      | The above exception was the direct cause of the following exception:
      |
      | Traceback (most recent call last):
      |   File "/tmp/eg.py", line 6, in g
      |     raise TypeError("b") from e
      | TypeError: b
      +------------------------------------
    +---------------- 2 ----------------
    | OSError: [Errno 2] No such file
    +------------------------------------
"""


def test_exception_group_reports_group_and_leaves() -> None:
    reports = extract_reports(EXCEPTION_GROUP)
    assert [(r.error_class, r.message) for r in reports] == [
        ("ExceptionGroup", "outer (2 sub-exceptions)"),
        ("ExceptionGroup", "inner (2 sub-exceptions)"),
        ("ValueError", "a\nsecond line"),
        ("KeyError", "'k'"),
        ("TypeError", "b"),
        ("OSError", "[Errno 2] No such file"),
    ]
    frames = {f"{r.error_class}{r.message[:1]}": r.frames for r in reports}
    assert frames["ExceptionGroupo"] == (Frame("/tmp/eg.py", 18, "<module>"),)
    assert frames["ExceptionGroupi"] == (Frame("/tmp/eg.py", 12, "inner"),)
    assert frames["ValueErrora"] == (Frame("/tmp/eg.py", 1, "f"),)
    assert frames["TypeErrorb"] == (Frame("/tmp/eg.py", 6, "g"),)
    assert frames["OSError["] == ()


def test_clean_text_removes_group_gutters() -> None:
    cleaned = clean_text(EXCEPTION_GROUP)
    assert "|" not in cleaned
    assert "+-" not in cleaned
    assert "Exception Group Traceback (most recent call last):" in cleaned.splitlines()


# --------------------------------------------------------------------------
# Wrappers and embedded exceptions


def test_embedded_class_message() -> None:
    assert summary("RuntimeError: Subprocess failed: ValueError: bad x") == [
        ("line", "RuntimeError", "Subprocess failed: ValueError: bad x"),
        ("embedded", "ValueError", "bad x"),
    ]


def test_subprocess_traceback_after_wrapper_message() -> None:
    text = """Traceback (most recent call last):
  File "launch.py", line 40, in <module>
    run_worker()
RuntimeError: Worker exited with code 1. Its stderr:
    Traceback (most recent call last):
      File "worker.py", line 7, in <module>
        init()
    ValueError: tensor parallel size 3 does not divide 32 heads
"""
    reports = extract_reports(text)
    assert [(r.error_class, r.message) for r in reports] == [
        ("RuntimeError", "Worker exited with code 1. Its stderr:"),
        ("ValueError", "tensor parallel size 3 does not divide 32 heads"),
    ]
    assert reports[1].frames == (Frame("worker.py", 7, "<module>"),)


def test_traceback_inside_a_repr_message() -> None:
    text = (
        "RuntimeError('Traceback (most recent call last):\\n"
        '  File "w.py", line 1, in <module>\\nValueError: inner bad\\n\')'
    )
    reports = extract_reports(text)
    assert reports[0].kind == "repr"
    assert reports[0].error_class == "RuntimeError"
    assert reports[1] == ExceptionReport(
        "ValueError",
        "inner bad",
        (Frame("w.py", 1, "<module>"),),
        reports[0].start,
        reports[0].end,
        "embedded",
    )


def test_worker_failed_with_quoted_error() -> None:
    assert summary("RuntimeError: Worker failed with error 'CUDA error: out of memory'") == [
        ("line", "RuntimeError", "Worker failed with error 'CUDA error: out of memory'"),
    ]


# --------------------------------------------------------------------------
# Line prefixes, ANSI, line endings

PREFIXES = [
    "[2026-03-02 10:11:12] ",
    "[2026-03-02 10:11:12 TP3] ",
    "[2026-03-02 10:11:12 TP0 EP1] ",
    "(APIServer pid=412231) ",
    "(Worker_TP1 pid=88) ",
    "(Worker_TP0_EP2 pid=90122) ",
    "(TaskRunner pid=5521) ",
    "(RayWorkerWrapper pid=5521, ip=10.0.0.2) ",
    "vllm-1  | ",
    "api_1 | ",
    "INFO 03-06 10:05:08 engine.py:190] ",
    "ERROR 03-06 10:05:08 [engine.py:190] ",
    "2026-01-04 08:00:01,123 - ERROR - app - ",
    "2026-01-04T08:00:01.123Z ",
    "2026-01-04T08:00:01.123456789Z stderr F ",
    "2026-01-04 08:00:01.123 | ERROR    | app.server:handle:42 - ",
    "ERROR:root:",
    "ERROR:    ",
    "[ERROR] ",
    "[rank0]: ",
    "[rank3]:[W1203 10:05:08.417012617 ProcessGroupNCCL.cpp:1250] ",
    "[default0]:",
    "[pod/vllm-0/server] ",
    "[1,0]<stderr>:",
    "##[error]",
    "E       ",
    "> ",
    "(Worker pid=1) INFO 03-06 10:05:08 file.py:190] ",
    "vllm-1  | (APIServer pid=7) ERROR 03-06 10:05:08 [engine.py:190] ",
]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_prefix_removed_from_bare_line(prefix: str) -> None:
    text = prefix + "ValueError: max_model_len 9000 exceeds 8192"
    assert clean_text(text) == "ValueError: max_model_len 9000 exceeds 8192"
    report = only(text)
    assert (report.kind, report.error_class, report.message) == (
        "line",
        "ValueError",
        "max_model_len 9000 exceeds 8192",
    )
    assert text[report.start : report.end] == "ValueError: max_model_len 9000 exceeds 8192"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_prefix_removed_from_every_traceback_line(prefix: str) -> None:
    report = only(prefixed(prefix, TRACEBACK))
    assert (report.error_class, report.message) == ("ValueError", TRACEBACK_MESSAGE)
    assert report.frames == TRACEBACK_FRAMES


@pytest.mark.parametrize("tag", ["[Bug]: ", "[Bug] ", "[BUG] ", "[Usage]: ", "[Bug][L40][DSV4]: "])
@pytest.mark.parametrize("line", ["ValueError: max_model_len 9000 exceeds 8192", "Worker failed"])
def test_issue_title_tag_is_not_part_of_the_message(tag: str, line: str) -> None:
    assert summary(tag + line) == summary(line)
    assert tag.strip() not in only(tag + line).message


def test_errno_in_brackets_is_a_message_not_a_tag() -> None:
    text = "[Errno 2] No such file or directory: 'x'"
    assert only(text).message == text


def test_pytest_failed_summary_line() -> None:
    text = "FAILED tests/test_cfg.py::test_load[tp-2] - ValueError: tp_size must divide 7"
    assert summary(text) == [("line", "ValueError", "tp_size must divide 7")]


def test_pytest_e_gutter_multiline() -> None:
    text = """    def test_load():
>       load(cfg)
E       ValueError: tp_size 3 must divide
E       the number of heads 32

tests/test_cfg.py:12: ValueError
"""
    report = only(text)
    assert (report.kind, report.error_class, report.message) == (
        "traceback",
        "ValueError",
        "tp_size 3 must divide\nthe number of heads 32",
    )
    assert report.frames == (Frame("tests/test_cfg.py", 12, "test_load", "load(cfg)"),)


def test_ansi_codes_anywhere() -> None:
    text = (
        "\x1b[1;31mTraceback\x1b[0m (most recent call last):\r\n"
        '  File \x1b[35m"x.py"\x1b[0m, line \x1b[35m3\x1b[0m, in \x1b[35m<module>\x1b[0m\r\n'
        "\x1b[1;35mValueError\x1b[0m: \x1b[35mbad \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1b[0m\r\n"
    )
    report = only(text)
    assert (report.error_class, report.message) == ("ValueError", "bad link")
    assert report.frames == (Frame("x.py", 3, "<module>"),)


def test_ansi_codes_whose_escape_was_lost() -> None:
    assert clean_text("[31mValueError: x[0m") == "ValueError: x"


def test_crlf_and_progress_output() -> None:
    text = "Loading 10%\rLoading 50%\rLoading 100%\r\nValueError: after load\r\n"
    assert clean_text(text) == "Loading 100%\nValueError: after load"
    report = only(text)
    assert report.message == "after load"
    assert text[report.start : report.end] == "ValueError: after load"


def test_progress_line_ending_with_carriage_return() -> None:
    assert clean_text("50%\r100%\r\r\nok") == "100%\nok"


def test_control_characters_removed() -> None:
    assert clean_text("Value\x00Error: a\x07b") == "ValueError: ab"


def test_docker_json_log_lines() -> None:
    lines = [
        "Traceback (most recent call last):\n",
        '  File "x.py", line 3, in f\n',
        "ValueError: from k8s\n",
    ]
    text = "\n".join(
        json.dumps({"log": line, "stream": "stderr", "time": "2026-01-04T08:00:01Z"})
        for line in lines
    )
    report = only(text)
    assert (report.error_class, report.message) == ("ValueError", "from k8s")
    assert report.frames == (Frame("x.py", 3, "f"),)
    assert clean_text(text).splitlines()[0] == "Traceback (most recent call last):"


def test_stacked_prefixes_removed_repeatedly() -> None:
    text = "vllm-1  | (Worker_TP1 pid=88) INFO 03-06 10:05:08 file.py:190] ValueError: x"
    assert clean_text(text) == "ValueError: x"


# --------------------------------------------------------------------------
# Interleaved streams


def interleave(*streams: list[str]) -> str:
    out: list[str] = []
    for row in zip(*streams, strict=True):
        out.extend(row)
    return "\n".join(out)


def small_traceback(path: str, message: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        f'  File "{path}", line 5, in forward',
        "    out = self.layer(x)",
        f"RuntimeError: {message}",
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("[rank0]: ", "[rank1]: "),
        ("(Worker_TP0 pid=10) ", "(Worker_TP1 pid=11) "),
        ("[2026-03-02 10:11:12 TP0] ", "[2026-03-02 10:11:12 TP1] "),
        ("vllm-1  | ", "vllm-2  | "),
    ],
)
def test_interleaved_streams_are_parsed_whole(first: str, second: str) -> None:
    a = [first + line for line in small_traceback("a.py", "rank A failed")]
    b = [second + line for line in small_traceback("b.py", "rank B failed")]
    reports = extract_reports(interleave(a, b))
    assert [(r.message, r.frames[0].path) for r in reports] == [
        ("rank A failed", "a.py"),
        ("rank B failed", "b.py"),
    ]


def test_same_traceback_per_rank_is_reported_once() -> None:
    streams = [[f"[rank{i}]: " + line for line in TRACEBACK.splitlines()] for i in range(8)]
    reports = extract_reports(interleave(*streams))
    assert len(reports) == 1
    assert reports[0].frames == TRACEBACK_FRAMES


def test_unprefixed_continuation_lines_follow_their_stream() -> None:
    text = (
        "[2026-03-02 10:11:12 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "s.py", line 1, in run\n'
        "[2026-03-02 10:11:12 TP1] Decode batch. #running-req: 3\n"
        "ValueError: from tp0\n"
    )
    # The unprefixed line after TP1's line is read as TP1's; TP0's traceback stays truncated
    # but the exception line is still found.
    assert ("ValueError", "from tp0") in [(r.error_class, r.message) for r in extract_reports(text)]


# --------------------------------------------------------------------------
# Markdown and chat pastes


@pytest.mark.parametrize("fence", ["```", "```python", "```pytb", "~~~"])
def test_fenced_traceback(fence: str) -> None:
    text = f"I get this:\n\n{fence}\n{TRACEBACK}```\nAny idea?\n"
    report = only(text)
    assert (report.error_class, report.message) == ("ValueError", TRACEBACK_MESSAGE)


def test_fence_ends_a_bare_message() -> None:
    text = "```\nValueError: batch size 64 exceeds 32\n```\nIt happens on startup."
    assert summary(text) == [("line", "ValueError", "batch size 64 exceeds 32")]


def test_backticks_in_a_sentence() -> None:
    text = "Title: `ValueError: batch size 64 exceeds the limit of 32` when serving Llama"
    report = only(text)
    assert (report.kind, report.error_class, report.message) == (
        "line",
        "ValueError",
        "batch size 64 exceeds the limit of 32",
    )
    assert text[report.start : report.end] == "ValueError: batch size 64 exceeds the limit of 32"


def test_backticks_spanning_a_wrapped_line() -> None:
    text = "I get `ValueError: batch size 64 exceeds\nthe limit of 32` on startup"
    assert summary(text) == [("line", "ValueError", "batch size 64 exceeds\nthe limit of 32")]


def test_several_quoted_errors_in_one_sentence() -> None:
    text = "first `KeyError: 'a'` then \"TypeError: it's not 'x'\" and \u201cOSError: gone\u201d."
    assert summary(text) == [
        ("line", "KeyError", "'a'"),
        ("line", "TypeError", "it's not 'x'"),
        ("line", "OSError", "gone"),
    ]


def test_error_in_the_middle_of_a_sentence() -> None:
    assert summary("After upgrading I get ValueError: bad x") == [("line", "ValueError", "bad x")]


@given(
    prose=st.text(alphabet="各位大拿帮看下问题报错运行时出现了\uff0c", min_size=1, max_size=12),
    cls=st.sampled_from(["ValueError", "torch.OutOfMemoryError", "RuntimeError"]),
)
def test_a_class_run_into_by_prose_without_spaces_is_read(prose: str, cls: str) -> None:
    # Chinese and Japanese prose has no spaces: "帮帮看下问题ValueError: ..." names ValueError.
    assert summary(f"{prose}{cls}: bad x") == [("line", cls, "bad x")]
    # An ASCII word run into it is another name, not the class.
    assert all(c != cls for _, c, _ in summary(f"my{cls}: bad x"))


def test_blockquoted_traceback() -> None:
    report = only(prefixed("> ", TRACEBACK))
    assert report.frames == TRACEBACK_FRAMES


def test_rewrapped_bare_line() -> None:
    text = (
        "ValueError: DeepEP v2 MoE is not validated for 'LlamaForCausalLM'; supported\n"
        "architectures are ['DeepseekV3ForCausalLM']. Use --moe-a2a-backend deepep.\n"
        "\n"
        "How do I fix this?"
    )
    report = only(text)
    assert report.kind == "line"
    assert report.message == (
        "DeepEP v2 MoE is not validated for 'LlamaForCausalLM'; supported\n"
        "architectures are ['DeepseekV3ForCausalLM']. Use --moe-a2a-backend deepep."
    )


def test_source_code_is_not_an_error() -> None:
    text = 'if bad:\n    raise ValueError("x")\ntry:\n    f()\nexcept KeyError: pass'
    assert [r.kind for r in extract_reports(text)] == ["text"]


# --------------------------------------------------------------------------
# Reprs, pydantic lines, HTTP bodies


@pytest.mark.parametrize(
    ("text", "error_class", "message"),
    [
        ("RuntimeError('message')", "RuntimeError", "message"),
        ('ValueError("a", 3)', "ValueError", "('a', 3)"),
        ("ValueError('it\\'s \\\\d \\n done')", "ValueError", "it's \\d \n done"),
        ("KeyError('k')", "KeyError", "'k'"),
        ("TimeoutError()", "TimeoutError", ""),
        ("FileNotFoundError(2, 'No such file or directory')", "FileNotFoundError",
         "[Errno 2] No such file or directory"),
        ("OSError(2, 'No such file', 'a.txt')", "OSError", "[Errno 2] No such file: 'a.txt'"),
        ("got exc=torch.OutOfMemoryError('CUDA out of memory') in step",
         "torch.OutOfMemoryError", "CUDA out of memory"),
        ("RuntimeError(b'raw\\xff')", "RuntimeError", "b'raw\\xff'"),
    ],
)  # fmt: skip
def test_repr(text: str, error_class: str, message: str) -> None:
    assert summary(text) == [("repr", error_class, message)]


def test_truncated_repr() -> None:
    assert summary("RuntimeError('CUDA out of memory. Tried to allocate") == [
        ("repr", "RuntimeError", "CUDA out of memory. Tried to allocate"),
    ]


@pytest.mark.parametrize(
    "text",
    ["ValueError(f'x {y}')", "ValueError(msg)", "raise ValueError('x')", "ValueError(1if 2)"],
)
def test_non_literal_repr_is_ignored(text: str) -> None:
    assert [r.kind for r in extract_reports(text)] == ["text"]


def test_pydantic_value_error_line() -> None:
    text = "  Value error, tp_size must divide 7 [type=value_error, input_value=3, input_type=int]"
    assert summary(text) == [("line", "ValueError", "tp_size must divide 7")]


def test_pydantic_assertion_line() -> None:
    text = "Assertion failed, page size must be positive [type=assertion_error, input_value=0]"
    assert summary(text) == [("line", "AssertionError", "page size must be positive")]


def test_pydantic_validation_error_message() -> None:
    text = """pydantic_core._pydantic_core.ValidationError: 1 validation error for ServerArgs
  Value error, tp_size must divide 7 [type=value_error, input_value={'a': 1}, input_type=dict]
    For further information visit https://errors.pydantic.dev/2.9/v/value_error
"""
    reports = extract_reports(text)
    assert reports[0].error_class == "pydantic_core._pydantic_core.ValidationError"
    assert reports[0].message.startswith("1 validation error for ServerArgs\n  Value error")
    assert (reports[1].kind, reports[1].error_class, reports[1].message) == (
        "embedded",
        "ValueError",
        "tp_size must divide 7",
    )


def test_http_error_body() -> None:
    body = {
        "object": "error",
        "message": "ValueError: max_tokens 9000 is too large",
        "type": "BadRequestError",
        "param": None,
        "code": 400,
    }
    text = 'INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 400 ' + json.dumps(body)
    assert summary(text) == [
        ("line", "BadRequestError", "ValueError: max_tokens 9000 is too large"),
        ("embedded", "ValueError", "max_tokens 9000 is too large"),
    ]


def test_http_error_body_as_python_dict_in_client_error() -> None:
    text = (
        "openai.NotFoundError: Error code: 404 - {'object': 'error', 'message': "
        "'The model `llama` does not exist.', 'type': 'NotFoundError', 'param': None, 'code': 404}"
    )
    reports = extract_reports(text)
    assert reports[0].error_class == "openai.NotFoundError"
    assert (reports[1].kind, reports[1].error_class, reports[1].message) == (
        "embedded",
        "NotFoundError",
        "The model `llama` does not exist.",
    )


def test_http_error_body_with_escaped_quotes() -> None:
    # Not valid JSON (\' is no JSON escape), but meant as JSON.
    text = r'{"object":"error","message":"The model\'s input is too long.","type":"ValueError"}'
    assert summary(text) == [("line", "ValueError", "The model's input is too long.")]


@given(
    st.sampled_from(["abort", "invalid_request_error", "server_error", "value_error"]),
    st.sampled_from(["BadRequestError", "ValueError", "pkg.errors.QuotaError"]),
)
def test_a_lowercase_http_body_type_is_a_category_not_a_class(category: str, cls: str) -> None:
    message = "Decode transfer failed for request 7"
    for kind, expected in ((category, None), (cls, cls)):
        body = {"finish_reason": {"type": kind, "message": message, "status_code": 500}}
        reports = extract_reports(json.dumps(body))
        assert [(r.error_class, r.message) for r in reports] == [(expected, message)]


def test_pretty_printed_http_error_body() -> None:
    body = {"error": {"message": "bad request", "type": "BadRequestError", "code": 400}}
    text = "curl output:\n" + json.dumps(body, indent=2) + "\n"
    assert summary(text) == [("line", "BadRequestError", "bad request")]


# --------------------------------------------------------------------------
# Text without exceptions, truncation, dedupe, offsets


def test_text_report() -> None:
    text = "\x1b[32m[2026-03-02 10:11:12] The server is fired up and ready to roll!\x1b[0m\n"
    assert extract_reports(text) == [
        ExceptionReport(None, "The server is fired up and ready to roll!", (), 0, len(text), "text")
    ]


@pytest.mark.parametrize("text", ["", "   \n\t\n", "\x1b[0m\n"])
def test_empty_input(text: str) -> None:
    assert extract_reports(text) == []


def test_truncated_traceback_gives_text_with_frames() -> None:
    text = 'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n    foo()\n'
    report = only(text)
    assert report.kind == "text"
    assert report.frames == (Frame("x.py", 3, "<module>"),)
    assert report.message.startswith("Traceback (most recent call last):")


def test_truncated_message_is_kept() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "x.py", line 3, in <module>\n'
        "ValueError: DeepEP v2 MoE is not valid"
    )
    assert only(text).message == "DeepEP v2 MoE is not valid"


def test_identical_reports_are_deduplicated() -> None:
    assert summary("ValueError: x\n\nValueError: x\n\nValueError: y") == [
        ("line", "ValueError", "x"),
        ("line", "ValueError", "y"),
    ]


def test_offsets_point_into_the_original_text() -> None:
    text = "noise\n\x1b[31m[rank0]: KeyError: 'x'\x1b[0m\nmore noise\n\n" + TRACEBACK
    reports = extract_reports(text)
    check_spans(text, reports)
    first, second = reports
    assert text[first.start : first.end].startswith("\x1b[31m[rank0]: KeyError")
    assert text[second.start : second.end] == "ValueError: " + TRACEBACK_MESSAGE


def test_reports_are_frozen() -> None:
    report = only("ValueError: x")
    with pytest.raises(AttributeError):
        report.message = "y"  # type: ignore[misc]


# --------------------------------------------------------------------------
# Robustness


def test_thousand_deep_traceback_chain() -> None:
    phrase = "During handling of the above exception, another exception occurred:"
    parts = [
        f'Traceback (most recent call last):\n  File "x.py", line {i + 1}, in f\n'
        f"    g()\nValueError: level {i}\n"
        for i in range(1000)
    ]
    text = f"\n{phrase}\n\n".join(parts)
    start = time.perf_counter()
    reports = extract_reports(text)
    assert time.perf_counter() - start < 60  # a hang fails, not a loaded machine
    assert [r.message for r in reports] == [f"level {i}" for i in range(1000)]
    assert reports[-1].frames == (Frame("x.py", 1000, "f"),)


def test_thousand_deep_message_chain() -> None:
    text = ": ".join(f"Level{i}Error" for i in range(1000)) + ": root cause"
    reports = extract_reports(text)
    assert reports[0].error_class == "Level0Error"
    assert (reports[-1].error_class, reports[-1].message) == ("Level999Error", "root cause")
    assert len(reports) <= 40  # embedded reports per line are bounded


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: " * 100_000,
        "ValueError(" * 100_000,
        "ValueError('x'" * 50_000,
        "{" * 200_000 + " message type}",
        "ValueError(" + "[" * 50_000 + "]" * 50_000 + ")",
        '{"message": "x", "type": ' + "[" * 50_000 + "]" * 50_000 + "}",
        "a." * 200_000 + ": x",
        "\ud800\udfff\x00" * 1000 + "ValueError: \ud800",
        "Traceback (most recent call last):\n" + '  File "x.py", line 1, in f\n' * 20_000,
        ("x" * 99 + "\r") * 10_000 + "ValueError: y",
        "\x1b[" + "1;" * 100_000 + "m",
    ],
    ids=[
        "many-class-msg",
        "many-repr-open",
        "many-repr-unclosed",
        "many-braces",
        "deep-brackets",
        "deep-json",
        "long-dotted-name",
        "surrogates-nul",
        "frames-only",
        "progress",
        "long-escape",
    ],
)
def test_pathological_inputs_are_fast(text: str) -> None:
    start = time.perf_counter()
    reports = extract_reports(text)
    assert time.perf_counter() - start < 60  # a hang fails, not a loaded machine
    check_spans(text, reports)


def synthetic_log(size: int) -> str:
    """A server log: decode stats, access lines, JSON lines, and tracebacks from 4 workers."""
    parts: list[str] = []
    total = 0
    i = 0
    while total < size:
        i += 1
        if i % 50 == 0:
            block = [
                f"(Worker_TP{i % 4} pid={100 + i % 4}) ERROR 03-06 10:05:08 [engine.py:190] {line}"
                for line in TRACEBACK.splitlines()
            ]
        elif i % 3 == 0:
            block = [f'\x1b[32mINFO\x1b[0m:     127.0.0.1:{i} - "POST /v1/chat HTTP/1.1" 200 OK']
        elif i % 3 == 1:
            block = [
                f"[2026-03-02 10:11:{i % 60:02d} TP{i % 8}] Decode batch. #running-req: {i % 50}, "
                f"#token: {i * 7}, token usage: 0.{i % 99}, gen throughput (token/s): {i % 999}.1"
            ]
        else:
            log = {"log": f"Prefill batch. #new-seq: 1, #new-token: {i}\n", "stream": "stderr"}
            block = [json.dumps(log)]
        parts.extend(block)
        total += sum(len(line) + 1 for line in block)
    return "\n".join(parts)


def test_five_megabyte_log_is_fast() -> None:
    text = synthetic_log(5_000_000)
    start = time.perf_counter()
    reports = extract_reports(text)
    elapsed = time.perf_counter() - start
    # Typically ~0.5 s; the bound only guards against super-linear behaviour (a hang),
    # not speed, which benchmarks/ measures: a loaded CI machine must not fail it.
    assert elapsed < 60
    assert [(r.error_class, r.message) for r in reports] == [("ValueError", TRACEBACK_MESSAGE)]


# --------------------------------------------------------------------------
# Property tests

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(st.text())
def test_never_raises_on_any_text(text: str) -> None:
    reports = extract_reports(text)
    assert isinstance(reports, list)
    check_spans(text, reports)
    assert isinstance(clean_text(text), str)


@_SETTINGS
@given(st.binary(max_size=2000), st.sampled_from(["surrogateescape", "latin-1"]))
def test_never_raises_on_binary_noise(data: bytes, encoding: str) -> None:
    text = (
        data.decode("utf-8", "surrogateescape") if encoding != "latin-1" else data.decode(encoding)
    )
    reports = extract_reports(text)
    check_spans(text, reports)


_FRAGMENTS = [
    "Traceback (most recent call last):",
    '  File "x.py", line 3, in f',
    "    f()",
    "    ^^^",
    "ValueError: ",
    "KeyError('k')",
    "RuntimeError: a: TypeError: b",
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
    "[rank0]: ",
    "(Worker pid=1) ",
    "  | ",
    "  +-+---- 1 ----",
    "```",
    "`",
    "'",
    '"',
    "{",
    "}",
    '{"log":"ValueError: x\\n"}',
    '{"message":"m","type":"BadRequestError"}',
    "  Value error, x [type=value_error]",
    "\x1b[31m",
    "\r",
    "\n",
    "\r\n",
    " ",
    "E   ",
    "> ",
]


@_SETTINGS
@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=8)), max_size=60))
@example(parts=['{"log":"ValueError: x\\n"}', '{"message":"m","type":"BadRequestError"}'])
def test_never_raises_on_traceback_like_soup(parts: list[str]) -> None:
    text = "".join(parts)
    reports = extract_reports(text)
    check_spans(text, reports)
    for report in reports:
        # Text has no class; an HTTP error body may name none either, at any level.
        if report.kind == "text":
            assert report.error_class is None
        elif report.error_class is None:
            assert report.message.strip()


# Real exceptions raised through nested helpers, formatted by Python itself.


class CustomError(Exception):
    """A project-specific exception (printed with its module name)."""


EXCEPTION_CLASSES: list[type[Exception]] = [
    ValueError,
    TypeError,
    KeyError,
    RuntimeError,
    CustomError,
]


def _raise(cls: type[Exception], message: str) -> None:
    _middle(cls, message)


def _middle(cls: type[Exception], message: str) -> None:
    _innermost(cls, message)


def _innermost(cls: type[Exception], message: str) -> None:
    raise cls(message)


Chain = Literal["none", "cause", "context"]


def raised(
    cls: type[Exception], message: str, chain: Chain, inner_cls: type[Exception], inner: str
) -> BaseException:
    """Raise for real (optionally chained) and return the caught exception."""
    try:
        if chain == "none":
            _raise(cls, message)
        try:
            _raise(inner_cls, inner)
        except Exception as exc:
            if chain == "cause":
                raise cls(message) from exc
            _raise(cls, message)
    except Exception as exc:
        return exc
    raise AssertionError("not raised")


_WORD = st.text(
    alphabet=string.ascii_letters + string.digits + "éßλжд中文🙂.,;!?%@'\"()/+",
    min_size=1,
    max_size=10,
)
# The first message line may hold anything printable; later lines are words
# (at least two, so that a line is never a lone class-like name, no colon).
_FIRST_LINE = st.lists(
    # No "[": "[1m" would read as a colour code whose ESC was lost.
    st.text(
        alphabet=string.ascii_letters + string.digits + "éλ中🙂.,;:!?%@'\"(){}/+-=_<>|`",
        min_size=1,
        max_size=10,
    ),
    min_size=1,
    max_size=6,
).map(" ".join)
_NEXT_LINE = (
    st.lists(_WORD, min_size=2, max_size=6)
    .map(" ".join)
    .filter(lambda line: not line.startswith("File "))
)
_MESSAGE = st.builds(
    lambda first, rest: "\n".join([first, *rest]), _FIRST_LINE, st.lists(_NEXT_LINE, max_size=3)
)
_DECORATION_PREFIXES = [
    "",
    "[rank0]: ",
    "(Worker_TP1 pid=88) ",
    "[2026-03-02 10:11:12 TP3] ",
    "vllm-1  | ",
    "INFO 03-06 10:05:08 [engine.py:190] ",
    "2026-01-04T08:00:01.123Z ",
    "2026-01-04 08:00:01,123 - ERROR - app - ",
    "> ",
    "E   ",
]
_ANSI_CODES = ["\x1b[31m", "\x1b[0m", "\x1b[1;35m", "\x1b[2K", "\x1b]8;;http://x\x1b\\"]


def decorate(text: str, prefix: str, codes: list[tuple[int, str]]) -> str:
    """Prefix every line and insert ANSI codes at the given positions (never inside another)."""
    text = "\n".join(prefix + line for line in text.split("\n"))
    cuts = sorted(((position % (len(text) + 1), code) for position, code in codes), reverse=True)
    for cut, code in cuts:
        text = text[:cut] + code + text[cut:]
    return text


def find(reports: list[ExceptionReport], exc: BaseException, *, last: bool) -> ExceptionReport:
    """The first (or last) report of an exception's class and message."""
    name = type(exc).__name__
    matching = [
        report
        for report in reports
        if (report.error_class or "").rsplit(".", 1)[-1] == name and report.message == str(exc)
    ]
    assert matching, f"{name}: {str(exc)!r} not in {reports!r}"
    return matching[-1] if last else matching[0]


@settings(max_examples=200, deadline=None)
@given(
    cls=st.sampled_from(EXCEPTION_CLASSES),
    message=_MESSAGE,
    chain=st.sampled_from(["none", "cause", "context"]),
    inner_cls=st.sampled_from(EXCEPTION_CLASSES),
    inner=_MESSAGE,
    prefix=st.sampled_from(_DECORATION_PREFIXES),
    codes=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(_ANSI_CODES)), max_size=6),
)
def test_real_tracebacks_round_trip(
    *,
    cls: type[Exception],
    message: str,
    chain: Chain,
    inner_cls: type[Exception],
    inner: str,
    prefix: str,
    codes: list[tuple[int, str]],
) -> None:
    exc = raised(cls, message, chain, inner_cls, inner)
    text = decorate("".join(traceback.format_exception(exc)), prefix, codes)
    reports = extract_reports(text)
    check_spans(text, reports)
    outer = find(reports, exc, last=True)
    assert outer.kind == "traceback"
    assert outer.frames[-1].function == "_innermost" or chain == "cause"
    assert outer.frames[0].function == "raised"
    if chain != "none":
        cause = exc.__cause__ or exc.__context__
        assert cause is not None
        root = find(reports, cause, last=False)
        assert root.frames[-1].function == "_innermost"
        assert reports.index(root) < reports.index(outer)


@pytest.mark.parametrize(
    "line",
    [
        "gzip.BadGzipFile: Not a gzipped file (b'ab')",
        "smtplib.SMTPServerDisconnected: please run connect() first",
        "http.client.InvalidURL: nonnumeric port: 'x'",
        "re.error: missing ), unterminated subpattern at position 0",
        "socket.timeout: timed out",
        "regex._regex_core.error: bad escape \\d at position 3",
    ],
)
def test_module_qualified_classes_are_exception_lines(line: str) -> None:
    (report,) = extract_reports(line)
    assert report.kind == "line"
    assert report.error_class == line.split(":", 1)[0]
    assert report.message == line.split(": ", 1)[1]


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\x1b"),
        max_size=60,
    ),
    st.sampled_from([ValueError, KeyError, TypeError, RuntimeError]),
)
def test_plain_traceback_fast_path_agrees_with_the_full_parser(
    message: str, cls: type[Exception]
) -> None:
    from errcat.extract.pipeline import _extract
    from errcat.extract.tracebacks import _plain_traceback

    def inner() -> None:
        raise cls(message)

    def outer() -> None:
        inner()

    try:
        outer()
    except Exception as exc:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    fast = _plain_traceback(text)
    if fast is not None:
        assert fast == _extract(text)
    assert extract_reports(text) == _extract(text)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('raise ValueError("bad")', "bad value[0m"),
        ('raise ValueError("bad")', "[31mbad value"),
        ('raise ValueError("bad[0m")', "bad value"),
        ("raise ValueError(x)", "bad [1;31mvalue[0m 3"),
    ],
)
def test_plain_traceback_fast_path_leaves_colour_remnants_to_the_full_parser(
    source: str, message: str
) -> None:
    # A colour code whose ESC was lost in copy-paste (``[0m``) is removed by the full
    # parser; the fast path used to keep it in the message and the frame's code.
    from errcat.extract.pipeline import _extract

    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app.py", line 3, in main\n'
        f"    {source}\n"
        f"ValueError: {message}\n"
    )
    (report,) = extract_reports(text)
    assert [report] == _extract(text)
    assert "[0m" not in report.message and "[0m" not in report.frames[0].source
    assert "[31m" not in report.message and "[1;31m" not in report.message


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\x1b"), max_size=30
    ),
    st.text(
        alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\x1b"), max_size=30
    ),
    st.sampled_from(["[0m", "[31m", "[1;32m", "[m", "[0", "[12345m"]),
)
def test_plain_traceback_fast_path_agrees_on_colour_remnants(
    head: str, tail: str, remnant: str
) -> None:
    from errcat.extract.pipeline import _extract

    def inner() -> None:
        raise ValueError(head + remnant + tail)

    try:
        inner()
    except ValueError as exc:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    assert extract_reports(text) == _extract(text)


def test_plain_traceback_fast_path_is_taken_for_a_plain_traceback() -> None:
    from errcat.extract.tracebacks import _plain_traceback

    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app.py", line 3, in <module>\n'
        "    main()\n"
        '  File "/srv/lib.py", line 10, in main\n'
        "    raise ValueError(f'bad {x}')\n"
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "ValueError: bad value 3\n"
    )
    (report,) = _plain_traceback(text) or []
    assert report.error_class == "ValueError" and report.message == "bad value 3"
    assert [f.line for f in report.frames] == [3, 10]


def test_vllm_style_prefix_with_a_full_date() -> None:
    text = "ERROR 2025-07-21 14:34:24.934 engine_factory.py:62] ValueError: bad dtype\n"
    assert summary(text) == [("line", "ValueError", "bad dtype")]


@pytest.mark.parametrize(
    "name",
    [
        # As fontTools' own classes print (no Error suffix; a capital in the package).
        "fontTools.misc.filesystem._errors.ResourceNotFound",
        "fontTools.misc.filesystem._errors.DirectoryNotEmpty",
        "fontTools.feaLib.error.IncludedFeaNotFound",
        "PyQt5.uic.exceptions.NoSuchWidget",
    ],
)
def test_mixed_case_package_classes_are_read_as_classes(name: str) -> None:
    (report,) = extract_reports(f"{name}: Source 'a/b.cfg' does not exist")
    assert (report.error_class, report.message) == (name, "Source 'a/b.cfg' does not exist")


@pytest.mark.parametrize("text", ["Note.Below: the server said no", "See Config.Reset: no"])
def test_a_capitalised_word_before_one_dot_is_prose(text: str) -> None:
    assert all(report.error_class is None for report in extract_reports(text))


def _stdlib_exception_names() -> list[str]:
    """How tracebacks print the exception classes of a spread of stdlib modules."""
    import importlib

    names: set[str] = set()
    modules = (
        "binascii configparser copy csv email.errors ftplib getopt gzip http.client imaplib "
        "json locale pickle re shutil smtplib socket sqlite3 ssl struct tarfile urllib.error "
        "wave xml.parsers.expat zipfile zlib"
    )
    for module_name in modules.split():
        module = importlib.import_module(module_name)
        todo = list(vars(module).values())
        while todo:
            value = todo.pop()
            if not isinstance(value, type):
                continue
            if issubclass(value, BaseException) and value.__module__ != "builtins":
                names.add(f"{value.__module__}.{value.__qualname__}")
            if value.__module__ == module.__name__:
                todo.extend(
                    v for v in vars(value).values() if isinstance(v, type) and v is not value
                )
    return sorted(names)


@pytest.mark.parametrize("name", _stdlib_exception_names())
def test_every_stdlib_exception_class_is_read_as_a_class(name: str) -> None:
    # `imaplib.IMAP4.error`, `ftplib.error_perm`, `_csv.Error`: as Python prints them.
    (report,) = extract_reports(f"{name}: the server said no to 42")
    assert report.kind == "line"
    assert report.error_class == name
    assert report.message == "the server said no to 42"


# -- rich's boxed tracebacks ---------------------------------------------------------

RICH = Path(__file__).parent / "fixtures" / "rich"
RICH_SITE = "/tmp/richdemo/usr/local/lib/python3.12/dist-packages/sglang/srt/arg_groups/moe_hook.py"
DEEPEP = (
    "DeepEP v2 MoE is not validated as a speculative draft backend. "
    "Select another --speculative-moe-a2a-backend."
)


def test_a_rich_traceback_gives_its_frames_even_with_a_path_folded_mid_word() -> None:
    (report,) = extract_reports((RICH / "folded-path-80.txt").read_text(encoding="utf-8"))
    assert (report.kind, report.error_class) == ("traceback", "ValueError")
    assert " ".join(report.message.split()) == DEEPEP
    assert [(f.path, f.line, f.function, f.source) for f in report.frames] == [
        ("/tmp/richdemo/run2.py", 9, "<module>", 'check("deepep")'),
        (RICH_SITE, 3, "check", "raise ValueError("),
    ]


def test_a_rich_chain_with_locals_panels_gives_both_exceptions() -> None:
    cause, outer = extract_reports((RICH / "chained-locals-90.txt").read_text(encoding="utf-8"))
    assert (cause.error_class, outer.error_class) == ("ValueError", "RuntimeError")
    assert outer.message == "server failed to start"
    assert [(f.line, f.function) for f in cause.frames] == [(11, "launch"), (3, "check")]
    assert cause.frames[-1].path == RICH_SITE
    assert [(f.line, f.source) for f in outer.frames] == [
        (18, 'launch("deepep")'),
        (13, 'raise RuntimeError("server failed to start") from e'),
    ]


@pytest.mark.parametrize("keep", [1, 5, 14])
def test_a_rich_box_cut_off_keeps_what_came_before_the_cut(keep: int) -> None:
    lines = (RICH / "folded-path-80.txt").read_text(encoding="utf-8").splitlines()
    reports = extract_reports("\n".join(lines[:keep]))
    assert len(reports) == 1 and reports[0].error_class is None
    if keep == 14:  # both frame titles were inside the part kept
        assert [f.line for f in reports[0].frames] == [9, 3]


def test_a_rich_panel_that_is_not_a_traceback_is_left_as_text() -> None:
    text = "╭──── Settings ────╮\n│ port = 30000     │\n╰──────────────────╯\nValueError: bad port"
    reports = extract_reports(text)
    assert [(r.kind, r.error_class, r.message) for r in reports] == [
        ("line", "ValueError", "bad port")
    ]
    assert not reports[0].frames


# -- IPython's and Jupyter's tracebacks ----------------------------------------------

IPYTHON = Path(__file__).parent / "fixtures" / "ipython"


def test_an_ipython_traceback_gives_its_frames() -> None:
    (report,) = extract_reports((IPYTHON / "single.txt").read_text(encoding="utf-8"))
    assert (report.kind, report.error_class, report.message) == ("traceback", "ValueError", DEEPEP)
    assert [(f.path, f.line, f.function, f.source) for f in report.frames] == [
        ("Cell In[1]", 1, "<module>", 'check("deepep")'),
        (RICH_SITE, 3, "check", "raise ValueError("),
    ]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_ipython_chain_gives_both_exceptions(newline: str) -> None:
    text = (IPYTHON / "chained.txt").read_text(encoding="utf-8").replace("\n", newline)
    cause, outer = extract_reports(text)
    assert (cause.error_class, outer.error_class) == ("ValueError", "RuntimeError")
    assert [(f.path, f.line, f.function) for f in cause.frames] == [
        ("Cell In[1]", 3, "launch"),
        (RICH_SITE, 3, "check"),
    ]
    assert [(f.line, f.source) for f in outer.frames] == [
        (1, 'launch("deepep")'),
        (5, "raise RuntimeError('server failed to start') from e"),
    ]


def test_an_ipython_7_traceback_takes_the_line_from_the_marked_source() -> None:
    # IPython 7 titled a frame "<path> in <function>(<args>)", without its line.
    text = (
        "-" * 75 + "\n"
        "ValueError                                Traceback (most recent call last)\n"
        "<ipython-input-2-a3ab5d4b0ae3> in <module>\n"
        '----> 1 check("deepep")\n'
        "\n"
        "/usr/lib/python3.8/site-packages/sglang/srt/moe_hook.py in LLM.check(self, backend)\n"
        "      1 def check(backend):\n"
        "----> 2     raise ValueError(f'value {backend} not in list')\n"
        "\n"
        "ValueError: value 3 not in list\n"
    )
    (report,) = extract_reports(text)
    assert (report.error_class, report.message) == ("ValueError", "value 3 not in list")
    assert [(f.path, f.line, f.function) for f in report.frames] == [
        ("<ipython-input-2-a3ab5d4b0ae3>", 1, "<module>"),
        ("/usr/lib/python3.8/site-packages/sglang/srt/moe_hook.py", 2, "check"),
    ]


# -- pytest's failure reports ----------------------------------------------------------

PYTEST = Path(__file__).parent / "fixtures" / "pytest"


@pytest.mark.parametrize("name", ["long.txt", "short.txt"])
def test_a_pytest_failure_report_gives_its_frames(name: str) -> None:
    report = extract_reports((PYTEST / name).read_text(encoding="utf-8"))[0]
    assert (report.kind, report.error_class, report.message) == ("traceback", "ValueError", DEEPEP)
    assert [(f.path, f.line, f.function, f.source) for f in report.frames] == [
        ("test_x.py", 4, "test_check", 'check("deepep")'),
        ("sglang/srt/arg_groups/moe_hook.py", 3, "check", "raise ValueError("),
    ]


def test_a_pytest_report_cut_before_its_last_place_keeps_its_lines() -> None:
    text = (PYTEST / "long.txt").read_text(encoding="utf-8")
    cut = text[: text.index("sglang/srt/arg_groups/moe_hook.py:3: ValueError")]
    reports = extract_reports(cut)
    assert [(r.kind, r.error_class, r.message) for r in reports] == [("line", "ValueError", DEEPEP)]


@pytest.mark.parametrize(
    "after", ["1 failed in 1.01s", "1 failed, 3 passed, 2 warnings in 12.40s", "FAILED t.py::u"]
)
def test_a_message_does_not_run_on_into_pytest_summary_lines(after: str) -> None:
    text = f"FAILED test_x.py::test_check - ValueError: DeepEP v2 MoE is not valid...\n{after}\n"
    report = extract_reports(text)[0]
    assert (report.error_class, report.message) == ("ValueError", "DeepEP v2 MoE is not valid...")


def test_a_summary_repeating_an_exception_cut_off_is_not_another_report() -> None:
    text = (PYTEST / "long.txt").read_text(encoding="utf-8")
    assert "FAILED test_x.py::test_check - ValueError: DeepEP" in text
    (report,) = extract_reports(text)
    assert report.kind == "traceback" and report.message == DEEPEP
    # Cut off in a summary of its own, with no full report before it, it stays.
    (alone,) = extract_reports(text[text.index("FAILED test_x.py") :])
    assert alone.kind == "line" and alone.message.endswith("as ...")
