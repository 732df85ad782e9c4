"""API tokens: made with a password, listed, and ended."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import get_token_model
from knox.settings import knox_settings
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from ...engine import FieldError
from ...engine.messages import gettext_noop, msg
from ...errors import Invalid
from ...permissions import Action, signed_in_account
from ..policy import PolicyView
from ..shapes import (
    TokenInfoShape,
    TokenInput,
    TokenShape,
)
from .common import REFUSED, bounded_body


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
        data = bounded_body(TokenInput, request)
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
        get_token_model().objects.filter(user=signed_in_account(request)).delete()
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
