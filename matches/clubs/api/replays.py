"""The protocol of every change to a club night through the API, as the core's services follow it for a match: under
the night's lock, a retried ``Idempotency-Key`` gets its first answer before anything else is checked; then the
version the client saw (``If-Match``) must still be the night's; then the change is made through the club's services
and its answer kept by the key.

The core keeps a match's answers by key in the match's own history (its events); a night's changes have no such
history, so their answers are kept here (``NightRequest``), one row per change asked with a key."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.policy import IDEMPOTENCY_HEADER, idempotency_key, seen_version
from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict

from ..models import Night, NightRequest
from .nights import NightChangedShape, night_state, with_night_version


@dataclass(frozen=True)
class Made:
    """What a change made: a new thing (201: a check-in, a draw) or a change to what was there (200)."""

    created: bool = False


def _asked(request: Request) -> str:
    """A digest of what was asked: the same key sent with another change is not a retry of the first."""
    body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _answered(kept: NightRequest) -> Response:
    """The first answer to a retried change, as it was, marked as replayed (200: nothing new was made)."""
    body = {**kept.answer, "replayed": True}
    return with_night_version(Response(body, status=status.HTTP_200_OK), int(kept.answer["version"]))


def night_version_now(night: Night) -> int | None:
    return Night.objects.filter(pk=night.pk).values_list("version", flat=True).first()


def night_change(request: Request, night: Night, change: Callable[[], Made]) -> Response:
    """Make ``change`` to ``night`` under the protocol above; the answer is the night as it stands after it."""
    keyed = IDEMPOTENCY_HEADER in request.headers
    key = idempotency_key(request)
    seen = seen_version(request)
    asked = _asked(request)
    with transaction.atomic():
        version = Night.objects.select_for_update().filter(pk=night.pk).values_list("version", flat=True).get()
        kept = NightRequest.objects.filter(night_id=night.pk, key=key).first() if keyed else None
        if kept is not None:
            if kept.asked != asked:
                raise Conflict([FieldError(IDEMPOTENCY_HEADER, msg(KEY_USED))])
            return _answered(kept)
        if seen is not None and seen != version:
            raise Conflict([FieldError("night", msg(NIGHT_MOVED_ON, version=version))])
        made = change()
        state: dict[str, Any] = json.loads(json.dumps(night_state(night), cls=DjangoJSONEncoder))
        code = status.HTTP_201_CREATED if made.created else status.HTTP_200_OK
        if keyed:
            NightRequest.objects.create(night_id=night.pk, key=key, asked=asked, answer=state)
    body = NightChangedShape({**state, "replayed": False}).data
    return with_night_version(Response(body, status=code), state["version"])


KEY_USED = gettext_noop("This Idempotency-Key was sent with another change already: make a new key for a new change.")
NIGHT_MOVED_ON = gettext_noop(
    "The night was changed meanwhile (it is at version {version} now): look at it again, then send the change anew."
)
