"""The API's one answer to a refusal: a service's error with its status (400, 409, 410) and messages by field, an
engine refusal as 400, and a visitor the permission policy refuses as 401 (no account) or 404 (others). A conflict
about a match (409, 410) says the match's current version, for the client to look again and resend with it."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from ..engine import RuleError
from ..errors import ServiceError
from ..permissions import Denied
from ..scoring import error_tree


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        body = error_tree(exc)
        current = getattr(context.get("view"), "current_version", None)
        version = current() if exc.status != status.HTTP_400_BAD_REQUEST and callable(current) else None
        if version is not None:
            body["version"] = version
        return Response(body, status=exc.status)
    if isinstance(exc, RuleError):
        return Response(error_tree(exc), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Denied):
        if exc.visitor.account is None:
            return Response({"detail": "Authentication credentials were not provided."}, status=401)
        return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
    return exception_handler(exc, context)
