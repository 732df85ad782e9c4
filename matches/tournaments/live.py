"""The live public results page of an open tournament, for the room's screen and for the phones in the room: the
standings after the closed series a page at a time (or the entrants a name finds), and how far the series being
played is. It follows by itself, as the club's screen does; hundreds of phones ask it every few seconds, so it reads
the standings kept when each series closed and counts the tables in the database, and answers an ask that finds
nothing new with a bare 304 against the ETag of what it showed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from matches.permissions import Action, on_subject
from matches.screens import screen_response

from .models import Tournament
from .selectors import live_places, seats_found, series_progress

# A name looked for is cut here: no entrant's name in the tournament's book is longer.
MOST_FOUND = 100
# Page numbers of more digits than this are no page of any tournament: the first page is shown.
PAGE_DIGITS = 5


def _page_of(request: HttpRequest) -> int:
    value = request.GET.get("page", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= PAGE_DIGITS else 1


@on_subject(Action.VIEW, "tournament")
@require_safe
def tournament_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    progress = series_progress(tournament)

    def draw(fragment: bool) -> HttpResponse:
        # A null character is no part of any name (and PostgreSQL takes none in a text).
        find = request.GET.get("find", "")[:MOST_FOUND].replace("\x00", "")
        context = {
            "tournament": tournament,
            "board": live_places(tournament, page=_page_of(request), find=find),
            "progress": progress,
            "seats": seats_found(tournament, find) if progress is not None else (),
            "shared": True,
        }
        return render(request, "tournaments/live_board.html" if fragment else "tournaments/live.html", context)

    # What the answer shows moves with the tournament's version (entries, draws, paper lists, closings) and with
    # the tables as they finish.
    return screen_response(request, (tournament.version, progress), draw)
