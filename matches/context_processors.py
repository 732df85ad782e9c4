from typing import Any

from django.http import HttpRequest

from .models import Deck
from .preferences import deck_of


def deck(request: HttpRequest) -> dict[str, Any]:
    """The deck choice for the switch at the bottom of every page. An error page answered before the session and the
    account were read (a request for another host) shows the French deck."""
    known = hasattr(request, "session") and hasattr(request, "user")
    return {"deck": deck_of(request) if known else Deck.FRENCH, "deck_choices": Deck.choices}
