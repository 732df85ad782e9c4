"""A knockout's change through the API: a table's paper list entered, under the core's protocol of a change to a
thing with a version (``matches.api.replays``: a retried Idempotency-Key gets its kept answer, a stale If-Match a
409), answered with the knockout as it stands after it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.paper import PaperListInput, PaperListView, PaperTables
from matches.api.replays import Made, Versioned, keyed_change
from matches.api.resources.common import IDEMPOTENCY, REFUSED
from matches.engine.messages import gettext_noop
from matches.permissions import Action

from .models import Knockout, KnockoutTable
from .services import table_paper_enter

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


@extend_schema_view(
    put=extend_schema(
        operation_id="knockout_paper",
        summary="Enter a knockout table's paper list",
        description="Each player's game points, games won and lost; totals its games cannot produce are refused. "
        "The knockout's organiser.",
        request=PaperListInput,
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
)
class KnockoutPaperView(PaperListView):
    subject_kind = "knockout"
    writes = Action.SCORE
    versioned = KNOCKOUT
    paper_tables = PaperTables(model=KnockoutTable, owner="knockout", enter=table_paper_enter)

    def paper_changed(self, request: Request, change: Callable[[], Made], ids: Mapping[str, Any]) -> Response:
        knockout: Knockout = self.subject
        return keyed_change(
            request, knockout, KNOCKOUT, change, state=lambda: knockout_state(knockout), shape=KnockoutChangedShape
        )


urlpatterns = [
    path("knockouts/<uuid:knockout_id>/paper/", KnockoutPaperView.as_view(), name="knockout_paper"),
]
