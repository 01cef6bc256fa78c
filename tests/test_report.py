"""``errcat scan --html``: the report's parts, and the page in a real headless Chromium.

The browser test uses Debian's ``chromium`` through Playwright as
tests/test_browser.py does (``ERRCAT_CHROMIUM`` overrides the path;
``ERRCAT_REQUIRE_BROWSER=1`` turns a missing browser into a failure).
"""

from __future__ import annotations

import io
import os
import random
import shutil
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SEEDS_FILE
from errcat.catalog import Catalog
from errcat.cli import main
from errcat.report import render_report, write_report
from errcat.report.chart import MAX_BUCKETS, bucket_width, buckets, timeline_svg
from errcat.report.groups import group_events, message_shape
from errcat.report.page import render_page
from errcat.report.timestamps import event_times, timestamp_of
from errcat.scan import ScanEvent, scan_paths

SEED = (
    "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. "
    "Select another --speculative-moe-a2a-backend."
)
SEED_ID = "3fe9ad44079a5344"
REQUIRED = os.environ.get("ERRCAT_REQUIRE_BROWSER", "") not in {"", "0"}


@pytest.fixture(scope="module")
def seeds() -> Catalog:
    return Catalog.from_path(SEEDS_FILE)


def write_night(directory: Path, files: int = 4, lines: int = 400) -> list[Path]:
    """Logs with timestamps through one night, seed errors in a burst, others spread out."""
    rng = random.Random(7)
    start = datetime(2026, 1, 2, 0, 0)
    paths = []
    for number in range(files):
        path = directory / f"node-{number}.log"
        out = []
        for i in range(lines):
            when = start + timedelta(seconds=i * 60)
            ts = when.strftime("%Y-%m-%d %H:%M:%S")
            if 120 <= i < 150 and rng.random() < 0.3:
                out.append(f"[{ts} TP{number}] {SEED}")
            elif rng.random() < 0.02:
                out.append(
                    f"[{ts} TP0] Scheduler hit an exception: Traceback (most recent call last):"
                )
                out.append('  File "/srv/app.py", line 3, in run')
                out.append(f"KeyError: 'shard-{rng.randrange(9)}'")
            else:
                out.append(f"[{ts} TP{number}] Decode batch. #running-req: {rng.randrange(9)}")
        path.write_text("\n".join(out) + "\n")
        paths.append(path)
    return paths


# -- groups, times, chart --------------------------------------------------------------------

_EVENTS = st.lists(
    st.builds(
        ScanEvent,
        path=st.sampled_from(["a.log", "b.log", "c.log"]),
        start_line=st.integers(1, 10_000),
        end_line=st.integers(1, 10_000),
        error_class=st.sampled_from(["ValueError", "KeyError"]),
        message=st.sampled_from(["mode 3", "mode 7", "'x'", "boom"]),
        record_id=st.sampled_from([None, None, "0123456789abcdef"]),
        confidence=st.floats(0, 1),
        exact=st.booleans(),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(events=_EVENTS)
def test_groups_count_every_event_once_and_know_where_it_was(events: list[ScanEvent]) -> None:
    groups = group_events(events)
    assert sum(g.events for g in groups) == len(events)
    assert [g.events for g in groups] == sorted((g.events for g in groups), reverse=True)
    for group in groups:
        mine = [
            e
            for e in events
            if (e.record_id or f"{e.error_class}: {message_shape(e.message)}") == group.key
        ]
        assert len(mine) == group.events
        assert sum(p.events for p in group.places) == group.events
        for place in group.places:
            lines = [e.start_line for e in mine if e.path == place.path]
            assert (place.first_line, place.last_line) == (min(lines), max(lines))


@pytest.mark.parametrize(
    ("line", "year", "expected"),
    [
        ("[2026-01-02 03:04:05 TP3] Decode batch.", 1999, datetime(2026, 1, 2, 3, 4, 5)),
        (
            "2026-01-04 08:00:01,123 - ERROR - app - boom",
            1999,
            datetime(2026, 1, 4, 8, 0, 1, 123000),
        ),
        (
            '{"log":"x","time":"2026-01-02T03:04:05.5Z"}',
            1999,
            datetime(2026, 1, 2, 3, 4, 5, 500000),
        ),
        ("2026-01-02T03:04:05-02:30 host boot", 1999, datetime(2026, 1, 2, 5, 34, 5)),
        (
            "(Worker_TP1 pid=88) INFO 03-06 10:05:08 [core.py:1] x",
            2025,
            datetime(2025, 3, 6, 10, 5, 8),
        ),
        ("Jan  2 03:04:05 gpu-7 vllm[12]: ValueError: x", 2024, datetime(2024, 1, 2, 3, 4, 5)),
        ("INFO 02-30 10:05:08 a day that does not exist", 2025, None),
        ('  File "/srv/app.py", line 3, in run', 2025, None),
    ],
)
def test_timestamps_in_the_forms_logs_print(
    line: str, year: int, expected: datetime | None
) -> None:
    assert timestamp_of(line, year) == expected


@settings(max_examples=200, deadline=None)
@given(
    when=st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31)),
    form=st.sampled_from(
        ["[%Y-%m-%d %H:%M:%S TP0] x", "%Y-%m-%dT%H:%M:%S x", "INFO %m-%d %H:%M:%S [a.py:1] x"]
    ),
)
def test_a_printed_time_reads_back(when: datetime, form: str) -> None:
    when = when.replace(microsecond=0)
    assert timestamp_of(when.strftime(form), when.year) == when


