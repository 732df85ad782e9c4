"""The protocol of every change to a venue through the API, as a club night's changes follow it: under the venue's
lock, a retried ``Idempotency-Key`` gets its first answer before anything else is checked; then the version the
client saw (``If-Match``) must still be the venue's; then the change is made through the league's services and its
answer kept by the key (``VenueRequest``, one row per change asked with a key)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.policy import IDEMPOTENCY_HEADER, idempotency_key, seen_version
from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict

from ..models import Venue, VenueRequest
from .shapes import VenueChangedShape
from .venues import venue_state, with_venue_version


@dataclass(frozen=True)
class Made:
    """What a change made: a new thing (201: a line-up, a seating, a confirmation) or a change to what was there
    (200)."""

    created: bool = False


def _asked(request: Request) -> str:
    """A digest of what was asked: the same key sent with another change is not a retry of the first."""
    body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _answered(kept: VenueRequest) -> Response:
    """The first answer to a retried change, as it was, marked as replayed (200: nothing new was made)."""
    body = {**kept.answer, "replayed": True}
    return with_venue_version(Response(body, status=status.HTTP_200_OK), int(kept.answer["version"]))


def venue_version_now(venue: Venue) -> int | None:
    return Venue.objects.filter(pk=venue.pk).values_list("version", flat=True).first()


def venue_change(request: Request, venue: Venue, user: User, change: Callable[[], Made]) -> Response:
    """Make ``change`` to ``venue`` under the protocol above; the answer is the venue as it stands after it."""
    keyed = IDEMPOTENCY_HEADER in request.headers
    key = idempotency_key(request)
    seen = seen_version(request)
    asked = _asked(request)
    with transaction.atomic():
        version = Venue.objects.select_for_update().filter(pk=venue.pk).values_list("version", flat=True).get()
        kept = VenueRequest.objects.filter(venue_id=venue.pk, key=key).first() if keyed else None
        if kept is not None:
            if kept.asked != asked:
                raise Conflict([FieldError(IDEMPOTENCY_HEADER, msg(KEY_USED))])
            return _answered(kept)
        if seen is not None and seen != version:
            raise Conflict([FieldError("venue", msg(VENUE_MOVED_ON, version=version))])
        made = change()
        state: dict[str, Any] = json.loads(json.dumps(venue_state(venue, user), cls=DjangoJSONEncoder))
        code = status.HTTP_201_CREATED if made.created else status.HTTP_200_OK
        if keyed:
            VenueRequest.objects.create(venue_id=venue.pk, key=key, asked=asked, answer=state)
    body = VenueChangedShape({**state, "replayed": False}).data
    return with_venue_version(Response(body, status=code), state["version"])


# The club night's words for a key used twice, so that the two say the same.
KEY_USED = gettext_noop("This Idempotency-Key was sent with another change already: make a new key for a new change.")
VENUE_MOVED_ON = gettext_noop(
    "The venue was changed meanwhile (it is at version {version} now): look at it again, then send the change anew."
)
