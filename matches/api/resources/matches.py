"""Matches: listed (filtered, a page at a time), started, read and retitled."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from ...models import Match, Seat
from ...permissions import Action, signed_in_account, visible_matches, visitor_of
from ...selectors import seats_of
from ...services import match_create
from ..policy import Pages, PolicyView, idempotency_key
from ..shapes import (
    MatchChangedShape,
    MatchFilter,
    MatchInput,
    MatchShape,
    paged,
)
from .common import IDEMPOTENCY, KEY_REUSED, PAGED, REFUSED, bounded_body, with_version


def seats_data(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    return [{"seat": seat.position, "player": seat.player.public_id, "name": seat.player.name} for seat in seats]


def match_data(match: Match, seats: Iterable[Seat]) -> dict[str, Any]:
    setup = match.setup()
    number = match.deals + 1
    finished = match.planned_games is not None and match.deals >= match.planned_games
    seating = setup.seating(number)
    return {
        "id": match.public_id,
        "title": match.title,
        "variant": match.variant,
        "scheme": match.scheme,
        "preset": match.preset,
        "rules": match.rules,
        "seats": seats_data(sorted(seats, key=lambda seat: seat.position)),
        "first_dealer": match.first_dealer,
        "planned_games": match.planned_games,
        "deals": match.deals,
        "totals": match.totals,
        "next": None if finished else {"number": number, "dealer": seating.dealer, "playing": list(seating.playing)},
        "version": match.version,
        "locked": match.locked,
        "created_at": match.created_at,
        "updated_at": match.updated_at,
    }


class MatchListView(PolicyView):
    subject_kind = "account"
    writes = Action.SCORE

    @extend_schema(
        operation_id="matches",
        summary="Your matches",
        description="The matches you keep, score or played in, newest first. A filter left out does not filter; "
        "one given with an empty value is a 400.",
        parameters=[MatchFilter, *PAGED],
        responses={200: paged(MatchShape), **REFUSED},
    )
    def get(self, request: Request) -> Response:
        chosen = MatchFilter(data=request.query_params)
        chosen.is_valid(raise_exception=True)
        matches = _filtered(visible_matches(visitor_of(request)), chosen.validated_data)
        pages = Pages()
        page = pages.paginate_queryset(matches.prefetch_related("seats__player"), request, view=self) or []
        rows = [match_data(match, match.seats.all()) for match in page]
        return pages.get_paginated_response(MatchShape(rows, many=True).data)

    @extend_schema(
        operation_id="match_create",
        summary="Start a match",
        request=MatchInput,
        description="201 for a new match, 200 for a retry of one (the same Idempotency-Key and body); the key sent "
        "with another body is a 409.",
        parameters=[IDEMPOTENCY],
        responses={201: MatchChangedShape, 200: MatchChangedShape, **REFUSED, **KEY_REUSED},
    )
    def post(self, request: Request) -> Response:
        data = bounded_body(MatchInput, request)
        started = match_create(
            owner=signed_in_account(request),
            variant=data["variant"],
            scheme=data["scheme"],
            rules=data["rules"],
            player_names=data["players"],
            first_dealer=data["first_dealer"],
            title=data["title"],
            preset=data["preset"],
            planned_games=data["planned_games"],
            token=idempotency_key(request),
        )
        match = started.match
        body = match_data(match, seats_of(match)) | {"replayed": started.replayed}
        code = status.HTTP_200_OK if started.replayed else status.HTTP_201_CREATED
        response = Response(MatchChangedShape(body).data, status=code)
        response["Location"] = reverse("api:match", args=[match.public_id])
        return with_version(response, match)


def _filtered(matches: QuerySet[Match], chosen: Mapping[str, Any]) -> QuerySet[Match]:
    if "player" in chosen:
        matches = matches.filter(pk__in=Seat.objects.filter(player__public_id=chosen["player"]).values("match_id"))
    if "variant" in chosen:
        matches = matches.filter(variant=chosen["variant"])
    if "since" in chosen:
        matches = matches.filter(created_at__date__gte=chosen["since"])
    if "until" in chosen:
        matches = matches.filter(created_at__date__lte=chosen["until"])
    return matches


class MatchView(PolicyView):
    subject_kind = "match"

    @extend_schema(operation_id="match", summary="A match and its totals", responses={200: MatchShape, **REFUSED})
    def get(self, request: Request, match_id: str) -> Response:
        match: Match = self.subject
        return with_version(Response(MatchShape(match_data(match, seats_of(match))).data), match)
