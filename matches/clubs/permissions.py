"""Who may do what at a club, and at what the club's book keeps: the club's answers to the core's one policy
(``matches.permissions``), registered when the app is ready.

A club's matches and players are in the club's book: its owner and secretaries are their owners, its scorers
co-scorers, its members spectators. At the club itself (its seasons and nights) a person is the owner, a secretary,
a scorer, a member, or nobody; only the owner reopens a closed night, gives and takes the roles of owner and
secretary, and takes members off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib.auth.models import User
from django.db.models import QuerySet

from matches.models import Keeper
from matches.permissions import Action, Role, Subject, Visitor, found_in, on_subject

from .models import Club, ClubRole, Membership, Night, Season

# The club roles that run what a club does beyond its nights: a league's side of it (its teams' rosters, the venues
# it hosts), its tournaments.
CLUB_RUNNERS = (ClubRole.OWNER, ClubRole.SECRETARY)


def runs_club(account: User | None, club_id: int | None) -> bool:
    """Whether ``account`` is an owner or secretary of the club of that id."""
    if account is None or club_id is None:
        return False
    return Membership.objects.filter(club_id=club_id, user=account, role__in=CLUB_RUNNERS).exists()


R = TypeVar("R")

# What a club role makes of a person at the club's own matches and players.
KEPT_BY_CLUB: dict[ClubRole, Role] = {
    ClubRole.OWNER: Role.OWNER,
    ClubRole.SECRETARY: Role.OWNER,
    ClubRole.SCORER: Role.CO_SCORER,
    ClubRole.MEMBER: Role.SPECTATOR,
}

CLUB_GRANTS: dict[ClubRole | None, frozenset[Action]] = {
    None: frozenset(),
    ClubRole.MEMBER: frozenset({Action.VIEW}),
    ClubRole.SCORER: frozenset({Action.VIEW, Action.SCORE}),
    ClubRole.SECRETARY: frozenset({Action.VIEW, Action.SCORE, Action.SHARE, Action.MANAGE}),
    ClubRole.OWNER: frozenset(Action),
}


def club_book_role(visitor: Visitor, keeper: Keeper) -> Role:
    """The role a club's member has at what the club's book keeps (``NOBODY`` for a book that is not a club's)."""
    account = visitor.account
    if account is None or keeper.user_id is not None or keeper.guest_key is not None:
        return Role.NOBODY
    held = Membership.objects.filter(club__keeper_id=keeper.pk, user=account).values_list("role", flat=True).first()
    return KEPT_BY_CLUB[ClubRole(held)] if held else Role.NOBODY


def club_role(visitor: Visitor, club: Club) -> ClubRole | None:
    """The role ``visitor`` holds at ``club``, if any."""
    if visitor.account is None:
        return None
    held = Membership.objects.filter(club=club, user=visitor.account).values_list("role", flat=True).first()
    return ClubRole(held) if held else None


def club_can(visitor: Visitor, action: Action, club: Club) -> bool:
    return action in CLUB_GRANTS[club_role(visitor, club)]


def visible_clubs(visitor: Visitor) -> QuerySet[Club]:
    """The clubs a person belongs to."""
    if visitor.account is None:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=visitor.account)


def club_of(thing: Club | Season | Night) -> Club:
    """The club a club's thing belongs to."""
    if isinstance(thing, Night):
        return thing.season.club
    return thing.club if isinstance(thing, Season) else thing


def _club_allows(visitor: Visitor, action: Action, thing: Club | Season | Night) -> bool:
    return club_can(visitor, action, club_of(thing))


# The club's things that a rule can be about, each answered by the role held at its club.
CLUB_SUBJECTS: dict[str, Subject] = {
    "club": Subject(Club, found_in(lambda: Club.objects.all()), _club_allows),
    "season": Subject(Season, found_in(lambda: Season.objects.select_related("club")), _club_allows),
    "night": Subject(Night, found_in(lambda: Night.objects.select_related("season__club")), _club_allows),
}


def on_club(action: Action) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on one club (``club_id`` in the URL), for its members whose role allows ``action``."""
    return on_subject(action, "club")


def on_season(action: Action) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on one season (``season_id``), for the club's members whose role allows ``action``."""
    return on_subject(action, "season")


def on_night(action: Action) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on one club night (``night_id``), for the club's members whose role allows ``action``."""
    return on_subject(action, "night")
