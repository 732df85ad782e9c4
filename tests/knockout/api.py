"""A knockout's change through the API: a table's paper list entered, under the core's protocol of a change to a
thing with a version (``matches.api.replays``: a retried Idempotency-Key gets its kept answer, a stale If-Match a
409), answered with the knockout as it stands after it."""

from __future__ import annotations

import uuid
from typing import Any

from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.replays import Made, Versioned, VersionedChangeView, keyed_change
from matches.api.resources.common import IDEMPOTENCY, REFUSED, bounded_body
from matches.api.serializers import PaperLineInput, StrictInput, WholeNumberField
from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Invalid
from matches.models import Player
from matches.permissions import Action, signed_in_account

from .models import Knockout, KnockoutTable
from .services import MOST_PLAYERS, table_paper_enter

KNOCKOUT = Versioned(
    model=Knockout,
    owner="knockout",
    moved_on=gettext_noop(
        "The knockout was changed meanwhile (it is at version {version} now): look at it again, then send the change "
        "anew."
    ),
)
IF_MATCH_KNOCKOUT = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The knockout\'s version the change was made on, as its ETag gave it ("12"): if it changed since, '
    "the answer is 409 with the current version.",
)
NO_SUCH_TABLE = gettext_noop("Series {series} has no table {number}.")
NOT_AT_THE_TABLE = gettext_noop("One line for each player at the table.")


class KnockoutPaperInput(StrictInput):
    """A table's paper list: the table by its series and number, and a line for each player at it."""

    series = WholeNumberField(min_value=1, max_value=MOST_PLAYERS)
    table = WholeNumberField(min_value=1, max_value=MOST_PLAYERS, help_text=_("The table's number in its series."))
    lines = serializers.ListField(child=PaperLineInput(), min_length=1, max_length=4)


class KnockoutTableShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    series = serializers.IntegerField()
    number = serializers.IntegerField()
    match = serializers.UUIDField()
    paper = serializers.BooleanField()


class KnockoutChangedShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()
    version = serializers.IntegerField(help_text=_("Grows with every change; send it as If-Match."))
    tables = KnockoutTableShape(many=True)
    replayed = serializers.BooleanField(help_text=_("A retry with the same Idempotency-Key: the first answer."))


def knockout_state(knockout: Knockout) -> dict[str, Any]:
    fresh = Knockout.objects.get(pk=knockout.pk)
    tables = KnockoutTable.objects.filter(knockout=fresh).select_related("match").order_by("series", "number")
    return {
        "id": fresh.public_id,
        "name": fresh.name,
        "version": fresh.version,
        "tables": [
            {"series": one.series, "number": one.number, "match": one.match.public_id, "paper": one.paper}
            for one in tables
        ],
    }


def _seated(table: KnockoutTable, public_id: uuid.UUID, index: int) -> Player:
    player = Player.objects.filter(seats__match_id=table.match_id, public_id=public_id).first()
    if player is None:
        raise Invalid([FieldError(f"lines.{index}.player", msg(NOT_AT_THE_TABLE))])
    return player


class KnockoutPaperView(VersionedChangeView):
    subject_kind = "knockout"
    writes = Action.SCORE
    versioned = KNOCKOUT

    @extend_schema(
        operation_id="knockout_paper",
        summary="Enter a knockout table's paper list",
        description="Each player's game points, games won and lost; totals its games cannot produce are refused. "
        "The knockout's organiser.",
        request=KnockoutPaperInput,
        parameters=[IDEMPOTENCY, IF_MATCH_KNOCKOUT],
        responses={
            200: KnockoutChangedShape,
            **REFUSED,
            409: OpenApiResponse(
                description="The knockout changed since the version sent as If-Match, the key was sent with another "
                "change, or the table has games entered: messages and the current version."
            ),
        },
    )
    def put(self, request: Request, knockout_id: str) -> Response:
        data = bounded_body(KnockoutPaperInput, request)
        knockout: Knockout = self.subject
        user = signed_in_account(request)

        def change() -> Made:
            series, number = data["series"], data["table"]
            table = KnockoutTable.objects.filter(knockout=knockout, series=series, number=number).first()
            if table is None:
                raise Invalid([FieldError("table", msg(NO_SUCH_TABLE, series=series, number=number))])
            lines = [
                (_seated(table, line["player"], index), line["game_points"], line["won"], line["lost"])
                for index, line in enumerate(data["lines"])
            ]
            table_paper_enter(table=table, lines=lines, user=user)
            return Made()

        return keyed_change(
            request, knockout, KNOCKOUT, change, state=lambda: knockout_state(knockout), shape=KnockoutChangedShape
        )


urlpatterns = [
    path("knockouts/<uuid:knockout_id>/paper/", KnockoutPaperView.as_view(), name="knockout_paper"),
]
