"""Who may do what at an open tournament: the tournament's answers to the core's one policy (``matches.permissions``),
registered when the app is ready.

The organiser manages everything of it (entries, payments, draws, paper lists, closing a series); so do the owners
and secretaries of the club it is announced for. An entrant sees their own entry and its confirmation code: the
account that entered online, or whoever holds the code (the confirmation page keeps it in the visitor's links, as an
invite link is kept). A tournament's results are public, as organisers post them in the room: everybody may view
it. The tables' phones score through their match's link, as at a club night: the core answers for that.
"""

from __future__ import annotations

import secrets

from matches.clubs.permissions import runs_club
from matches.models import Keeper
from matches.permissions import Action, Role, Subject, Visitor, found_in

from .models import Entry, Tournament


def manages_tournament(visitor: Visitor, tournament: Tournament) -> bool:
    """The organiser, and the owners and secretaries of the club the tournament is announced for."""
    account = visitor.account
    if account is None:
        return False
    return tournament.organiser_id == account.pk or runs_club(account, tournament.club_id)


def tournament_book_role(visitor: Visitor, keeper: Keeper) -> Role:
    """What a person is at the matches and players of a tournament's book: those who manage the tournament own them;
    nobody else meets them there (``NOBODY`` for a book that is not a tournament's)."""
    if visitor.account is None or keeper.user_id is not None or keeper.guest_key is not None:
        return Role.NOBODY
    tournament = Tournament.objects.filter(keeper_id=keeper.pk).first()
    if tournament is not None and manages_tournament(visitor, tournament):
        return Role.OWNER
    return Role.NOBODY


def holds_entry(visitor: Visitor, entry: Entry) -> bool:
    """Whether ``visitor`` is the entrant: the account that entered online, or whoever holds its code."""
    if visitor.account is not None and entry.account_id == visitor.account.pk:
        return True
    held = visitor.links.get(str(entry.public_id))
    return held is not None and secrets.compare_digest(str(held), entry.code)


def _tournament_allows(visitor: Visitor, action: Action, tournament: Tournament) -> bool:
    if action is Action.VIEW:
        return True
    return action in {Action.SCORE, Action.SHARE, Action.MANAGE} and manages_tournament(visitor, tournament)


def _entry_allows(visitor: Visitor, action: Action, entry: Entry) -> bool:
    """An entry, with its confirmation code, is seen by the entrant and those who manage the tournament; only they
    change it."""
    if action is Action.VIEW and holds_entry(visitor, entry):
        return True
    return action in {Action.VIEW, Action.MANAGE} and manages_tournament(visitor, entry.tournament)


# The tournament's things that a rule can be about.
TOURNAMENT_SUBJECTS: dict[str, Subject] = {
    "tournament": Subject(Tournament, found_in(lambda: Tournament.objects.all()), _tournament_allows),
    "tournament_entry": Subject(Entry, found_in(lambda: Entry.objects.select_related("tournament")), _entry_allows),
}
