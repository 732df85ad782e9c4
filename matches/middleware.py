"""The project's own middleware: the answer to a refused visitor, the page policies, the daily cleanup, the request
log, the headers an answer can do without, and no slash added to an address of the API.

Pages answer a refused visitor in one way: somebody without an account is asked to log in, everybody else is told
that the thing does not exist (so a stranger never learns that a match is there). A request from a page's script
(htmx, the outbox) is not sent to the log-in page: it gets 401, so that it cannot mistake that page for its answer. A
browser that holds a match's scoring link which opens it no more is told why, by the app that knows (a closed club
night).

Every request leaves one log line (``RequestLogMiddleware``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import ClassVar

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.contrib.messages.storage.base import BaseStorage
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware import common
from django.utils.functional import SimpleLazyObject
from django.views.defaults import page_not_found

from .addresses import in_api
from .htmx import from_htmx
from .logs import loggable_path
from .permissions import Denied, Visitor
from .registry import gone_invite_page
from .screens import anybody
from .tasks import forget_expired

request_logger = logging.getLogger("scorekeeper.requests")
cleanup_logger = logging.getLogger("scorekeeper.cleanup")
REQUEST_LINE = "%(method)s %(path)s %(status)s %(duration_ms)s ms user %(user)s"


class DeniedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Denied):
            return None
        gone = _gone_link_page(request, exception.visitor)
        if gone is not None:
            return gone
        if not request.user.is_authenticated:
            if from_htmx(request):
                return HttpResponse(status=401)
            return redirect_to_login(request.get_full_path())
        return page_not_found(request, Http404())


class CommonMiddleware(common.CommonMiddleware):
    """Django's, but an address of the API without its trailing slash is not redirected to the one with it: a client
    follows a redirect of a change as a GET, which reads the list and looks like success while nothing was changed
    (and with DEBUG on, Django refuses to redirect a change at all, as a server error). It is the API's 404 instead
    (``matches.api.errors.not_found``). Pages keep the redirect."""

    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        return not in_api(request) and super().should_redirect_with_slash(request)


def _gone_link_page(request: HttpRequest, visitor: Visitor) -> HttpResponse | None:
    """What an app says of the scoring link this browser holds for the match asked for, now that the link opens it no
    more (a closed club night's table): the phone that scored by it learns why, instead of being told to log in."""
    match_id = request.resolver_match.kwargs.get("match_id") if request.resolver_match else None
    held = visitor.links.get(str(match_id)) if match_id else None
    return gone_invite_page(request, held) if isinstance(held, str) else None


# What a browser renders as a document of its own, able to run scripts: only these carry the page policies.
DOCUMENT_TYPES = ("text/html",)


class PagePoliciesMiddleware(CSPMiddleware):
    """The Content-Security-Policy (``settings.CONTENT_SECURITY_POLICY``, through django-csp), the browser features
    the pages may use (``settings.PERMISSIONS_POLICY``) and, for browsers that know no ``frame-ancestors``,
    ``X-Frame-Options`` (``settings.X_FRAME_OPTIONS``), on every document. A fragment htmx puts into a page, JSON, a
    picture or a file runs under the policies of the page that asked for it, or under none, and only a document can
    be framed: it carries none of these headers, which would add half a kilobyte to every save's answer. (So Django's
    clickjacking middleware, which puts its header on every answer, is not in the stack; no page may be framed, and
    its ``xframe_options_exempt`` is not honoured.) A document's policy is django-csp's, its decorators and the
    request's nonce included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        super().__init__(get_response)
        self.permissions = settings.PERMISSIONS_POLICY
        self.frame_options = settings.X_FRAME_OPTIONS

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not response.get("Content-Type", "").startswith(DOCUMENT_TYPES) or from_htmx(request):
            return response
        response.headers.setdefault("Permissions-Policy", self.permissions)
        response.headers.setdefault("X-Frame-Options", self.frame_options)
        return super().process_response(request, response)


# What the stack adds to every answer that only a body or a document needs. A 204 has neither: its Content-Type,
# Content-Length (which RFC 9110 forbids on a 204) and Content-Language describe no content; Vary and Expires matter
# only to a cache, which "no-store" keeps out; the page policies, HSTS included, come with every page the browser
# opens before it ever polls.
BODY_AND_DOCUMENT_HEADERS = (
    "Content-Type",
    "Content-Length",
    "Content-Language",
    "Vary",
    "Expires",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "Strict-Transport-Security",
    "Permissions-Policy",
    "Content-Security-Policy",
)


class LeanHeadersMiddleware:
    """Headers that say nothing a browser acts on are not sent. An answer without content (204: a poll's "nothing
    changed", a deletion through the API) goes out with "Cache-Control: no-store" only, so that no cache ever answers
    the next poll in the server's place, and whatever else its view set (a cookie, a header of its own). An answer no
    cache may keep says so in one word: "no-store" alone keeps every cache out, and the Expires beside it, for caches
    of HTTP/1.0, and the rest of Django's ``never_cache`` header add nothing. Every phone following a match asks every
    few seconds, and pages and saves carry the same headers: each one dropped here is saved hundreds of times an
    hour. First in the stack, so that it sees what every other middleware added."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        caching = response.get("Cache-Control", "")
        if response.status_code == 204:
            for name in BODY_AND_DOCUMENT_HEADERS:
                del response.headers[name]
        elif "public" in caching:
            # Only a public page to a visitor with neither an account nor a session goes to a shared cache
            # (``screens.shared``), and never one that sets a cookie (a CSRF token, a session): that answer is the
            # visitor's own. (A static file, answered before any visitor is known, is everybody's.)
            user = getattr(request, "user", None)
            if response.cookies or (user is not None and not anybody(request)):
                response.headers["Cache-Control"] = "private, no-cache"
            return response
        elif "no-store" not in caching:
            return response
        response.headers["Cache-Control"] = "no-store"
        del response.headers["Expires"]
        return response


class LazyMessagesMiddleware(MessageMiddleware):
    """Django's messages, with their storage made when a request first adds or reads one: most answers (a save's
    fragment, a poll, the API, a download) do neither, and making it reads the cookie's signing key and opens the
    session's storage for nothing. A storage nobody made has nothing to keep."""

    def process_request(self, request: HttpRequest) -> None:
        def made() -> BaseStorage:
            storage = default_storage(request)
            request.message_storage = storage  # type: ignore[attr-defined]
            return storage

        # Where Django's own middleware puts the storage, and where ``django.contrib.messages`` looks for it.
        request._messages = SimpleLazyObject(made)  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if getattr(request, "message_storage", None) is None:
            return response
        return super().process_response(request, response)


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
            try:
                forget_expired()
            except DatabaseError:
                # The database is away (the health check will say so): the cleanup waits for the next request.
                ExpiredSessionsMiddleware.next_cleanup = now
                cleanup_logger.exception("expired sessions could not be deleted")
        return self.get_response(request)


class RequestLogMiddleware:
    """One line per request on the ``scorekeeper.requests`` logger: method, path (without its query string and its
    secrets), status, duration in milliseconds and the user's id (``anonymous``, or None where the request never
    asked who it was). Static files are answered above it and leave no line; a server error's traceback is logged by
    Django itself."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        duration = round((time.perf_counter() - started) * 1000, 1)
        level = logging.ERROR if response.status_code >= 500 else logging.INFO
        if not request_logger.isEnabledFor(level):
            return response
        fields = {
            "method": request.method,
            "path": loggable_path(request),
            "status": response.status_code,
            "duration_ms": duration,
            "user": _user_of(request),
        }
        # Made here rather than by ``log``, which would walk the stack for the line that logs: it is always this one.
        record = request_logger.makeRecord(
            request_logger.name, level, __file__, 0, REQUEST_LINE, (fields,), None, extra=fields
        )
        request_logger.handle(record)
        return response


def _user_of(request: HttpRequest) -> int | str | None:
    """The account's id, or ``anonymous``; None where the request never asked who it was (the health check, a bare
    view, a file answered before any visitor is known): the line costs no query of its own. A request asked either
    by opening its session, where the account is read from, or by a token: the API's authentication then puts the
    account it found in the place of the one the session would give."""
    user = request.__dict__.get("user")
    if user is None:
        return None
    session = getattr(request, "session", None)
    if isinstance(user, SimpleLazyObject) and (session is None or not session.accessed):
        return None
    return user.pk if user.is_authenticated else "anonymous"
