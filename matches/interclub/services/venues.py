"""Match days and venues: a group's match day, and a venue with its teams (two to four, each of the group and at no
other venue that day)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction

from matches.clubs.models import Club
from matches.engine import FieldError
from matches.engine.match_days import MAX_TEAMS
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict, Invalid
from matches.services.tables import moved_on

from ..models import Group, MatchDay, Team, Venue, VenueTable, VenueTeam
from .common import MAX_SERIES, MIN_SERIES, league_of_group, lock_league, lock_venue

MAX_NAME_LENGTH = 100


def match_day_create(*, group: Group, number: int, date: datetime.date) -> MatchDay:
    if number < 1:
        raise Invalid.on("number", gettext_noop("Between 1 and {most}."), most=99)
    with transaction.atomic():
        lock_league(league_of_group(group))
        if MatchDay.objects.filter(group=group, number=number).exists():
            raise Invalid.on("number", gettext_noop("The group has a match day {number} already."), number=number)
        return MatchDay.objects.create(group=group, number=number, date=date)


def venue_create(
    *,
    match_day: MatchDay,
    teams: Sequence[Team],
    host_team: Team | None = None,
    host_club: Club | None = None,
    place: str = "",
    series: int | None = None,
) -> Venue:
    """A venue of the match day with its teams (two to four, each of the group and at no other venue that day),
    hosted by ``host_club`` (the host team's club when not given), playing ``series`` series (the league's number
    when not given)."""
    league = league_of_group(match_day.group)
    count = league.series_per_day if series is None else series
    if not MIN_SERIES <= count <= MAX_SERIES:
        raise Invalid.on("series", gettext_noop("Between {low} and {high}."), low=MIN_SERIES, high=MAX_SERIES)
    place = " ".join(place.split())
    if len(place) > MAX_NAME_LENGTH:
        raise Invalid.on("place", gettext_noop("At most {count} characters."), count=MAX_NAME_LENGTH)
    if host_team is not None and host_team not in teams:
        raise Invalid.on("host_team", gettext_noop("The host plays at its own venue: add its team."))
    with transaction.atomic():
        lock_league(league)
        venue = Venue.objects.create(
            match_day=match_day,
            host_team=host_team,
            host_club=host_club or (host_team.club if host_team is not None else None),
            place=place,
            series=count,
        )
        _teams_add(venue, teams)
        return venue


def venue_team_add(*, venue: Venue, team: Team) -> Venue:
    """Add a team to a venue that has not started: refused as a fifth team, a team of another group, or one
    playing at another venue that day."""
    with transaction.atomic():
        locked = lock_venue(venue)
        if VenueTable.objects.filter(venue=locked).exists():
            raise Conflict.on("teams", gettext_noop("This venue is seated already: its teams stay."))
        _teams_add(locked, [team])
        moved_on(locked)
        return locked


def _teams_add(venue: Venue, teams: Sequence[Team]) -> None:
    """Add ``teams`` to the (locked) venue, after every check."""
    match_day = venue.match_day
    present = list(VenueTeam.objects.filter(venue=venue).select_related("team"))
    if len(present) + len(teams) > MAX_TEAMS:
        raise Invalid.on(
            "teams",
            gettext_noop("A venue seats {low} to {high} teams, not {count}."),
            low=2,
            high=MAX_TEAMS,
            count=len(present) + len(teams),
        )
    seen = {one.team_id for one in present}
    problems = []
    for index, team in enumerate(teams):
        field = f"teams.{index}"
        if team.pk in seen:
            problems.append(FieldError(field, msg(gettext_noop("{team} is listed twice."), team=team.name)))
        elif team.group_id != match_day.group_id:
            problems.append(FieldError(field, msg(gettext_noop("{team} is not a team of this group."), team=team.name)))
        else:
            elsewhere = VenueTeam.objects.filter(match_day=match_day, team=team).select_related("venue").first()
            if elsewhere is not None:
                problems.append(
                    FieldError(
                        field,
                        msg(
                            gettext_noop("{team} plays at {venue} on this match day."),
                            team=team.name,
                            venue=elsewhere.venue.place or str(elsewhere.venue.pk),
                        ),
                    )
                )
        seen.add(team.pk)
    if problems:
        raise Invalid(problems)
    VenueTeam.objects.bulk_create(
        VenueTeam(venue=venue, match_day=match_day, team=team, order=len(present) + index)
        for index, team in enumerate(teams)
    )
