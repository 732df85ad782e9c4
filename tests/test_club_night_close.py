"""Closing a club night from its page: where a drawn table on phones has not played its series' games (a table
without a game too), the close names those tables and asks to confirm with a tick box; a night whose every table
played its series or entered its paper list closes in one tap."""

import datetime
import html
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night
from matches.services import match_undo

from .factories import make_user
from .test_queries import enter

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus", "Hanna", "Ida", "Jan", "Walter"]
UNPLAYED = [
    "Table 1 of series 1 has no games: its players get no list.",
    "Table 2 of series 1 has no games: its players get no list.",
]


STILL_OPEN = "The night is still open: tick the box to close it all the same."


def _beside_the_tick(page: str) -> list[str]:
    """What the close's refusal says next to its tick box, in order."""
    return re.findall(r'<p class="error" role="alert" id="close_confirm_error">(.*?)</p>', page)


def _night(
    names: list[str] = NAMES, games_at_four: int = 48, games_at_three: int = 36
) -> tuple[User, Night, list[ClubTable]]:
    secretary = make_user("sven")
    club = clubs.club_create(owner=secretary, name="Skatclub Herz Dame")
    settings = clubs.SeasonSettings(name="2026", games_at_four=games_at_four, games_at_three=games_at_three)
    season = clubs.season_create(club=club, settings=settings)
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=secretary)
    tables = list(ClubTable.objects.filter(night=night).select_related("match").order_by("number"))
    return secretary, night, tables


def _on_paper(table: ClubTable) -> None:
    players = [seat.player for seat in table.match.seats.order_by("position")]
    clubs.paper_enter(table=table, lines=[(player, 0, 0, 0) for player in players])


def _browser(user: User, language: str = "en") -> Client:
    browser = Client(headers={"accept-language": language})
    browser.force_login(user)
    return browser


def _closed(night: Night) -> bool:
    return Night.objects.get(pk=night.pk).closed_at is not None


def test_closing_a_night_with_tables_that_have_no_games_names_them_and_waits_for_the_tick() -> None:
    secretary, night, tables = _night()
    assert [table.match.players for table in tables] == [4, 4, 3]
    _on_paper(tables[2])
    browser = _browser(secretary)
    page = browser.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert all(html.escape(sentence) in page for sentence in UNPLAYED)
    assert '<input type="checkbox" name="confirm" id="close_confirm" required>' in page

    close = reverse("night_close", args=[night.public_id])
    refused = browser.post(close)
    assert refused.status_code == 400
    assert not _closed(night)
    said = refused.content.decode()
    assert all(said.count(html.escape(sentence)) == 1 for sentence in UNPLAYED)
    assert _beside_the_tick(said) == [STILL_OPEN] + [html.escape(sentence) for sentence in UNPLAYED]
    assert 'class="messages"' not in said

    closed = browser.post(close, {"confirm": "on"}, follow=True)
    assert "The night is closed: every list is locked." in closed.content.decode()
    assert _closed(night)


def test_a_table_on_phones_short_of_its_games_is_named_and_the_night_closes_only_with_the_tick() -> None:
    secretary, night, tables = _night(NAMES[:3])
    (table,) = tables
    enter(table.match, 3)
    short = "Table 1 of series 1 has 3 of its 36 games on the list."
    browser = _browser(secretary)
    page = browser.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert short in page
    assert '<input type="checkbox" name="confirm" id="close_confirm" required>' in page

    close = reverse("night_close", args=[night.public_id])
    assert f'action="{close}#close"' in page
    refused = browser.post(close)
    assert refused.status_code == 400
    said = refused.content.decode()
    assert said.count(short) == 1
    assert _beside_the_tick(said) == [STILL_OPEN, short]
    assert not _closed(night)

    closed = browser.post(close, {"confirm": "on"}, follow=True)
    assert "The night is closed: every list is locked." in closed.content.decode()
    assert _closed(night)


def test_each_short_table_is_named_in_german() -> None:
    secretary, night, tables = _night()
    enter(tables[0].match, 1)
    _on_paper(tables[2])
    page = _browser(secretary, "de").get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert "Tisch 1 der Serie 1 hat 1 von 48 Spielen auf der Liste." in page
    assert "Tisch 2 der Serie 1 hat keine Spiele: seine Spieler bekommen keine Liste." in page
    assert "Tisch 3 der Serie 1" not in page
    assert html.escape("Ja, den Abend mit den Listen dieser Tische schließen, wie sie stehen") in page
    refused = _browser(secretary, "de").post(reverse("night_close", args=[night.public_id]))
    assert _beside_the_tick(refused.content.decode()) == [
        "Der Abend ist noch offen: setze das Häkchen, um ihn trotzdem zu schließen.",
        "Tisch 1 der Serie 1 hat 1 von 48 Spielen auf der Liste.",
        "Tisch 2 der Serie 1 hat keine Spiele: seine Spieler bekommen keine Liste.",
    ]
    assert not _closed(night)


def test_a_night_whose_every_table_played_its_series_or_entered_its_paper_list_closes_in_one_tap() -> None:
    secretary, night, tables = _night(games_at_four=2)
    enter(tables[0].match, 2)
    enter(tables[1].match, 2)
    _on_paper(tables[2])
    browser = _browser(secretary)
    page = browser.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert "games on the list" not in page
    assert 'name="confirm"' not in page
    answer = browser.post(reverse("night_close", args=[night.public_id]), follow=True)
    assert "The night is closed: every list is locked." in answer.content.decode()
    assert _closed(night)


def test_a_table_whose_games_were_all_taken_back_counts_as_without_games_when_the_night_closes() -> None:
    secretary, night, tables = _night(NAMES[:3])
    (table,) = tables
    enter(table.match, 1)
    match_undo(match=table.match, user=None, token=uuid.uuid4())
    answer = _browser(secretary).post(reverse("night_close", args=[night.public_id]), follow=True)
    assert html.escape("Table 1 of series 1 has no games: its players get no list.") in answer.content.decode()
    assert not _closed(night)


def _queries(client: Client, address: str) -> int:
    assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    return len(captured)


def test_naming_the_short_tables_costs_the_night_page_no_query(
    django_assert_num_queries: Callable[[int], Any],
) -> None:
    secretary, night, tables = _night(games_at_four=2, games_at_three=2)
    enter(tables[0].match, 1)
    browser = _browser(secretary)
    address = reverse("night_detail", args=[night.public_id])
    short = _queries(browser, address)
    assert "has 1 of its 2 games" in browser.get(address).content.decode()
    assert "has no games" in browser.get(address).content.decode()
    enter(tables[0].match, 1)
    for table in tables[1:]:
        enter(table.match, 2)
    with django_assert_num_queries(short):
        page = browser.get(address).content.decode()
    assert "games on the list" not in page
    assert "no games" not in page
