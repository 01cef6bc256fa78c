"""The paste page, end to end in a real headless Chromium driven by Playwright.

Uses Debian's ``chromium`` (``ERRCAT_CHROMIUM`` overrides the path); never a
browser Playwright downloads. Skips, saying why, when Playwright, Chromium or
the server extra is missing; CI installs all three and sets
``ERRCAT_REQUIRE_BROWSER=1``, which turns those skips into failures.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from conftest import SEEDS_FILE
from errcat.catalog import Catalog
from errcat.server import create_app

#: Set (as CI does) to fail instead of skipping when the browser cannot run.
REQUIRED = os.environ.get("ERRCAT_REQUIRE_BROWSER", "") not in {"", "0"}


def unavailable(reason: str) -> NoReturn:
    if REQUIRED:
        pytest.fail(f"{reason} (ERRCAT_REQUIRE_BROWSER is set)", pytrace=False)
    pytest.skip(reason)


try:
    import fastapi  # noqa: F401
    import uvicorn
    from playwright.sync_api import Page, sync_playwright
except ImportError as exc:  # pragma: no cover - depends on the environment
    if REQUIRED:
        raise
    pytest.skip(f"needs errcat[server] and playwright: {exc}", allow_module_level=True)
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SITE = "/usr/local/lib/python3.11/dist-packages/sglang/srt/server_args.py"
SEED_TRACEBACK = (
    "[2026-03-02 10:11:12 TP0] Traceback (most recent call last):\n"
    f'[2026-03-02 10:11:12 TP0]   File "{SITE}", line 7614, in _validate_deepep_v2_moe\n'
    "[2026-03-02 10:11:12 TP0]     raise ValueError(\n"
    "[2026-03-02 10:11:12 TP0] ValueError: DeepEP v2 MoE is not validated for "
    "'MixtralForCausalLM'; supported architectures are ['DeepseekV3ForCausalLM', "
    "'DeepseekV4ForCausalLM', 'Qwen3MoeForCausalLM']. Other model workflows may require an "
    "all-reduce after A2A combine. Use --moe-a2a-backend deepep.\n"
)
SECOND = (
    "ValueError: flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch "
    "(masked layout). DeepEP normal (prefill) dispatch has no CuteDSL FP4 handler. "
    "Pass --deepep-mode low_latency or auto."
)


def chromium_path() -> str:
    for candidate in (
        os.environ.get("ERRCAT_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    unavailable("no Chromium found (apt-get install chromium, or set ERRCAT_CHROMIUM)")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    config = uvicorn.Config(
        create_app(Catalog.from_path(SEEDS_FILE)), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def page(base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    executable = chromium_path()
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=executable, headless=True, args=CHROMIUM_FLAGS
        )
        context.set_default_timeout(20_000)
        # Only the server under test: any other request would be a bug (an external asset).
        outside: list[str] = []

        def guard(route: Any) -> None:
            url = route.request.url
            if url.startswith(base_url):
                route.continue_()
            else:
                outside.append(url)
                route.abort()

        context.route("**/*", guard)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        expected = "Failed to load resource: the server responded with a status of 422"

        def console(msg: Any) -> None:
            if msg.type == "error" and not msg.text.startswith(expected):
                errors.append(msg.text)

        page.on("console", console)
        yield page
        context.close()
        assert not outside, f"the page requested {outside}"
        assert not errors, f"the page logged errors: {errors}"


def paste_and_find(page: Page, base_url: str, text: str) -> None:
    page.goto(base_url)
    page.fill("#text", text)
    page.click("#go")
    page.locator("#results[data-state=done]").wait_for(state="attached")


def test_paste_a_seed_traceback_and_see_the_fix(page: Page, base_url: str) -> None:
    paste_and_find(page, base_url, SEED_TRACEBACK)
    card = page.locator("article.match").first
    card.locator("ol.solutions li").first.wait_for()
    assert card.get_attribute("data-record") == "e06cd5f724ab16c0"
    solutions = card.locator("ol.solutions li").all_inner_texts()
    assert solutions[0] == (
        "Switch to --moe-a2a-backend deepep (v1), which supports the broader set of models"
    )
    assert len(solutions) == 3
    marks = card.locator("h2 mark").all_inner_texts()
    assert marks[0] == "'MixtralForCausalLM'"
    assert "'MixtralForCausalLM'" in card.locator("ul.params").inner_text()
    assert "--moe-a2a-backend deepep_v2" in card.locator("pre.fix").inner_text()
    link = card.locator("p.where a")
    assert link.inner_text() == "python/sglang/srt/server_args.py:7614"
    assert link.get_attribute("href", timeout=5000) == (
        "https://github.com/sgl-project/sglang/blob/0132848349585cfe6aae51c4941cbae872505f8a/"
        "python/sglang/srt/server_args.py#L7596-L7632"
    )
    assert "answer" in card.inner_text()
    assert "1 match" in page.inner_text("#status")


def test_several_matches_are_shown_in_order(page: Page, base_url: str) -> None:
    paste_and_find(page, base_url, SEED_TRACEBACK + "\n" + SECOND + "\n")
    cards = page.locator("article.match")
    cards.nth(1).wait_for()
    shown = [cards.nth(n).get_attribute("data-record") or "" for n in range(cards.count())]
    assert sorted(shown) == ["70e072f5fc32f001", "e06cd5f724ab16c0"]
    # The answer comes first: the error that ended the paste (SECOND, a bare line),
    # whatever its confidence; the other matches follow, best first.
    assert shown[0] == "70e072f5fc32f001"
    confidences = [
        float(cards.nth(n).locator(".confidence").inner_text().removeprefix("confidence "))
        for n in range(1, cards.count())
    ]
    assert confidences == sorted(confidences, reverse=True)
    assert cards.nth(0).inner_text().startswith("#1 ")


def test_no_match_and_hints(page: Page, base_url: str) -> None:
    paste_and_find(page, base_url, "KeyError: 'nobody catalogued this'")
    assert "No record in the errcat catalog matches this error" in page.inner_text("#results")
    assert page.locator("article.match").count() == 0
    paste_and_find(
        page,
        base_url,
        "DeepEP v2 MoE is not supported as a speculative draft backend. "
        "Pick another --speculative-moe-a2a-backend.",
    )
    assert "No confident match" in page.inner_text("#results")
    assert "inexact hint" in page.locator("article.match").first.inner_text()


def test_pasted_markup_is_shown_as_text(page: Page, base_url: str) -> None:
    hostile = SEED_TRACEBACK.replace(
        "'MixtralForCausalLM'", "'<img src=x onerror=document.title=1>'"
    )
    paste_and_find(page, base_url, hostile)
    card = page.locator("article.match").first
    card.locator("ol.solutions li").first.wait_for()
    assert card.locator("h2 mark").first.inner_text() == "'<img src=x onerror=document.title=1>'"
    assert page.locator("#results img").count() == 0
    assert page.title().startswith("errcat")


def test_a_refused_request_is_reported(page: Page, base_url: str) -> None:
    page.goto(base_url)
    page.fill("#text", "x" * (256 * 1024 + 1))
    page.click("#go")
    page.locator("#results[data-state=error]").wait_for(state="attached")
    assert page.inner_text("#status").startswith("Error 422: String should have at most")
    assert page.locator("article.match").count() == 0
