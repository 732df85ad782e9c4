"""A knockout's pages: its results with its tables (their scoring links as QR codes for its organiser), followed by
htmx with a bare 304 while nothing changed; and a table's paper list, entered through the core's page."""

from __future__ import annotations

from collections.abc import Hashable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from matches.models import Match
from matches.permissions import Action, allowed, on_subject, signed_in, signed_in_account, visitor_of
from matches.qr import table_join
from matches.screens import followed_page
from matches.services.paper import PaperTotals, TableVersion
from matches.views.paper import PaperTable, paper_page

from . import services
from .models import Knockout, KnockoutStanding, KnockoutTable


def _url(knockout: Knockout) -> str:
    return reverse("knockout", args=[knockout.public_id])


def _state(knockout: Knockout, request: HttpRequest) -> Hashable:
    """What the page shows, counted cheaply: the knockout's version and its tables' matches' versions."""
    versions = Match.objects.filter(knockout_table__knockout=knockout).order_by("pk").values_list("version", flat=True)
    version = Knockout.objects.filter(pk=knockout.pk).values_list("version", flat=True).get()
    return (version, tuple(versions), request.user.pk)


@on_subject(Action.VIEW, "knockout")
@require_safe
def knockout_detail(request: HttpRequest, knockout: Knockout) -> HttpResponse:
    """The knockout's results and tables; asked again by its follow, a bare 304 while nothing it shows moved."""

    def page() -> HttpResponse:
        visitor = visitor_of(request)
        shares = allowed(visitor, Action.SHARE, knockout)
        tables = KnockoutTable.objects.filter(knockout=knockout).select_related("match").order_by("series", "number")
        standings = KnockoutStanding.objects.filter(knockout=knockout).select_related("player")
        context = {
            "knockout": knockout,
            "scores": allowed(visitor, Action.SCORE, knockout),
            "tables": [
                {
                    "table": table,
                    "join": table_join(request, table.match.invite_token, offered=shares and not table.paper),
                    "players": [seat.player.name for seat in table.match.seats.select_related("player")],
                }
                for table in tables
            ],
            "standings": standings.order_by("-game_points", "player__name"),
        }
        return render(request, "knockout/detail.html", context)

    return followed_page(request, lambda: _state(knockout, request), page)


@on_subject(Action.SCORE, "knockout")
def knockout_paper(request: HttpRequest, knockout: Knockout, series: int, number: int) -> HttpResponse:
    """A table's paper list: each player's game points, won and lost games."""
    table = KnockoutTable.objects.filter(knockout=knockout, series=series, number=number).select_related("match")
    found = table.first()
    if found is None:
        raise Http404
    paper = PaperTable(found.match, series, number, knockout.name, "base.html", _url(knockout), knockout.name)

    def enter(lines: list[PaperTotals], version: TableVersion | None) -> None:
        services.table_paper_enter(table=found, lines=lines, user=signed_in_account(request), version=version)

    return paper_page(request, paper, enter=enter, done=_url(knockout))


@signed_in
@require_safe
def knockout_list(request: HttpRequest) -> HttpResponse:
    """The knockouts the visitor organises."""
    knockouts = Knockout.objects.filter(organiser=signed_in_account(request)).order_by("name")
    return render(request, "knockout/list.html", {"knockouts": knockouts})


urlpatterns = [
    path("knockouts/", knockout_list, name="knockouts"),
    path("knockouts/<uuid:knockout_id>/", knockout_detail, name="knockout"),
    path(
        "knockouts/<uuid:knockout_id>/series/<int:series>/tables/<int:number>/paper/",
        knockout_paper,
        name="knockout_paper",
    ),
]