def test_event_times_look_back_to_the_last_timestamped_line(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text(
        "[2026-01-02 03:04:05] starting\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in f\n'
        "KeyError: 'k'\n"
    )
    assert event_times({str(log): [2, 4], "<stdin>": [1]}) == {
        (str(log), 2): datetime(2026, 1, 2, 3, 4, 5),
        (str(log), 4): datetime(2026, 1, 2, 3, 4, 5),
    }


@settings(max_examples=100, deadline=None)
@given(
    start=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1)),
    span=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=3000)),
)
def test_the_timeline_never_draws_more_than_its_bars(start: datetime, span: timedelta) -> None:
    first, width, count = buckets(start, start + span)
    assert 1 <= count <= MAX_BUCKETS and first <= start < first + width
    assert start + span < first + count * width
    assert width == bucket_width(start, start + span)
    svg = timeline_svg([(start, 0), (start + span, 1)], ["a", "b"])
    assert svg.count("<rect") == 2  # one segment per series, in one bar or two


# -- the page -------------------------------------------------------------------------------


def test_page_escapes_what_the_logs_say(seeds: Catalog) -> None:
    event = ScanEvent("<b>.log", 1, 1, "ValueError", "<script>alert(1)</script>", None, 0.0, False)
    page = render_page([event], catalog=seeds)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<script>") == 1  # the page's own


def test_report_of_a_night(tmp_path: Path, seeds: Catalog) -> None:
    paths = write_night(tmp_path)
    events = list(scan_paths(paths, catalog=seeds))
    page = render_report(events, catalog=seeds, inputs=[str(p) for p in paths])
    counts = Counter(e.record_id or e.error_class for e in events)
    assert counts[SEED_ID] > 10
    assert f'data-key="{SEED_ID}"' in page
    assert "Set --speculative-moe-a2a-backend deepep" in page  # the group's advice
    assert "2026-01-02 02:0" in page  # the burst's first time (lines 120.. of each file)
    assert "<svg" in page and "events per" in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://github.com/" in page  # links to the raise site are fine: not assets


def test_scan_html_option_writes_the_report(tmp_path: Path) -> None:
    paths = write_night(tmp_path, files=2, lines=200)
    report = tmp_path / "out" / "report.html"
    report.parent.mkdir()
    err = io.StringIO()
    code = main(
        [
            "scan",
            "--no-bundled",
            "--catalog",
            str(SEEDS_FILE),
            "--summary",
            "--html",
            str(report),
            *map(str, paths),
        ],
        stdout=io.StringIO(),
        stderr=err,
    )
    assert code == 0 and report.exists() and f"wrote {report}" in err.getvalue()
    assert report.read_text().startswith("<!DOCTYPE html>")
    code = main(
        [
            "scan",
            "--no-bundled",
            "--catalog",
            str(SEEDS_FILE),
            "--html",
            str(tmp_path / "no" / "r.html"),
            str(paths[0]),
        ],
        stdout=io.StringIO(),
        stderr=(err := io.StringIO()),
    )
    assert code == 2 and "cannot write the report" in err.getvalue()


# -- in the browser -------------------------------------------------------------------------


def unavailable(reason: str) -> NoReturn:
    if REQUIRED:
        pytest.fail(f"{reason} (ERRCAT_REQUIRE_BROWSER is set)", pytrace=False)
    pytest.skip(reason)


def chromium_path() -> str:
    for candidate in (
        os.environ.get("ERRCAT_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    unavailable("no Chromium found (apt-get install chromium, or set ERRCAT_CHROMIUM)")


def test_report_renders_in_chromium(tmp_path: Path, seeds: Catalog) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - depends on the environment
        unavailable(f"needs playwright: {exc}")
    executable = chromium_path()
    paths = write_night(tmp_path)
    events = list(scan_paths(paths, catalog=seeds))
    report = tmp_path / "report.html"
    write_report(report, events, catalog=seeds, inputs=[str(p) for p in paths])
    groups = len(group_events(events))
    errors: list[str] = []
    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=executable,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
            ],
        )
        page = browser.new_page()

        def guard(route: Any) -> None:
            if route.request.url.startswith("file://"):
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        page.route("**/*", guard)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(report.as_uri())
        page.locator("body[data-ready='1']").wait_for(state="attached")
        assert page.locator("section.group").count() == groups
        assert page.locator("svg.chart rect").count() > 0
        assert page.locator("ul.legend li").count() >= 2
        seed_row = page.locator("#groups tbody tr", has_text="speculative draft backend")
        assert seed_row.count() == 1
        page.fill("#filter", "KeyError")
        assert page.locator("#groups tbody tr:not([hidden])").count() == groups - 1
        assert page.locator("#shown").inner_text() == str(groups - 1)
        page.fill("#filter", "")
        assert page.locator("#groups tbody tr:not([hidden])").count() == groups
        page.click("#groups thead th:nth-child(2)")  # sort by events, then back
        page.click("#groups thead th:nth-child(2)")
        link = seed_row.locator("a")
        href = link.get_attribute("href")
        link.click()
        assert page.evaluate("location.hash") == href
        assert page.locator(f"section{href} ol.solutions li").count() >= 1
        browser.close()
    assert not outside, f"the report requested {outside}"
    assert not errors, f"the report logged errors: {errors}"
