"""A match's history: undo, redo and the changes, newest first."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from ...models import Match, MatchEvent
from ...permissions import Action, request_account
from ...selectors import seats_of
from ...services import match_step
from ..policy import Pages, PolicyView, idempotency_key, seen_version
from ..shapes import (
    ChangeShape,
    StepInput,
    StepShape,
    paged,
)
from .common import CONFLICT, IDEMPOTENCY, IF_MATCH, PAGED, REFUSED, bounded_body, fresh_match, with_version
from .matches import match_data


class StepView(PolicyView):
    """Undo or redo the latest change."""

    subject_kind = "match"
    action = Action.SCORE
    redo = False

    def post(self, request: Request, match_id: str) -> Response:
        data = bounded_body(StepInput, request)
        match: Match = self.subject
        stepped = match_step(
            match=match,
            user=request_account(request),
            token=idempotency_key(request),
            change=data["change"],
            version=seen_version(request),
            redo=self.redo,
        )
        match = fresh_match(match)
        change = stepped.change
        body = {
            "change": None if change is None else change_data(change),
            "match": match_data(match, seats_of(match)),
            "replayed": stepped.replayed,
        }
        return with_version(Response(StepShape(body).data), match)


class UndoView(StepView):
    @extend_schema(
        operation_id="undo",
        summary="Undo the latest change",
        request=StepInput,
        parameters=[IDEMPOTENCY, IF_MATCH],
        responses={200: StepShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)


class RedoView(StepView):
    redo = True

    @extend_schema(
        operation_id="redo",
        summary="Take back the latest undo",
        request=StepInput,
        parameters=[IDEMPOTENCY, IF_MATCH],
        responses={200: StepShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)


def change_data(event: MatchEvent) -> dict[str, Any]:
    return {
        "id": event.public_id,
        "action": event.action,
        "number": event.number,
        "game": None if event.game is None else event.game.public_id,
        "version": event.version,
        "created_at": event.created_at,
        "before": event.before,
        "after": event.after,
    }


class Newest(Pages):
    ordering = "-version"


class ChangeListView(PolicyView):
    subject_kind = "match"

    @extend_schema(
        operation_id="changes",
        summary="A match's history, newest first",
        parameters=PAGED,
        responses={200: paged(ChangeShape), **REFUSED},
    )
    def get(self, request: Request, match_id: str) -> Response:
        pages = Newest()
        events = MatchEvent.objects.filter(match=self.subject).select_related("game")
        page = pages.paginate_queryset(events, request, view=self) or []
        return pages.get_paginated_response(ChangeShape([change_data(event) for event in page], many=True).data)
