"""Closing a club night from its page: where a drawn table has neither a game nor a paper list, the close names
those tables and asks to confirm with a tick box that their players get no list; a night whose every table played
closes in one tap."""

import datetime
import html
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
UNPLAYED = "Table 1 and table 2 (series 1) have no games: their players get no list."


def _night(names: list[str] = NAMES) -> tuple[User, Night, list[ClubTable]]:
    secretary = make_user("sven")
    club = clubs.club_create(owner=secretary, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
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
    assert html.escape(UNPLAYED) in page
    assert '<input type="checkbox" name="confirm" id="close_confirm" required>' in page

    close = reverse("night_close", args=[night.public_id])
    refused = browser.post(close, follow=True)
    assert not _closed(night)
    said = refused.content.decode()
    assert html.escape(UNPLAYED) in said
    assert "The night is still open: tick the box to close it all the same." in said

    closed = browser.post(close, {"confirm": "on"}, follow=True)
    assert "The night is closed: every list is locked." in closed.content.decode()
    assert _closed(night)


def test_one_table_without_games_is_named_alone_and_in_german() -> None:
    secretary, night, tables = _night()
    enter(tables[0].match, 1)
    _on_paper(tables[2])
    page = _browser(secretary, "de").get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert "Tisch 2 (Serie 1) hat keine Spiele: seine Spieler bekommen keine Liste." in page
    assert html.escape("Ja, den Abend schließen: die Spieler dieser Tische bekommen keine Liste") in page
    refused = _browser(secretary, "de").post(reverse("night_close", args=[night.public_id]), follow=True)
    assert "Der Abend ist noch offen: setze das Häkchen, um ihn trotzdem zu schließen." in refused.content.decode()
    assert not _closed(night)


def test_a_night_whose_every_table_has_a_game_or_a_paper_list_closes_in_one_tap() -> None:
    secretary, night, tables = _night()
    enter(tables[0].match, 1)
    enter(tables[1].match, 2)
    _on_paper(tables[2])
    browser = _browser(secretary)
    page = browser.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert "have no games" not in page
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
    assert html.escape("Table 1 (series 1) has no games: its players get no list.") in answer.content.decode()
    assert not _closed(night)


def _queries(client: Client, address: str) -> int:
    assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    return len(captured)


def test_naming_the_tables_without_games_costs_the_night_page_no_query(
    django_assert_num_queries: Callable[[int], Any],
) -> None:
    secretary, night, tables = _night()
    enter(tables[0].match, 1)
    browser = _browser(secretary)
    address = reverse("night_detail", args=[night.public_id])
    unplayed = _queries(browser, address)
    assert "have no games" in browser.get(address).content.decode()
    for table in tables[1:]:
        enter(table.match, 1)
    with django_assert_num_queries(unplayed):
        page = browser.get(address).content.decode()
    assert "no games" not in page
