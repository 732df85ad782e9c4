"""The things of every kind of event that the persona matrix (``test_personas``) and the schema fuzzer
(``test_schema_fuzz``) ask addresses about: each kind registers a maker (``register_things``) that, for the account
they ask with, makes its event once (or finds it, made before) and answers its things by the address argument naming
each (``venue_id``). The matrix learns which subject an argument names from the thing's model, so a kind that
registers its maker here is asked about at every address without either test naming it."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.db.models import Model

Things = Callable[[User], dict[str, Model]]

_makers: dict[str, Things] = {}


def register_things(kind: str, maker: Things) -> None:
    _makers.setdefault(kind, maker)


def event_things(owner: User) -> dict[str, Model]:
    """Every registered kind's things for ``owner``, by the argument naming each."""
    found: dict[str, Model] = {}
    for maker in _makers.values():
        found |= maker(owner)
    return found


def league_things(owner: User) -> dict[str, Model]:
    """A league ``owner`` owns, with a group of four clubs' teams, a match day and a venue whose first series is
    seated and whose second has its line-ups checked in (something to seat)."""
    from matches.interclub.models import League, LeagueRole, Team, Venue
    from matches.interclub.services import league_manager_set, series_seat

    from .interclub_setup import check_in_all, league_setup

    league = League.objects.filter(managers__user=owner).first()
    if league is None:
        setup = league_setup()
        league_manager_set(league=setup.league, user=owner, role=LeagueRole.OWNER)
        check_in_all(setup, 1)
        series_seat(venue=setup.venue, series=1, user=owner)
        check_in_all(setup, 2)
        league = setup.league
    venue = Venue.objects.select_related("match_day__group").get(match_day__group__division__league=league)
    return {
        "league_id": league,
        "group_id": venue.match_day.group,
        "match_day_id": venue.match_day,
        "team_id": Team.objects.filter(group=venue.match_day.group).order_by("name")[0],
        "venue_id": venue,
    }


def tournament_things(owner: User) -> dict[str, Model]:
    """A tournament ``owner`` organises, with seven entries (one online, the rest at the door) and its first series
    drawn (a table of four and one of three)."""
    from matches.tournaments.models import Entry, Tournament
    from matches.tournaments.services import series_draw

    from .tournaments_setup import announce, enter_field

    tournament = Tournament.objects.filter(organiser=owner).first()
    if tournament is None:
        tournament = announce(owner)
        enter_field(tournament, 7, online=1)
        series_draw(tournament=tournament, number=1, user=owner)
    return {
        "tournament_id": tournament,
        "entry_id": Entry.objects.filter(tournament=tournament).order_by("pk")[0],
    }


# The kinds installed with the project; a kind installed for the tests registers its own when it is ready.
register_things("league", league_things)
register_things("tournament", tournament_things)
