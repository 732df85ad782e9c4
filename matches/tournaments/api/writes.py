"""What a tournament's organiser (and an entrant) do through the API: enter online, enter at the door, record a payment,
withdraw an entrant, enter a tandem or a team, draw a series, enter a table's paper list and close a series. Each
through the tournament's services, under the core's protocol (``matches.api.replays``) (a retried key gets its first
answer; a stale ``If-Match`` a 409), and answered with the tournament's version and the thing changed as it stands
after it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.paper import Line, PaperListView, PaperTable, PaperTables
from matches.api.replays import Made, Versioned, VersionedChangeView, keyed_change
from matches.api.resources.common import IDEMPOTENCY, REFUSED, bounded_body
from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Invalid
from matches.permissions import Action, signed_in_account

from ..models import Entry, Series, Side, Table, Tournament
from ..services import (
    EntryForm,
    entry_at_door,
    entry_pay,
    entry_register_online,
    entry_withdraw,
    series_close,
    series_draw,
    side_enter,
    table_paper_enter,
)
from .inputs import (
    TablePaperInput,
    TournamentDoorEntryInput,
    TournamentDrawInput,
    TournamentEntryInput,
    TournamentNothingInput,
    TournamentPaymentInput,
    TournamentSideInput,
)
from .reads import SERIES, TABLE, EntryReadView, EntryScopedView, SeriesReadView, SideReadView, drawn
from .shapes import TournamentEntryChangedShape, TournamentSeriesChangedShape, TournamentSideChangedShape
from .states import IF_MATCH_TOURNAMENT, entry_data, series_data, sides_data

CONFLICT = {
    409: OpenApiResponse(
        description="The tournament changed since the version sent as If-Match, the key was sent with another "
        "change, or the change contradicts the tournament (a series drawn already or being played, a closed "
        "series, a table with games entered, an entrant withdrawn): messages and the tournament's current version."
    )
}
HEADERS = [IDEMPOTENCY, IF_MATCH_TOURNAMENT]

NO_SUCH_ENTRY = gettext_noop("No entrant of this tournament has that id.")
NO_TABLES_BUT_A_PLAN = gettext_noop("Tables are given with the seating plan only.")


TOURNAMENT = Versioned(
    model=Tournament,
    owner="tournament",
    moved_on=gettext_noop(
        "The tournament was changed meanwhile (it is at version {version} now): look at it again, then send the "
        "change anew."
    ),
)


def tournament_change(
    request: Request,
    tournament: Tournament,
    change: Callable[[], Made],
    *,
    what: str,
    state: Callable[[], dict[str, Any]],
    shape: type[serializers.Serializer[Any]],
) -> Response:
    """Make ``change`` to ``tournament`` under the protocol; the answer names the tournament and its version after
    the change, and under ``what`` what ``state()`` reads of the thing changed."""

    def answer() -> dict[str, Any]:
        version = Tournament.objects.filter(pk=tournament.pk).values_list("version", flat=True).get()
        return {"tournament": tournament.public_id, "version": version, what: state()}

    return keyed_change(request, tournament, TOURNAMENT, change, state=answer, shape=shape)


class TournamentChangeView(VersionedChangeView):
    """A change to a tournament: those who manage it make it."""

    subject_kind = "tournament"
    writes = Action.MANAGE
    versioned = TOURNAMENT


class EntryChangeView(EntryScopedView, VersionedChangeView):
    """A change to an entry: those who manage its tournament make it."""

    writes = Action.MANAGE
    versioned = TOURNAMENT

    def versioned_thing(self) -> Tournament | None:
        return self.subject.tournament if isinstance(self.subject, Entry) else None


def _form(data: dict[str, Any]) -> EntryForm:
    return EntryForm(data["name"], data["club"], data["category"], data["federation_number"])


def _entrants(tournament: Tournament, ids: Sequence[UUID], field: str) -> list[Entry]:
    """The tournament's entries of ``ids`` in order (an id given twice, twice); 400 naming each id it has not."""
    found = {
        entry.public_id: entry
        for entry in Entry.objects.filter(tournament=tournament, public_id__in=list(ids)).select_related("player")
    }
    problems = [FieldError(f"{field}.{index}", msg(NO_SUCH_ENTRY)) for index, one in enumerate(ids) if one not in found]
    if problems:
        raise Invalid(problems)
    return [found[one] for one in ids]


