"""The API's one answer to a refusal: a service's error with its status (400, 409, 410) and messages by field (a
change the services saw made before by the same token with other content is the Idempotency-Key sent with another
change: 409 under the header's name, as an app's keyed change answers it), an engine refusal as 400, and a visitor
the permission policy refuses as 401 (no account) or 404 (others). A conflict about a match (409, 410) says the
match's current version, for the client to look again and resend with it. An address under the API's that names
nothing is the API's 404 too, never a page."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.views.defaults import page_not_found
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

from ..addresses import in_api
from ..engine import FieldError, RuleError
from ..engine.messages import msg
from ..errors import Conflict, ServiceError
from ..permissions import Denied, public
from ..scoring import error_tree
from ..services import StaleSubmission
from .policy import IDEMPOTENCY_HEADER
from .replays import KEY_USED


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, StaleSubmission):
        exc = Conflict([FieldError(IDEMPOTENCY_HEADER, msg(KEY_USED))])
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
        # As the policy answers it (``api.policy``), in the asker's language.
        if exc.visitor.account is None:
            return exception_handler(NotAuthenticated(), context)
        return exception_handler(NotFound(), context)
    return exception_handler(exc, context)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's answer to an address that names nothing (its ``handler404``, with DEBUG off): under the API's
    addresses the API's 404, as its views answer it (``{"detail": "Not found."}``, in the visitor's language), and a
    page of the site elsewhere (``404.html``)."""
    if not in_api(request):
        return page_not_found(request, exception)
    body = JSONRenderer().render({"detail": NotFound.default_detail})
    return HttpResponse(body, content_type="application/json", status=status.HTTP_404_NOT_FOUND)


@public
def no_such_address(request: HttpRequest) -> HttpResponse:
    """An address under the API's that names nothing: the API's 404 (``not_found``), whether DEBUG is on or off."""
    return not_found(request, Http404())
