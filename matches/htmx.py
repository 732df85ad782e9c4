"""Whether a request came from htmx, which asks for a fragment of a page where a browser opening the address asks for
the page: one answer to the question for every view and middleware."""

from django.http import HttpRequest


def from_htmx(request: HttpRequest) -> bool:
    """htmx sends ``HX-Request: true`` with every request it makes; a browser opening an address never does."""
    return request.META.get("HTTP_HX_REQUEST") == "true"
