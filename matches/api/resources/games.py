"""A match's games: listed, added (idempotently), read, fixed and deleted."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from ...engine import Message
from ...models import Game, Match
from ...permissions import Action, request_account
from ...scoring import render
from ...selectors import live_games, seats_of
from ...services import GameGone, Submission, game_add, game_delete, game_edit
from ..policy import InOrder, PolicyView, idempotency_key, seen_version
from ..shapes import (
    GameAddInput,
    GameInput,
    GameSavedShape,
    GameShape,
    MatchChangedShape,
    paged,
)
from .common import CONFLICT, IDEMPOTENCY, IF_MATCH, PAGED, REFUSED, bounded_body, fresh_match, with_version
from .matches import match_data


def game_data(game: Game) -> dict[str, Any]:
    return {
        "id": game.public_id,
        "number": game.number,
        "passed": game.passed,
        "declarer": game.declarer,
        "game": game.entry,
        "bock": game.bock,
        "won": game.won,
        "game_value": game.game_value,
        "points": game.points,
        "breakdown": [render(Message.from_data(step)) for step in game.breakdown],
        "version": game.version,
        "created_at": game.created_at,
    }


class GameListView(PolicyView):
    subject_kind = "match"
    writes = Action.SCORE

    @extend_schema(
        operation_id="games",
        summary="A match's games, in order",
        parameters=PAGED,
        responses={200: paged(GameShape), **REFUSED},
    )
    def get(self, request: Request, match_id: str) -> Response:
        pages = InOrder()
        page = pages.paginate_queryset(live_games(self.subject), request, view=self) or []
        return pages.get_paginated_response(GameShape([game_data(game) for game in page], many=True).data)

    @extend_schema(
        operation_id="game_add",
        summary="Enter the next game",
        description="Enter a game (or a deal all passed) as the next on the list: through the same service as the "
        "match page, scored under the match's rules. 201 for a new game, 200 for a retry of one.",
        request=GameAddInput,
        parameters=[IDEMPOTENCY],
        responses={201: GameSavedShape, 200: GameSavedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, match_id: str) -> Response:
        data = bounded_body(GameAddInput, request)
        submission = Submission(data["passed"], data["declarer"], data["game"], data["number"])
        match: Match = self.subject
        added = game_add(
            match=match, user=request_account(request), token=idempotency_key(request), submission=submission
        )
        match = fresh_match(match)
        body = {"game": game_data(added.game), "match": match_data(match, seats_of(match)), "replayed": added.replayed}
        response = Response(
            GameSavedShape(body).data, status=status.HTTP_200_OK if added.replayed else status.HTTP_201_CREATED
        )
        response["Location"] = reverse("api:game", args=[match.public_id, added.game.public_id])
        return with_version(response, match)


class GameView(PolicyView):
    subject_kind = "match"
    writes = Action.SCORE

    def _game(self, game_id: str) -> Game:
        """The match's game of that id, deleted or not: a change to a deleted one is for the services to answer (a
        retry of the deletion gets its first answer, anything else 410)."""
        game = Game.objects.filter(match=self.subject, public_id=game_id).first()
        if game is None:
            raise NotFound
        return game

    @extend_schema(operation_id="game", summary="A game", responses={200: GameShape, **REFUSED, **CONFLICT})
    def get(self, request: Request, match_id: str, game_id: str) -> Response:
        game = self._game(game_id)
        if game.deleted:
            raise GameGone
        return with_version(Response(GameShape(game_data(game)).data), self.subject)

    @extend_schema(
        operation_id="game_fix",
        summary="Fix a game",
        description="Replace what was entered for a game; the games after it are rescored, the old entry stays in "
        "the history.",
        request=GameInput,
        parameters=[IDEMPOTENCY, IF_MATCH],
        responses={200: GameSavedShape, **REFUSED, **CONFLICT},
    )
    def put(self, request: Request, match_id: str, game_id: str) -> Response:
        data = bounded_body(GameInput, request)
        fixed = game_edit(
            game=self._game(game_id),
            user=request_account(request),
            token=idempotency_key(request),
            submission=Submission(data["passed"], data["declarer"], data["game"]),
            version=seen_version(request),
        )
        match = fresh_match(self.subject)
        body = {"game": game_data(fixed.game), "match": match_data(match, seats_of(match)), "replayed": fixed.replayed}
        return with_version(Response(GameSavedShape(body).data), match)

    @extend_schema(
        operation_id="game_delete",
        summary="Take a game off the list",
        description="The game stays in the history; undo brings it back. Later games move up a deal.",
        parameters=[IDEMPOTENCY, IF_MATCH],
        responses={200: MatchChangedShape, **REFUSED, **CONFLICT},
    )
    def delete(self, request: Request, match_id: str, game_id: str) -> Response:
        deleted = game_delete(
            game=self._game(game_id),
            user=request_account(request),
            token=idempotency_key(request),
            version=seen_version(request),
        )
        match = fresh_match(self.subject)
        body = match_data(match, seats_of(match)) | {"replayed": deleted.replayed}
        return with_version(Response(MatchChangedShape(body).data), match)
