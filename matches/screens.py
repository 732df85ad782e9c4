"""A room's screen: a public page that a television in the hall and the phones in the room keep asking every 30
seconds (``hx-trigger="every 30s"``), of every kind of event. It is answered against an ETag of the state it shows,
so that an ask that finds nothing new gets a bare 304 without the page being read or drawn: the state is whatever
the event's page counts cheaply (its versions, its tables' progress), and the ETag adds the language, the address
and whether htmx asked for the part that follows."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from .htmx import from_htmx


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
    # Asked again every time: a screen may show what it holds only once the server said it is still so.
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    return response


def followed_page(
    request: HttpRequest, state: Callable[[], Hashable], page: Callable[[], HttpResponse]
) -> HttpResponse:
    """An event's page that follows itself (htmx asks it again every 30 seconds and keeps the parts it selects): the
    page as ``page`` draws it, and, asked by htmx, a bare 304 while ``state()`` is as the asker last saw it (read only
    then: the page opened costs nothing more). The state must tell apart what differs between visitors (their
    account: a manager's page has forms a guest's has not)."""
    if not from_htmx(request):
        return page()
    return screen_response(request, state(), lambda fragment: page())
