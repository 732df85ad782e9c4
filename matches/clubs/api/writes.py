"""What a secretary does on a night's page, through the API: check players in and out, draw a series, swap two players'
seats before play, enter a table's paper list, close and reopen the night. Each through the club's services, under
the core's protocol (``matches.api.replays``) (a retried key gets its first answer; a stale ``If-Match`` a 409); each
answered with the night as it stands after it."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.paper import PaperListView, PaperTables
from matches.api.replays import Made, Versioned, VersionedChangeView, keyed_change
from matches.api.resources.common import IDEMPOTENCY, REFUSED, bounded_body
from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict, Invalid
from matches.models import Player
from matches.permissions import Action, signed_in_account

from ..models import Attendance, ClubTable, Night
from ..services import check_in, check_out, night_close, night_draw, night_reopen, paper_enter, seats_swap
from .inputs import CheckInInput, CheckOutInput, CloseInput, DrawInput, PaperInput, ReopenInput, SwapInput
from .nights import IF_MATCH_NIGHT, NightChangedShape, night_state

CONFLICT = {
    409: OpenApiResponse(
        description="The night changed since the version sent as If-Match, it is closed, or the change contradicts "
        "it (its series is being played): messages and the night's current version."
    )
}
CHANGED = {200: NightChangedShape, **REFUSED, **CONFLICT}

NOT_OF_THE_CLUB = gettext_noop("Not a player of this club.")
NOT_CHECKED_IN = gettext_noop("{name} is not checked in.")
DRAWN_ALREADY = gettext_noop("Series {series} is drawn already: send again: true to draw it anew before play.")
CLOSE_UNFINISHED = gettext_noop("Send unfinished: true to close the night as it stands.")
SEAT_UNFINISHED = gettext_noop("Send unfinished: true to seat by the lists as they stand.")


def _club_player(night: Night, public_id: uuid.UUID, field: str) -> Player:
    """The club's player of that id; 400 naming ``field`` for anybody else."""
    player = Player.objects.filter(keeper_id=night.season.club.keeper_id, public_id=public_id).first()
    if player is None:
        raise Invalid([FieldError(field, msg(NOT_OF_THE_CLUB))])
    return player


NIGHT = Versioned(
    model=Night,
    owner="night",
    moved_on=gettext_noop(
        "The night was changed meanwhile (it is at version {version} now): look at it again, then send the change anew."
    ),
)


def night_change(request: Request, night: Night, change: Callable[[], Made]) -> Response:
    """Make ``change`` to ``night`` under the protocol; the answer is the night as it stands after it."""
    return keyed_change(request, night, NIGHT, change, state=lambda: night_state(night), shape=NightChangedShape)


class NightChangeView(VersionedChangeView):
    """A change to a night: the club's secretaries and owner make it (``writes``), its members only read."""

    subject_kind = "night"
    writes = Action.MANAGE
    versioned = NIGHT


class CheckInView(NightChangeView):
    @extend_schema(
        operation_id="night_check_in",
        summary="Check a player in",
        description="A player of the club by id, or a walk-in guest by name (added to the club's players as a "
        "guest). 201 for a new check-in, 200 for a retry of one; a player checked in already is a 400.",
        request=CheckInInput,
        parameters=[IDEMPOTENCY, IF_MATCH_NIGHT],
        responses={201: NightChangedShape, **CHANGED},
    )
    def post(self, request: Request, night_id: str) -> Response:
        data = bounded_body(CheckInInput, request)
        night: Night = self.subject

        def change() -> Made:
            chosen = None if data["player"] is None else _club_player(night, data["player"], "player")
            check_in(night=night, player=chosen, name=data["name"], guest=True, once=True)
            return Made(created=True)

        return night_change(request, night, change)


class CheckOutView(NightChangeView):
    @extend_schema(
        operation_id="night_check_out",
        summary="Check a player out",
        description="Before the player sits at a table (409 after).",
        request=CheckOutInput,
        parameters=[IDEMPOTENCY, IF_MATCH_NIGHT],
        responses=CHANGED,
    )
    def post(self, request: Request, night_id: str) -> Response:
        data = bounded_body(CheckOutInput, request)
        night: Night = self.subject

        def change() -> Made:
            player = _club_player(night, data["player"], "player")
            if not Attendance.objects.filter(night=night, player=player).exists():
                raise Invalid([FieldError("player", msg(NOT_CHECKED_IN, name=player.name))])
            check_out(night=night, player=player)
            return Made()

        return night_change(request, night, change)


