"""Pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .selectors import variant_catalogue


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "matches/home.html", {"variants": variant_catalogue()})