def _entry_answer(made: list[Entry]) -> dict[str, Any]:
    return entry_data(made[0])


class EntryListView(EntryReadView, TournamentChangeView):
    @extend_schema(
        operation_id="tournament_door_entry",
        summary="Enter a player at the door",
        description="A name is enough; with ``paid`` (the default) the entrant pays what is due on entry at once. "
        "Refused (400) once series 1 is drawn, for a player entered already (the same federation number, or the "
        "same name and club) and for a category the tournament has not; 409 when the room is full or the "
        "tournament takes entries online only. 201 with the entry and its code.",
        request=TournamentDoorEntryInput,
        parameters=HEADERS,
        responses={201: TournamentEntryChangedShape, 200: TournamentEntryChangedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = bounded_body(TournamentDoorEntryInput, request)
        tournament: Tournament = self.subject
        made: list[Entry] = []

        def change() -> Made:
            made.append(
                entry_at_door(
                    tournament=tournament, form=_form(data), paid=data["paid"], user=signed_in_account(request)
                )
            )
            return Made(created=True)

        return tournament_change(
            request,
            tournament,
            change,
            what="entry",
            state=lambda: _entry_answer(made),
            shape=TournamentEntryChangedShape,
        )


class OnlineEntryView(VersionedChangeView):
    """An entry made ahead by the account that sends it: everybody with an account may enter an open tournament."""

    subject_kind = "account"
    versioned = TOURNAMENT
    tournament: Tournament | None = None

    def versioned_thing(self) -> Tournament | None:
        return self.tournament

    @extend_schema(
        operation_id="tournament_enter",
        summary="Enter the tournament online",
        description="Your entry, made ahead: you read it again by its id, with the confirmation code to show at the "
        "door. Refused (400) once series 1 is drawn, for a player entered already and for a category the tournament "
        "has not; 409 when the room is full. 201 with the entry and its code.",
        request=TournamentEntryInput,
        parameters=HEADERS,
        responses={201: TournamentEntryChangedShape, 200: TournamentEntryChangedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        account = signed_in_account(request)
        self.tournament = Tournament.objects.filter(public_id=tournament_id).first()
        if self.tournament is None:
            raise NotFound
        tournament = self.tournament
        data = bounded_body(TournamentEntryInput, request)
        made: list[Entry] = []

        def change() -> Made:
            made.append(entry_register_online(tournament=tournament, form=_form(data), account=account))
            return Made(created=True)

        return tournament_change(
            request,
            tournament,
            change,
            what="entry",
            state=lambda: _entry_answer(made),
            shape=TournamentEntryChangedShape,
        )


class PaymentView(EntryChangeView):
    @extend_schema(
        operation_id="tournament_payment",
        summary="Record a payment",
        description="Money the entrant handed the cashier, in whole cents as a number (left out: what is still due "
        "on entry), with what the cashier saw the entrant had paid (`paid`, the entry's). A payment is never "
        "changed: a correction is a payment of a negative amount beside it. Refused (400) for an amount sent as "
        "text or null, for nothing to pay and for a correction that takes back more than was paid; refused (409) "
        "when a payment was recorded since the cashier saw `paid`, so that the same money is never taken twice. "
        "201 with the entry.",
        request=TournamentPaymentInput,
        parameters=HEADERS,
        responses={201: TournamentEntryChangedShape, 200: TournamentEntryChangedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID, entry_id: UUID) -> Response:
        data = bounded_body(TournamentPaymentInput, request)
        entry: Entry = self.subject

        def change() -> Made:
            entry_pay(
                entry=entry, amount=data.get("amount"), paid_before=data.get("paid"), user=signed_in_account(request)
            )
            return Made(created=True)

        return tournament_change(
            request,
            entry.tournament,
            change,
            what="entry",
            state=lambda: entry_data(entry),
            shape=TournamentEntryChangedShape,
        )


class WithdrawView(EntryChangeView):
    @extend_schema(
        operation_id="tournament_withdraw",
        summary="Withdraw an entrant between series",
        description="They play none of the series still to be drawn and keep the lists they played. Refused (409) "
        "while a series they are seated in is being played, once every series is drawn, and for an entrant who "
        "withdrew already.",
        request=TournamentNothingInput,
        parameters=HEADERS,
        responses={200: TournamentEntryChangedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID, entry_id: UUID) -> Response:
        bounded_body(TournamentNothingInput, request)
        entry: Entry = self.subject

        def change() -> Made:
            entry_withdraw(entry=entry)
            return Made()

        return tournament_change(
            request,
            entry.tournament,
            change,
            what="entry",
            state=lambda: entry_data(entry),
            shape=TournamentEntryChangedShape,
        )


def _as_entries(error: Invalid) -> Invalid:
    """The rules name a side's players by its place among the tandems or teams; the API takes them as ``entries``."""
    return Invalid([replace(one, field=_entries_field(one.field)) for one in error.errors])


def _entries_field(field: str) -> str:
    return "entries" if field.split(".")[0] in {"tandems", "teams"} else field


class SideListView(SideReadView, TournamentChangeView):
    @extend_schema(
        operation_id="tournament_side_enter",
        summary="Enter a tandem or a team",
        description="Two entrants (a tandem) or four (a team) for its side ranking, until series 1 is drawn. "
        "Refused (400) for the wrong number of players, a player in two tandems or two teams, a name taken, an "
        "entrant who withdrew or another tournament's; 409 once series 1 is drawn. 201 with the side.",
        request=TournamentSideInput,
        parameters=HEADERS,
        responses={201: TournamentSideChangedShape, 200: TournamentSideChangedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = bounded_body(TournamentSideInput, request)
        tournament: Tournament = self.subject
        made: list[Side] = []

        def change() -> Made:
            entries = _entrants(tournament, data["entries"], "entries")
            try:
                made.append(side_enter(tournament=tournament, kind=data["kind"], name=data["name"], entries=entries))
            except Invalid as error:
                raise _as_entries(error) from error
            return Made(created=True)

        return tournament_change(
            request,
            tournament,
            change,
            what="side",
            state=lambda: sides_data(made)[0],
            shape=TournamentSideChangedShape,
        )


class SeriesListView(SeriesReadView, TournamentChangeView):
    @extend_schema(
        operation_id="tournament_draw",
        summary="Draw a series",
        description="Series 1 from the tournament's recorded seed, a later one drawn again avoiding the pairings of "
        "every series before, seated by the standings (the leaders at table 1) or by a fixed plan (``tables``: "
        "each table's entry ids in seat order); tables of four first, the rest of three, each a match to score "
        "through the matches' games. Refused (400) for a series not next, standings for series 1, and a plan "
        "that seats a player twice, leaves one out or seats one not in the series; 409 for a series drawn "
        "already and while the series before is being played. 201 with the series.",
        request=TournamentDrawInput,
        parameters=HEADERS,
        responses={201: TournamentSeriesChangedShape, 200: TournamentSeriesChangedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = bounded_body(TournamentDrawInput, request)
        tournament: Tournament = self.subject
        number = data["series"]

        def change() -> Made:
            if data["tables"] and data["seating"] != "plan":
                raise Invalid([FieldError("tables", msg(NO_TABLES_BUT_A_PLAN))])
            plan = [_entrants(tournament, table, f"tables.{index}") for index, table in enumerate(data["tables"])]
            series_draw(
                tournament=tournament,
                number=number,
                seating=data["seating"],
                plan=plan,
                user=signed_in_account(request),
            )
            return Made(created=True)

        return tournament_change(
            request,
            tournament,
            change,
            what="series",
            state=lambda: series_data([Series.objects.get(tournament=tournament, number=number)])[0],
            shape=TournamentSeriesChangedShape,
        )


class PaperView(TournamentChangeView, PaperListView):
    paper_input = TablePaperInput
    paper_tables = PaperTables(model=Table, owner="series__tournament", enter=table_paper_enter)
    table: Table

    @extend_schema(
        operation_id="tournament_paper",
        summary="Enter a table's paper list",
        description="Each player's game points, games won and lost, as the table's paper list has them (a line for "
        "each player at the table, by entry id); totals no series can produce are refused (400, named by line). "
        "Replaces totals entered before; the table takes no games afterwards. 409 for a table with games entered "
        "and for a closed series.",
        request=TablePaperInput,
        parameters=[SERIES, TABLE, *HEADERS],
        responses={200: TournamentSeriesChangedShape, **REFUSED, **CONFLICT},
    )
    def put(self, request: Request, **ids: Any) -> Response:
        # The table the address names comes first: one the series has not is a 404, whatever the body says.
        found = Table.objects.filter(series=drawn(self.subject, ids["series"]), number=ids["number"])
        table = found.select_related("series").first()
        if table is None:
            raise NotFound
        self.table = table
        return super().put(request, **ids)

    def paper_table(self, data: Mapping[str, Any], ids: Mapping[str, Any]) -> Table:
        return self.table

    def paper_lines(self, table: PaperTable, data: Mapping[str, Any]) -> list[Line]:
        """Each line with its entrant (the service refuses one not seated at the table)."""
        entries = _entrants(self.subject, [line["entry"] for line in data["lines"]], "lines")
        return [
            (entry, line["game_points"], line["won"], line["lost"])
            for entry, line in zip(entries, data["lines"], strict=True)
        ]

    def paper_changed(self, request: Request, change: Callable[[], Made], ids: Mapping[str, Any]) -> Response:
        return tournament_change(
            request,
            self.subject,
            change,
            what="series",
            state=lambda: series_data([self.table.series])[0],
            shape=TournamentSeriesChangedShape,
        )


class SeriesCloseView(TournamentChangeView):
    @extend_schema(
        operation_id="tournament_series_close",
        summary="Close a series",
        description="Once every table's list is complete (kept on paper, or every planned game entered): each list "
        "is locked, its scoring link turned off, and every player's list kept for the standings. A table short of "
        "games is a 409 naming it; closing a closed series leaves it as it is.",
        request=TournamentNothingInput,
        parameters=[SERIES, *HEADERS],
        responses={200: TournamentSeriesChangedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: UUID, series: int) -> Response:
        tournament: Tournament = self.subject
        one = drawn(tournament, series)
        bounded_body(TournamentNothingInput, request)

        def change() -> Made:
            series_close(series=one, user=signed_in_account(request))
            return Made()

        return tournament_change(
            request,
            tournament,
            change,
            what="series",
            state=lambda: series_data([Series.objects.get(pk=one.pk)])[0],
            shape=TournamentSeriesChangedShape,
        )


urlpatterns = [
    path("tournaments/<uuid:tournament_id>/entries/", EntryListView.as_view(), name="tournament_entries"),
    path("tournaments/<uuid:tournament_id>/enter/", OnlineEntryView.as_view(), name="tournament_enter"),
    path(
        "tournaments/<uuid:tournament_id>/entries/<uuid:entry_id>/payments/",
        PaymentView.as_view(),
        name="tournament_payment",
    ),
    path(
        "tournaments/<uuid:tournament_id>/entries/<uuid:entry_id>/withdraw/",
        WithdrawView.as_view(),
        name="tournament_withdraw",
    ),
    path("tournaments/<uuid:tournament_id>/sides/", SideListView.as_view(), name="tournament_sides"),
    path("tournaments/<uuid:tournament_id>/series/", SeriesListView.as_view(), name="tournament_series"),
    path(
        "tournaments/<uuid:tournament_id>/series/<int:series>/tables/<int:number>/paper/",
        PaperView.as_view(),
        name="tournament_paper",
    ),
    path(
        "tournaments/<uuid:tournament_id>/series/<int:series>/close/",
        SeriesCloseView.as_view(),
        name="tournament_series_close",
    ),
]
