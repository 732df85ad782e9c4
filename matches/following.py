"""Following a match or a club night: what a page that follows one asks, how often, and what the answer carries.

A following page asks with the version it shows; while nothing changed it gets an empty 204 (``unchanged``), which
the stack sends with a single header (``middleware.LeanHeadersMiddleware``). How often it asks is ``FOLLOW_STEPS``,
which the polling element carries to ``static/js/entry.js`` and ``make bench`` counts an hour's asks by:

- every 5 s while the page is in use (touched in the last minute), and at once when somebody touches it after a
  quieter while, so that a phone in somebody's hand shows another phone's save within 5 s;
- less often the longer nobody touches it: every 10 s after a minute, 20 s after two, 30 s after four, so that a
  phone lying on the table or a spectator's screen shows a save within 30 s at most;
- never while the page is hidden (another tab, the screen off), and at once when it is shown again.

A save seen from elsewhere does not make the page ask sooner: at a table the next game comes minutes later, and a
page that asked every 5 s for a minute after each save would cost twice as much as all the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# (seconds between asks, until the page has been left alone this many seconds); the last step lasts.
FOLLOW_STEPS: tuple[tuple[int, int | None], ...] = ((5, 60), (10, 120), (20, 240), (30, None))

P = ParamSpec("P")
Request = TypeVar("Request", bound=HttpRequest)


def follow_steps_text() -> str:
    """``FOLLOW_STEPS`` as the script reads them: every, until, every, until, ..., every ("5 60 10 120 20 240 30")."""
    return " ".join(str(number) for step in FOLLOW_STEPS for number in step if number is not None)


def ask_interval(untouched: float) -> int:
    """The seconds from one ask to the next on a page left alone for ``untouched`` seconds."""
    for every, until in FOLLOW_STEPS:
        if until is None or untouched < until:
            return every
    raise AssertionError("the last step lasts")


def asks_within(seconds: int) -> list[int]:
    """When a page that is shown and left alone asks in the first ``seconds`` after it was opened: each ask comes
    the step's interval after the one before, as the script times them."""
    asks: list[int] = []
    moment = ask_interval(0)
    while moment <= seconds:
        asks.append(moment)
        moment += ask_interval(moment)
    return asks


def unchanged() -> HttpResponse:
    """The answer to a page that shows the current version already: nothing."""
    return HttpResponse(status=204)


def csrf_cookie_kept(
    view: Callable[Concatenate[Request, P], HttpResponse],
) -> Callable[Concatenate[Request, P], HttpResponse]:
    """A follow-up answer that renders forms uses the CSRF token of the cookie the browser already holds; Django
    would send that cookie again only to renew its expiry, a few hundred bytes with every changed answer. The pages
    themselves renew it."""

    @wraps(view)
    def kept(request: Request, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        held = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
        if held is not None and held == request.META.get("CSRF_COOKIE"):
            request.META["CSRF_COOKIE_NEEDS_UPDATE"] = False
        return response

    return kept
