"""The leagues the benchmark measures: a group on its match day, and a group with a long history of closed ones.

The match day is set up through the league's services as a league manager and the host clubs set it up: teams of
four from clubs of their own, their rosters, one match day with its venues of four teams, each venue's first series
checked in and seated (four tables a venue, each a match of the league's book), and a few games entered at every
table through the core. The history is written in bulk (ten thousand match days through the services would take
hours): each match day one venue of the group's four teams, closed, with the rows a closing venue keeps (each team's
series scores, each player's series totals, and the teams' and players' standings they add up to) and the players
checked in; every venue but the last accepted. Its tables' games are not written: the group's page never reads a
game of a closed venue, only what the venue kept.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from matches.clubs import services as clubs
from matches.engine.match_days import score_match_day
from matches.interclub import services as leagues
from matches.interclub.models import (
    CheckIn,
    Group,
    MatchDay,
    PlayerSeries,
    PlayerStanding,
    RosterEntry,
    SeriesScore,
    Team,
    TeamStanding,
    Venue,
    VenueTable,
    VenueTeam,
)
from matches.interclub.selectors import series_rules
from matches.models import Match
from matches.rows import rows_insert
from matches.services import Submission, game_add

from .bulk import LOST_ENTRY, WON_ENTRY

TEAMS_AT_A_VENUE = 4
PLAYERS_IN_A_TEAM = 4
SERIES = 3
ENTERED = 2  # games each table of the match day has entered
FIRST_DAY = datetime.date(2026, 9, 5)


@dataclass(frozen=True)
class LeagueDay:
    """A group on its match day: its venues and the tables of their first series."""

    group: Group
    venues: list[Venue]
    tables: list[VenueTable]


def seed_league_day(owner: User, name: str, venues: int) -> LeagueDay:
    """A league whose one group plays a match day at ``venues`` venues of four teams, every venue's first series
    seated and ``ENTERED`` games entered at each of its tables."""
    group = _group(owner, name)
    teams = _teams(owner, group, venues * TEAMS_AT_A_VENUE)
    day = leagues.match_day_create(group=group, number=1, date=FIRST_DAY)
    played = []
    for index in range(venues):
        seated = teams[index * TEAMS_AT_A_VENUE : (index + 1) * TEAMS_AT_A_VENUE]
        venue = leagues.venue_create(
            match_day=day, teams=[team for team, _ in seated], host_team=seated[0][0], place=f"Spiellokal {index + 1}"
        )
        for team, roster in seated:
            leagues.series_check_in(venue=venue, series=1, team=team, entries=roster)
        leagues.series_seat(venue=venue, series=1, user=owner)
        played.append(venue)
    tables = list(VenueTable.objects.filter(venue__match_day=day).select_related("match").order_by("id"))
    for table in tables:
        for number in range(1, ENTERED + 1):
            # The seat after the dealer declares (the first seat deals first and sits out at a table of four).
            submission = Submission(declarer=number % 4, entry=WON_ENTRY if number % 3 else LOST_ENTRY)
            game_add(match=table.match, user=owner, token=uuid.uuid4(), submission=submission)
    return LeagueDay(group, played, tables)


def seed_league_history(owner: User, name: str, match_days: int) -> Group:
    """A league whose one group of four teams has played ``match_days`` match days, each at one venue, closed and
    (but the last) accepted, written in bulk with the rows closing keeps."""
    group = _group(owner, name)
    teams = _teams(owner, group, TEAMS_AT_A_VENUE)
    now = timezone.now()
    with transaction.atomic():
        days = MatchDay.objects.bulk_create(
            MatchDay(group=group, number=number, date=FIRST_DAY + datetime.timedelta(days=7 * (number - 1)))
            for number in range(1, match_days + 1)
        )
        venues = Venue.objects.bulk_create(
            Venue(
                match_day=day,
                host_club_id=teams[day.number % TEAMS_AT_A_VENUE][0].club_id,
                host_team=teams[day.number % TEAMS_AT_A_VENUE][0],
                place=f"Spiellokal {day.number}",
                series=SERIES,
                closed_at=now,
                accepted_at=None if day.number == match_days else now,
            )
            for day in days
        )
        VenueTeam.objects.bulk_create(
            VenueTeam(venue=venue, match_day=day, team=team, order=order)
            for venue, day in zip(venues, days, strict=True)
            for order, (team, _) in enumerate(teams)
        )
        rows_insert(
            CheckIn,
            ("venue", "match_day", "series", "team", "entry", "league_player", "position", "created_at"),
            _check_ins(venues, teams, now),
            repeated=True,
        )
        rows_insert(SeriesScore, ("venue", "series", "team", "score"), _series_scores(venues, teams))
        rows_insert(PlayerSeries, ("venue", "series", "team", "league_player", "total"), _player_series(venues, teams))
        _standings(group, venues, teams)
    return group


def _group(owner: User, name: str) -> Group:
    league = leagues.league_create(owner=owner, settings=leagues.LeagueSettings(name=name))
    division = leagues.division_create(league=league, name="Verbandsliga")
    return leagues.group_create(division=division, name="Staffel 1", promoted=2, relegated=2)


def _teams(owner: User, group: Group, count: int) -> list[tuple[Team, list[RosterEntry]]]:
    """``count`` teams of clubs of their own, each with four players on its roster."""
    teams = []
    league_name = group.division.league.name
    for number in range(1, count + 1):
        club = clubs.club_create(owner=owner, name=f"{league_name} Club {number}")
        team = leagues.team_enter(group=group, club=club, name=f"Team {number:03d}")
        roster = [
            leagues.roster_add(team=team, player=clubs.club_player_add(club=club, name=f"Spieler {number:03d}-{seat}"))
            for seat in range(1, PLAYERS_IN_A_TEAM + 1)
        ]
        teams.append((team, roster))
    return teams


def _series_score(venue: int, series: int, order: int) -> int:
    """A team's series score that changes who wins from series to series and venue to venue, never tying."""
    return 2000 + 100 * ((venue + series + order) % TEAMS_AT_A_VENUE) + order


