from typing import Any

from django.http import HttpRequest

from .models import Deck
from .preferences import deck_of


def deck(request: HttpRequest) -> dict[str, Any]:
    """The deck choice for the switch at the bottom of every page."""
    return {"deck": deck_of(request), "deck_choices": Deck.choices}
