"""Browser tests run in Debian's Chromium through Playwright; without it they skip, naming what is missing."""

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Playwright runs an event loop in the test thread; the live server's database access is still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    yield context.new_page()
    context.close()


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """New browser contexts (a phone at 390 × 844 unless told otherwise), all closed after the test."""
    contexts: list[BrowserContext] = []

    def context(**options: Any) -> BrowserContext:
        wanted: dict[str, Any] = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True} | options
        made = browser.new_context(**wanted)
        contexts.append(made)
        return made

    yield context
    for made in contexts:
        made.close()
