"""Who may do what at an open tournament, by persona: the organiser, a secretary and a member of the club it is
announced for, an entrant (by account and by confirmation code), a stranger, and nobody signed in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from matches.clubs import services as clubs
from matches.permissions import Action, Role, Visitor, allowed, match_role, subject_for
from matches.tournaments import services as tournaments
from matches.tournaments.models import Entry, Tournament

from .factories import make_user
from .tournaments_setup import SETTINGS, enter_field

pytestmark = pytest.mark.django_db


def _visitor(user: User | None, links: dict[str, str] | None = None) -> Visitor:
    return Visitor(user or AnonymousUser(), links or {})


def _setup() -> tuple[Tournament, Entry, dict[str, Visitor]]:
    organiser = make_user("organiser")
    club = clubs.club_create(owner=make_user("owner"), name="Grand Hand")
    secretary, member, entrant = make_user("secretary"), make_user("member"), make_user("entrant")
    clubs.member_set(club=club, username=secretary.username, role="secretary")
    clubs.member_set(club=club, username=member.username, role="member")
    clubs.member_set(club=club, username=organiser.username, role="secretary")
    tournament = tournaments.tournament_announce(organiser=organiser, settings=SETTINGS, club=club)
    entry = tournaments.entry_register_online(
        tournament=tournament, form=tournaments.EntryForm("Hanna"), account=entrant
    )
    return (
        tournament,
        entry,
        {
            "organiser": _visitor(organiser),
            "club secretary": _visitor(secretary),
            "club member": _visitor(member),
            "entrant": _visitor(entrant),
            "holder of the code": _visitor(None, {str(entry.public_id): entry.code}),
            "wrong code": _visitor(None, {str(entry.public_id): "AAAAAA"}),
            "stranger": _visitor(make_user("stranger")),
            "anonymous": _visitor(None),
        },
    )


# Each persona's answers: view the tournament, manage it, view the entry (its confirmation), manage the entry.
EXPECTED = {
    "organiser": (True, True, True, True),
    "club secretary": (True, True, True, True),
    "club member": (True, False, False, False),
    "entrant": (True, False, True, False),
    "holder of the code": (True, False, True, False),
    "wrong code": (True, False, False, False),
    "stranger": (True, False, False, False),
    "anonymous": (True, False, False, False),
}


@pytest.mark.parametrize("persona", EXPECTED)
def test_the_organiser_manages_an_entrant_sees_their_confirmation_and_everybody_reads_the_results(
    persona: str,
) -> None:
    tournament, entry, personas = _setup()
    visitor = personas[persona]
    answers = (
        allowed(visitor, Action.VIEW, tournament),
        allowed(visitor, Action.MANAGE, tournament),
        allowed(visitor, Action.VIEW, entry),
        allowed(visitor, Action.MANAGE, entry),
    )
    assert answers == EXPECTED[persona]


def test_the_tournament_and_an_entry_are_subjects_the_core_finds_by_public_id() -> None:
    tournament, entry, personas = _setup()
    assert subject_for(personas["anonymous"], Action.VIEW, "tournament", tournament.public_id) == tournament
    assert subject_for(personas["entrant"], Action.VIEW, "tournament_entry", entry.public_id) == entry


def test_the_organiser_owns_the_tables_and_a_stranger_meets_them_only_through_their_link() -> None:
    tournament, _, personas = _setup()
    enter_field(tournament, 7)
    table = tournaments.series_draw(tournament=tournament, number=1)[0]
    assert match_role(personas["organiser"], table.match) is Role.OWNER
    assert match_role(personas["club secretary"], table.match) is Role.OWNER
    assert match_role(personas["stranger"], table.match) is Role.NOBODY
    phone = Visitor(AnonymousUser(), {str(table.match.public_id): table.match.invite_token or ""})
    assert match_role(phone, table.match) is Role.LINK_SCORER


def test_an_organiser_on_their_own_manages_their_tournament_and_nobody_else_does() -> None:
    organiser = make_user("organiser")
    tournament = tournaments.tournament_announce(organiser=organiser, settings=SETTINGS)
    assert allowed(_visitor(organiser), Action.MANAGE, tournament)
    assert not allowed(_visitor(make_user("stranger")), Action.MANAGE, tournament)
