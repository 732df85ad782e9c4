"""The main menu on a phone and on a desktop, in English and in German: every entry in sight, none past the screen's
edge, the page no wider than the screen, each entry a thumb's size."""

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from matches.registry import menu_entries
from tests.factories import make_user

from .flow import signed_in

MAIN = {"en": "Main", "de": "Hauptnavigation"}
LOG_OUT = {"en": "Log out", "de": "Abmelden"}
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def _entries(page: Page, language: str) -> list[Locator]:
    menu = page.get_by_role("navigation", name=MAIN[language], exact=True)
    expect(menu.get_by_role("button", name=LOG_OUT[language], exact=True)).to_be_visible()
    return [*menu.get_by_role("link").all(), menu.get_by_role("button").first]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_entry_of_the_menu_is_in_sight_without_scrolling_sideways(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str, size: str
) -> None:
    viewport = SIZES[size]
    options: dict[str, Any] = {"viewport": viewport, "locale": language}
    if size == "desktop":
        options |= {"is_mobile": False, "device_scale_factor": 1}
    page = signed_in(new_context(**options), live_server.url, make_user("olga"))
    page.goto(f"{live_server.url}/")
    entries = _entries(page, language)
    # Matches, Players, each app's entry (the test settings add a fourth kind of event), Account, Log out.
    assert len(entries) == 4 + len(menu_entries()), [entry.text_content() for entry in entries]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    for entry in entries:
        box = entry.bounding_box()
        assert box is not None, entry.text_content()
        assert box["x"] >= 0, entry.text_content()
        assert box["x"] + box["width"] <= viewport["width"], entry.text_content()
        assert box["y"] + box["height"] <= viewport["height"], entry.text_content()
        assert box["height"] >= 44, entry.text_content()
        assert box["width"] >= 44, entry.text_content()
