"""Players of the books the account may see."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from ...labels import figure_cell
from ...models import Player
from ...permissions import visible_players
from ...stats import player_stats
from ..policy import ByName, PolicyView
from ..shapes import (
    PlayerDetailShape,
    PlayerShape,
    paged,
)
from .common import PAGED, REFUSED


class PlayerListView(PolicyView):
    subject_kind = "account"

    @extend_schema(
        operation_id="players",
        summary="Your players",
        description="The players in your book and the players linked to your account, by name.",
        parameters=PAGED,
        responses={200: paged(PlayerShape), **REFUSED},
    )
    def get(self, request: Request) -> Response:
        pages = ByName()
        page = pages.paginate_queryset(visible_players(request.user), request, view=self) or []
        return pages.get_paginated_response(PlayerShape([_player(player) for player in page], many=True).data)


def _player(player: Player) -> dict[str, Any]:
    return {
        "id": player.public_id,
        "name": player.name,
        "linked": player.account_id is not None,
        "created_at": player.created_at,
    }


class PlayerView(PolicyView):
    subject_kind = "player"

    @extend_schema(
        operation_id="player", summary="A player's statistics", responses={200: PlayerDetailShape, **REFUSED}
    )
    def get(self, request: Request, player_id: str) -> Response:
        player: Player = self.subject
        stats = [{**vars(row), "average": figure_cell(row.average)} for row in player_stats(player)]
        return Response(PlayerDetailShape({**_player(player), "stats": stats}).data)
