"""Players: the list, a player's page and statistics, head-to-head, linking, merging and claiming."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from ..errors import ServiceError
from ..exports.base import export_response, format_of
from ..exports.tables import PlayerStatsExport
from ..labels import (
    match_label,
)
from ..models import Player
from ..paging import page_of
from ..permissions import (
    Action,
    Role,
    can,
    fellow_players,
    kept_players,
    on_player,
    player_role,
    request_account,
    signed_in,
    signed_in_account,
    subject_for,
    visitor_of,
)
from ..records import (
    LIST_FIELDS,
    own_lists,
    record_by_kind,
    record_by_year,
    record_chart,
    record_figures,
    record_months,
    record_partners,
    summed_lists,
)
from ..refusals import refusal_as_messages, refusal_texts
from ..registry import closed_lists_label
from ..services import (
    player_claim,
    player_link,
    player_link_invite,
    player_merge,
    player_unlink,
)
from ..stats import head_to_head, player_matches, player_stats
from .common import kind_of, posted_uuid

PLAYERS_PER_PAGE = 100
# The lists of a record shown at a time.
LISTS_PER_PAGE = 50


@signed_in
@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    page = page_of(kept_players(visitor_of(request)), by="name", after=request.GET.get("after"), size=PLAYERS_PER_PAGE)
    linked = Player.objects.filter(account=request_account(request)).select_related("keeper__user").order_by("name")
    context = {"players": page.items, "page": page, "linked": linked}
    return render(request, "matches/player_list.html", context)


@signed_in
@require_safe
def player_me(request: HttpRequest) -> HttpResponse:
    """Your own statistics, across every match you sat in as a player linked to your account, whoever kept it."""
    account = signed_in_account(request)
    linked = list(Player.objects.filter(account=account))
    stats = [(kind_of(row.variant, row.scheme), row) for row in player_stats(linked)] if linked else []
    context: dict[str, object] = {"linked": linked, "stats": stats}
    every = own_lists(account)
    lists = summed_lists(every)
    record = record_figures(lists) if linked else None
    if record is not None and record.series:
        page = page_of(lists, by="-sequence", after=request.GET.get("after"), size=LISTS_PER_PAGE)
        months = record_months(lists)
        context |= {
            "not_summed": every.count() - record.series,
            "record": record,
            "by_kind": [(closed_lists_label(kind), figures) for kind, figures in record_by_kind(lists)],
            "by_year": record_by_year(lists),
            "partners": record_partners(lists),
            "months": months,
            "chart": _months_charted(months),
            "page": page,
        }
    return render(request, "matches/player_me.html", context)


def _months_charted(months: Sequence[tuple[datetime.date, object]]) -> tuple[datetime.date, datetime.date] | None:
    """The first and the last month the record's chart draws; None where it draws none (fewer than two months)."""
    return (months[0][0], months[-1][0]) if len(months) > 1 else None


@never_cache
@signed_in
@require_safe
def player_me_chart(request: HttpRequest) -> HttpResponse:
    """The average per series of your closed lists month by month, as an SVG picture."""
    chart = record_chart(record_months(summed_lists(own_lists(signed_in_account(request)))))
    return HttpResponse(render_to_string("matches/chart.svg", {"chart": chart}), content_type="image/svg+xml")


