"""Who may do what in a league, by persona: the league's manager, a team's captain, the host club's secretary, a
member of another club, a stranger (and nobody signed in)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from matches.clubs import services as clubs
from matches.interclub import permissions as rules
from matches.interclub import services as leagues
from matches.permissions import Action, Role, Visitor, allowed, match_role

from .factories import make_user
from .interclub_setup import LeagueSetup, check_in_all, league_setup

pytestmark = pytest.mark.django_db


def _visitor(user: User | None) -> Visitor:
    return Visitor(user or AnonymousUser())


def _personas(setup: LeagueSetup) -> dict[str, Visitor]:
    member = make_user("member")
    clubs.member_set(club=setup.clubs[2], username=member.username, role="member")
    return {
        "manager": _visitor(setup.manager),
        "captain": _visitor(setup.captains[1]),
        "host secretary": _visitor(setup.secretaries[0]),
        "member of another club": _visitor(member),
        "stranger": _visitor(make_user("stranger")),
        "anonymous": _visitor(None),
    }


# Each persona's answers: check in the captain's team (Kreuz Bube I), check in the host's team, seat the venue,
# confirm for the captain's team, accept the report, keep the captain's team's roster, manage the league.
EXPECTED = {
    "manager": (True, True, True, False, True, True, True),
    "captain": (True, False, False, True, False, False, False),
    "host secretary": (True, True, True, False, False, False, False),
    "member of another club": (False, False, False, False, False, False, False),
    "stranger": (False, False, False, False, False, False, False),
    "anonymous": (False, False, False, False, False, False, False),
}


@pytest.mark.parametrize("persona", list(EXPECTED))
def test_each_persona_may_do_what_its_part_in_the_league_allows(persona: str) -> None:
    setup = league_setup()
    visitor = _personas(setup)[persona]
    venue, captains_team, hosts_team = setup.venue, setup.teams[1], setup.teams[0]
    answers = (
        rules.may_check_in(visitor, venue, captains_team),
        rules.may_check_in(visitor, venue, hosts_team),
        rules.may_seat(visitor, venue),
        rules.may_confirm(visitor, venue, captains_team),
        rules.may_accept(visitor, venue),
        rules.may_keep_roster(visitor, captains_team),
        allowed(visitor, Action.MANAGE, setup.league),
    )
    assert answers == EXPECTED[persona]


@pytest.mark.parametrize("persona", list(EXPECTED))
def test_everybody_views_a_league_and_its_venues(persona: str) -> None:
    setup = league_setup()
    visitor = _personas(setup)[persona]
    assert allowed(visitor, Action.VIEW, setup.league)
    assert allowed(visitor, Action.VIEW, setup.venue)
    assert allowed(visitor, Action.VIEW, setup.teams[0])


def test_a_venue_is_scored_by_its_manager_host_secretary_and_captains_only() -> None:
    setup = league_setup()
    personas = _personas(setup)
    scoring = {name for name, visitor in personas.items() if allowed(visitor, Action.SCORE, setup.venue)}
    assert scoring == {"manager", "captain", "host secretary"}


def test_a_teams_club_secretary_keeps_its_roster() -> None:
    setup = league_setup()
    assert rules.may_keep_roster(_visitor(setup.secretaries[1]), setup.teams[1])
    assert not rules.may_keep_roster(_visitor(setup.secretaries[1]), setup.teams[2])


def test_the_leagues_tables_are_the_managers_and_seen_by_its_captains_and_club_secretaries() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    match = leagues.series_seat(venue=setup.venue, series=1, user=setup.secretaries[0])[0].match
    personas = _personas(setup)
    roles = {name: match_role(visitor, match) for name, visitor in personas.items()}
    assert roles == {
        "manager": Role.OWNER,
        "captain": Role.SPECTATOR,
        "host secretary": Role.SPECTATOR,
        "member of another club": Role.NOBODY,
        "stranger": Role.NOBODY,
        "anonymous": Role.NOBODY,
    }


def test_a_tables_phone_scores_it_through_its_link_as_at_a_club_night() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    match = leagues.series_seat(venue=setup.venue, series=1, user=None)[0].match
    phone = Visitor(AnonymousUser(), {str(match.public_id): match.invite_token or ""})
    assert match_role(phone, match) is Role.LINK_SCORER


def test_only_the_leagues_owner_gives_its_roles() -> None:
    setup = league_setup()
    helper = make_user("helper")
    leagues.league_manager_set(league=setup.league, user=helper)
    assert allowed(_visitor(setup.manager), Action.ROLES, setup.league)
    assert not allowed(_visitor(helper), Action.ROLES, setup.league)
    assert allowed(_visitor(helper), Action.MANAGE, setup.league)
