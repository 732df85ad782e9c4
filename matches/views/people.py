"""People: a person's record across every kind of event (one's own on "Your own statistics", anybody's where they
show it), who sees it, and the joins that make the players of several books one person, with their undoing."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from ..errors import ServiceError
from ..models import Join, Keeper, PaperLine, Person, Player, Shown
from ..paging import page_of
from ..permissions import (
    Action,
    on_player,
    on_subject,
    request_account,
    signed_in,
    signed_in_account,
)
from ..records import (
    LIST_FIELDS,
    Lists,
    chart_points,
    lists_seen,
    own_lists,
    record_chart,
    record_overview,
    record_partners,
    shown_name,
)
from ..refusals import done_or_refused, refusal_texts
from ..registry import book_names, closed_lists_label
from ..services.people import join_number, join_undo, joins_removed, person_of_account, person_shown
from ..stats import player_stats
from .common import kind_of
from .players import player_page

# The lists of a record shown at a time.
LISTS_PER_PAGE = 50


class ShownForm(forms.Form):
    shown = forms.ChoiceField(
        label=gettext_lazy("Your record is shown to"), choices=Shown.choices, widget=forms.RadioSelect
    )


def _record(request: HttpRequest, lists: Lists, *, own: bool) -> dict[str, object]:
    """What a record's page shows of ``lists``: the figures over those it sums, by kind and by year, the months, a
    page of the lists and, to the person alone (they name other people), the partners."""
    overview = record_overview(lists)
    record = overview.figures
    if not record.series:
        return {"record": None}
    by_years, points = chart_points(overview)
    return {
        "not_summed": overview.others,
        "record": record,
        "by_kind": [(closed_lists_label(kind), figures) for kind, figures in overview.by_kind],
        "by_year": overview.by_year,
        "partners": record_partners(lists) if own else [],
        "by_years": by_years,
        "months": points,
        "chart": _months_charted(points),
        "page": page_of(lists.summed, by="-sequence", after=request.GET.get("after"), size=LISTS_PER_PAGE),
    }


def _months_charted(months: Sequence[tuple[datetime.date, object]]) -> tuple[datetime.date, datetime.date] | None:
    """The first and the last month (or year) the record's chart draws; None where it draws none (fewer than two)."""
    return (months[0][0], months[-1][0]) if len(months) > 1 else None


def _chart(lists: Lists) -> HttpResponse:
    chart = record_chart(chart_points(record_overview(lists))[1])
    return HttpResponse(render_to_string("matches/chart.svg", {"chart": chart}), content_type="image/svg+xml")


def _joins(person: Person | None) -> list[Join]:
    """The last join of each of the person's players (the one an undo takes back), each with its player and the
    player's book."""
    if person is None:
        return []
    joins = Join.objects.filter(person=person, undone_at__isnull=True, player__person=person)
    latest = {join.player_id: join for join in joins.select_related("player__keeper").order_by("created_at", "pk")}
    return sorted(latest.values(), key=lambda join: (join.player.name, join.pk))


def _books(joins: Sequence[Join], account: User) -> list[tuple[Join, str]]:
    """Each join with the name of its player's book: the club's, the league's or the tournament's that keeps it,
    the account's own matches, or somebody else's (a query an app, however many joins)."""
    names = book_names(join.player.keeper_id for join in joins)

    def book(keeper: Keeper) -> str:
        if keeper.pk in names:
            return names[keeper.pk]
        return _("your own matches") if keeper.user_id == account.pk else _("somebody else's matches")

    return [(join, book(join.player.keeper)) for join in joins]


class JoinsUndoForm(forms.Form):
    """Undoing every join of an account's person, once confirmed."""

    confirm = forms.BooleanField(label=gettext_lazy("Yes, undo every join: none of these players is you any more"))


@signed_in
@require_safe
def player_me(request: HttpRequest) -> HttpResponse:
    """Your own statistics: your record across every kind of event, who sees it, the players of every book joined
    to you, and your casual matches as a player linked to your account, whoever kept them."""
    account = signed_in_account(request)
    person = Person.objects.filter(account=account).first()
    linked = list(Player.objects.filter(account=account))
    stats = [(kind_of(row.variant, row.scheme), row) for row in player_stats(linked)] if linked else []
    context: dict[str, Any] = {
        "linked": linked,
        "stats": stats,
        "paper": bool(linked) and PaperLine.objects.filter(player__in=linked).exists(),
        "person": person,
        "joins": _books(_joins(person), account),
        "every_form": JoinsUndoForm(auto_id="every_%s"),
        "shown_form": ShownForm(initial={"shown": person.shown if person is not None else Shown.PRIVATE}),
        "chart_url": reverse("player_me_chart"),
        "own": True,
    }
    context |= _record(request, own_lists(account), own=True)
    return render(request, "matches/player_me.html", context)


@never_cache
@signed_in
@require_safe
def player_me_chart(request: HttpRequest) -> HttpResponse:
    """The average per series of your closed lists month by month, as an SVG picture."""
    return _chart(own_lists(signed_in_account(request)))