def _standings(group: Group, venues: Sequence[Venue], teams: Sequence[tuple[Team, list[RosterEntry]]]) -> None:
    """The teams' and players' standings, as closing (and accepting) each venue adds to them: each day scored by
    the engine from the series scores written."""
    rules = series_rules(group.division.league)
    names = [team.name for team, _ in teams]
    sums = {name: TeamStanding(team=team) for name, (team, _) in zip(names, teams, strict=True)}
    for venue in venues:
        series = [
            {name: _series_score(venue.pk, number, order) for order, name in enumerate(names)}
            for number in range(1, SERIES + 1)
        ]
        provisional = int(venue.accepted_at is None)
        for row in score_match_day(names, series, rules).rows:
            standing = sums[row.team]
            standing.plus_halves += int(row.points.plus * 2)
            standing.minus_halves += int(row.points.minus * 2)
            standing.game_points += row.game_points
            standing.match_days += 1
            standing.open_days += provisional
    TeamStanding.objects.bulk_create(sums.values())
    open_series = SERIES * sum(venue.accepted_at is None for venue in venues)
    players = []
    for order, (_, roster) in enumerate(teams):
        for seat, entry in enumerate(roster):
            total = 0
            for venue in venues:
                for number in range(1, SERIES + 1):
                    share, rest = divmod(_series_score(venue.pk, number, order), len(roster))
                    total += share + (rest if seat == 0 else 0)
            players.append(
                PlayerStanding(
                    group=group,
                    league_player_id=entry.league_player_id,
                    total=total,
                    series=SERIES * len(venues),
                    open_series=open_series,
                )
            )
    PlayerStanding.objects.bulk_create(players)


def _check_ins(
    venues: Sequence[Venue], teams: Sequence[tuple[Team, list[RosterEntry]]], now: datetime.datetime
) -> Iterator[list[object]]:
    for venue in venues:
        for series in range(1, SERIES + 1):
            for team, roster in teams:
                for position, entry in enumerate(roster):
                    yield [
                        venue.pk,
                        venue.match_day_id,
                        series,
                        team.pk,
                        entry.pk,
                        entry.league_player_id,
                        position,
                        now,
                    ]


def _series_scores(venues: Sequence[Venue], teams: Sequence[tuple[Team, list[RosterEntry]]]) -> Iterator[list[int]]:
    for venue in venues:
        for series in range(1, SERIES + 1):
            for order, (team, _) in enumerate(teams):
                yield [venue.pk, series, team.pk, _series_score(venue.pk, series, order)]


def _player_series(venues: Sequence[Venue], teams: Sequence[tuple[Team, list[RosterEntry]]]) -> Iterator[list[int]]:
    """Each player's share of their team's series score (the first takes what does not divide evenly)."""
    for venue in venues:
        for series in range(1, SERIES + 1):
            for order, (team, roster) in enumerate(teams):
                score = _series_score(venue.pk, series, order)
                share, rest = divmod(score, len(roster))
                for seat, entry in enumerate(roster):
                    yield [venue.pk, series, team.pk, entry.league_player_id, share + (rest if seat == 0 else 0)]


def table_match(day: LeagueDay, index: int) -> Match:
    """The match of the day's table at ``index``, read afresh."""
    return Match.objects.get(pk=day.tables[index].match_id)
