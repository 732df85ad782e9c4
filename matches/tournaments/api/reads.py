"""What the API reads of open tournaments, on the core's API: the same policy, pages and answers' shapes, read from
the selectors the tournament's pages use. A tournament and its results are public, as organisers post them in the
room; its entries and the cashier's list are for those who manage it, an entry also for its entrant."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar
from uuid import UUID

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param

from matches.api.policy import Pages, PolicyView
from matches.api.replays import with_version
from matches.api.resources.common import PAGED, REFUSED
from matches.api.shapes import paged
from matches.engine.tournaments import MAX_SERIES
from matches.permissions import Action, visitor_of

from ..models import Entry, Series, Tournament
from ..permissions import manages_tournament
from ..selectors import tournament_results
from .shapes import (
    TournamentCashierShape,
    TournamentDetailShape,
    TournamentEntryShape,
    TournamentPlaceShape,
    TournamentPrizesShape,
    TournamentSeriesDetailShape,
    TournamentSeriesShape,
    TournamentShape,
    TournamentSideShape,
)
from .states import (
    cashier_data,
    entries_data,
    entry_data,
    place_data,
    prizes_data,
    series_data,
    sides_data,
    tournament_data,
    tournament_summary,
)

T = TypeVar("T")

PAGED_PLACES = paged(TournamentPlaceShape)

SERIES = OpenApiParameter(
    "series",
    {"type": "integer", "minimum": 1, "maximum": MAX_SERIES},
    OpenApiParameter.PATH,
    description="The series' number.",
)
# A table's number in its series: more tables than any room seats (four thousand players).
MOST_TABLES = 1000
TABLE = OpenApiParameter(
    "number",
    {"type": "integer", "minimum": 1, "maximum": MOST_TABLES},
    OpenApiParameter.PATH,
    description="The table's number in its series.",
)


class Announced(Pages):
    ordering = "-announced_at"


class InEntryOrder(Pages):
    ordering = "created_at"


class RankingPages(Pages):
    """Pages of a ranking the engine derives (not a query), by place: the cursor says where a page starts. A page
    costs one reading of the results however far down the ranking it is."""

    # A ranking is as long as the field: the cursor reaches every place of it.
    offset_cutoff = 1_000_000

    def paginate_places(self, places: Sequence[T], request: Request) -> list[T]:
        self.base_url = self.here = request.build_absolute_uri()
        self.page_size = self.get_page_size(request)
        cursor = self.decode_cursor(request)
        self.start = cursor.offset if cursor is not None else 0
        self.more = len(places) > self.start + self.page_size
        return list(places[self.start : self.start + self.page_size])

    def response(self, results: Any) -> Response:
        return Response({"next": self.next_link(), "previous": self.previous_link(), "results": results})

    def next_link(self) -> str | None:
        return self.encode_cursor(Cursor(self.start + self.page_size, False, None)) if self.more else None

    def previous_link(self) -> str | None:
        if self.start == 0:
            return None
        before = max(self.start - self.page_size, 0)
        if before == 0:
            return remove_query_param(self.here, self.cursor_query_param)
        return self.encode_cursor(Cursor(before, False, None))


class TournamentListView(PolicyView):
    @extend_schema(
        operation_id="tournaments",
        summary="The open tournaments",
        description="Every tournament, the latest announced first: a tournament is public.",
        parameters=PAGED,
        responses={200: paged(TournamentShape), **REFUSED},
    )
    def get(self, request: Request) -> Response:
        pages = Announced()
        page = pages.paginate_queryset(Tournament.objects.select_related("club"), request, view=self) or []
        return pages.get_paginated_response(TournamentShape([tournament_summary(one) for one in page], many=True).data)


class TournamentView(PolicyView):
    subject_kind = "tournament"

    @extend_schema(
        operation_id="tournament",
        summary="A tournament as announced",
        description="Its fees, prize schedules, categories and options (amounts in cents), how many are in, the "
        "series drawn, whether you manage it, and its version, also as its ETag: send it as If-Match to change the "
        "tournament safely.",
        responses={200: TournamentDetailShape, **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament: Tournament = self.subject
        body = tournament_data(tournament, manages=manages_tournament(visitor_of(request), tournament))
        return with_version(Response(TournamentDetailShape(body).data), body["version"])


class EntryReadView(PolicyView):
    """The entries of a tournament: for those who manage it."""

    subject_kind = "tournament"
    action = Action.MANAGE

    @extend_schema(
        operation_id="tournament_entries",
        summary="The tournament's entries with their payments",
        description="In the order they entered, each with its confirmation code, what it paid and every payment; "
        "for the organiser and the owners and secretaries of the tournament's club.",
        parameters=PAGED,
        responses={200: paged(TournamentEntryShape), **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        pages = InEntryOrder()
        entries = Entry.objects.filter(tournament=self.subject).select_related("category")
        page = pages.paginate_queryset(entries, request, view=self) or []
        return pages.get_paginated_response(TournamentEntryShape(entries_data(page), many=True).data)


class EntryScopedView(PolicyView):
    """A view of one entry, named by ``entry_id`` under its tournament's address: another tournament's entry is not
    there."""

    subject_kind = "tournament_entry"

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **{**kwargs, "tournament_entry_id": kwargs["entry_id"]})
        if self.subject.tournament.public_id != kwargs["tournament_id"]:
            raise NotFound


class EntryView(EntryScopedView):
    @extend_schema(
        operation_id="tournament_entry",
        summary="An entry with its code and payments",
        description="For its entrant (the account that entered online, or whoever holds its code) and those who "
        "manage the tournament.",
        responses={200: TournamentEntryShape, **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID, entry_id: UUID) -> Response:
        return Response(TournamentEntryShape(entry_data(self.subject)).data)


class SideReadView(PolicyView):
    subject_kind = "tournament"

    @extend_schema(
        operation_id="tournament_sides",
        summary="The tandems and teams",
        description="Each with its members in the order named, tandems first.",
        responses={200: TournamentSideShape(many=True), **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        sides = list(self.subject.sides.order_by("kind", "created_at", "id"))
        return Response(TournamentSideShape(sides_data(sides), many=True).data)


class SeriesReadView(PolicyView):
    subject_kind = "tournament"

    @extend_schema(
        operation_id="tournament_series",
        summary="The series drawn, with their tables",
        description="Each table with its match (score it through the matches' games) and who sits where.",
        responses={200: TournamentSeriesShape(many=True), **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        series = list(Series.objects.filter(tournament=self.subject).order_by("number"))
        return Response(TournamentSeriesShape(series_data(series), many=True).data)


def drawn(tournament: Tournament, number: int) -> Series:
    """Series ``number`` of the tournament, drawn; 404 otherwise."""
    found = Series.objects.filter(tournament=tournament, number=number).first() if number <= MAX_SERIES else None
    if found is None:
        raise NotFound
    return found


class SeriesView(PolicyView):
    subject_kind = "tournament"

    @extend_schema(
        operation_id="tournament_series_one",
        summary="A series with its tables",
        description="Each table with its match (score it through the matches' games) and who sits where; a series "
        "not drawn is a 404.",
        parameters=[SERIES],
        responses={200: TournamentSeriesDetailShape, **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID, series: int) -> Response:
        one = drawn(self.subject, series)
        body = {**series_data([one])[0], "tournament": self.subject.public_id}
        return Response(TournamentSeriesDetailShape(body).data)


class SeriesStandingsView(PolicyView):
    subject_kind = "tournament"

    @extend_schema(
        operation_id="tournament_series_standings",
        summary="A series' ranking",
        description="Every player by their Seeger-Fabian total of the series (then more won, fewer lost, then a "
        "lot from the tournament's seed), as far as its tables have played; in pages by place.",
        parameters=[SERIES, *PAGED],
        responses={200: PAGED_PLACES, **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID, series: int) -> Response:
        one = drawn(self.subject, series)
        results = tournament_results(self.subject)
        index = [drawn_one.pk for drawn_one in results.series].index(one.pk)
        pages = RankingPages()
        page = pages.paginate_places(results.rankings.series[index], request)
        return pages.response(TournamentPlaceShape([place_data(place, results) for place in page], many=True).data)


class StandingsView(PolicyView):
    subject_kind = "tournament"

    @extend_schema(
        operation_id="tournament_standings",
        summary="The tournament's standings",
        description="Every player by their Seeger-Fabian total over the series played (the series being played "
        "counted as far as its tables are); ties: more won, fewer lost, then a lot from the tournament's seed. In "
        "pages by place.",
        parameters=PAGED,
        responses={200: PAGED_PLACES, **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        results = tournament_results(self.subject)
        pages = RankingPages()
        page = pages.paginate_places(results.standings, request)
        return pages.response(TournamentPlaceShape([place_data(place, results) for place in page], many=True).data)


class PrizesView(PolicyView):
    subject_kind = "tournament"

    @extend_schema(
        operation_id="tournament_prizes",
        summary="The prize list",
        description="Every prize with its amount and winner as the results stand: the places, the best series, "
        "the categories, the tandems and teams (with their rankings). Where the prizes cannot be paid as announced, "
        "the list is empty and ``problems`` says why.",
        responses={200: TournamentPrizesShape, **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        return Response(TournamentPrizesShape(prizes_data(tournament_results(self.subject))).data)


class CashierView(PolicyView):
    subject_kind = "tournament"
    action = Action.MANAGE

    @extend_schema(
        operation_id="tournament_cashier",
        summary="The cashier's list",
        description="Per player: the fees due, paid, still owed, won and the balance; the pot, the organiser's "
        "share, the prize money not paid out and all that is kept by the organiser (the fees kept, the share and the "
        "prize money not paid out). For those who manage the tournament.",
        responses={200: TournamentCashierShape, **REFUSED},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        return Response(TournamentCashierShape(cashier_data(tournament_results(self.subject))).data)


urlpatterns = [
    path("tournaments/", TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<uuid:tournament_id>/", TournamentView.as_view(), name="tournament"),
    path("tournaments/<uuid:tournament_id>/entries/<uuid:entry_id>/", EntryView.as_view(), name="tournament_entry"),
    path("tournaments/<uuid:tournament_id>/series/<int:series>/", SeriesView.as_view(), name="tournament_series_one"),
    path(
        "tournaments/<uuid:tournament_id>/series/<int:series>/standings/",
        SeriesStandingsView.as_view(),
        name="tournament_series_standings",
    ),
    path("tournaments/<uuid:tournament_id>/standings/", StandingsView.as_view(), name="tournament_standings"),
    path("tournaments/<uuid:tournament_id>/prizes/", PrizesView.as_view(), name="tournament_prizes"),
    path("tournaments/<uuid:tournament_id>/cashier/", CashierView.as_view(), name="tournament_cashier"),
]
