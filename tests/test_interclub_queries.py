"""The group's page, the league's live table, costs the same however many match days the group has played: it
reads one standing per team and player and lists the latest match days, never the results every closed venue
kept. Counted as ``test_queries.py`` counts: on a short history, then again on a longer one."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.engine.match_days import TableTie, league_table
from matches.interclub import services as leagues
from matches.interclub.models import League, PlayerStanding, SeriesScore, TeamStanding
from matches.interclub.selectors import _closed_days, group_table, players_ranking, series_rules, table_rules
from matches.interclub.views import MATCH_DAYS_SHOWN

from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup

pytestmark = pytest.mark.django_db

CountQueries = Callable[[int], ContextManager[CaptureQueriesContext]]
KEPT_RESULTS = ("interclub_seriesscore", "interclub_playerseries")
STANDINGS_MIGRATION = "matches.interclub.migrations.0003_standings_kept_for_the_group_table_and_the_players_ranking"


def play_match_day(setup: LeagueSetup, number: int, scores: list[dict[str, int]], *, accept: bool = True) -> None:
    """Match day ``number`` at a venue of the group's four teams, two series with ``scores``, closed (and
    accepted)."""
    day = leagues.match_day_create(group=setup.group, number=number, date=datetime.date(2026, 10, 3))
    setup.venue = leagues.venue_create(match_day=day, teams=setup.teams, host_team=setup.teams[0], series=2)
    for series, series_scores in enumerate(scores, start=1):
        check_in_all(setup, series)
        leagues.series_seat(venue=setup.venue, series=series, user=setup.manager)
        enter_series(setup, series, series_scores, setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    if accept:
        leagues.report_accept(venue=setup.venue, user=setup.manager)


def scores(number: int) -> list[dict[str, int]]:
    """Two series' scores that move the teams about from day to day, with no two teams equal."""
    names = ["Herz Dame I", "Kreuz Bube I", "Pik As I", "Karo Sieben I"]
    return [
        {name: 2400 + 100 * ((index + number + series) % 4) + index for index, name in enumerate(names)}
        for series in (1, 2)
    ]


# Each team first in one series and last in the other, or second and third: all four equal in league points and
# game points, and in their direct comparison.
EVEN = [
    {"Herz Dame I": 3000, "Kreuz Bube I": 2900, "Pik As I": 2800, "Karo Sieben I": 2700},
    {"Herz Dame I": 2700, "Kreuz Bube I": 2800, "Pik As I": 2900, "Karo Sieben I": 3000},
]


