"""A match's history of changes, a page at a time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from ..engine import Message
from ..labels import (
    game_state_text,
    match_part_text,
)
from ..models import Match, MatchEvent, Player
from ..paging import page_of
from ..permissions import (
    Action,
    on_match,
)
from ..preferences import deck_of
from .common import match_labels, seat_names

HISTORY_PAGE = 50


@never_cache
@on_match(Action.VIEW)
@require_safe
def match_history(request: HttpRequest, match: Match) -> HttpResponse:
    """Every change, newest first, a page at a time."""
    names = seat_names(match)
    deck = deck_of(request)
    page = page_of(
        match.events.select_related("user"), by="-version", after=request.GET.get("after"), size=HISTORY_PAGE
    )
    seated = _seated_names(match, page.items)
    kontra = match.setup().spec.kontra
    events = [_history_item(event, names, deck, kontra, seated) for event in page.items]
    context = {"match": match, "events": events, "page": page, **match_labels(match)}
    return render(request, "matches/history.html", context)


def _history_item(
    event: MatchEvent, names: list[str], deck: str, kontra: Message, seated: Mapping[str, str]
) -> dict[str, Any]:
    """A change as the history page lists it: the game's state, or the match's part, before and after (a Kontra in
    the variant's word, ``kontra``)."""
    if event.game_id is None:
        return {
            "event": event,
            "before": match_part_text(event.before, seated),
            "after": match_part_text(event.after, seated),
        }
    before = game_state_text(event.before, names, deck, kontra)
    after = game_state_text(event.after, names, deck, kontra)
    return {"event": event, "before": before, "after": after}


def _seated_names(match: Match, events: Sequence[MatchEvent]) -> dict[str, str]:
    """The names of the players that changes of seats and paper lists name (by public id), in one read of the match's
    book."""
    named = {
        str(player)
        for event in events
        if event.game_id is None
        for part in (event.before, event.after)
        if isinstance(part, dict)
        for player in [*part.get("seats", []), *(line["player"] for line in part.get("paper", []))]
    }
    players = Player.objects.filter(keeper_id=match.keeper_id, public_id__in=named) if named else []
    return {str(player.public_id): player.name for player in players}
