"""The benchmark's leagues, seeded small: what ``make bench`` measures at full size must stay a league the pages
read as any other (a match day under way at its venues, a history of closed and accepted match days), and its
requests must leave the tables as they found them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from bench.figures import Requests, Seeds
from bench.leagues import ENTERED, seed_league_day, seed_league_history
from matches.interclub.models import PlayerSeries, SeriesScore, Venue, VenueTable
from matches.interclub.selectors import group_table, players_ranking, venue_report
from matches.models import Match

from .factories import make_user

pytestmark = pytest.mark.django_db


def test_a_league_day_has_every_venues_first_series_seated_and_entered() -> None:
    day = seed_league_day(make_user("keeper"), "Liga", venues=2)
    assert len(day.venues) == 2
    assert len(day.tables) == 8
    assert {table.match.deals for table in day.tables} == {ENTERED}
    report = venue_report(day.venues[0])
    assert report.series[0].seated
    assert len(report.series[0].places) == 4
    assert not report.series[1].seated
    assert len(group_table(day.group).rows) == 8


def test_a_league_history_counts_every_match_day_in_its_table_and_ranking() -> None:
    group = seed_league_history(make_user("keeper"), "Liga", match_days=3)
    table = group_table(group)
    assert [row.row.match_days for row in table.rows] == [3, 3, 3, 3]
    assert all(row.provisional for row in table.rows)
    assert sum(row.row.points.plus for row in table.rows) == 3 * 3 * (3 + 2 + 1)
    ranking = players_ranking(group.division.league, group=group)
    assert len(ranking) == 16
    assert {row.row.series for row in ranking} == {9}
    assert sum(row.row.total for row in ranking) == sum(score.score for score in SeriesScore.objects.all())
    scores = SeriesScore.objects.filter(venue__match_day__group=group)
    for score in scores:
        players = PlayerSeries.objects.filter(venue=score.venue, series=score.series, team=score.team)
        assert sum(one.total for one in players) == score.score
    assert Venue.objects.filter(match_day__group=group, accepted_at__isnull=True).count() == 1


def test_the_benchs_league_requests_answer_and_leave_the_table_as_it_was() -> None:
    scorer = make_user("bench-scorer")
    seeds = Seeds(scorer, lambda line: None)
    seeds.league_day = seed_league_day(scorer, "Liga", venues=2)
    seeds.league_histories = {days: seed_league_history(scorer, f"Liga {days}", days) for days in (1, 2)}
    requests = Requests(scorer, seeds)
    table = seeds.league_day.tables[len(seeds.league_day.tables) // 2]
    before = Match.objects.get(pk=table.match_id)
    for _ in range(2):
        assert requests.table_save(seeds.league_day) > 0
    after = Match.objects.get(pk=table.match_id)
    assert (after.deals, after.version, after.totals) == (before.deals, before.version, before.totals)
    # The phone scored by the table's link alone: it has no account.
    phone = requests.phones[table.match_id]
    assert "_auth_user_id" not in phone.session
    assert requests.group_page(seeds.league_histories[2]) > 0
    assert VenueTable.objects.filter(venue__match_day__group=seeds.league_day.group).count() == 8


def test_the_group_page_of_a_league_history_lists_its_teams() -> None:
    group = seed_league_history(make_user("keeper"), "Liga", match_days=2)
    page = Client().get(reverse("interclub_group", args=[group.public_id])).content.decode()
    assert "Team 001" in page
    assert "Team 004" in page
