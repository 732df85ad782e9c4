"""The API's resources: players, matches and their games (the club app adds its clubs, seasons, nights and
standings). Thin adapters: reads come from the selectors the pages use, changes go through the same services, under
the same policy."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from knox.models import get_token_model
from knox.settings import knox_settings
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from ..engine import FieldError, Message
from ..engine.messages import gettext_noop, msg
from ..errors import Invalid
from ..models import Game, Match, MatchEvent, Player, Seat
from ..permissions import Action, request_account, visible_matches, visible_players, visitor_of
from ..scoring import render
from ..selectors import live_games, player_stats, seats_of
from ..services import GameGone, Submission, game_add, game_delete, game_edit, match_create, match_redo, match_undo
from .policy import ByName, InOrder, Pages, PolicyView, entity_tag, idempotency_key, seen_version
from .shapes import (
    ChangeShape,
    GameAddedShape,
    GameAddInput,
    GameInput,
    GameSavedShape,
    GameShape,
    MatchFilter,
    MatchInput,
    MatchShape,
    PlayerDetailShape,
    PlayerShape,
    StepInput,
    StepShape,
    TokenInfoShape,
    TokenInput,
    TokenShape,
    paged,
)

IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.UUID,
    OpenApiParameter.HEADER,
    description="A UUID the client makes for this change; a retry with the same key gets the first answer and "
    "changes nothing more.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The match version the change was made on, as the ETag gave it ("12"): if the match changed since, '
    "the answer is 409 with the current version.",
)
PAGED = [
    OpenApiParameter("cursor", OpenApiTypes.STR, description="Where the page starts, as `next` or `previous` gave it."),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1, "maximum": Pages.max_page_size},
        description=f"Entries per page: {Pages.page_size} unless asked, from 1 to {Pages.max_page_size}.",
    ),
]
REFUSED = {
    400: OpenApiResponse(description="Invalid input: messages by field."),
    401: OpenApiResponse(description="No account (send a token or a session)."),
    404: OpenApiResponse(description="Not there, or not yours."),
}
CONFLICT = {
    409: OpenApiResponse(description="The match changed meanwhile (or is closed): messages and the current version."),
    410: OpenApiResponse(description="The game was deleted meanwhile."),
}


def _body(shape: type[Any], request: Request) -> dict[str, Any]:
    """The request's body as ``shape`` reads it; 400 with messages by field otherwise."""
    if not isinstance(request.data, Mapping):
        raise ValidationError({"non_field_errors": ["Expected a JSON object."]})
    reader = shape(data=request.data)
    reader.is_valid(raise_exception=True)
    return dict(reader.validated_data)


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


def _with_version(response: Response, match: Match) -> Response:
    response["ETag"] = entity_tag(match.version)
    return response


def _fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


# --- Tokens --------------------------------------------------------------------------------------------------------


class TokenView(PolicyView):
    """Tokens for scripts and other programs, made from a username and password."""

    subject_kind = None
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="token_create",
        summary="Make a token",
        request=TokenInput,
        responses={201: TokenShape, 400: OpenApiResponse(description="Wrong username or password.")},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = _body(TokenInput, request)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise Invalid([FieldError("password", msg(gettext_noop("Wrong username or password.")))])
        instance, token = get_token_model().objects.create(user=user, expiry=knox_settings.TOKEN_TTL)
        return Response(TokenShape({"token": token, "expiry": instance.expiry}).data, status=status.HTTP_201_CREATED)


class TokenListView(PolicyView):
    subject_kind = "account"
    writes = Action.MANAGE

    @extend_schema(operation_id="tokens", summary="Your tokens", responses={200: TokenInfoShape(many=True), **REFUSED})
    def get(self, request: Request) -> Response:
        tokens = get_token_model().objects.filter(user=request.user, expiry__gt=timezone.now()).order_by("-created")
        rows = [{"prefix": token.token_key, "created": token.created, "expiry": token.expiry} for token in tokens]
        return Response(TokenInfoShape(rows, many=True).data)

    @extend_schema(operation_id="tokens_revoke", summary="Revoke all your tokens", responses={204: None, **REFUSED})
    def delete(self, request: Request) -> Response:
        get_token_model().objects.filter(user=signed_in_user(request)).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class CurrentTokenView(PolicyView):
    subject_kind = "account"
    writes = Action.MANAGE

    @extend_schema(
        operation_id="token_revoke",
        summary="Revoke the token this request is sent with",
        responses={204: None, 400: OpenApiResponse(description="The request was not sent with a token."), **REFUSED},
    )
    def delete(self, request: Request) -> Response:
        token = request.auth
        if not isinstance(token, get_token_model()):
            raise Invalid([FieldError("token", msg(gettext_noop("Send the token to revoke as Authorization.")))])
        token.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Players -------------------------------------------------------------------------------------------------------


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
        stats = [{**vars(row), "average": round(row.average, 2)} for row in player_stats(player)]
        return Response(PlayerDetailShape({**_player(player), "stats": stats}).data)


