"""A room's screen: a public page that a television in the hall and the phones in the room keep asking every 30
seconds (``hx-trigger="every 30s"``), of every kind of event. It is answered against an ETag of the state it shows,
so that an ask that finds nothing new gets a bare 304 without the page being read or drawn: the state is whatever
the event's page counts cheaply (its versions, its tables' progress), and the ETag adds the language, the address
and whether htmx asked for the part that follows.

The public pages many people read at once (a group's table, a venue's page and screen, a tournament's live page, a
club's screen) are answered, to a visitor with neither an account nor a session, for a shared cache too
(``shared``): a reverse proxy or a CDN may answer the same address for ``SHARED_SECONDS`` to every such visitor who
asks in the same language, and ask again with the ETag after that. A signed-in visitor's page (it names them, and may
hold forms), or a scoring link's (its rights live in the session), is theirs alone; ``middleware.LeanHeadersMiddleware``
makes sure that no answer setting a cookie or going to such a visitor leaves marked for a shared cache."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable
from typing import TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from .htmx import from_htmx

Answer = TypeVar("Answer", bound=HttpResponseBase)
# How long a shared cache may show a public page to visitors without an account before asking again: a spectator's
# page and a room's screen are at most this much behind. A browser asks each time it follows (``max-age=0``), and the
# shared cache answers it, with a bare 304 where its ETag still holds.
SHARED_SECONDS = 10


def anybody(request: HttpRequest) -> bool:
    """Whether the visitor is anybody at all to the site: no account signed in and no session (a scoring link's
    rights live in one), so that what they are shown is what everybody without an account is shown."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and not request.user.is_authenticated


def shared(request: HttpRequest, response: Answer) -> Answer:
    """``response``, a public page, marked for a shared cache where it went to anybody (``anybody``), else as the
    visitor's own and asked again each time."""
    if anybody(request):
        patch_cache_control(response, public=True, max_age=0, s_maxage=SHARED_SECONDS)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response


def screen_response(request: HttpRequest, state: Hashable, draw: Callable[[bool], HttpResponse]) -> HttpResponse:
    """A 304 where the asker holds the ETag of ``state`` as shown to it, else the page ``draw`` makes (told whether
    htmx asked for the part that follows), with that ETag."""
    fragment = from_htmx(request)
    shown = repr((state, get_language(), request.get_full_path(), fragment))
    etag = quote_etag(hashlib.sha256(shown.encode()).hexdigest()[:32])
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = draw(fragment)
    response["ETag"] = etag
    patch_vary_headers(response, ["HX-Request"])
    return shared(request, response)


def followed_page(
    request: HttpRequest, state: Callable[[], Hashable], page: Callable[[], HttpResponse]
) -> HttpResponse:
    """An event's page that follows itself (htmx asks it again every 30 seconds and keeps the parts it selects): the
    page as ``page`` draws it, and, asked by htmx, a bare 304 while ``state()`` is as the asker last saw it (read only
    then: the page opened costs nothing more). The state must tell apart what differs between visitors (their
    account: a manager's page has forms a guest's has not). A visitor without an account gets the ETag with the page
    opened too, for a shared cache to ask again with."""
    if not from_htmx(request) and not anybody(request):
        return shared(request, page())
    return screen_response(request, state(), lambda fragment: page())
