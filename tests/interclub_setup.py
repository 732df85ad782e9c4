"""A league group of four clubs' teams, as the league tests share it: each club with a secretary and a captain, each
team with four players and a substitute on its roster, a match day and a venue of the four teams."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User

from matches.clubs import services as clubs
from matches.clubs.models import Club
from matches.engine.league import reachable
from matches.interclub import services as leagues
from matches.interclub.models import CheckIn, Group, League, MatchDay, RosterEntry, Team, Venue, VenueTable
from matches.models import Player

from .factories import make_user

CLUBS = ("Herz Dame", "Kreuz Bube", "Pik As", "Karo Sieben")


@dataclass
class LeagueSetup:
    league: League
    group: Group
    manager: User
    clubs: list[Club]
    secretaries: list[User]
    captains: list[User]
    teams: list[Team]
    rosters: list[list[RosterEntry]]
    match_day: MatchDay
    venue: Venue


def roster_player(team: Team, name: str, **entry: object) -> RosterEntry:
    """A new player of the team's club, put on the team's roster by the club's owner."""
    player = clubs.club_player_add(club=team.club, name=name)
    secretary = team.club.memberships.filter(role="owner").get().user
    return leagues.roster_add(team=team, player=player, by=secretary, **entry)  # type: ignore[arg-type]


def league_setup(series: int = 3) -> LeagueSetup:
    manager = make_user("manager")
    league = leagues.league_create(owner=manager, settings=leagues.LeagueSettings(name="Verbandsliga Nord"))
    division = leagues.division_create(league=league, name="Verbandsliga")
    group = leagues.group_create(division=division, name="Staffel 1", promoted=1, relegated=1)
    club_list, secretaries, captains, teams, rosters = [], [], [], [], []
    for index, name in enumerate(CLUBS):
        owner = make_user(f"owner{index}")
        club = clubs.club_create(owner=owner, name=name)
        secretary = make_user(f"secretary{index}")
        clubs.member_set(club=club, username=secretary.username, role="secretary")
        captain = make_user(f"captain{index}")
        clubs.member_set(club=club, username=captain.username, role="member")
        team = leagues.team_enter(group=group, club=club, name=f"{name} I", captain=captain)
        roster = [roster_player(team, f"{name[:4]} {seat}") for seat in range(1, 5)]
        roster.append(roster_player(team, f"{name[:4]} Ersatz", substitute=True))
        club_list.append(club)
        secretaries.append(secretary)
        captains.append(captain)
        teams.append(team)
        rosters.append(roster)
    match_day = leagues.match_day_create(group=group, number=1, date=datetime.date(2026, 10, 3))
    venue = leagues.venue_create(
        match_day=match_day, teams=teams, host_team=teams[0], place="Vereinsheim Herz Dame", series=series
    )
    return LeagueSetup(league, group, manager, club_list, secretaries, captains, teams, rosters, match_day, venue)


def check_in_all(setup: LeagueSetup, series: int) -> None:
    """Every team's four regular players, for ``series``."""
    for team, roster in zip(setup.teams, setup.rosters, strict=True):
        leagues.series_check_in(venue=setup.venue, series=series, team=team, entries=roster[:4])


def paper_line(total: int) -> tuple[int, int, int]:
    """Game points, won and lost (none) that a player at a table of four writes for a Seeger-Fabian ``total``,
    with at most twelve games won, so that four such lines fit a series of 48 games."""
    for won in range(12, 0, -1):
        points = total - 50 * won
        if points > 0 and reachable(points, won=won, lost=0):
            return points, won, 0
    raise AssertionError(f"no paper line for {total}")


def enter_series(setup: LeagueSetup, series: int, scores: dict[str, int], user: User | None) -> None:
    """Enter every table of a seated series from paper, so that each team's series score is ``scores[team]``: the
    totals of its players checked in for the series split as evenly as whole points allow, none of them losing a
    game (no others' lost games)."""
    team_of = {
        entry.league_player_id: team
        for team, roster in zip(setup.teams, setup.rosters, strict=True)
        for entry in roster
    }
    shares: dict[int, int] = {}
    for team in setup.teams:
        checked_in = CheckIn.objects.filter(venue=setup.venue, series=series, team=team).order_by("position", "id")
        regulars = list(checked_in.values_list("league_player_id", flat=True))
        base, rest = divmod(scores[team.name], len(regulars))
        for index, regular in enumerate(regulars):
            shares[regular] = base + (1 if index < rest else 0)
    for table in VenueTable.objects.filter(venue=setup.venue, series=series).select_related("match"):
        players = [seat.player for seat in table.match.seats.select_related("player").order_by("position")]
        assert len({team_of[player.pk] for player in players}) == len(players)
        lines: list[tuple[Player, int, int, int]] = [(player, *paper_line(shares[player.pk])) for player in players]
        leagues.table_paper_enter(table=table, lines=lines, user=user)
