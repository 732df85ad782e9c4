"""The screens for the room, opened as a hall's television shows them (1920 × 1080, German): a tournament's live page
fills the width with places 1–25 and 26–50 side by side in type read from across the room, an entrant who withdrew
marked at their place, a field of twenty one table as wide as both halves, every place on one line however long the
names, the links to a field's next fifty on the screen with place 50, on a 1280 × 720 screen too; a league venue's
screen, reached from the venue's page, shows the series under way with its tables, the day's league points and the
group's table side by side, and with three or four series played all of it and every series' results at once in the
boards' type, however many lines the tables' players take and however many teams the group has, each team's name on
one line, on a 1280 × 720 screen as on a 1920 × 1080 one; a club's screen shows the night's and the season's
standings side by side, every column in its board and every name on one line, from 1280 × 720 to 1920 × 1080, and of
a large season the first places that fit with a note of how many players there are. And the German match report read
on a phone (390 × 844) shows every heading and total whole."""

from __future__ import annotations

import datetime
import itertools
import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, FloatRect, Locator, Page, ViewportSize, expect

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.interclub import services as leagues
from matches.interclub.models import Team
from matches.models import Player
from matches.tournaments import services as tournaments
from matches.tournaments.models import EntryStanding, Series, Tournament

from ..factories import make_user
from ..interclub_setup import check_in_all, enter_series, league_setup
from ..test_queries import enter
from ..tournaments_setup import announce, enter_field, play_series
from .flow import signed_in
from .test_accessibility import _violations

TV: ViewportSize = {"width": 1920, "height": 1080}
# The smallest screen a hall shows a league venue's screen on.
SMALL_TV: ViewportSize = {"width": 1280, "height": 720}
PHONE: ViewportSize = {"width": 390, "height": 844}
# The smallest type read from across a hall, in CSS pixels at 1920 px.
ROOM_TYPE = 22
SERIES_1 = {"Herz Dame I": 3683, "Kreuz Bube I": 3000, "Pik As I": 2900, "Karo Sieben I": 2800}
SERIES_2 = {"Herz Dame I": 3283, "Kreuz Bube I": 3400, "Pik As I": 3300, "Karo Sieben I": 3000}


def _box(locator: Locator) -> FloatRect:
    box = locator.bounding_box()
    assert box is not None
    return box


def _type_size(locator: Locator) -> float:
    return float(locator.evaluate("(element) => parseFloat(getComputedStyle(element).fontSize)"))


def _inside(inner: FloatRect, outer: FloatRect) -> bool:
    return inner["x"] >= outer["x"] - 1 and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1


def _lines(locator: Locator) -> int:
    """The lines an element's text is drawn on: a box whose middle is below the line above begins a line of its own,
    so that a player's club in smaller type beside the name is on the name's line."""
    return int(
        locator.evaluate(
            """(element) => {
                const range = document.createRange();
                range.selectNodeContents(element);
                const boxes = Array.from(range.getClientRects()).sort((one, other) => one.top - other.top);
                let lines = 0;
                let bottom = -Infinity;
                for (const box of boxes) {
                    if ((box.top + box.bottom) / 2 > bottom) {
                        lines += 1;
                        bottom = box.bottom;
                    }
                }
                return lines;
            }"""
        )
    )


def _text_within(locator: Locator) -> bool:
    """The element's text is drawn within its box: none of it hidden past the box's edge, nor behind an "…"."""
    return bool(
        locator.evaluate(
            """(element) => {
                const range = document.createRange();
                range.selectNodeContents(element);
                return range.getBoundingClientRect().right <= element.getBoundingClientRect().right + 1;
            }"""
        )
    )


def _whole(page: Page) -> list[str]:
    """Headings and cells whose text is cut (wider than their box) or that reach beyond the window."""
    found: list[str] = page.evaluate(
        """() => Array.from(document.querySelectorAll("h1, h2, th, td")).filter((element) => {
            const box = element.getBoundingClientRect();
            return element.scrollWidth > element.clientWidth + 1 || box.right > window.innerWidth + 1;
        }).map((element) => element.textContent.trim().slice(0, 40))"""
    )
    return found


