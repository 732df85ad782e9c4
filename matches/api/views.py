"""The REST API: validate, delegate to the engine, answer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..scoring import score_game
from ..selectors import variant_catalogue
from .serializers import CalculateRequestSerializer, CalculateResponseSerializer, VariantSerializer


class CalculateView(APIView):
    """Score one game without storing anything: no login needed."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="calculate",
        summary="Score one game",
        description=(
            "Computes what every seat writes on the list for one game under a variant, scheme and rule options, "
            "with the steps that lead there. Nothing is stored. Invalid input gives 400 with messages per field; "
            "send Accept-Language: de for German messages and steps."
        ),
        request=CalculateRequestSerializer,
        responses={200: CalculateResponseSerializer},
        examples=[
            OpenApiExample(
                "Clubs hand with 2, lost",
                value={
                    "variant": "skat",
                    "game": {"contract": "clubs", "matadors": 2, "hand": True, "declarer_card_points": 52},
                },
                request_only=True,
            ),
            OpenApiExample(
                "Officers' Skat, simple scheme",
                value={
                    "variant": "officers-skat",
                    "scheme": "simple",
                    "game": {"contract": "hearts", "declarer_card_points": 95},
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = CalculateRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        scored = score_game(serializer.validated_data)
        result = scored.result
        body = {
            "won": result.won,
            "game_value": result.game_value,
            "scores": list(result.scores),
            "schneider": result.schneider,
            "schwarz": result.schwarz,
            "overbid": result.overbid,
            "breakdown": scored.breakdown,
        }
        return Response(CalculateResponseSerializer(body).data)


class VariantListView(APIView):
    """The variants, their schemes, contracts and rule options with defaults."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="variants", summary="List variants and their rule options", responses=VariantSerializer(many=True)
    )
    def get(self, request: Request) -> Response:
        return Response(VariantSerializer(variant_catalogue(), many=True).data)
