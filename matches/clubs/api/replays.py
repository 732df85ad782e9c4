"""A club night's changes through the API follow the core's protocol of a thing with a version
(``matches.api.replays``): under the night's lock a retried ``Idempotency-Key`` gets its first answer, a stale
``If-Match`` is a 409, and the change's answer is kept by its key."""

from __future__ import annotations

from collections.abc import Callable

from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.replays import Made, Versioned, keyed_change
from matches.engine.messages import gettext_noop

from ..models import Night
from .nights import NightChangedShape, night_state

NIGHT = Versioned(
    model=Night,
    owner="night",
    moved_on=gettext_noop(
        "The night was changed meanwhile (it is at version {version} now): look at it again, then send the change anew."
    ),
)


def night_change(request: Request, night: Night, change: Callable[[], Made]) -> Response:
    """Make ``change`` to ``night`` under the protocol; the answer is the night as it stands after it."""
    return keyed_change(request, night, NIGHT, change, state=lambda: night_state(night), shape=NightChangedShape)
