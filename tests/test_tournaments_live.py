"""A tournament's live public page, for the room's screen and the phones in the room: the standings kept when each
series closes (ranked by the engine, as the results rank them), a page of places at a time or the entrants a name
finds, how far the series being played is, and what it costs: the same queries and rows however many play, and a
bare 304 while nothing changed."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.tournaments import services as tournaments
from matches.tournaments.models import EntryStanding, Series, Table, TableSeat, Tournament
from matches.tournaments.selectors import LIVE_PLACES, LIVE_TABLES, live_places, tournament_results

from .tournaments_setup import announce, enter_field, enter_paper, play_series

pytestmark = pytest.mark.django_db

STANDINGS_MIGRATION = "matches.tournaments.migrations.0003_entry_standings_kept_over_the_closed_series"
# What the live page must never read: every player's lists, every game, every paper line, every seat.
EVERY_LIST = ("tournaments_serieslist", "matches_game", "tournaments_paperline", "tournaments_tableseat")


def _series(tournament: Tournament, number: int) -> Series:
    tournaments.series_draw(tournament=tournament, number=number)
    return Series.objects.get(tournament=tournament, number=number)


def _closed(tournament: Tournament, number: int, *, phones: tuple[int, ...] = ()) -> Series:
    series = _series(tournament, number)
    play_series(series, phones=phones, salt=number)
    return tournaments.series_close(series=series, user=None)


def _kept(tournament: Tournament) -> list[tuple[str, int, bool, int, int, int, int, int]]:
    rows = EntryStanding.objects.filter(tournament=tournament).order_by("place")
    return [
        (row.entry.player.name, row.place, row.by_lot, row.total, row.game_points, row.won, row.lost, row.lists)
        for row in rows.select_related("entry__player")
    ]


def _ranked(tournament: Tournament) -> list[tuple[str, int, bool, int, int, int, int, int]]:
    """The total standings as the results rank them afresh from every list."""
    return [
        (
            place.standing.player,
            place.place,
            place.by_lot,
            int(place.standing.score),
            place.standing.game_points,
            place.standing.won,
            place.standing.lost,
            place.standing.lists,
        )
        for place in tournament_results(tournament).standings
    ]


def _live(tournament: Tournament) -> str:
    return reverse("tournaments:live", args=[tournament.public_id])


# --- The kept standings -----------------------------------------------------------------------------------------------


def test_closing_a_series_keeps_each_entrants_standing_as_the_results_rank_it() -> None:
    tournament = announce()
    enter_field(tournament, 13)
    assert _kept(tournament) == []
    first = _closed(tournament, 1, phones=(2,))
    assert _kept(tournament) == _ranked(tournament)
    assert {row.series for row in EntryStanding.objects.filter(tournament=tournament)} == {first.number}
    _closed(tournament, 2)
    assert _kept(tournament) == _ranked(tournament)
    assert {row[-1] for row in _kept(tournament)} == {2}


def test_the_kept_standings_count_only_the_closed_series_while_the_next_is_played() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    _closed(tournament, 1)
    after_first = _kept(tournament)
    play_series(_series(tournament, 2), salt=5)
    assert _kept(tournament) == after_first
    assert _ranked(tournament) != after_first


def test_a_series_seated_by_standings_seats_the_kept_leaders_at_table_one() -> None:
    tournament = announce()
    enter_field(tournament, 12)
    _closed(tournament, 1)
    leaders = [row[0] for row in _kept(tournament)[:4]]
    tournaments.series_draw(tournament=tournament, number=2, seating="standings")
    table = Table.objects.get(series__tournament=tournament, series__number=2, number=1)
    seats = table.seats.order_by("position").values_list("entry__player__name", flat=True)
    assert list(seats) == leaders


def test_the_migration_ranks_the_kept_lists_into_the_standings_closing_keeps() -> None:
    tournament = announce()
    enter_field(tournament, 11)
    _closed(tournament, 1, phones=(1,))
    _closed(tournament, 2)
    other = announce()
    enter_field(other, 7)
    _closed(other, 1)
    untouched = announce()
    enter_field(untouched, 6)
    _series(untouched, 1)
    kept = (_kept(tournament), _kept(other), _kept(untouched))
    EntryStanding.objects.all().delete()
    import_module(STANDINGS_MIGRATION).standings_from_kept_lists(django_apps, None)
    assert (_kept(tournament), _kept(other), _kept(untouched)) == kept
    assert kept[2] == []


# --- The page ---------------------------------------------------------------------------------------------------------


def test_the_live_page_shows_the_standings_and_the_series_being_played() -> None:
    tournament = announce()
    enter_field(tournament, 9)
    _closed(tournament, 1)
    second = _series(tournament, 2)
    first_table = Table.objects.get(series=second, number=1)
    enter_paper(first_table)
    page = Client().get(_live(tournament)).content.decode()
    assert "Standings after series 1 of 3" in page
    assert "Series 2 is being played" in page
    assert "1 of 3 tables done" in page
    assert "Table 2</li><li>Table 3</li>" in page
    assert "Table 1</li>" not in page
    leader = EntryStanding.objects.filter(tournament=tournament).select_related("entry").get(place=1)
    assert f"{leader.entry.name} <span" in page
    assert "Places 1–9 of 9" in page
    for table in Table.objects.filter(series=second).exclude(number=1):
        enter_paper(table)
    done = Client().get(_live(tournament)).content.decode()
    assert "3 of 3 tables done" in done
    assert "Every table has its list complete: the series closes next." in done


def test_before_the_first_series_closes_the_page_says_where_the_standings_will_be() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    page = Client().get(_live(tournament)).content.decode()
    assert "Series 1 is drawn next" in page
    assert "The standings show here once the first series is closed." in page
    _series(tournament, 1)
    assert "0 of 2 tables done" in Client().get(_live(tournament)).content.decode()


def test_once_every_series_is_closed_the_page_shows_the_final_standings() -> None:
    tournament = announce(series=2)
    enter_field(tournament, 8)
    _closed(tournament, 1)
    _closed(tournament, 2)
    page = Client().get(_live(tournament)).content.decode()
    assert "Every series is played" in page
    assert "Standings after series 2 of 2" in page
    assert _kept(tournament) == _ranked(tournament)


def test_the_live_page_lists_fifty_places_a_page_and_finds_a_name() -> None:
    tournament = announce()
    enter_field(tournament, LIVE_PLACES + 7)
    _closed(tournament, 1)
    client = Client()
    first = client.get(_live(tournament)).content.decode()
    assert f"Places 1–{LIVE_PLACES} of {LIVE_PLACES + 7}" in first
    assert first.count('<td class="name">') == LIVE_PLACES
    assert "Page 1 of 2" in first
    second = client.get(_live(tournament), {"page": "2"}).content.decode()
    assert f"Places {LIVE_PLACES + 1}–{LIVE_PLACES + 7} of {LIVE_PLACES + 7}" in second
    assert second.count('<td class="name">') == 7
    found = client.get(_live(tournament), {"find": "  spieler 5 "}).content.decode()
    assert "8 players found for “spieler 5”" in found
    assert found.count('<td class="name">') == 8
    assert client.get(_live(tournament), {"find": "Niemand"}).content.decode().count('<td class="name">') == 0
    everybody = client.get(_live(tournament), {"find": "Spieler"}).content.decode()
    assert f"{LIVE_PLACES + 7} players found for “Spieler”" in everybody
    assert f"The first {LIVE_PLACES} are shown: a longer name finds fewer." in everybody
    assert everybody.count('<td class="name">') == LIVE_PLACES
    # Anything but a page's number shows a page of the standings, never an error.
    for odd in ("x", "-1", "0", "9" * 40, "²", "99"):
        answer = client.get(_live(tournament), {"page": odd})
        assert answer.status_code == 200
        assert "Places " in answer.content.decode()
    assert client.get(_live(tournament), {"find": "x" * 5000}).status_code == 200


def test_the_live_page_marks_an_entrant_who_withdrew_where_their_place_stands() -> None:
    """A withdrawn entrant keeps the place their lists give them, marked as withdrawn, so that nobody in the room
    takes them for a player still in the field; found by name too, and in German."""
    tournament = announce()
    entries = enter_field(tournament, 9)
    _closed(tournament, 1)
    gone = tournaments.entry_withdraw(entry=entries[4])
    _series(tournament, 2)
    client = Client()
    page = client.get(_live(tournament)).content.decode()
    row = re.search(
        rf'<tr class="withdrawn">.*?<td class="name"><span class="name-text">{re.escape(gone.name)} (.*?)</td>',
        page,
        re.S,
    )
    assert row is not None
    assert "withdrew after series 1" in row[1]
    assert page.count("withdrew after series") == 1
    found = client.get(_live(tournament), {"find": gone.name}).content.decode()
    assert "withdrew after series 1" in found
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert "nach Serie 1 zurückgetreten" in client.get(_live(tournament)).content.decode()


def test_a_player_finds_the_table_they_sit_at_in_the_series_being_played() -> None:
    tournament = announce()
    enter_field(tournament, 9)
    tournaments.series_draw(tournament=tournament, number=1, user=None)
    seats = dict(TableSeat.objects.filter(series__tournament=tournament).values_list("entry__name", "table__number"))
    page = Client().get(_live(tournament), {"find": "spieler 0"}).content.decode()
    assert "Where they sit in series 1" in page
    # No standings yet to find anybody in: the page says when they come, not that nobody was found.
    assert "The standings show here once the first series is closed." in page
    assert "players found" not in page
    for name in sorted(seats):
        assert f"<li>{name}: table {seats[name]}</li>" in page
    nobody = Client().get(_live(tournament), {"find": "Niemand"}).content.decode()
    assert "Nobody of that name plays in series 1." in nobody


def test_a_phone_asking_again_gets_the_live_part_alone_or_a_304_while_nothing_changed() -> None:
    tournament = announce()
    enter_field(tournament, 9)
    _closed(tournament, 1)
    second = _series(tournament, 2)
    client = Client()
    page = client.get(_live(tournament))
    assert "HX-Request" in page["Vary"]
    assert page["Cache-Control"] == "public, max-age=0, s-maxage=10"  # a shared cache answers the room for seconds
    part = client.get(_live(tournament), headers={"HX-Request": "true"})
    assert part.content.decode().lstrip().startswith('<div id="live"')
    assert part["ETag"] != page["ETag"]
    asked = {"HX-Request": "true", "If-None-Match": part["ETag"]}
    assert client.get(_live(tournament), headers=asked).status_code == 304
    enter_paper(Table.objects.get(series=second, number=2))
    changed = client.get(_live(tournament), headers=asked)
    assert changed.status_code == 200
    assert "1 of 3 tables done" in changed.content.decode()


# --- What it costs ----------------------------------------------------------------------------------------------------


def _mid_tournament(players: int) -> Tournament:
    """Series 1 closed, an entrant withdrawn after it, series 2 drawn with its first table's list entered."""
    tournament = announce()
    entries = enter_field(tournament, players)
    _closed(tournament, 1)
    tournaments.entry_withdraw(entry=entries[0])
    enter_paper(Table.objects.get(series=_series(tournament, 2), number=1))
    return tournament


