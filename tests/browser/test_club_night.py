"""A club night run on phones: eleven players check in, two tables of four and one of three are drawn, every table
opens its list from its QR link without an account, two of them score game by game and the third enters its paper
list, the night is closed, and the season table and the club room's screen show the results."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from .flow import Entry, save_game, sheet_rows, sign_up

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus", "Hanna", "Ida", "Jan"]


@pytest.fixture
def new_phone(browser: Browser) -> Iterator[Callable[[], Page]]:
    """New phones, each a browser context of its own; all closed after the test, so that none goes on asking the
    server for news (a scorer's page polls) while later tests run."""
    contexts: list[BrowserContext] = []

    def phone() -> Page:
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
        contexts.append(context)
        return context.new_page()

    yield phone
    for context in contexts:
        context.close()


def _table(page: Page, number: int) -> Locator:
    return page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=f"Table {number}", exact=True))


def _seated(page: Page, number: int) -> list[str]:
    return _table(page, number).get_by_role("list").first.get_by_role("listitem").all_inner_texts()


@pytest.mark.django_db(transaction=True)
def test_a_club_night_on_phones_from_check_in_to_the_public_screen(
    new_phone: Callable[[], Page], live_server: Any
) -> None:
    base = live_server.url
    secretary = new_phone()
    sign_up(secretary, base, "sven")
    secretary.get_by_role("link", name="Clubs", exact=True).click()
    secretary.get_by_label("Name of the club", exact=True).fill("Skatclub Herz Dame")
    secretary.get_by_role("button", name="Start the club", exact=True).click()
    expect(secretary.get_by_role("heading", name="Skatclub Herz Dame", level=1)).to_be_visible()
    for name in NAMES:
        secretary.get_by_label("Name", exact=True).fill(name)
        secretary.get_by_role("button", name="Add the player", exact=True).click()
        expect(secretary.get_by_role("link", name=name, exact=True)).to_be_visible()
    screen_link = secretary.get_by_label("Its address (open it on the screen in the club room)").input_value()

    secretary.get_by_role("link", name="New season", exact=True).click()
    secretary.get_by_label("Name", exact=True).fill("Saison 2026")
    secretary.get_by_role("button", name="Start the season", exact=True).click()
    expect(secretary.get_by_text("Seeger-Fabian", exact=False)).to_be_visible()
    secretary.get_by_label("Date", exact=True).fill("2026-11-24")
    secretary.get_by_role("button", name="Open the night", exact=True).click()
    expect(secretary.get_by_role("heading", name=re.compile("Club night of"), level=1)).to_be_visible()

    # Check-in: a tap on each member's name, and a walk-in guest by name.
    for name in NAMES:
        secretary.get_by_role("button", name=name, exact=True).click()
        expect(secretary.get_by_role("button", name=f"✓ {name}", exact=True)).to_be_visible()
    secretary.get_by_label("Walk-in guest", exact=True).fill("Walter")
    secretary.get_by_role("button", name="Check in", exact=True).click()
    expect(secretary.get_by_role("heading", name="Check-in: 11 here", exact=True)).to_be_visible()

    secretary.get_by_role("button", name="Draw the tables", exact=True).click()
    for number, size in ((1, 4), (2, 4), (3, 3)):
        expect(_table(secretary, number).get_by_role("img", name=f"QR code to score table {number}")).to_be_visible()
        assert len(_seated(secretary, number)) == size
    links = [
        _table(secretary, number).get_by_label("Scoring link (no account needed)").input_value() for number in (1, 2, 3)
    ]

    # Three phones without accounts open their tables from the links the QR codes carry.
    phones = []
    for number, link in enumerate(links, start=1):
        phone = new_phone()
        phone.goto(link)
        phone.get_by_role("button", name="Score on this phone", exact=True).click()
        expect(phone.get_by_role("button", name="Save game", exact=True)).to_be_visible()
        phones.append((number, phone))
    for number, phone in phones[:2]:
        seated = _seated(secretary, number)
        for game in range(1, 4):
            declarer = seated[game % 4] if game % 4 else seated[1]
            save_game(phone, Entry("♣ Clubs", declarer, matadors=1, outcome="won" if game != 2 else "lost"))
            expect(sheet_rows(phone)).to_have_count(game)

    # The third table played on paper: the secretary enters its footer.
    secretary.reload()
    _table(secretary, 3).get_by_role("link", name="Enter a paper list", exact=True).click()
    third = secretary.get_by_role("group")
    values = [("455", "20", "4"), ("360", "10", "0"), ("0", "0", "0")]
    for group, (points, won, lost) in zip(third.all(), values, strict=True):
        group.get_by_role("spinbutton", name=re.compile("^Game points of")).fill(points)
        group.get_by_role("spinbutton", name="won", exact=True).fill(won)
        group.get_by_role("spinbutton", name="lost", exact=True).fill(lost)
    secretary.get_by_role("button", name="Enter the list", exact=True).click()
    expect(secretary.get_by_text("The list of table 3 is entered.", exact=True)).to_be_visible()
    expect(secretary.get_by_role("cell", name="1255", exact=True).first).to_be_visible()

    # Tables 1 and 2 played 3 of their 48 games: the close names them and waits for the tick.
    for number in (1, 2):
        short = f"Table {number} of series 1 has 3 of its 48 games on the list."
        expect(secretary.get_by_text(short, exact=True)).to_be_visible()
    secretary.get_by_label("Yes, close the night with these tables' lists as they stand", exact=True).check()
    secretary.get_by_role("button", name="Close the night (locks every list)", exact=True).click()
    expect(secretary.get_by_text("The night is closed: every list is locked.", exact=True)).to_be_visible()
    # A table's link dies with the closed night.
    number, phone = phones[0]
    phone.goto(links[0])
    expect(phone.get_by_role("button", name="Save game", exact=True)).to_have_count(0)

    secretary.get_by_role("link", name="Saison 2026", exact=True).click()
    season = secretary.get_by_role("table").first
    expect(season.get_by_role("row")).to_have_count(12)  # the header and the eleven players
    expect(season.get_by_role("cell", name="1255", exact=True)).to_be_visible()

    screen = new_phone()
    screen.goto(screen_link)
    expect(screen.get_by_role("heading", name="Skatclub Herz Dame", level=1)).to_be_visible()
    expect(screen.get_by_role("cell", name="1255", exact=True).first).to_be_visible()
