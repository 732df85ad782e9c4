"""A reader's preferences that the pages follow: the suit names of their deck."""

from __future__ import annotations

from django.http import HttpRequest

from .models import Deck, Profile

DECK_SESSION_KEY = "deck"


def deck_of(request: HttpRequest) -> str:
    """The suit names the reader prefers: from the profile, else the session (spectators), else French."""
    cached = getattr(request, "_scorekeeper_deck", None)
    if cached is not None:
        return str(cached)
    deck = str(request.session.get(DECK_SESSION_KEY, Deck.FRENCH))
    if request.user.is_authenticated:
        profile = Profile.objects.filter(user=request.user).values_list("deck", flat=True).first()
        deck = profile or deck
    request._scorekeeper_deck = deck  # type: ignore[attr-defined]
    return deck