def _second_series_under_way(tournament: Tournament) -> None:
    """Series 1 played and closed, series 2 drawn: the live page shows the standings after series 1."""
    tournaments.series_draw(tournament=tournament, number=1)
    first = Series.objects.get(tournament=tournament)
    play_series(first)
    tournaments.series_close(series=first, user=None)
    tournaments.series_draw(tournament=tournament, number=2)


def _live_page(browser: Browser, live_server: Any, tournament: Tournament, size: ViewportSize) -> Page:
    page = browser.new_context(viewport=size, locale="de-DE", bypass_csp=True).new_page()
    page.goto(live_server.url + reverse("tournaments:live", args=[tournament.public_id]))
    return page


@pytest.mark.django_db(transaction=True)
def test_a_tournaments_live_page_fills_a_halls_screen_with_places_1_to_50_side_by_side(
    browser: Browser, live_server: Any
) -> None:
    tournament = announce()
    enter_field(tournament, 60)
    tournaments.series_draw(tournament=tournament, number=1)
    first = Series.objects.get(tournament=tournament)
    play_series(first)
    tournaments.series_close(series=first, user=None)
    # The runner-up leaves after series 1: the room still sees their place, marked.
    gone = tournaments.entry_withdraw(entry=EntryStanding.objects.select_related("entry").get(place=2).entry)
    tournaments.series_draw(tournament=tournament, number=2)
    assert tournament.organiser is not None
    context = browser.new_context(viewport=TV, locale="de-DE", bypass_csp=True)
    page = signed_in(context, live_server.url, tournament.organiser)
    # The organiser opens it from the desk.
    page.goto(live_server.url + reverse("tournaments:desk", args=[tournament.public_id]))
    page.get_by_role("link", name="Saalanzeige: die Live-Tabelle").click()
    expect(page.get_by_role("heading", name="Stand nach Serie 1 von 3", level=2)).to_be_visible()
    expect(page.get_by_text("Plätze 1–50 von 60")).to_be_visible()
    page.wait_for_load_state("load")
    halves = page.get_by_role("table", name="Stand nach Serie 1 von 3")
    expect(halves).to_have_count(2)
    first_place = halves.nth(0).get_by_role("row").nth(1)
    next_half = halves.nth(1).get_by_role("row").nth(1)
    last_place = halves.nth(1).get_by_role("row").last
    # A place shared and decided by lot carries a star.
    expect(first_place.get_by_role("cell").first).to_have_text(re.compile(r"^1\b"))
    expect(next_half.get_by_role("cell").first).to_have_text(re.compile(r"^26\b"))
    expect(last_place.get_by_role("cell").first).to_have_text(re.compile(r"^50\b"))
    # 26–50 beside 1–25, level with them; place 50 on the screen without scrolling; the series under way beside.
    assert abs(_box(next_half)["y"] - _box(first_place)["y"]) < 2
    assert _box(next_half)["x"] > _box(first_place)["x"] + _box(first_place)["width"]
    assert _box(last_place)["y"] + _box(last_place)["height"] <= TV["height"]
    series = page.get_by_role("heading", name="Serie 2 wird gespielt", level=2)
    assert _box(series)["x"] > _box(next_half)["x"] + _box(next_half)["width"] - 1
    assert _box(page.get_by_role("main"))["width"] >= TV["width"] * 0.95
    assert _type_size(first_place.get_by_role("cell").nth(1)) >= ROOM_TYPE
    runner_up = halves.nth(0).get_by_role("row").nth(2).get_by_role("cell").nth(1)
    expect(runner_up).to_have_text(re.compile(rf"^{re.escape(gone.name)} .*nach Serie 1 zurückgetreten\s*$"))
    assert _type_size(runner_up.locator(".badge")) >= 0.6 * ROOM_TYPE
    assert _whole(page) == []
    assert _violations(page) == []
    context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920", "1280"])
