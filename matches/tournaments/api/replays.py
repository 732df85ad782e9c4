"""A tournament's changes through the API follow the core's protocol of a thing with a version
(``matches.api.replays``), as a club night's and a league venue's do: under the tournament's lock a retried
``Idempotency-Key`` gets its first answer, a stale ``If-Match`` is a 409, and the change's answer is kept by its key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.replays import Made, Versioned, keyed_change
from matches.engine.messages import gettext_noop

from ..models import Tournament

TOURNAMENT = Versioned(
    model=Tournament,
    owner="tournament",
    moved_on=gettext_noop(
        "The tournament was changed meanwhile (it is at version {version} now): look at it again, then send the "
        "change anew."
    ),
)


def tournament_change(
    request: Request,
    tournament: Tournament,
    change: Callable[[], Made],
    *,
    what: str,
    state: Callable[[], dict[str, Any]],
    shape: type[serializers.Serializer[Any]],
) -> Response:
    """Make ``change`` to ``tournament`` under the protocol; the answer names the tournament and its version after
    the change, and under ``what`` what ``state()`` reads of the thing changed."""

    def answer() -> dict[str, Any]:
        version = Tournament.objects.filter(pk=tournament.pk).values_list("version", flat=True).get()
        return {"tournament": tournament.public_id, "version": version, what: state()}

    return keyed_change(request, tournament, TOURNAMENT, change, state=answer, shape=shape)
