"""A league match day played end to end: a venue of four teams checked in and seated, its tables entered from paper
lists and from games, closed, its report confirmed and accepted, the group's table and the players' ranking."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from matches.errors import Conflict
from matches.interclub import services as leagues
from matches.interclub.models import PlayerSeries, SeriesScore, VenueTable
from matches.interclub.selectors import group_table, players_ranking, team_match_days, venue_report
from matches.models import Match, Player
from matches.services import Submission, game_add

from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup

pytestmark = pytest.mark.django_db

# The worked match day (clubs digest; club 1010004, 2022): Team I 3683 / 3283 / 3109 = 10075 game points,
# 3:0 + 1:2 + 1:2 = 5:4. The other teams' scores are made up to give Team I those places.
WORKED = (
    {"Herz Dame I": 3683, "Kreuz Bube I": 3000, "Pik As I": 2900, "Karo Sieben I": 2800},
    {"Herz Dame I": 3283, "Kreuz Bube I": 3400, "Pik As I": 3300, "Karo Sieben I": 3000},
    {"Herz Dame I": 3109, "Kreuz Bube I": 3500, "Pik As I": 3200, "Karo Sieben I": 2000},
)


def _play_worked_day() -> LeagueSetup:
    setup = league_setup(series=3)
    secretary = setup.secretaries[0]
    for number, scores in enumerate(WORKED, start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=secretary)
        enter_series(setup, number, scores, secretary)
    setup.venue = leagues.venue_close(venue=setup.venue, user=secretary)
    return setup


def test_the_worked_match_day_gives_team_i_5_4_and_10075_game_points() -> None:
    setup = _play_worked_day()
    report = venue_report(setup.venue)
    herz = setup.teams[0]
    day = dict(report.days_best_first())[herz]
    assert day is not None
    assert (str(day.points), day.game_points) == ("5:4", 10075)
    herz_places = [next(place for place in series.places if place.team == herz.name) for series in report.series]
    assert [str(place.points) for place in herz_places] == ["3:0", "1:2", "1:2"]
    assert [place.team for place in report.series[1].places] == [
        "Kreuz Bube I",
        "Pik As I",
        "Herz Dame I",
        "Karo Sieben I",
    ]
    assert report.ready
    assert report.provisional
    assert all(len(series.tables) == 4 and series.complete for series in report.series)


def test_a_closed_venue_keeps_its_series_scores_and_locks_its_tables() -> None:
    setup = _play_worked_day()
    venue = setup.venue
    assert SeriesScore.objects.filter(venue=venue).count() == 12
    assert PlayerSeries.objects.filter(venue=venue).count() == 48
    assert not Match.objects.filter(venue_table__venue=venue, locked=False).exists()
    assert not Match.objects.filter(venue_table__venue=venue, invite_token__isnull=False).exists()


def test_the_group_table_counts_the_day_provisionally_until_it_is_accepted() -> None:
    setup = _play_worked_day()
    table = group_table(setup.group)
    assert [(row.team.name, str(row.row.points), row.row.game_points) for row in table.rows] == [
        ("Kreuz Bube I", "8:1", 9900),
        # Equal in league points, Herz Dame I is ahead by the summed series scores.
        ("Herz Dame I", "5:4", 10075),
        ("Pik As I", "5:4", 9400),
        ("Karo Sieben I", "0:9", 7800),
    ]
    assert table.provisional
    assert all(row.provisional for row in table.rows)
    assert [row.row.mark for row in table.rows] == ["promotion", None, None, "relegation"]
    leagues.report_accept(venue=setup.venue, user=setup.manager)
    assert not group_table(setup.group).provisional


def test_the_group_table_reads_no_game(django_assert_max_num_queries: Any) -> None:
    setup = _play_worked_day()
    with django_assert_max_num_queries(5):
        group_table(setup.group)


def test_a_teams_match_days_and_the_players_ranking_come_from_the_closed_venue() -> None:
    setup = _play_worked_day()
    days = team_match_days(setup.teams[0])
    assert len(days) == 1
    assert days[0].result is not None
    assert str(days[0].result.points) == "5:4"
    ranking = players_ranking(setup.league)
    assert len(ranking) == 16
    assert all(row.provisional for row in ranking)
    assert ranking[0].row.series == 3
    best = ranking[0]
    kept = PlayerSeries.objects.filter(league_player=best.player).values_list("total", flat=True)
    assert best.row.total == sum(kept)


def test_the_players_ranking_leaves_out_those_short_of_the_leagues_minimum() -> None:
    setup = _play_worked_day()
    league = setup.league
    league.minimum_series = 4
    league.save(update_fields=["minimum_series"])
    assert players_ranking(league) == []


def test_a_table_scored_game_by_game_counts_its_seeger_fabian_totals_and_keeps_the_venue_open() -> None:
    setup = league_setup(series=2)
    check_in_all(setup, 1)
    tables = leagues.series_seat(venue=setup.venue, series=1, user=setup.secretaries[0])
    match = tables[0].match
    # Seat 0 deals first and sits out at a table of four; seat 1 wins a clubs game with 1: 24, + 50 for the win.
    game_add(
        match=match,
        user=None,
        token=uuid.uuid4(),
        submission=Submission(declarer=1, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70}),
    )
    report = venue_report(setup.venue)
    lines = report.series[0].tables[0].lines
    assert [line.total for line in lines] == [0, 74, 0, 0]
    assert (lines[1].game_points, lines[1].won) == (24, 1)
    winner = lines[1].team
    assert winner is not None
    assert dict((place.team, place.score) for place in report.series[0].places)[winner.name] == 74
    with pytest.raises(Conflict) as refused:
        leagues.venue_close(venue=setup.venue, user=setup.secretaries[0])
    texts = [error.message.render() for error in refused.value.errors]
    assert "Table 1 of series 1 has 1 of 48 games." in texts
    assert "Series 2 is not seated yet." in texts
    assert VenueTable.objects.get(pk=tables[0].pk).venue.closed_at is None
    assert not Match.objects.get(pk=match.pk).locked


def test_a_series_seated_but_not_played_yet_ranks_nobody_and_gives_no_points() -> None:
    setup = league_setup(series=2)
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.secretaries[0])
    report = venue_report(setup.venue)
    assert report.series[0].seated
    assert report.series[0].places == ()
    assert report.day is None


def test_a_game_posted_to_a_closed_venues_table_is_refused_naming_the_league() -> None:
    """Each event names itself: a closed league table says the league's match day, not a club night."""
    setup = _play_worked_day()
    table = VenueTable.objects.filter(venue=setup.venue).select_related("match").first()
    assert table is not None
    with pytest.raises(Conflict) as refused:
        game_add(
            match=table.match,
            user=setup.secretaries[0],
            token=uuid.uuid4(),
            submission=Submission(declarer=0, entry={"contract": "clubs", "matadors": 1, "outcome": "won"}),
        )
    (error,) = refused.value.errors
    assert error.message.render() == (
        "This list of Verbandsliga Nord · Staffel 1 · match day 1 is closed (its series or its day was closed, or it "
        "came from paper); nothing was changed."
    )


def test_players_sharing_a_rank_are_listed_by_name() -> None:
    """Not by their place in the database, which a restore changes: the players' ranking lists a rank's players by
    name, as the group's table lists its teams."""
    setup = _play_worked_day()
    ranking = players_ranking(setup.league)
    shared = next(rank for rank in {row.row.rank for row in ranking} if [r.row.rank for r in ranking].count(rank) > 1)
    tied = [row.player for row in ranking if row.row.rank == shared]
    # Renamed so that their names run against the order in which they were stored.
    for index, player in enumerate(sorted(tied, key=lambda player: player.pk)):
        Player.objects.filter(pk=player.pk).update(name=f"{chr(ord('Z') - index)} tied")
    renamed = [row.player.name for row in players_ranking(setup.league) if row.row.rank == shared]
    assert renamed == sorted(renamed)
    assert len(renamed) > 1
