"""What the API's resources share: the headers and answers every change documents, a body read within bounds,
the match's version in an answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from ...models import Match
from ..policy import Pages, entity_tag

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


KEY_REUSED = {
    409: OpenApiResponse(description="The Idempotency-Key was sent with another change already."),
}


CONFLICT = {
    409: OpenApiResponse(description="The match changed meanwhile (or is closed): messages and the current version."),
    410: OpenApiResponse(description="The game was deleted meanwhile."),
}


def bounded_body(shape: type[Any], request: Request) -> dict[str, Any]:
    """The request's body as ``shape`` reads it; 400 with messages by field otherwise."""
    if not isinstance(request.data, Mapping):
        raise ValidationError({"non_field_errors": [_("Expected a JSON object.")]})
    reader = shape(data=request.data)
    reader.is_valid(raise_exception=True)
    return dict(reader.validated_data)


def with_version(response: Response, match: Match) -> Response:
    response["ETag"] = entity_tag(match.version)
    return response


def fresh_match(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)
