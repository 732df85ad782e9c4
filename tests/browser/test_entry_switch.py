"""A Skat table switches between the full entry and the value entry with one tap at the form's foot: the page carries
only the entry in use, fetches the other one in place, and without a script the same link opens the page with it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .flow import QUIET, expect_totals, sign_up, start_match, track_requests

SKAT_ISKO = "Skat, ISkO"
SKAT = ("Anna", "Ben", "Cleo")


def _phone(browser: Browser, *, script: bool = True) -> Page:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, java_script_enabled=script
    )
    return context.new_page()


def _chip(page: Page, group: str, name: str) -> Locator:
    return page.get_by_role("group", name=group, exact=True).get_by_role("radio", name=name, exact=True)


def _value_entry_shown(page: Page) -> None:
    expect(page.get_by_role("spinbutton", name="Game value", exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="Won or lost", exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="Game", exact=True)).to_have_count(0)
    expect(page.get_by_role("group", name="Matadors", exact=True)).to_have_count(0)
    expect(page.get_by_role("link", name="Enter in full", exact=True)).to_be_visible()


def _full_entry_shown(page: Page) -> None:
    expect(page.get_by_role("group", name="Game", exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="Matadors", exact=True)).to_be_visible()
    expect(page.get_by_role("spinbutton", name="Game value", exact=True)).to_have_count(0)
    expect(page.get_by_role("link", name="Enter by value", exact=True)).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_one_tap_fetches_the_value_entry_in_place_and_one_tap_brings_the_full_entry_back(
    browser: Browser, live_server: Any
) -> None:
    page = _phone(browser)
    sign_up(page, live_server.url, "switcher")
    start_match(page, SKAT_ISKO, SKAT)
    address = page.url
    track_requests(page)
    _full_entry_shown(page)

    page.get_by_role("link", name="Enter by value", exact=True).click()
    _value_entry_shown(page)
    assert page.url == address  # fetched into the page, not a page of its own
    # The value entry's script came with it: typing a value offers the legal values near it.
    _chip(page, "Declarer", "Ben").click()
    page.keyboard.type("48")
    expect(page.get_by_role("button", name="48 ♣ ×4 · Grand ×2", exact=True)).to_be_visible()
    _chip(page, "Won or lost", "won").click()
    page.wait_for_function(QUIET)
    page.get_by_role("button", name="Save game", exact=True).click()
    expect(page.get_by_text("Game 1 saved: Ben +48", exact=True)).to_be_visible()
    _value_entry_shown(page)

    page.get_by_role("link", name="Enter in full", exact=True).click()
    _full_entry_shown(page)
    for group, chip in (("Game", "♣ Clubs"), ("Declarer", "Cleo"), ("Matadors", "with 2"), ("Outcome", "won")):
        _chip(page, group, chip).click()
    page.wait_for_function(QUIET)
    page.get_by_role("button", name="Save game", exact=True).click()
    expect(page.get_by_text("Game 2 saved: Cleo +36", exact=True)).to_be_visible()
    _full_entry_shown(page)
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_without_a_script_the_link_opens_the_value_entry_and_a_game_is_saved_by_value(
    browser: Browser, live_server: Any
) -> None:
    page = _phone(browser, script=False)
    sign_up(page, live_server.url, "noscript")
    match_id = start_match(page, SKAT_ISKO, SKAT)
    _full_entry_shown(page)

    page.get_by_role("link", name="Enter by value", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/\?entry=value$"))
    _value_entry_shown(page)
    _chip(page, "Declarer", "Ben").check()
    page.get_by_role("spinbutton", name="Game value", exact=True).fill("48")
    _chip(page, "Won or lost", "lost").check()
    page.get_by_role("button", name="Save game", exact=True).click()

    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect_totals(page, {"Anna": 0, "Ben": -96, "Cleo": 0})
    _value_entry_shown(page)  # the next game starts by value too
    page.get_by_role("link", name="Enter in full", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/\?entry=full$"))
    _full_entry_shown(page)
    page.context.close()
