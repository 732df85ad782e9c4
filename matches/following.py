"""Following a match or a club night: what a page that follows one asks, and what the answer carries.

A following page asks with the version it shows; while nothing changed it gets an empty 204 (``unchanged``), which
the stack sends with a single header (``middleware.NoContentMiddleware``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

P = ParamSpec("P")
Request = TypeVar("Request", bound=HttpRequest)


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
