"""Books: a person's own book, a guest's book (started without an account, taken along on signing up)."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User
from django.db import transaction

from ..models import GameScore, Keeper, Match, Player, Seat


def keeper_for(user: User) -> Keeper:
    """A person's own keeper, made on first use."""
    keeper, _ = Keeper.objects.get_or_create(user=user)
    return keeper


def guest_keeper(key: str | None) -> Keeper:
    """The guest's book of a browser without an account (by the key it holds), started on first use."""
    found = Keeper.objects.filter(guest_key=key, user__isnull=True).first() if key else None
    return found or Keeper.objects.create(guest_key=uuid.uuid4())


def keeper_claim(*, key: str | None, user: User) -> Keeper | None:
    """A guest who signs up or logs in takes their book along: its matches and players become the account's, a
    player of a name the account's book has already becoming that player, with their history. None when the
    browser held no guest's book."""
    if not key:
        return None
    with transaction.atomic():
        # Locked, and read again under the lock: two log-ins at once take the book once.
        guest = Keeper.objects.select_for_update().filter(guest_key=key, user__isnull=True).first()
        if guest is None:
            return None
        own = Keeper.objects.filter(user=user).first()
        if own is None:
            guest.user, guest.guest_key = user, None
            guest.save(update_fields=["user", "guest_key"])
            Match.objects.filter(keeper=guest, created_by__isnull=True).update(created_by=user)
            return guest
        list(Match.objects.select_for_update().filter(keeper=guest).order_by("pk").values("pk"))
        for player in Player.objects.filter(keeper=guest):
            same = Player.objects.filter(keeper=own, name_key=player.name_key).first()
            if same is None:
                Player.objects.filter(pk=player.pk).update(keeper=own)
                continue
            Seat.objects.filter(player=player).update(player=same)
            GameScore.objects.filter(player=player).update(player=same)
            player.delete()
        Match.objects.filter(keeper=guest).update(keeper=own, created_by=user)
        guest.delete()
        return own


def guest_keeper_drop(keeper: Keeper) -> None:
    """Remove a guest's book that was started for a match that was not kept: it holds nothing (a book that holds a
    match is refused)."""
    keeper.delete()