@never_cache
@signed_in
@require_safe
def player_me_record(request: HttpRequest) -> HttpResponse:
    """Your whole record as a JSON file: every closed list of the players joined to you, those of a scheme the page
    does not sum included, and how each of them is joined to you."""
    account = signed_in_account(request)
    lists = own_lists(account).every.order_by("sequence", "pk")
    rows = [
        {"player": name, **{field: value for field, value in zip(LIST_FIELDS, values, strict=True)}}
        for name, *values in lists.values_list("player__name", *LIST_FIELDS).iterator()
    ]
    person = Person.objects.filter(account=account).first()
    joins = [
        {"player": join.player.name, "book": book, "how": join.how, "joined_at": join.created_at.isoformat()}
        for join, book in _books(_joins(person), account)
    ]
    response = JsonResponse(
        {"person": str(person.public_id) if person else None, "shown": person.shown if person else Shown.PRIVATE}
        | {"joins": joins, "lists": rows},
        json_dumps_params={"ensure_ascii": False},
    )
    response["Content-Disposition"] = 'attachment; filename="record.json"'
    return response


def _named(account: User) -> str:
    """What a person made before any player is joined to them is called: a player linked to the account, or the
    account's full name (never its user name: the person's name may be shown to everybody)."""
    linked = Player.objects.filter(account=account).order_by("created_at").values_list("name", flat=True).first()
    return linked or account.get_full_name()


@signed_in
@require_POST
def player_me_shown(request: HttpRequest) -> HttpResponse:
    """Who sees your record besides you."""
    account = signed_in_account(request)
    done_or_refused(
        request,
        lambda: person_shown(person=person_of_account(account, _named(account)), shown=request.POST.get("shown", "")),
        _("Saved: who sees your record."),
    )
    return redirect(reverse("player_me") + "#shown")


@signed_in
@require_POST
def player_me_joins(request: HttpRequest) -> HttpResponse:
    """Undo one join of a player to you (``join``: that player is somebody else again), or every one (``every``:
    you are split from every book, every link to your account taken back)."""
    account = signed_in_account(request)
    if request.POST.get("every"):
        if not JoinsUndoForm(request.POST).is_valid():
            messages.error(request, _("Nothing was undone: tick the box to undo every join."))
            return redirect(reverse("player_me") + "#joins")
        count = joins_removed(account=account)
        messages.success(request, _("Joins undone: %(count)s.") % {"count": count})
        return redirect("player_me")
    join = _posted_join(request, Join.objects.filter(person__account=account))
    if join is not None and done_or_refused(request, lambda: join_undo(join=join, by=account)):
        messages.success(request, _("%(name)s is no longer joined to you.") % {"name": join.player.name})
    return redirect(reverse("player_me") + "#joins")


def _posted_join(request: HttpRequest, joins: QuerySet[Join]) -> Join | None:
    """The join the form names (``join``), of ``joins``; None, said above the page, for another."""
    raw = request.POST.get("join", "")
    known = raw.isascii() and raw.isdigit() and len(raw) < 12
    join = joins.select_related("player").filter(pk=int(raw)).first() if known else None
    if join is None:
        messages.error(request, _("This join was undone or changed already."))
    return join


def _seen(request: HttpRequest, person: Person) -> Lists:
    lists = lists_seen(person, request_account(request))
    assert lists is not None  # the policy let the visitor in
    return lists


@on_subject(Action.VIEW, "person")
@require_safe
def person_detail(request: HttpRequest, person: Person) -> HttpResponse:
    """A person's record, as they show it: to everybody where they say so, else to themselves and, for their club's
    nights, to the club's members."""
    lists = _seen(request, person)
    account = request_account(request)
    context: dict[str, Any] = {
        "person": person,
        "name": shown_name(person, account),
        "own": account is not None and person.account_id == account.pk,
        "everything": person.shown != Shown.PRIVATE or (account is not None and person.account_id == account.pk),
        "chart_url": reverse("person_chart", args=[person.public_id]),
    }
    context |= _record(request, lists, own=context["own"])
    return render(request, "matches/person_detail.html", context)


@never_cache
@on_subject(Action.VIEW, "person")
@require_safe
def person_chart(request: HttpRequest, person: Person) -> HttpResponse:
    return _chart(_seen(request, person))


@on_player(Action.MANAGE)
@require_POST
def player_number(request: HttpRequest, player: Player) -> HttpResponse:
    """The keeper of a book (a club's secretary) joins one of its players to a federation number."""
    number = request.POST.get("federation_number", "")
    try:
        join_number(player=player, number=number, by=request_account(request))
    except ServiceError as error:
        refused = refusal_texts(error, request)
        return player_page(request, player, status=error.status, number_errors=refused, number_value=number)
    messages.success(request, _("%(name)s is joined to the federation number.") % {"name": player.name})
    return redirect(reverse("player_detail", args=[player.public_id]) + "#person")


@on_player(Action.MANAGE)
@require_POST
def player_join_undo(request: HttpRequest, player: Player) -> HttpResponse:
    """The keeper of a book undoes a join of one of its players (``join``)."""
    join = _posted_join(request, Join.objects.filter(player=player))
    by = request_account(request)
    if join is not None and done_or_refused(request, lambda: join_undo(join=join, by=by, keeper=player.keeper_id)):
        messages.success(request, _("%(name)s is no longer joined to that person.") % {"name": player.name})
    return redirect(reverse("player_detail", args=[player.public_id]) + "#person")
