"""A club and its members: a club created with its book, its members' roles (the club keeps an owner), its public
screen's address, and its players with what the roster keeps of them."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F

from matches.engine import FieldError
from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.models import Keeper, Player, new_link_token
from matches.names import BadName, normalize_name
from matches.services import player_named
from matches.services.events import account_named, one_line_name

from ..models import Club, ClubRole, Membership, Roster, Season


def club_create(*, owner: User, name: str) -> Club:
    """A new club with a book of its own, owned by ``owner``."""
    with transaction.atomic():
        club = Club.objects.create(keeper=Keeper.objects.create(), name=one_line_name(name))
        Membership.objects.create(club=club, user=owner, role=ClubRole.OWNER)
    return club


def member_set(*, club: Club, username: str, role: str) -> Membership:
    """Give the account named ``username`` (in any case, as ``account_named`` finds it) a role at the club (adding it
    as a member if new)."""
    try:
        chosen = ClubRole(role)
    except ValueError:
        raise Invalid.on("role", gettext_noop("Must be one of: {choices}."), choices=", ".join(ClubRole)) from None
    user = account_named(username)
    with transaction.atomic():
        membership, _ = Membership.objects.select_for_update().get_or_create(club=club, user=user)
        if membership.role == ClubRole.OWNER and chosen != ClubRole.OWNER:
            _keep_an_owner(club, membership)
        membership.role = chosen
        membership.save(update_fields=["role"])
    return membership


def member_remove(*, club: Club, user: User) -> None:
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
        if membership is None:
            return
        if membership.role == ClubRole.OWNER:
            _keep_an_owner(club, membership)
        membership.delete()


def _keep_an_owner(club: Club, leaving: Membership) -> None:
    owners = Membership.objects.select_for_update().filter(club=club, role=ClubRole.OWNER).exclude(pk=leaving.pk)
    if not owners.exists():
        raise Conflict.on("username", gettext_noop("A club needs an owner: make somebody else owner first."))


def club_screen_link(*, club: Club, revoke: bool = False) -> Club:
    """Give the club's public screen a new address, or turn it off: whoever has the old one sees nothing."""
    Club.objects.filter(pk=club.pk).update(screen_token=None if revoke else new_link_token())
    club.refresh_from_db(fields=["screen_token"])
    return club


def club_player_add(*, club: Club, name: str, guest: bool = False) -> Player:
    """A player of the club's book (found by name, or added), with their roster entry."""
    try:
        normal = normalize_name(name)
    except BadName as bad:
        raise Invalid([FieldError("name", bad.message)]) from None
    player = player_named(club.keeper, normal)
    Roster.objects.get_or_create(player=player, defaults={"guest": guest})
    return player


def roster_set(*, club: Club, player: Player, guest: bool, first_name_only: bool, categories: Sequence[str]) -> Roster:
    """What the club keeps of one of its players: guest or member, first name only in public, the categories."""
    if player.keeper_id != club.keeper_id:
        raise Invalid.on("player", gettext_noop("Not a player of this club."))
    names = sorted({one_line_name(category, "categories") for category in categories if category.strip()})
    with transaction.atomic():
        roster, _ = Roster.objects.update_or_create(
            player=player, defaults={"guest": guest, "first_name_only": first_name_only, "categories": names}
        )
        # What the club's seasons' tables show of the player (by first name only, a guest ranked or not) may have
        # changed: the room's screen follows its season's version. (The roster ``club_player_add`` adds with a
        # player new to the club changes no table: the night the player comes to moves on.)
        Season.objects.filter(club=club).update(version=F("version") + 1)
    return roster
