"""A venue's changes through the API follow the core's protocol of a thing with a version (``matches.api.replays``),
as a club night's do: under the venue's lock a retried ``Idempotency-Key`` gets its first answer, a stale
``If-Match`` is a 409, and the change's answer is kept by its key."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.replays import Made, Versioned, keyed_change
from matches.engine.messages import gettext_noop

from ..models import Venue
from .shapes import VenueChangedShape
from .venues import venue_state

VENUE = Versioned(
    model=Venue,
    owner="venue",
    moved_on=gettext_noop(
        "The venue was changed meanwhile (it is at version {version} now): look at it again, then send the change anew."
    ),
)


def venue_change(request: Request, venue: Venue, user: User, change: Callable[[], Made]) -> Response:
    """Make ``change`` to ``venue`` under the protocol; the answer is the venue as ``user`` sees it after it."""
    return keyed_change(request, venue, VENUE, change, state=lambda: venue_state(venue, user), shape=VenueChangedShape)