def played(first: list[dict[str, int]] | None = None) -> LeagueSetup:
    """The shared group with its first match day played (the setup's own venue), closed and accepted."""
    setup = league_setup(series=2)
    for number, one in enumerate(first or scores(1), start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.manager)
        enter_series(setup, number, one, setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    leagues.report_accept(venue=setup.venue, user=setup.manager)
    return setup


def page_queries(client: Client, address: str) -> CaptureQueriesContext:
    assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    return captured


def test_the_group_page_reads_no_kept_result_of_any_venue() -> None:
    setup = played()
    play_match_day(setup, 2, scores(2))
    captured = page_queries(Client(), reverse("interclub_group", args=[setup.group.public_id]))
    read = [query["sql"] for query in captured.captured_queries if any(name in query["sql"] for name in KEPT_RESULTS)]
    assert read == []


@pytest.mark.slow
def test_the_group_page_costs_the_same_queries_after_more_match_days(django_assert_num_queries: CountQueries) -> None:
    setup = played()
    address = reverse("interclub_group", args=[setup.group.public_id])
    few = len(page_queries(Client(), address))
    for number in range(2, MATCH_DAYS_SHOWN + 4):
        play_match_day(setup, number, scores(number), accept=number % 2 == 0)
    with django_assert_num_queries(few):
        Client().get(address)


def test_the_group_page_lists_the_latest_match_days_and_the_earlier_ones_on_request() -> None:
    setup = played()
    for number in range(2, MATCH_DAYS_SHOWN + 3):
        leagues.match_day_create(group=setup.group, number=number, date=datetime.date(2026, 11, number))
    client = Client()
    address = reverse("interclub_group", args=[setup.group.public_id])
    page = client.get(address).content.decode()
    assert f"Match day {MATCH_DAYS_SHOWN + 2}," in page
    assert "Match day 2," not in page
    assert "Match day 1," not in page
    assert '?before=3#days-title">Earlier match days<' in page
    earlier = client.get(address, {"before": "3"}).content.decode()
    assert "Match day 1," in earlier
    assert "Match day 2," in earlier
    assert "Match day 3," not in earlier
    assert "Earlier match days" not in earlier
    assert "Latest match days" in earlier
    # Anything but a match day's number lists the latest, never an error.
    for odd in ("x", "-1", "9" * 40, "²"):
        assert f"Match day {MATCH_DAYS_SHOWN + 2}," in client.get(address, {"before": odd}).content.decode()


def _from_every_venue(setup: LeagueSetup) -> list[tuple[str, object, int, int | None, bool]]:
    """The group's table summed afresh from every closed venue's kept results, as it was read before standings."""
    league = setup.group.division.league
    venues = SeriesScore.objects.filter(venue__match_day__group=setup.group).values_list("venue_id", flat=True)
    days = _closed_days(set(venues), series_rules(league))
    provisional = {row.team for day, accepted in days.values() if not accepted for row in day.rows}
    rows = league_table(
        [day for day, _ in days.values()],
        table_rules(league, setup.group),
        teams=[team.name for team in setup.teams],
    )
    return [(row.team, row.points, row.game_points, row.rank, row.team in provisional) for row in rows]


def _as_read(setup: LeagueSetup) -> list[tuple[str, object, int, int | None, bool]]:
    return [
        (one.row.team, one.row.points, one.row.game_points, one.row.rank, one.provisional)
        for one in group_table(setup.group).rows
    ]


@pytest.mark.parametrize("tie", [TableTie.SHARED, TableTie.DIRECT])
def test_the_standings_follow_every_close_acceptance_reopening_and_rescoring(tie: TableTie) -> None:
    """With the direct comparison, every team is equal in everything, so the venues where they met are read."""
    day_scores = scores if tie is TableTie.SHARED else lambda number: EVEN
    setup = played(day_scores(1))
    League.objects.filter(pk=setup.league.pk).update(table_tie=tie)
    setup.group.division.league.refresh_from_db()
    play_match_day(setup, 2, day_scores(2), accept=False)
    play_match_day(setup, 3, day_scores(3))
    assert _as_read(setup) == _from_every_venue(setup)
    second = setup.group.match_days.get(number=2).venues.get()
    leagues.report_accept(venue=second, user=setup.manager)
    assert _as_read(setup) == _from_every_venue(setup)
    assert not group_table(setup.group).provisional
    leagues.venue_reopen(venue=second, user=setup.manager, reason="Liste falsch")
    assert _as_read(setup) == _from_every_venue(setup)
    assert {row.row.match_days for row in group_table(setup.group).rows} == {2}
    assert {row.row.series for row in players_ranking(setup.league, group=setup.group)} == {4}
    leagues.venue_close(venue=second, user=setup.manager)
    leagues.venue_results_rescore(venue=second)
    assert _as_read(setup) == _from_every_venue(setup)
    ranking = players_ranking(setup.league, group=setup.group)
    assert {row.row.series for row in ranking} == {6}
    assert sum(row.row.total for row in ranking) == sum(
        score.score for score in SeriesScore.objects.filter(venue__match_day__group=setup.group)
    )


def test_the_migration_sums_the_kept_results_into_the_standings_the_services_keep() -> None:
    setup = played()
    play_match_day(setup, 2, scores(2), accept=False)
    kept = _standings()
    TeamStanding.objects.all().delete()
    PlayerStanding.objects.all().delete()
    import_module(STANDINGS_MIGRATION).standings_from_kept_results(django_apps, None)
    assert _standings() == kept


def _standings() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    teams = TeamStanding.objects.order_by("team_id").values_list(
        "team_id", "plus_halves", "minus_halves", "game_points", "match_days", "open_days"
    )
    players = PlayerStanding.objects.order_by("group_id", "league_player_id").values_list(
        "group_id", "league_player_id", "total", "series", "open_series"
    )
    return list(teams), list(players)
