"""The benchmark's URLs: the project's, and a bare view that every figure against "bare view" is measured against.

The bare view goes through the same middleware as every page and does nothing else, so a ratio to it says what a
page costs on top of Django itself. Only ``make bench`` uses this module (as ``ROOT_URLCONF``).
"""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

BARE_PATH = "/bench/bare/"


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [
    path(BARE_PATH.strip("/") + "/", bare, name="bench_bare"),
    path("", include("scorekeeper.urls")),
]
