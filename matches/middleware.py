"""Pages answer a refused visitor in one way: somebody without an account is asked to log in, everybody else is told
that the thing does not exist (so a stranger never learns that a match is there). A request from a page's script
(htmx, the outbox) is not sent to the log-in page: it gets 401, so that it cannot mistake that page for its answer."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.views.defaults import page_not_found

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
