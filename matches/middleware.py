"""The pages' own middleware: the answer to a refused visitor, the Permissions-Policy header, and the daily cleanup.

Pages answer a refused visitor in one way: somebody without an account is asked to log in, everybody else is told
that the thing does not exist (so a stranger never learns that a match is there). A request from a page's script
(htmx, the outbox) is not sent to the log-in page: it gets 401, so that it cannot mistake that page for its answer."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.views.defaults import page_not_found

from .accounts import forget_expired
from .permissions import Denied


class DeniedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Denied):
            return None
        if not request.user.is_authenticated:
            if request.headers.get("HX-Request"):
                return HttpResponse(status=401)
            return redirect_to_login(request.get_full_path())
        return page_not_found(request, Http404())


class PermissionsPolicyMiddleware:
    """The browser features the pages may use (``settings.PERMISSIONS_POLICY``), on every answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


class ExpiredSessionsMiddleware:
    """Deletes expired sessions (and the other records that only count for a while) by itself: on the first request
    a process answers, then at most once every ``SESSION_CLEANUP_SECONDS``, so no operator has to remember
    ``clearsessions``. One indexed DELETE a day per process; the time is the process's, whatever handler asks."""

    next_cleanup: ClassVar[float] = 0.0

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        now = time.monotonic()
        if now >= ExpiredSessionsMiddleware.next_cleanup:
            ExpiredSessionsMiddleware.next_cleanup = now + settings.SESSION_CLEANUP_SECONDS
            forget_expired()
        return self.get_response(request)