@never_cache
@signed_in
@require_safe
def player_me_record(request: HttpRequest) -> HttpResponse:
    """Your whole record as a JSON file: every closed list of the players linked to your account, those of a scheme
    the page does not sum included."""
    lists = own_lists(signed_in_account(request)).order_by("sequence", "pk")
    rows = [
        {"player": name, **{field: value for field, value in zip(LIST_FIELDS, values, strict=True)}}
        for name, *values in lists.values_list("player__name", *LIST_FIELDS).iterator()
    ]
    response = JsonResponse({"lists": rows}, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = 'attachment; filename="record.json"'
    return response


@on_player(Action.VIEW)
@require_safe
def player_export(request: HttpRequest, player: Player, fmt: str) -> HttpResponseBase:
    return export_response(PlayerStatsExport(player), format_of(fmt))


@on_player(Action.VIEW)
@require_safe
def player_detail(request: HttpRequest, player: Player) -> HttpResponse:
    return _player_page(request, player)


def _player_page(
    request: HttpRequest, player: Player, merge_errors: Sequence[str] = (), status: int = 200
) -> HttpResponse:
    """A player's page; ``merge_errors``: why the merge asked for was refused, said next to its choice."""
    visitor = visitor_of(request)
    role = player_role(visitor, player)
    stats = [(kind_of(row.variant, row.scheme), row) for row in player_stats(player)]
    matches = [(match, match_label(match)) for match in player_matches(player)]
    context = {
        "player": player,
        "stats": stats,
        "matches": matches,
        "others": fellow_players(visitor, player),
        "manage": can(visitor, Action.MANAGE, player),
        "unlink": can(visitor, Action.UNLINK, player),
        "claim_url": request.build_absolute_uri(reverse("player_claim", args=[player.link_token]))
        if player.link_token and role == Role.OWNER
        else "",
        "merge_errors": merge_errors,
    }
    return render(request, "matches/player_detail.html", context, status=status)


@on_player(Action.VIEW)
def player_versus(request: HttpRequest, player: Player, other_id: uuid.UUID) -> HttpResponse:
    # Two books never share a table: a pair from two of them is no pair, whoever may see both.
    second = subject_for(visitor_of(request), Action.VIEW, "player", other_id)
    if second.keeper_id != player.keeper_id:
        raise Http404
    kinds = [
        {
            "kind": kind_of(row.variant, row.scheme),
            "row": row,
            "first": row.totals[player.pk],
            "second": row.totals[second.pk],
        }
        for row in head_to_head(player, second)
    ]
    context = {"first": player, "second": second, "kinds": kinds}
    return render(request, "matches/player_versus.html", context)


@on_player(Action.UNLINK)
@require_POST
def player_link_view(request: HttpRequest, player: Player) -> HttpResponse:
    """Link a player to your own account, invite the person to link theirs, or take the link away."""
    action = request.POST.get("action", "")
    visitor = visitor_of(request)
    account = request_account(request)
    try:
        if action == "unlink":
            player_unlink(player=player)
        elif action == "me" and account is not None and can(visitor, Action.MANAGE, player):
            player_link(player=player, account=account)
        elif action == "invite" and can(visitor, Action.MANAGE, player):
            player_link_invite(player=player)
    except ServiceError as error:
        refusal_as_messages(request, error)
    if action == "unlink" and not can(visitor, Action.VIEW, player):
        return redirect("player_list")
    return redirect("player_detail", player_id=player.public_id)


@on_player(Action.MANAGE)
@require_POST
def player_merge_view(request: HttpRequest, player: Player) -> HttpResponse:
    chosen = posted_uuid(request, "other")
    other = fellow_players(visitor_of(request), player).filter(public_id=chosen).first() if chosen else None
    if other is None:
        return _player_page(request, player, [_("Choose another player of the same book.")], status=400)
    try:
        player_merge(into=player, other=other)
    except ServiceError as error:
        refusals = refusal_texts(error, request)
        return _player_page(request, player, refusals, status=error.status)
    merged = {"other": other.name, "player": player.name}
    messages.success(request, _("%(other)s is now part of %(player)s.") % merged)
    return redirect("player_detail", player_id=player.public_id)


@signed_in
def player_claim_view(request: HttpRequest, token: str) -> HttpResponse:
    """A link invitation to a player: signed in, confirm that this player is you."""
    player = Player.objects.filter(link_token=token).select_related("keeper__user").first()
    if request.method == "POST" and player is not None:
        account = request_account(request)
        assert account is not None
        try:
            player_claim(token=token, account=account)
        except ServiceError as error:
            refusal_as_messages(request, error)
            return redirect("player_list")
        messages.success(request, _("%(name)s is linked to your account.") % {"name": player.name})
        return redirect("player_me")
    return render(request, "matches/player_claim.html", {"player": player}, status=200 if player else 410)
