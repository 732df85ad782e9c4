"""The scripts and styles as production serves them (minified by ``collectstatic``) work as their sources do: the
page's own files are answered minified here, and a game is entered, saved and shown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from playwright.sync_api import Route, expect

from scorekeeper.storage import OWN, minified

from .flow import Entry, expect_status, expect_totals, save_game, sign_up, start_match

STATIC = re.compile(r"/static/((?:css|js)/[^/?]+)")


def answer_minified(route: Route) -> None:
    found = STATIC.search(route.request.url)
    path = finders.find(found.group(1)) if found else None
    if not found or not isinstance(path, str):
        route.continue_()
        return
    name = found.group(1)
    content_type = "text/css" if name.endswith(".css") else "text/javascript"
    route.fulfill(body=minified(name, Path(path).read_bytes()), content_type=content_type)


@pytest.mark.django_db(transaction=True)
def test_a_game_is_saved_with_the_minified_scripts_and_styles(browser: Any, live_server: Any) -> None:
    assert OWN == ("css/", "js/")
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.route("**/static/**", answer_minified)
    sign_up(phone, live_server.url, "anna")
    start_match(phone, "Skat, ISkO", ("Anna", "Ben", "Cleo"))
    # The styles hold: the save bar stays fixed at the bottom of the screen.
    bar = phone.get_by_role("button", name="Save game", exact=True)
    expect(bar).to_be_in_viewport()
    # Ben ♣ with 1, 70: 12 × 2 = 24, won.
    save_game(phone, Entry("♣ Clubs", "Ben", matadors=1, points=70))
    expect_status(phone, 2, "Ben", "Cleo")
    expect_totals(phone, {"Anna": 0, "Ben": 24, "Cleo": 0})
    # The script made the form ready for the next game: the notice names the game, the fields are cleared.
    expect(phone.get_by_text("Game 1 saved", exact=False)).to_be_visible()
    expect(phone.get_by_role("group", name="Declarer", exact=True).get_by_role("radio", checked=True)).to_have_count(0)
    assert errors == []
    context.close()
