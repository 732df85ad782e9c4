"""The files of an event's lists, for every kind of event under one pattern of addresses: a kind registers each list
it offers (``Download``: the thing it is a list of, its name, who may have it, how it is written as a file and as a
printed page), and the core answers ``/files/<thing>/<id>/<name>.<format>`` (``<name>/<part>.<format>`` for a list of
a part of the thing, such as a tournament's series) in every format the core writes (CSV, CSV with semicolons, XLSX,
ODS, JSON) and as PDF, after the same permission check as the thing's page. A page offers them all with
``{% downloads %}``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import URLPattern, path
from django.views.decorators.http import require_safe

from .exports.base import Exporter, export_response, format_of
from .exports.pdf import pdf_response
from .permissions import Action, on_subject

PDF = "pdf"


class Printed(NamedTuple):
    """A list's printed page: the PDF and the file's name (without its ending)."""

    content: bytes
    name: str


@dataclass(frozen=True)
class Download:
    """A list of ``subject`` (a permission policy's subject: ``night``, ``group``, ``tournament``) offered as files
    under ``name``: ``export`` writes it for a file in any format, ``printed`` for paper; both get the thing and, for
    a list ``parted`` (one of each series), the part asked for, else None (and what it takes of the ``query``, by
    name). ``action``: what the visitor must be allowed on the thing."""

    subject: str
    name: str
    export: Callable[[Any, int | None], Exporter]
    printed: Callable[[Any, int | None], Printed]
    action: Action = Action.VIEW
    parted: bool = False
    # What the list takes from the address's query besides its part (a ranking list's earlier edition: ``edition``),
    # each passed to ``export`` and ``printed`` by its name, as asked (None where it is not).
    query: tuple[str, ...] = ()

    @property
    def route(self) -> str:
        """The name of its address (``{% url %}`` takes the thing's id, the part where it has one, and the format)."""
        return f"download-{self.subject}-{self.name}"


_DOWNLOADS: dict[str, Download] = {}


def register_download(download: Download) -> None:
    if download.route in _DOWNLOADS:
        raise ValueError(f"Two downloads are registered as {download.route}.")
    _DOWNLOADS[download.route] = download


def _view(offered: Download) -> Callable[..., HttpResponseBase]:
    @on_subject(offered.action, offered.subject)
    @require_safe
    def download(request: HttpRequest, thing: Any, fmt: str, part: int | None = None) -> HttpResponseBase:
        """The list of the thing as a file in ``fmt``, or printed (``pdf``); 404 for a format it is not written in."""
        asked = {name: request.GET.get(name) for name in offered.query}
        if fmt == PDF:
            content, name = offered.printed(thing, part, **asked)
            return pdf_response(content, name)
        return export_response(offered.export(thing, part, **asked), format_of(fmt))

    return download


def download_urlpatterns() -> list[URLPattern]:
    """The address of every registered list."""
    found = []
    for route, offered in _DOWNLOADS.items():
        place = f"files/{offered.subject}/<uuid:{offered.subject}_id>/{offered.name}"
        place += "/<int:part>.<slug:fmt>" if offered.parted else ".<slug:fmt>"
        found.append(path(place, _view(offered), name=route))
    return found