# --- Matches -------------------------------------------------------------------------------------------------------


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
        parameters=[IDEMPOTENCY],
        responses={201: MatchShape, **REFUSED},
    )
    def post(self, request: Request) -> Response:
        data = _body(MatchInput, request)
        match = match_create(
            owner=signed_in_user(request),
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
        response = Response(MatchShape(match_data(match, seats_of(match))).data, status=status.HTTP_201_CREATED)
        response["Location"] = reverse("api:match", args=[match.public_id])
        return _with_version(response, match)


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
        return _with_version(Response(MatchShape(match_data(match, seats_of(match))).data), match)


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
        responses={201: GameAddedShape, 200: GameAddedShape, **REFUSED, **CONFLICT},
    )
    def post(self, request: Request, match_id: str) -> Response:
        data = _body(GameAddInput, request)
        submission = Submission(data["passed"], data["declarer"], data["game"], data["number"])
        match: Match = self.subject
        added = game_add(
            match=match, user=request_account(request), token=idempotency_key(request), submission=submission
        )
        match = _fresh(match)
        body = {"game": game_data(added.game), "match": match_data(match, seats_of(match)), "replayed": added.replayed}
        response = Response(
            GameAddedShape(body).data, status=status.HTTP_200_OK if added.replayed else status.HTTP_201_CREATED
        )
        response["Location"] = reverse("api:game", args=[match.public_id, added.game.public_id])
        return _with_version(response, match)


def signed_in_user(request: Request) -> User:
    """The account of a request the policy let in as one."""
    account = request_account(request)
    assert account is not None
    return account


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
        return _with_version(Response(GameShape(game_data(game)).data), self.subject)

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
        data = _body(GameInput, request)
        game = game_edit(
            game=self._game(game_id),
            user=request_account(request),
            token=idempotency_key(request),
            submission=Submission(data["passed"], data["declarer"], data["game"]),
            version=seen_version(request),
        )
        match = _fresh(self.subject)
        body = {"game": game_data(game), "match": match_data(match, seats_of(match))}
        return _with_version(Response(GameSavedShape(body).data), match)

    @extend_schema(
        operation_id="game_delete",
        summary="Take a game off the list",
        description="The game stays in the history; undo brings it back. Later games move up a deal.",
        parameters=[IDEMPOTENCY, IF_MATCH],
        responses={200: MatchShape, **REFUSED, **CONFLICT},
    )
    def delete(self, request: Request, match_id: str, game_id: str) -> Response:
        game_delete(
            game=self._game(game_id),
            user=request_account(request),
            token=idempotency_key(request),
            version=seen_version(request),
        )
        match = _fresh(self.subject)
        return _with_version(Response(MatchShape(match_data(match, seats_of(match))).data), match)


class StepView(PolicyView):
    """Undo or redo the latest change."""

    subject_kind = "match"
    action = Action.SCORE
    redo = False

    def post(self, request: Request, match_id: str) -> Response:
        data = _body(StepInput, request)
        step = match_redo if self.redo else match_undo
        match: Match = self.subject
        change = step(
            match=match,
            user=request_account(request),
            token=idempotency_key(request),
            change=data["change"],
            version=seen_version(request),
        )
        match = _fresh(match)
        body = {"change": None if change is None else _change(change), "match": match_data(match, seats_of(match))}
        return _with_version(Response(StepShape(body).data), match)


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


def _change(event: MatchEvent) -> dict[str, Any]:
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
        return pages.get_paginated_response(ChangeShape([_change(event) for event in page], many=True).data)