def _asked(tournament: Tournament) -> CaptureQueriesContext:
    client = Client()
    assert client.get(_live(tournament)).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(_live(tournament)).status_code == 200
    return captured


@pytest.mark.slow
def test_the_live_page_costs_the_same_queries_however_many_play() -> None:
    few = _asked(_mid_tournament(9))
    many = _asked(_mid_tournament(LIVE_PLACES + 2 * LIVE_TABLES))
    assert len(many) == len(few)
    read = [query["sql"] for query in many.captured_queries if any(name in query["sql"] for name in EVERY_LIST)]
    assert read == []


@pytest.mark.slow
def test_the_live_page_reads_a_page_of_places_and_a_few_tables_however_many_play() -> None:
    tournament = _mid_tournament(4 * (LIVE_TABLES + 5))
    assert Table.objects.filter(series__tournament=tournament, series__number=2).count() == LIVE_TABLES + 5
    board = live_places(tournament)
    assert len(board.places) == LIVE_PLACES
    page = Client().get(_live(tournament)).content.decode()
    assert page.count("<li>Table ") == LIVE_TABLES
    assert "and 4 more tables" in page
    rows = [
        query["sql"]
        for query in _asked(tournament).captured_queries
        if "tournaments_entrystanding" in query["sql"] or "tournaments_table" in query["sql"]
    ]
    # Every read of places or tables is counted by the database or cut to a page.
    assert all("COUNT(" in sql or "LIMIT" in sql for sql in rows)


def test_a_name_looked_for_with_a_null_character_finds_nobody_rather_than_failing() -> None:
    tournament = announce()
    enter_field(tournament, 4)
    tournaments.series_draw(tournament=tournament, number=1, user=None)
    assert Client().get(_live(tournament), {"find": "Spie\x00ler"}).status_code == 200


def test_a_total_below_zero_is_written_with_a_real_minus_sign() -> None:
    tournament = announce()
    enter_field(tournament, 9)
    _closed(tournament, 1)
    totals = list(EntryStanding.objects.filter(tournament=tournament, total__lt=0).values_list("total", flat=True))
    assert totals, "the field has somebody below zero"
    page = Client().get(_live(tournament)).content.decode()
    assert f'<td class="num">−{-totals[0]}</td>' in page
    assert f">-{-totals[0]}<" not in page
