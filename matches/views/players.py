"""Players: the list, a player's page and statistics, head-to-head, linking, merging and claiming."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ..errors import ServiceError
from ..exports.base import export_response, format_of
from ..exports.tables import PlayerStatsExport
from ..labels import (
    match_label,
)
from ..models import Join, Keeper, PaperLine, Player
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
    subject_for,
    visitor_of,
)
from ..refusals import refusal_as_messages, refusal_texts
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
    account = request_account(request)
    linked = Player.objects.filter(account=account).select_related("keeper__user").order_by("name")
    # The account's own book, where its member numbers can be brought in (a guest's book has none to bring).
    book = Keeper.objects.filter(user=account).values_list("pk", flat=True).first() if account else None
    context = {"players": page.items, "page": page, "linked": linked, "book": book}
    return render(request, "matches/player_list.html", context)


@on_player(Action.VIEW)
@require_safe
def player_export(request: HttpRequest, player: Player, fmt: str) -> HttpResponseBase:
    return export_response(PlayerStatsExport(player), format_of(fmt))


@on_player(Action.VIEW)
@require_safe
def player_detail(request: HttpRequest, player: Player) -> HttpResponse:
    return player_page(request, player)


def player_page(
    request: HttpRequest,
    player: Player,
    merge_errors: Sequence[str] = (),
    status: int = 200,
    *,
    number_errors: Sequence[str] = (),
    number_value: str = "",
) -> HttpResponse:
    """A player's page; ``merge_errors``: why the merge asked for was refused, said next to its choice;
    ``number_errors``: why joining the federation number ``number_value`` was refused, said next to it."""
    visitor = visitor_of(request)
    role = player_role(visitor, player)
    stats = [(kind_of(row.variant, row.scheme), row) for row in player_stats(player)]
    matches = [(match, match_label(match)) for match in player_matches(player)]
    context = {
        "player": player,
        "stats": stats,
        "paper": PaperLine.objects.filter(player=player).exists(),
        "matches": matches,
        "others": fellow_players(visitor, player),
        "manage": can(visitor, Action.MANAGE, player),
        "unlink": can(visitor, Action.UNLINK, player),
        "claim_url": request.build_absolute_uri(reverse("player_claim", args=[player.link_token]))
        if player.link_token and role == Role.OWNER
        else "",
        "merge_errors": merge_errors,
        "number_errors": number_errors,
        "number_value": number_value,
        "joins": Join.objects.filter(player=player, undone_at__isnull=True).order_by("-created_at", "-pk")[:1]
        if player.person_id
        else [],
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
        return player_page(request, player, [_("Choose another player of the same book.")], status=400)
    try:
        player_merge(into=player, other=other, by=request_account(request))
    except ServiceError as error:
        refusals = refusal_texts(error, request)
        return player_page(request, player, refusals, status=error.status)
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
