"""A club night as the phones around it see it: a German secretary opens a night, the secretary's phone enters a
paper list with a mistake, a table's phone reads its table number, a closed night's QR link, the cashier's summary
and the tables' sums on a German phone, and the club room's screen on a television."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night, Season

from ..factories import make_user
from ..test_queries import enter
from .flow import Entry, fill_game, settle, signed_in, track_requests, under_the_service_worker

NAMES = ("Anna", "Ben", "Cleo", "Dora")


def _season(owner: User) -> Season:
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    return clubs.season_create(club=club, settings=clubs.SeasonSettings(name="Saison 2026"))


def _drawn_night(owner: User, names: tuple[str, ...] = NAMES) -> Night:
    night = clubs.night_create(season=_season(owner), date=datetime.date(2026, 11, 26))
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    return night


def _enter_paper_list(page: Page, seated: list[str], lines: list[tuple[str, str, str]]) -> None:
    """Type each seated player's game points, won and lost games into the paper list's page, and send it."""
    for name, (points, won, lost) in zip(seated, lines, strict=True):
        group = page.get_by_role("group", name=name, exact=True)
        group.get_by_role("spinbutton", name=f"Game points of {name}", exact=True).fill(points)
        group.get_by_role("spinbutton", name="won", exact=True).fill(won)
        group.get_by_role("spinbutton", name="lost", exact=True).fill(lost)
    page.get_by_role("button", name="Enter the list", exact=True).click()


@pytest.mark.django_db(transaction=True)
def test_a_german_secretary_opens_a_night_with_the_date_the_page_offers(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    season = _season(olga)
    page = signed_in(new_context(locale="de-DE"), live_server.url, olga)
    page.goto(live_server.url + reverse("season_detail", args=[season.public_id]))
    expect(page.get_by_label("Datum", exact=True)).to_have_value(datetime.date.today().isoformat())
    page.get_by_role("button", name="Abend eröffnen", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("^Vereinsabend vom"), level=1)).to_be_visible()
    assert Night.objects.get(season=season).date == datetime.date.today()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("script", [True, False], ids=["with a script", "without a script"])
def test_a_refused_paper_list_shows_the_field_in_error_with_a_summary_at_the_top(
    new_context: Callable[..., BrowserContext], live_server: Any, script: bool
) -> None:
    olga = make_user("olga")
    night = _drawn_night(olga)
    table = ClubTable.objects.get(night=night)
    seated = [seat.player.name for seat in table.match.seats.order_by("position")]
    page = signed_in(new_context(java_script_enabled=script), live_server.url, olga)
    page.goto(live_server.url + reverse("night_paper", args=[night.public_id, table.number]) + "?series=1")
    # The last player's game points cannot be reached with one won game.
    lines = [("18", "1", "0"), ("0", "0", "0"), ("0", "0", "0"), ("19", "1", "0")]
    _enter_paper_list(page, seated, lines)

    wrong = page.get_by_role("spinbutton", name=f"Game points of {seated[3]}", exact=True)
    expect(wrong).to_be_focused()
    expect(wrong).to_be_in_viewport()
    summary = page.get_by_role("alert").filter(has_text="The list is not entered yet: please check")
    problem = f"{seated[3]}, game points: No 1 won and 0 lost games add up to 19 game points."
    expect(summary.get_by_role("link", name=problem, exact=True)).to_have_attribute("href", "#id_points_3")
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(summary).to_be_in_viewport()


@pytest.mark.django_db(transaction=True)
def test_a_table_entered_from_its_paper_list_shows_the_totals_entered_and_says_so(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    night = _drawn_night(olga)
    table = ClubTable.objects.get(night=night)
    seated = [seat.player.name for seat in table.match.seats.order_by("position")]
    page = signed_in(new_context(), live_server.url, olga)
    page.goto(live_server.url + reverse("night_paper", args=[night.public_id, table.number]) + "?series=1")
    # A grand with 2 won by the first player, clubs with 1 lost by the second: 72 + 50 + 30, −48 − 50, 30, 30.
    lines = [("72", "1", "0"), ("-48", "0", "1"), ("0", "0", "0"), ("0", "0", "0")]
    _enter_paper_list(page, seated, lines)
    page.wait_for_load_state()

    page.goto(live_server.url + reverse("match_detail", args=[table.match.public_id]))
    totals = page.get_by_role("list", name="Totals", exact=True)
    for name, total in zip(seated, ("152", "\N{MINUS SIGN}98", "30", "30"), strict=True):
        expect(totals.get_by_role("listitem").filter(has_text=name)).to_contain_text(total)
    expect(page.get_by_text("The list was kept on paper", exact=False).first).to_be_in_viewport()
    expect(page.get_by_text("games left", exact=False)).to_have_count(0)


# Whether ``text`` within the element is drawn inside its box, not cut off by its ellipsis.
SHOWN_IN_FULL = """(element, text) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.indexOf(text);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + text.length);
        const drawn = range.getBoundingClientRect(), box = element.getBoundingClientRect();
        return drawn.left >= box.left && drawn.right <= box.right;
    }
    return false;
}"""


@pytest.mark.django_db(transaction=True)
def test_a_tables_phone_sees_its_table_number_and_series_at_the_top(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    night = _drawn_night(olga, ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus"))
    table = ClubTable.objects.select_related("match").get(night=night, number=2)
    phone = new_context().new_page()
    phone.goto(live_server.url + reverse("match_join", args=[table.match.invite_token]))
    phone.get_by_role("button", name="Score on this phone", exact=True).click()
    heading = phone.get_by_role("heading", level=1)
    expect(heading).to_contain_text("Table 2, series 1")
    assert heading.evaluate(SHOWN_IN_FULL, "Table 2, series 1")
    assert not heading.evaluate(SHOWN_IN_FULL, "games left")  # the rest of the line is cut at 390 px
    expect(heading).to_contain_text("Skatclub Herz Dame")


@pytest.mark.django_db(transaction=True)
def test_the_club_rooms_screen_fills_a_television_in_type_read_from_across_the_room(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    night = _drawn_night(olga)
    club = night.season.club
    tv = new_context(viewport={"width": 1920, "height": 1080}, device_scale_factor=1, is_mobile=False).new_page()
    tv.clock.install()
    tv.goto(live_server.url + reverse("club_screen", args=[club.screen_token]))

    expect(tv.get_by_role("heading", name="Skatclub Herz Dame", level=1)).to_be_visible()
    expect(tv.get_by_role("navigation")).to_have_count(0)
    expect(tv.get_by_role("link")).to_have_count(0)  # neither "Log in" nor the footer's links
    expect(tv.get_by_role("contentinfo")).to_have_count(0)
    tables = tv.get_by_role("table")
    expect(tables).to_have_count(2)
    for table in tables.all():
        expect(table).to_be_in_viewport()
    boxes = [table.bounding_box() for table in tables.all()]
    assert all(box is not None for box in boxes)
    assert max(box["x"] + box["width"] for box in boxes if box) > 1920 * 0.9  # the whole width, not a column
    # The rows in type read from across the room, their column headings a size smaller.
    cell = tables.first.get_by_role("cell").first
    header = tables.first.get_by_role("columnheader", name="Player", exact=True)
    assert float(cell.evaluate("cell => getComputedStyle(cell).fontSize").removesuffix("px")) >= 28
    assert float(header.evaluate("cell => getComputedStyle(cell).fontSize").removesuffix("px")) >= 22

    # It refreshes itself: a game entered at a table is on the screen half a minute later, without a reload.
    expect(tv.get_by_text("No results yet.", exact=True)).to_have_count(2)
    enter(ClubTable.objects.get(night=night).match, 1)
    tv.clock.fast_forward("00:31")
    expect(tv.get_by_text("No results yet.", exact=True)).to_have_count(0)


@pytest.mark.django_db(transaction=True)
def test_a_closed_nights_qr_link_shows_the_night_is_closed_with_its_results_in_the_phones_language(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    night = _drawn_night(olga)
    table = ClubTable.objects.select_related("match").get(night=night)
    enter(table.match, 2)
    link = live_server.url + reverse("match_join", args=[table.match.invite_token])
    clubs.night_close(night=night, user=olga, unfinished=True)
    phone = new_context(locale="de-DE").new_page()
    answer = phone.goto(link)
    assert answer is not None
    assert answer.status == 410
    expect(phone.get_by_role("heading", name="Der Abend ist geschlossen", level=1)).to_be_visible()
    expect(phone.get_by_text("An Tisch 1 kann nicht mehr gezählt werden", exact=False)).to_be_visible()
    results = phone.get_by_role("table")
    expect(results.get_by_role("columnheader", name="Punkte", exact=True)).to_be_visible()
    expect(results.get_by_role("row")).to_have_count(1 + len(NAMES))
    expect(phone.get_by_role("link", name="Anmelden", exact=True)).to_be_visible()  # a page of the site


@pytest.mark.django_db(transaction=True)
def test_a_game_waiting_on_a_tables_phone_when_the_night_closes_is_shown_closed_and_can_be_dropped(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    night = _drawn_night(olga)
    table = ClubTable.objects.select_related("match").get(night=night)
    seated = [seat.player.name for seat in table.match.seats.order_by("position")]
    phone = new_context().new_page()
    phone.goto(live_server.url + reverse("match_join", args=[table.match.invite_token]))
    phone.get_by_role("button", name="Score on this phone", exact=True).click()
    expect(phone).to_have_url(re.compile(r"/matches/[0-9a-f-]{36}/$"))
    # Offline, the outbox's script comes from the service worker's cache.
    under_the_service_worker(phone)

    # The connection goes just before the game is saved: it waits on the phone. Offline, not a blocked address:
    # no request of the page or of its service worker reaches the server, whichever of them sends it.
    track_requests(phone)
    declarer = seated[(table.match.first_dealer + 1) % len(seated)]
    fill_game(phone, Entry("♣ Clubs", declarer, matadors=1, outcome="won"))
    settle(phone)
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save game", exact=True).click()
    expect(phone.get_by_role("region", name="Not sent yet", exact=True).get_by_role("listitem")).to_have_count(1)
    clubs.night_close(night=night, user=olga, unfinished=True)

    # The connection is back: the outbox sends the game, and the server's answer reloads the page.
    phone.context.set_offline(False)
    expect(phone.get_by_role("heading", name="The night is closed", level=1)).to_be_visible()
    waiting = phone.get_by_role("region", name="Not sent yet", exact=True)
    expect(waiting).to_contain_text("The list is closed: game 1 was not saved and waits only on this phone.")
    expect(waiting).to_contain_text("♣ Clubs")
    waiting.get_by_role("button", name="Drop it", exact=True).click()
    expect(waiting).to_be_hidden()
    phone.reload()
    expect(phone.get_by_role("heading", name="The night is closed", level=1)).to_be_visible()
    expect(phone.get_by_role("region", name="Not sent yet", exact=True)).to_be_hidden()
    assert not table.match.games.exists()


@pytest.mark.django_db(transaction=True)
def test_the_cashiers_summary_and_the_tables_sums_on_a_german_phone_show_each_amount_and_name_whole(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    club = clubs.club_create(owner=olga, name="Skatclub Herz Dame")
    money = clubs.SeasonSettings(name="Saison 2026", stake=500, list_fee=200, lost_fees=((1, 50), (4, 100)))
    night = clubs.night_create(season=clubs.season_create(club=club, settings=money), date=datetime.date(2026, 11, 26))
    names = ("Hannelore", "Oluwaseun", "Klaus-Dieter", "Siobhán", "Gisela", "Jürgen", "Zofia", "Mateo")
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=olga)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        enter(table.match, 9)
    page = signed_in(new_context(locale="de-DE"), live_server.url, olga)
    page.goto(live_server.url + reverse("night_detail", args=[night.public_id]))
    cashier = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name="Saldo"))
    expect(cashier.get_by_role("row")).to_have_count(1 + len(names))
    # Every column in sight without scrolling sideways, the balance too.
    wrap = cashier.locator("xpath=..")
    assert wrap.evaluate("(wrap) => wrap.scrollWidth <= wrap.clientWidth + 1")
    # Each amount on one line, each name broken nowhere but at its hyphen: in the cashier's summary as in the sums
    # of each table's list.
    footers = page.locator("table.footer")
    expect(footers).to_have_count(2)
    for cell in [*cashier.get_by_role("cell").all(), *footers.get_by_role("cell").all()]:
        lines = cell.evaluate(
            """(cell) => {
                const range = document.createRange();
                range.selectNodeContents(cell);
                return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
            }"""
        )
        assert lines == 1 or cell.text_content() == "Klaus-Dieter", cell.text_content()
