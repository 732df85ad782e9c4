"""A reader's preferences that the pages follow: the suit names of their deck."""

from __future__ import annotations

from contextlib import suppress

from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest

from .models import Deck

DECK_SESSION_KEY = "deck"


def deck_of(request: HttpRequest) -> str:
    """The suit names the reader prefers: from the profile, else the session (spectators), else French."""
    cached = getattr(request, "_scorekeeper_deck", None)
    if cached is not None:
        return str(cached)
    deck = str(request.session.get(DECK_SESSION_KEY, Deck.FRENCH))
    if request.user.is_authenticated:
        # The account backend reads the profile with the user; an account without one keeps the session's choice.
        with suppress(ObjectDoesNotExist):
            deck = request.user.profile.deck
    request._scorekeeper_deck = deck  # type: ignore[attr-defined]
    return deck