class DrawView(NightChangeView):
    @extend_schema(
        operation_id="night_draw",
        summary="Draw or seat a series",
        description="The checked-in players at tables of four (and three): drawn from the night's seed, avoiding "
        "the season's recent pairings, or seated by the season's ranking or the series before (409 until that one "
        "is drawn and every table of it has played its games or entered a paper list, each table short of its "
        "games named under unfinished; unfinished: true takes such a table's list as it stands, as closing the "
        "night does); guests from a table on if asked. Each table is a match to score. A series drawn already is "
        "drawn anew only with again: true, and only before play.",
        request=DrawInput,
        parameters=[IDEMPOTENCY, IF_MATCH_NIGHT],
        responses={201: NightChangedShape, **CHANGED},
    )
    def post(self, request: Request, night_id: str) -> Response:
        data = bounded_body(DrawInput, request)
        night: Night = self.subject

        def change() -> Made:
            series = data["series"]
            if not data["again"] and ClubTable.objects.filter(night=night, series=series).exists():
                raise Conflict([FieldError("series", msg(DRAWN_ALREADY, series=series))])
            try:
                night_draw(night=night, user=signed_in_account(request), **data)
            except Conflict as error:
                if not any(problem.field == "unfinished" for problem in error.errors):
                    raise
                # The service names each table short of its games; the client learns how to seat all the same.
                raise Conflict([*error.errors, FieldError("unfinished", msg(SEAT_UNFINISHED))]) from error
            return Made(created=True)

        return night_change(request, night, change)


class SwapView(NightChangeView):
    @extend_schema(
        operation_id="night_swap",
        summary="Swap two players' seats",
        description="In a series whose tables have not played yet (409 once one has).",
        request=SwapInput,
        parameters=[IDEMPOTENCY, IF_MATCH_NIGHT],
        responses=CHANGED,
    )
    def post(self, request: Request, night_id: str) -> Response:
        data = bounded_body(SwapInput, request)
        night: Night = self.subject

        def change() -> Made:
            first, second = (_club_player(night, data[field], field) for field in ("first", "second"))
            seats_swap(night=night, series=data["series"], first=first, second=second, user=signed_in_account(request))
            return Made()

        return night_change(request, night, change)


@extend_schema_view(
    put=extend_schema(
        operation_id="night_paper",
        summary="Enter a table's paper list",
        description="Each player's game points, games won and lost, as the table's paper list has them; totals no "
        "series can produce are refused, each problem named by its line. Replaces totals entered before; a table "
        "with games entered keeps its games (409). The club's scorers enter it too.",
        request=PaperInput,
        parameters=[IDEMPOTENCY, IF_MATCH_NIGHT],
        responses=CHANGED,
    )
)
class PaperView(NightChangeView, PaperListView):
    writes = Action.SCORE
    paper_input = PaperInput
    paper_tables = PaperTables(model=ClubTable, owner="night", enter=paper_enter)

    def paper_changed(self, request: Request, change: Callable[[], Made], ids: Mapping[str, Any]) -> Response:
        return night_change(request, self.subject, change)


class CloseView(NightChangeView):
    @extend_schema(
        operation_id="night_close",
        summary="Close the night",
        description="Every table's list is locked and its scoring link stops working; the night's results are kept "
        "and count in the season's table. A table that has not played its series to the end stops the closing "
        "(400) unless unfinished: true says so.",
        request=CloseInput,
        parameters=[IDEMPOTENCY, IF_MATCH_NIGHT],
        responses=CHANGED,
    )
    def post(self, request: Request, night_id: str) -> Response:
        data = bounded_body(CloseInput, request)
        night: Night = self.subject

        def change() -> Made:
            try:
                night_close(night=night, user=signed_in_account(request), unfinished=data["unfinished"])
            except Invalid as error:
                # The service names each table short of its games; the client learns how to close all the same.
                raise Invalid([*error.errors, FieldError("unfinished", msg(CLOSE_UNFINISHED))]) from error
            return Made()

        return night_change(request, night, change)


class ReopenView(NightChangeView):
    writes = Action.REOPEN

    @extend_schema(
        operation_id="night_reopen",
        summary="Reopen a closed night",
        description="The club's owner only. The tables' lists take changes again (a paper table's stays locked); "
        "the scoring links stay off until renewed on the night's page.",
        request=ReopenInput,
        parameters=[IDEMPOTENCY, IF_MATCH_NIGHT],
        responses=CHANGED,
    )
    def post(self, request: Request, night_id: str) -> Response:
        bounded_body(ReopenInput, request)
        night: Night = self.subject

        def change() -> Made:
            night_reopen(night=night, user=signed_in_account(request))
            return Made()

        return night_change(request, night, change)


urlpatterns = [
    path("nights/<uuid:night_id>/check-in/", CheckInView.as_view(), name="night_check_in"),
    path("nights/<uuid:night_id>/check-out/", CheckOutView.as_view(), name="night_check_out"),
    path("nights/<uuid:night_id>/draw/", DrawView.as_view(), name="night_draw"),
    path("nights/<uuid:night_id>/swap/", SwapView.as_view(), name="night_swap"),
    path("nights/<uuid:night_id>/paper/", PaperView.as_view(), name="night_paper"),
    path("nights/<uuid:night_id>/close/", CloseView.as_view(), name="night_close"),
    path("nights/<uuid:night_id>/reopen/", ReopenView.as_view(), name="night_reopen"),
]