def test_a_tournaments_live_page_of_more_than_50_places_shows_its_page_links_without_scrolling(
    browser: Browser, live_server: Any, size: ViewportSize
) -> None:
    tournament = announce()
    enter_field(tournament, 60)
    _second_series_under_way(tournament)
    page = _live_page(browser, live_server, tournament, size)
    expect(page.get_by_text("Plätze 1–50 von 60")).to_be_visible()
    page.wait_for_load_state("load")
    # The room sees that more places follow, and a hand at the screen's keyboard reaches them, all on the screen.
    pages = page.get_by_role("navigation", name="Seiten des Stands")
    expect(pages.get_by_text("Seite 1 von 2")).to_be_visible()
    following = pages.get_by_role("link", name="Seite 2")
    assert _box(following)["y"] + _box(following)["height"] <= size["height"]
    last = page.get_by_role("table", name="Stand nach Serie 1 von 3").last.get_by_role("row").last
    expect(last.get_by_role("cell").first).to_have_text(re.compile(r"^50\b"))
    assert _box(last)["y"] + _box(last)["height"] <= size["height"]
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    assert _type_size(last.get_by_role("cell").nth(1)) >= ROOM_TYPE * size["width"] / TV["width"]
    assert _whole(page) == []
    page.context.close()


# Entrants as a club's tournament has them, each named as the book names them and with their club: longer than a
# half of the screen's standings has room for beside the figures.
FAMILIES = (
    "Schneider-Oberhausen",
    "Wittkowski",
    "von Wolkenstein-Trostburg",
    "Brinkmann",
    "Meier-Lüdenscheid",
    "Oberkirchner",
    "Zimmermann",
    "Müller",
)
CLUBS = ("Skatfreunde Großstadt 1952", "SC Herz Dame Hamm", "Kreuz Bube Soest", "Pik As")
FIELD = tuple(
    (f"{first} {family}", CLUBS[index % len(CLUBS)])
    for index, (family, first) in enumerate(
        itertools.product(FAMILIES, ("Hans-Jürgen", "Friederike", "Maximilian", "Annegret", "Klaus-Dieter"))
    )
)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920", "1280"])
@pytest.mark.parametrize("field", [20, 40])
def test_a_tournaments_live_page_fills_the_width_with_each_place_on_one_line(
    browser: Browser, live_server: Any, field: int, size: ViewportSize
) -> None:
    tournament = announce()
    for name, club in FIELD[:field]:
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name, club=club))
    _second_series_under_way(tournament)
    page = _live_page(browser, live_server, tournament, size)
    expect(page.get_by_text(f"Plätze 1–{field} von {field}")).to_be_visible()
    page.wait_for_load_state("load")
    standings = page.get_by_role("table", name="Stand nach Serie 1 von 3")
    expect(standings).to_have_count(1 if field <= 25 else 2)
    series = page.get_by_role("heading", name="Serie 2 wird gespielt", level=2)
    assert _box(series)["x"] >= _box(standings.last)["x"] + _box(standings.last)["width"]
    if field <= 25:
        # Twenty places are one table as wide as the two halves of a larger field, not a narrow column with the
        # screen's width empty beside it: each name and club whole.
        assert _box(standings)["width"] > size["width"] / 2
        for row in standings.get_by_role("row").all()[1:]:
            assert _text_within(row.get_by_role("cell").nth(1)), row.text_content()
    # Every place on one line (a name longer than its half ends in "…"), in type read from across the room, the last
    # of them on the screen without scrolling.
    for table in standings.all():
        for header in table.get_by_role("columnheader").all():
            assert header.evaluate("(cell) => cell.scrollWidth <= cell.clientWidth + 1"), header.text_content()
        rows = table.get_by_role("row")
        for row in rows.all()[1:]:
            assert _lines(row.get_by_role("cell").nth(1)) == 1, row.text_content()
        assert _type_size(rows.nth(1).get_by_role("cell").nth(1)) >= ROOM_TYPE * size["width"] / TV["width"]
    last = standings.last.get_by_role("row").last
    expect(last.get_by_role("cell").first).to_have_text(re.compile(rf"^{field}\b"))
    assert _box(last)["y"] + _box(last)["height"] <= size["height"]
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert _violations(page) == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_league_venues_screen_shows_the_series_under_way_the_days_points_and_the_table(
    browser: Browser, live_server: Any
) -> None:
    setup = league_setup(series=2)
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    enter_series(setup, 1, SERIES_1, setup.manager)
    check_in_all(setup, 2)
    leagues.series_seat(venue=setup.venue, series=2, user=setup.manager)
    context = browser.new_context(viewport=TV, locale="de-DE", bypass_csp=True)
    # The host's secretary opens it from the venue's page; the screen itself needs no account.
    page = signed_in(context, live_server.url, setup.secretaries[0])
    page.goto(live_server.url + reverse("interclub_venue", args=[setup.venue.public_id]))
    page.get_by_role("link", name="Saalanzeige", exact=True).click()
    # The venue's page has the same heading: the screen is measured once it is the page shown.
    expect(page).to_have_url(live_server.url + reverse("interclub_venue_screen", args=[setup.venue.public_id]))
    expect(page.get_by_role("heading", name="1. Spieltag", level=1)).to_be_visible()
    # Laid out with its screen's styles: measured before they arrived, the boards stand where a page without them
    # puts them.
    page.wait_for_load_state("load")
    series = page.get_by_role("heading", name="Serie 2", level=2)
    day = page.get_by_role("heading", name="Ligapunkte des Tages", level=2)
    table = page.get_by_role("heading", name="Tabelle", level=2)
    # Three boards side by side, in type read from across the hall.
    tops = [_box(heading)["y"] for heading in (series, day, table)]
    lefts = [_box(heading)["x"] for heading in (series, day, table)]
    assert max(tops) - min(tops) < 2
    assert lefts == sorted(lefts)
    assert lefts[2] > TV["width"] / 2
    expect(page.get_by_text("0 von 48 Spielen")).to_have_count(4)
    results = page.get_by_role("table", name="Ergebnisse der Serie 1")
    expect(results.get_by_role("row").nth(1)).to_contain_text("Herz Dame I")
    expect(results.get_by_role("row").nth(1)).to_contain_text("3:0")
    points = page.get_by_role("row").filter(has_text="Kreuz Bube I").first
    assert _type_size(points.get_by_role("cell").first) >= ROOM_TYPE
    assert _whole(page) == []
    assert _violations(page) == []
    # Nobody signed in sees the same screen.
    anonymous = browser.new_context(viewport=TV, locale="de-DE", bypass_csp=True)
    bare = anonymous.new_page()
    bare.goto(page.url)
    expect(bare.get_by_role("heading", name="Ligapunkte des Tages", level=2)).to_be_visible()
    anonymous.close()
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_german_match_report_on_a_phone_shows_every_heading_and_total_whole(
    browser: Browser, live_server: Any
) -> None:
    setup = league_setup(series=2)
    for number, scores in enumerate((SERIES_1, SERIES_2), start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, scores, setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    context = browser.new_context(viewport=PHONE, is_mobile=True, locale="de-DE")
    page = context.new_page()
    page.goto(live_server.url + reverse("interclub_report", args=[setup.venue.public_id]))
    expect(page.get_by_role("heading", name="Spielbericht", level=1)).to_be_visible()
    for heading in ("Serienergebnis", "Ligapunkte", "Spielpunkte"):
        expect(page.get_by_role("columnheader", name=heading).first).to_be_visible()
    expect(page.get_by_role("row").filter(has_text="Herz Dame I").first).to_contain_text("6966")
    assert _whole(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


# The teams as their clubs name them, "Kreuz Bube Hamm I" rather than "Kreuz Bube I".
TEAMS = {
    "Herz Dame I": "Skatclub Herz Dame I",
    "Kreuz Bube I": "Kreuz Bube Hamm I",
    "Pik As I": "Pik As Soest I",
    "Karo Sieben I": "Karo Sieben Unna I",
}
# The players as a club's book names them, so that a table's players take the lines they take in a hall: each
# team's players share a family name, each of the four of them with one of these first names.
FIRST_NAMES = ("Hans-Jürgen", "Friederike", "Maximilian", "Annegret", "Wolfgang")
FAMILY_NAMES = ("Schneider", "Oberhausen", "Wittkowski", "Brinkmann")
# The clubs of a group's other teams.
ELSEWHERE = (
    "Grand Hand Dortmund",
    "Null Ouvert Bochum",
    "Contra Essen",
    "Ramsch Paderborn",
    "Kontra Münster",
    "Re Hagen",
)
SERIES_3 = {"Herz Dame I": 2983, "Kreuz Bube I": 3100, "Pik As I": 3500, "Karo Sieben I": 3200}
SERIES_4 = {"Herz Dame I": 3083, "Kreuz Bube I": 2900, "Pik As I": 3600, "Karo Sieben I": 3300}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920", "1280"])
@pytest.mark.parametrize("series", [3, 4])
def test_a_closed_venues_screen_shows_every_series_the_day_and_the_table_without_scrolling(
    browser: Browser, live_server: Any, series: int, size: ViewportSize
) -> None:
    setup = league_setup(series=series)
    for number, scores in enumerate((SERIES_1, SERIES_2, SERIES_3, SERIES_4)[:series], start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, scores, setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    for short, name in TEAMS.items():
        Team.objects.filter(group=setup.group, name=short).update(name=name)
    for family, roster in zip(FAMILY_NAMES, setup.rosters, strict=True):
        for first, entry in zip(FIRST_NAMES, roster, strict=True):
            Player.objects.filter(pk=entry.league_player_id).update(name=f"{first} {family}")
    # The group's table is of ten teams, six of them playing their match day elsewhere.
    for index, club in enumerate(ELSEWHERE):
        host = clubs.club_create(owner=make_user(f"elsewhere{index}"), name=club)
        leagues.team_enter(group=setup.group, club=host, name=f"{club} I")
    context = browser.new_context(viewport=size, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + reverse("interclub_venue_screen", args=[setup.venue.public_id]))
    expect(page.get_by_role("heading", name=f"Serie {series}", level=2)).to_be_visible()
    group_table = page.get_by_role("region", name="Tabelle").get_by_role("row")
    expect(group_table).to_have_count(1 + len(TEAMS) + len(ELSEWHERE))
    # Nothing below the screen's edge, nothing beside it, however many lines the tables' players take and however
    # many teams the group has.
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    tables = page.get_by_role("table")
    expect(tables).to_have_count(series + 2)
    for table in tables.all():
        wrap = _box(table.locator("xpath=.."))
        assert _box(table)["width"] <= wrap["width"] + 1
        headers = table.get_by_role("columnheader")
        assert headers.count() >= 3
        for header in headers.all():
            assert _inside(_box(header), wrap), header.text_content()
            assert header.evaluate("(cell) => cell.scrollWidth <= cell.clientWidth + 1"), header.text_content()
        last = table.get_by_role("row").last
        assert _box(last)["y"] + _box(last)["height"] <= size["height"]
    # Each team's name whole on one line: in the day's points, in the table and in every series' results.
    for name in TEAMS.values():
        shown = page.get_by_text(name, exact=True)
        expect(shown).to_have_count(series + 2)
        for one in shown.all():
            assert _lines(one) == 1, name
            assert one.evaluate("(element) => element.scrollWidth <= element.clientWidth + 1"), name
    # The series played before side by side, beneath the boards, not stacked in one of them, in the boards' type
    # read from across the room, however many series there are.
    earlier = [_box(page.get_by_role("table", name=f"Ergebnisse der Serie {number}")) for number in (1, 2)]
    assert abs(earlier[0]["y"] - earlier[1]["y"]) < 2
    assert earlier[1]["x"] >= earlier[0]["x"] + earlier[0]["width"]
    for number in range(1, series + 1):
        results = page.get_by_role("table", name=f"Ergebnisse der Serie {number}")
        for cell in results.get_by_role("row").nth(1).get_by_role("cell").all():
            assert _type_size(cell) >= ROOM_TYPE * size["width"] / TV["width"], (number, cell.text_content())
    assert _whole(page) == []
    assert _violations(page) == []
    context.close()


CLUB_NAMES = (
    "Siobhán",
    "Oluwaseun",
    "Klaus-Dieter",
    "Hannelore",
    "Gisela",
    "Jürgen",
    "Zofia",
    "Mateo",
    "Aisha",
    "Heinz",
    "Renate",
    "Uwe",
)
# Longer than the name column of any screen: it ends in "…", never on a second line.
LONG_NAME = "Hildegard-Friederike von Wolkenstein-Trostburg"
CLUB_COLUMNS = ("Platz", "Spieler", "Punkte", "Spielpunkte", "Gew.", "Verl.", "Listen")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "size", [TV, {"width": 1366, "height": 900}, {"width": 1280, "height": 720}], ids=["1920", "1366", "1280"]
)
def test_a_clubs_screen_shows_every_column_of_both_standings_in_its_board_and_each_name_on_one_line(
    browser: Browser, live_server: Any, size: ViewportSize
) -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="Saison 2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 17))
    for name in (*CLUB_NAMES, LONG_NAME):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        enter(table.match, 9)
    context = browser.new_context(viewport=size, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + reverse("club_screen", args=[club.screen_token]))
    boards = page.get_by_role("table")
    expect(boards).to_have_count(2)
    for board in boards.all():
        wrap = _box(board.locator("xpath=.."))
        # The table is no wider than its board, and nothing in it scrolls out of sight.
        assert _box(board)["width"] <= wrap["width"] + 1
        for heading in CLUB_COLUMNS:
            header = board.get_by_role("columnheader", name=heading, exact=True)
            assert _inside(_box(header), wrap), heading
            assert header.evaluate("(cell) => cell.scrollWidth <= cell.clientWidth + 1"), heading
        rows = board.get_by_role("row")
        expect(rows).to_have_count(1 + len(CLUB_NAMES) + 1)
        for row in rows.all()[1:]:
            cells = row.get_by_role("cell")
            expect(cells).to_have_count(len(CLUB_COLUMNS))
            assert _inside(_box(cells.last), wrap), row.text_content()
            player = cells.nth(1)
            assert _lines(player) == 1, player.text_content()
            if player.text_content() != LONG_NAME:
                assert player.evaluate("(cell) => cell.scrollWidth <= cell.clientWidth + 1"), player.text_content()
        long_name = board.get_by_role("cell", name=LONG_NAME, exact=True)
        assert long_name.evaluate("(cell) => getComputedStyle(cell).textOverflow") == "ellipsis"
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert _violations(page) == []
    context.close()


# A club's players by the dozen: every first name with every family name, all different.
MANY_NAMES = tuple(
    f"{first} {last}"
    for first in (
        "Anna",
        "Bernd",
        "Carla",
        "Dieter",
        "Erika",
        "Frank",
        "Gabi",
        "Horst",
        "Inge",
        "Jörg",
        "Karin",
        "Lutz",
    )
    for last in ("Müller", "Schmidt", "Meier", "Wagner")
)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920", "1280"])
@pytest.mark.parametrize(("players", "shown"), [(12, 12), (48, 18)])
def test_a_clubs_screen_shows_the_places_that_fit_without_scrolling_and_says_how_many_more(
    browser: Browser, live_server: Any, size: ViewportSize, players: int, shown: int
) -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatfreunde Großstadt 1952")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="Saison 2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 17))
    for name in MANY_NAMES[:players]:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        enter(table.match, 2)
    context = browser.new_context(viewport=size, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + reverse("club_screen", args=[club.screen_token]))
    boards = page.get_by_role("table")
    expect(boards).to_have_count(2)
    # Nothing below the screen's edge: the first places of each board, in type read from across the room.
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    for board in boards.all():
        rows = board.get_by_role("row")
        expect(rows).to_have_count(1 + shown)
        last = rows.last
        assert _box(last)["y"] + _box(last)["height"] <= size["height"]
        assert _type_size(rows.nth(1).get_by_role("cell").nth(1)) >= ROOM_TYPE * size["width"] / TV["width"]
    more = page.get_by_text(f"Die ersten {shown} von {players} Spielern", exact=False)
    expect(more).to_have_count(2 if shown < players else 0)
    # Places shared and decided by lot carry a star, which nobody can point at on a television: each board says
    # what it means, on the screen.
    lot = page.get_by_text("* gleichauf: durch Los entschieden", exact=False)
    expect(lot).to_have_count(2)
    for one in lot.all():
        assert _box(one)["y"] + _box(one)["height"] <= size["height"]
    assert _whole(page) == []
    context.close()
