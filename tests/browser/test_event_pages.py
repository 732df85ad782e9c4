"""Every page of a league and of an open tournament, on a phone (390 × 844) and on a room's screen (1920 × 1080), in
English and German, light and dark: axe-core finds nothing, and nothing makes the page scroll sideways. The league
has a closed venue with its report; the tournament a closed series, a series being played and a desk with money still
owed. The cashier's list of a field of long names shows every amount on a phone and stays a table on a desk, its
headings whole words there, and between the two it does not scroll sideways; a screen reader hears each amount on a
phone with its heading once; on a phone the prize list keeps each amount with its € and a prize's name breaks after
its comma, never before it nor between its place and the number."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Locator, ViewportSize, expect

from matches.interclub import services as leagues
from matches.tournaments import services as tournaments
from matches.tournaments.models import Entry, Series, Tournament

from ..factories import make_user
from ..interclub_setup import check_in_all, enter_series, league_setup
from ..tournaments_setup import announce, enter_field, play_series
from .flow import signed_in
from .test_accessibility import _violations

SCORES = (
    {"Herz Dame I": 3683, "Kreuz Bube I": 3000, "Pik As I": 2900, "Karo Sieben I": 2800},
    {"Herz Dame I": 3283, "Kreuz Bube I": 3400, "Pik As I": 3300, "Karo Sieben I": 3000},
)
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "room screen": {"width": 1920, "height": 1080},
}


def _pages() -> tuple[User, dict[str, str]]:
    """The league's and the tournament's pages, and the account that runs both (the league's manager, the
    tournament's organiser)."""
    setup = league_setup(series=2)
    manager = setup.manager
    for number, scores in enumerate(SCORES, start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=manager)
        enter_series(setup, number, scores, manager)
    venue = leagues.venue_close(venue=setup.venue, user=manager)
    tournament = announce(manager)
    enter_field(tournament, 11, online=2)
    tournaments.series_draw(tournament=tournament, number=1)
    first = Series.objects.get(tournament=tournament)
    play_series(first)
    tournaments.series_close(series=first, user=manager)
    tournaments.series_draw(tournament=tournament, number=2)
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None
    tournament_pages = ("detail", "results", "live", "prizes", "cashier", "desk", "enter")
    return manager, {
        "league": reverse("interclub_league", args=[setup.league.public_id]),
        "group": reverse("interclub_group", args=[setup.group.public_id]),
        "team": reverse("interclub_team", args=[setup.teams[0].public_id]),
        "venue": reverse("interclub_venue", args=[venue.public_id]),
        "match report": reverse("interclub_report", args=[venue.public_id]),
        "venue screen": reverse("interclub_venue_screen", args=[venue.public_id]),
        "new venue": reverse("interclub_venue_new", args=[setup.match_day.public_id]),
        "leagues": reverse("interclub_leagues"),
        "club screen": reverse("club_screen", args=[setup.clubs[0].screen_token]),
        **{name: reverse(f"tournaments:{name}", args=[tournament.public_id]) for name in tournament_pages},
        "tournaments": reverse("tournaments:list"),
        "entry": reverse("tournaments:entry", args=[entry.public_id]),
    }


def _rows_out_of_line(page: Any) -> list[str]:
    """Table rows whose cells' first lines of text do not sit level (a team's name a line below its figures). A row
    laid out as a card on a phone (the cashier's list) heads it with its first cell on a line of its own: the cells
    under it are the ones to sit level."""
    found: list[str] = page.evaluate(
        """() => Array.from(document.querySelectorAll("tbody tr")).filter((row) => {
            const cells = Array.from(row.cells);
            const side = getComputedStyle(row).display === "table-row" ? cells : cells.slice(1);
            const tops = side.map((cell) => {
                const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, (node) =>
                    node.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP);
                const text = walker.nextNode();
                if (!text) return null;
                const range = document.createRange();
                range.selectNodeContents(text);
                return range.getClientRects()[0]?.bottom;
            }).filter((bottom) => bottom !== null && bottom !== undefined);
            return tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 4;
        }).map((row) => row.textContent.replace(/\\s+/g, " ").trim().slice(0, 60))"""
    )
    return found


def _sideways(page: Any) -> list[str]:
    """What is wider than the page (its scroll width beyond the screen's: a phone widens its window to what is too
    wide, so the window's width would not tell), and each table that scrolls in its box."""
    found: list[str] = page.evaluate(
        """() => {
            const wide = [];
            if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) wide.push("the page");
            for (const box of document.querySelectorAll(".table-wrap")) {
                const table = box.querySelector("table");
                if (box.scrollWidth > box.clientWidth + 1) wide.push(table ? table.outerHTML.slice(0, 80) : "a table");
            }
            return wide;
        }"""
    )
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_no_league_or_tournament_page_has_an_accessibility_problem_or_scrolls_sideways(
    browser: Browser, live_server: Any, size: str, language: str, scheme: Literal["light", "dark"]
) -> None:
    manager, pages = _pages()
    context = browser.new_context(
        viewport=SIZES[size],
        is_mobile=size == "phone",
        color_scheme=scheme,
        locale={"en": "en-GB", "de": "de-DE"}[language],
        bypass_csp=True,
    )
    page = signed_in(context, live_server.url, manager)
    problems: dict[str, list[str]] = {}
    for name, address in pages.items():
        page.goto(f"{live_server.url}{address}")
        assert page.locator("html").get_attribute("lang") == {"en": "en-gb", "de": "de"}[language]
        found = _violations(page) + [f"scrolls sideways: {what}" for what in _sideways(page)]
        found += [f"cells out of line: {row}" for row in _rows_out_of_line(page)]
        if found:
            problems[name] = found
    context.close()
    assert not problems, "\n".join(f"{name}: {found}" for name, found in problems.items())


# A field as a door sees it: names of two or three words, one with a hyphen, letters beyond A to Z.
LONG_FIELD = (
    "Maximilian Borgstedt-Hoffmann",
    "Anneliese Oberhauser",
    "Bartholomäus Zimmermann",
    "Wolfgang Schwarzenberger",
    "Oluwaseun Adeyemi",
    "Siobhán O'Sullivan",
    "Katharina Lüdenscheidt",
    "Hans-Jürgen Müller",
    "Gül Demir",
    "Renate Kowalczyk",
    "Mateo Fernández",
    "Gisela Brinkmann",
)
CASHIER = {
    "en": ("Per player, in euros", "withdrew after series 1"),
    "de": ("Je Spieler, in Euro", "nach Serie 1 zurückgetreten"),
}


# The women and the seniors of the long field, so that the prize list has a prize of each category.
CATEGORIES = {"Anneliese Oberhauser": "Damen", "Renate Kowalczyk": "Damen", "Mateo Fernández": "Senioren"}
LOCALES = {"en": "en-GB", "de": "de-DE"}
DESK: ViewportSize = {"width": 1280, "height": 800}
SOFT_HYPHEN = "\N{SOFT HYPHEN}"


def _long_field_played(organiser: User) -> Tournament:
    """A tournament of the long field (every third yet to pay, some in a category), its first series played and
    closed, and its first entrant withdrawn after it."""
    tournament = announce(organiser)
    entries = [
        tournaments.entry_at_door(
            tournament=tournament,
            form=tournaments.EntryForm(name, category=CATEGORIES.get(name, "")),
            paid=index % 3 != 1,
        )
        for index, name in enumerate(LONG_FIELD)
    ]
    tournaments.series_draw(tournament=tournament, number=1)
    first = Series.objects.get(tournament=tournament)
    play_series(first)
    tournaments.series_close(series=first, user=organiser)
    tournaments.entry_withdraw(entry=entries[0])
    return tournament


def _lines(element: Locator) -> list[str]:
    """The text of ``element`` line by line as the browser broke it: a word hyphenated at a line's end is cut in two
    (without the hyphen the browser drew), a soft hyphen it was not broken at is left out."""
    found: list[str] = element.evaluate(
        """(element) => {
            const lines = [];
            let top = null;
            const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (let index = 0; index < node.length; index++) {
                    const range = document.createRange();
                    range.setStart(node, index);
                    range.setEnd(node, index + 1);
                    const box = Array.from(range.getClientRects()).filter((rect) => rect.width).pop();
                    if (!box) continue;
                    if (top === null || box.top > top + box.height / 2) {
                        lines.push("");
                        top = box.top;
                    }
                    lines[lines.length - 1] += node.data[index];
                }
            }
            return lines.map((line) => line.replaceAll("\\u00ad", "").trim());
        }"""
    )
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_cashiers_list_shows_every_figure_of_a_long_field_on_a_phone_and_stays_a_table_on_a_desk(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    organiser = make_user("olga")
    tournament = _long_field_played(organiser)
    address = live_server.url + reverse("tournaments:cashier", args=[tournament.public_id])
    caption, withdrawn = CASHIER[language]
    locale = LOCALES[language]

    phone = signed_in(new_context(locale=locale), live_server.url, organiser)
    phone.goto(address)
    table = phone.get_by_role("table", name=caption, exact=True)
    rows = table.get_by_role("row").filter(has=phone.get_by_role("cell"))
    expect(rows).to_have_count(len(LONG_FIELD))
    expect(rows.filter(has_text=LONG_FIELD[0])).to_contain_text(withdrawn)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert _sideways(phone) == []
    # Every figure in sight, none scrolled away in the list's box.
    for cell in table.get_by_role("cell").all():
        box = cell.bounding_box()
        assert box is not None
        assert box["x"] >= 0, cell.inner_text()
        assert box["x"] + box["width"] <= 390, cell.inner_text()

    desk = signed_in(
        new_context(viewport=DESK, is_mobile=False, device_scale_factor=1, locale=locale),
        live_server.url,
        organiser,
    )
    desk.goto(address)
    table = desk.get_by_role("table", name=caption, exact=True)
    expect(table.get_by_role("columnheader")).to_have_count(6)
    for header in table.get_by_role("columnheader").all():
        expect(header).to_be_visible()
    # On a desk each player's line is a row of the table: its six cells side by side.
    for row in table.get_by_role("row").filter(has=desk.get_by_role("cell")).all():
        boxes = [cell.bounding_box() for cell in row.get_by_role("cell").all()]
        assert all(box is not None for box in boxes)
        assert len({round(box["y"]) for box in boxes if box is not None}) == 1, row.inner_text()
        lefts = [box["x"] for box in boxes if box is not None]
        assert lefts == sorted(lefts), row.inner_text()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_screen_reader_hears_each_amount_of_the_cashiers_cards_with_its_heading_once(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    """On a phone the heading shown above each amount is for the eye: a screen reader has the amount from its cell
    and the heading from the list's row of headings, not the heading again in the cell's own words."""
    organiser = make_user("olga")
    tournament = _long_field_played(organiser)
    phone = signed_in(new_context(locale=LOCALES[language]), live_server.url, organiser)
    phone.goto(live_server.url + reverse("tournaments:cashier", args=[tournament.public_id]))
    table = phone.get_by_role("table", name=CASHIER[language][0], exact=True)
    headings = [header.inner_text().replace(SOFT_HYPHEN, "") for header in table.get_by_role("columnheader").all()]
    assert len(headings) == 6
    for row in table.get_by_role("row").filter(has=phone.get_by_role("cell")).all():
        amounts = row.get_by_role("cell").all()[1:]
        assert len(amounts) == 5
        for heading, amount in zip(headings[1:], amounts, strict=True):
            # The heading stays in sight above the amount, and out of the cell's name.
            shown = amount.evaluate("(cell) => getComputedStyle(cell, '::before').content")
            assert heading in shown.replace(SOFT_HYPHEN, ""), shown
            expect(amount).to_have_accessible_name(re.compile(r"^−?\d+[.,]\d\d$"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_cashiers_list_between_a_phone_and_a_desk_does_not_scroll_sideways(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    """From just wider than the phone's cards (30rem) to a desk's width the list is a table, a withdrawal's mark
    wrapping under its name as it does in the rankings, never widening the table past the screen."""
    organiser = make_user("olga")
    tournament = _long_field_played(organiser)
    page = signed_in(
        new_context(viewport={"width": 481, "height": 900}, locale=LOCALES[language]), live_server.url, organiser
    )
    page.goto(live_server.url + reverse("tournaments:cashier", args=[tournament.public_id]))
    table = page.get_by_role("table", name=CASHIER[language][0], exact=True)
    for width in range(481, DESK["width"] + 1, 20):
        page.set_viewport_size({"width": width, "height": 900})
        expect(table.get_by_role("columnheader").first).to_be_visible()
        assert _sideways(page) == [], width


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_cashiers_headings_on_a_desk_are_whole_words(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    organiser = make_user("olga")
    tournament = _long_field_played(organiser)
    desk = signed_in(
        new_context(viewport=DESK, is_mobile=False, device_scale_factor=1, locale=LOCALES[language]),
        live_server.url,
        organiser,
    )
    desk.goto(live_server.url + reverse("tournaments:cashier", args=[tournament.public_id]))
    headers = desk.get_by_role("table", name=CASHIER[language][0], exact=True).get_by_role("columnheader")
    expect(headers).to_have_count(6)
    # A heading may wrap between its words, never inside one ("Ge-wonnen", "Auszu-zahlen"): there is room.
    for header in headers.all():
        lines = _lines(header)
        assert " ".join(lines) == " ".join(header.inner_text().replace(SOFT_HYPHEN, "").split()), lines


PRIZES = {"en": ("Prizes", "place"), "de": ("Preise", "Platz")}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_an_amount_on_the_prize_list_keeps_its_euro_sign_on_its_line_on_a_phone(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    tournament = _long_field_played(make_user("olga"))
    phone = new_context(locale=LOCALES[language]).new_page()
    phone.goto(live_server.url + reverse("tournaments:prizes", args=[tournament.public_id]))
    table = phone.get_by_role("table", name=PRIZES[language][0], exact=True)
    rows = table.get_by_role("row").filter(has=phone.get_by_role("cell"))
    expect(rows).to_have_count(12)
    for row in rows.all():
        amount = row.get_by_role("cell").nth(1)
        expect(amount).to_contain_text("€")
        assert len(_lines(amount)) == 1, _lines(amount)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_prizes_name_on_a_phone_keeps_its_comma_with_the_word_before_it_and_its_place_with_its_number(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    tournament = _long_field_played(make_user("olga"))
    phone = new_context(locale=LOCALES[language]).new_page()
    phone.goto(live_server.url + reverse("tournaments:prizes", args=[tournament.public_id]))
    caption, place = PRIZES[language]
    table = phone.get_by_role("table", name=caption, exact=True)
    names = [
        row.get_by_role("cell").first for row in table.get_by_role("row").filter(has=phone.get_by_role("cell")).all()
    ]
    assert len(names) == 12
    assert any("Senioren," in name.inner_text() for name in names)
    for name in names:
        lines = _lines(name)
        assert not any(line.startswith(",") for line in lines), lines
        assert re.search(rf"{place}\s\d+$", lines[-1], re.IGNORECASE), lines


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_results_of_a_field_with_an_entrant_who_withdrew_fit_a_phone(
    new_context: Callable[..., BrowserContext], live_server: Any, language: str
) -> None:
    """The mark of a withdrawal ("nach Serie 1 zurückgetreten") wraps under the name instead of widening the table."""
    tournament = _long_field_played(make_user("olga"))
    phone = new_context(locale=LOCALES[language]).new_page()
    phone.goto(live_server.url + reverse("tournaments:results", args=[tournament.public_id]))
    expect(phone.get_by_text(CASHIER[language][1]).first).to_be_visible()
    assert _sideways(phone) == []
