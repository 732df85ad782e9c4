"""Players of a book: found or added by name, linked to an account, merged."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from ..engine import (
    FieldError,
)
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict, Gone, Invalid, ServiceError
from ..models import GameScore, Keeper, Match, Person, Player, Seat, new_link_token
from ..names import BadName, name_key, normalize_name
from .people import join_account, join_number, player_leaves


def player_named(keeper: Keeper, name: str) -> Player:
    """The keeper's player of that name (compared by ``name_key``), added if new. Two requests adding the same new
    player at the same moment both get the one player."""
    key = name_key(name)
    found = Player.objects.filter(keeper=keeper, name_key=key).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Player.objects.create(keeper=keeper, name=name, name_key=key)
    except IntegrityError:
        return Player.objects.get(keeper=keeper, name_key=key)


def check_player_names(raw_names: Sequence[str]) -> list[str]:
    """The names in seat order, normalised; raises ``Invalid`` naming each bad seat (``players.0``, …) and a name
    given twice."""
    errors: list[FieldError] = []
    names: list[str] = []
    for seat, raw in enumerate(raw_names):
        try:
            names.append(normalize_name(raw))
        except BadName as bad:
            errors.append(FieldError(f"players.{seat}", bad.message))
    keys = [name_key(name) for name in names]
    if len(set(keys)) != len(keys):
        errors.append(FieldError("players", msg(gettext_noop("Each player can sit at the table only once."))))
    if errors:
        raise Invalid(errors)
    return names


LINKED_ELSEWHERE = gettext_noop("{name} is linked to an account already: remove that link first.")


def player_link(*, player: Player, account: User) -> Player:
    """Link a player to the account of the person, who then sees their own statistics in every match they sat in.
    A keeper's book links each account to one player at most: two entries of one person are merged first. A player
    linked to another account stays theirs until that link is removed: their record is never moved silently."""
    with transaction.atomic():
        held = Player.objects.select_for_update().filter(pk=player.pk).values_list("account", flat=True).first()
        if held == account.pk:
            Player.objects.filter(pk=player.pk).update(link_token=None)
            player.link_token = None
            return player
        if held is not None:
            raise Conflict([FieldError("account", msg(LINKED_ELSEWHERE, name=player.name))])
        other = (
            Player.objects.select_for_update()
            .filter(keeper=player.keeper_id, account=account)
            .exclude(pk=player.pk)
            .first()
        )
        if other is not None:
            already = msg(
                gettext_noop("This account is linked to {name} already: merge the two players first."), name=other.name
            )
            raise Conflict([FieldError("account", already)])
        player.account = account
        player.link_token = None
        player.save(update_fields=["account", "link_token"])
        player.person = join_account(player=player, account=account)
    return player


def player_link_invite(*, player: Player) -> str:
    """A link the person can open, signed in, to link the player to their account (a new one each time); none for a
    player linked to an account already."""
    token = new_link_token()
    # One statement, so that a link made meanwhile is never given an invitation.
    if not Player.objects.filter(pk=player.pk, account__isnull=True).update(link_token=token):
        raise Conflict([FieldError("account", msg(LINKED_ELSEWHERE, name=player.name))])
    player.link_token = token
    return token


def player_claim(*, token: str, account: User) -> Player:
    """Follow a player's link invitation: the player becomes linked to ``account``."""
    player = Player.objects.filter(link_token=token).first() if token else None
    if player is None:
        raise Gone.about_match(msg(gettext_noop("This link is no longer valid: ask for a new one.")))
    return player_link(player=player, account=account)


def player_unlink(*, player: Player, by: User | None = None) -> Player:
    """Take back the player's link to an account: the player is no longer that account's person."""
    with transaction.atomic():
        if player.account_id is not None and Person.objects.filter(players=player, account=player.account_id).exists():
            player_leaves(player=player, by=by)
        player.account = None
        player.link_token = None
        player.save(update_fields=["account", "link_token"])
    return player


def player_merge(*, into: Player, other: Player, by: User | None = None) -> Player:
    """Two entries of one person become one: ``other``'s seats and scores move to ``into``, with their history.
    Refused for players of different books, for two players who sat at one table, and for two linked to two
    accounts."""
    if into.pk == other.pk or into.keeper_id != other.keeper_id:
        raise Invalid([FieldError("other", msg(gettext_noop("Choose another player of the same book.")))])
    with transaction.atomic():
        # The matches of the one who goes are locked, in a fixed order, as every change to a match is: a game
        # added meanwhile would otherwise give them scores after their scores moved.
        list(Match.objects.select_for_update(of=("self",)).filter(seats__player=other).order_by("pk").values("pk"))
        if Seat.objects.filter(player=into, match__seats__player=other).exists():
            raise Conflict([FieldError("other", msg(gettext_noop("These two sat at one table: they are two people.")))])
        if None not in (into.account_id, other.account_id) and into.account_id != other.account_id:
            # Each account's record stays its own: a merge never hands one person's games to another account.
            raise Conflict(
                [FieldError("other", msg(gettext_noop("These two are linked to two accounts: they are two people.")))]
            )
        Seat.objects.filter(player=other).update(player=into)
        GameScore.objects.filter(player=other).update(player=into)
        # Who the one who goes was across books, the one who stays becomes: the account's person it was linked to,
        # or the federation number's (where a number may join them: ``join_number``).
        account = other.account if into.account_id is None else None
        number = other.person.federation_number if other.person is not None and not other.person.account_id else None
        try:
            other.delete()
        except ProtectedError:
            # What an event keeps of the player (a club night's attendance, a league's roster, a tournament's entry,
            # a list kept on paper) holds on to them: the two stay apart, and nothing moved.
            raise Conflict(
                [
                    FieldError(
                        "other",
                        msg(gettext_noop("{name} plays in an event's lists: the two stay apart."), name=other.name),
                    )
                ]
            ) from None
        if account is not None:
            into.account = account
            into.save(update_fields=["account"])
            join_account(player=into, account=account, by=by)
        elif number:
            with contextlib.suppress(ServiceError):
                join_number(player=into, number=number, by=by)
        into.refresh_from_db()
    return into
