"""The protocol of every change an app makes through the API to a thing of its own that has a version (a club
night, a league's venue), as the core's services follow it for a match: under the thing's lock, a retried
``Idempotency-Key`` gets its first answer before anything else is checked; then the version the client saw
(``If-Match``) must still be the thing's; then the change is made through the app's services and its answer kept by
the key.

The core keeps a match's answers by key in the match's own history (its events); an app's things have no such
history, so their answers are kept in one table for every kind of thing (``KeptAnswer``: one row per change asked
with a key, by the thing's model and key). An answer is kept ``ANSWERS_KEPT``,
longer than a retry can come (a phone that lost its connection, an outbox sent days later); then the daily cleanup
drops it (``matches.tasks.forget_old_answers``) and keeps the key and the digest of what was asked, so that a retry
after that is refused as expired, never taken as a new change."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from ..engine import FieldError
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict
from ..models import KeptAnswer
from ..tasks import ANSWERS_KEPT
from .policy import IDEMPOTENCY_HEADER, PolicyView, entity_tag, idempotency_key, seen_version

KEY_USED = gettext_noop("This Idempotency-Key was sent with another change already: make a new key for a new change.")
KEY_EXPIRED = gettext_noop(
    "This change was made with this Idempotency-Key more than {days} days ago and its answer is no longer kept: "
    "nothing was changed again. Ask for how it stands now."
)


@dataclass(frozen=True)
class Made:
    """What a change made: a new thing (201: a check-in, a draw, a confirmation) or a change to what was there
    (200)."""

    created: bool = False


@dataclass(frozen=True)
class Versioned:
    """A kind of thing an app changes under this protocol: its ``model`` (with a ``version`` that every change
    moves on), and the words a stale version is refused with (``moved_on``, with the current ``{version}``), under
    the field ``owner`` (the thing's name in the API: ``night``, ``venue``)."""

    model: type[models.Model]
    owner: str
    moved_on: str

    def version_now(self, thing: models.Model) -> int | None:
        """The thing's version as it stands now (for a 409's answer)."""
        found: int | None = self.model._default_manager.filter(pk=thing.pk).values_list("version", flat=True).first()
        return found


class VersionedChangeView(PolicyView):
    """An API view that changes a thing of the kind ``versioned`` (the view's subject, unless ``versioned_thing`` says
    otherwise): a refused change's answer names the thing's version as it stands now."""

    versioned: ClassVar[Versioned]

    def versioned_thing(self) -> models.Model | None:
        subject = self.subject
        return subject if isinstance(subject, self.versioned.model) else None

    def current_version(self) -> int | None:
        thing = self.versioned_thing()
        return self.versioned.version_now(thing) if thing is not None else None


def with_version(response: Response, version: int) -> Response:
    """The answer with the thing's version as its ``ETag``, to send back as ``If-Match``."""
    response["ETag"] = entity_tag(version)
    return response


def _asked(request: Request) -> str:
    """A digest of what was asked: the same key sent with another change is not a retry of the first."""
    body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def keyed_change(
    request: Request,
    thing: models.Model,
    kind: Versioned,
    change: Callable[[], Made],
    *,
    state: Callable[[], dict[str, Any]],
    shape: type[serializers.Serializer[Any]],
) -> Response:
    """Make ``change`` to ``thing`` under the protocol above; the answer is ``state()`` after it, in ``shape`` (a
    retry gets the first answer again, marked ``replayed``)."""
    keyed = IDEMPOTENCY_HEADER in request.headers
    key = idempotency_key(request)
    seen = seen_version(request)
    asked = _asked(request)
    owner = _owner(thing)
    with transaction.atomic():
        version = kind.model._default_manager.select_for_update().filter(pk=thing.pk).values_list("version", flat=True)
        current = version.get()
        first = _first_answer(owner, key, asked) if keyed else None
        if first is not None:
            return with_version(Response({**first, "replayed": True}, status=status.HTTP_200_OK), int(first["version"]))
        if seen is not None and seen != current:
            raise Conflict([FieldError(kind.owner, msg(kind.moved_on, version=current))])
        made = change()
        answer: dict[str, Any] = json.loads(json.dumps(state(), cls=DjangoJSONEncoder))
        code = status.HTTP_201_CREATED if made.created else status.HTTP_200_OK
        if keyed:
            KeptAnswer.objects.create(**owner, key=key, asked=asked, answer=answer)
    body = shape({**answer, "replayed": False}).data
    return with_version(Response(body, status=code), answer["version"])


def keyed_answer(request: Request, thing: models.Model, change: Callable[[], Response]) -> Response:
    """Make ``change`` for ``thing``, a thing without a version (an account defining a ranking list, a list
    publishing a period), under the first half of the protocol: under the thing's lock, a retried
    ``Idempotency-Key`` gets the first answer again (200, marked ``replayed``) and changes nothing; the key sent with
    another change is refused. ``change`` answers with its data (``replayed`` false) and status."""
    keyed = IDEMPOTENCY_HEADER in request.headers
    key = idempotency_key(request)
    asked = _asked(request)
    owner = _owner(thing)
    with transaction.atomic():
        thing._meta.model._default_manager.select_for_update().filter(pk=thing.pk).values_list("pk", flat=True).get()
        first = _first_answer(owner, key, asked) if keyed else None
        if first is not None:
            return Response({**first, "replayed": True}, status=status.HTTP_200_OK)
        response = change()
        if keyed:
            answer = json.loads(json.dumps(response.data, cls=DjangoJSONEncoder))
            KeptAnswer.objects.create(**owner, key=key, asked=asked, answer=answer)
    return response


def _owner(thing: models.Model) -> dict[str, Any]:
    return {"kind": ContentType.objects.get_for_model(thing), "thing_id": thing.pk}


def _first_answer(owner: dict[str, Any], key: Any, asked: str) -> dict[str, Any] | None:
    """The answer kept for ``key`` (None: the key is new); a key kept for another change, or whose answer is no
    longer kept, is refused."""
    kept = KeptAnswer.objects.filter(**owner, key=key).first()
    if kept is None:
        return None
    if kept.asked != asked:
        raise Conflict([FieldError(IDEMPOTENCY_HEADER, msg(KEY_USED))])
    first: dict[str, Any] | None = kept.answer
    if first is None:
        raise Conflict([FieldError(IDEMPOTENCY_HEADER, msg(KEY_EXPIRED, days=ANSWERS_KEPT.days))])
    return first
