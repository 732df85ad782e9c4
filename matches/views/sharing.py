"""Sharing a match: the invite link, the spectators' page, the links and the co-scorers."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from ..errors import ServiceError
from ..following import unchanged
from ..htmx import from_htmx
from ..models import Match, PaperLine
from ..permissions import (
    LINKS_SESSION_KEY,
    Action,
    match_by_link,
    on_match,
    public,
    request_account,
    version_by_share_link,
)
from ..refusals import refusal_as_messages
from ..registry import gone_invite_page, table_place
from ..selectors import (
    games_page,
    match_sheet,
)
from ..services import (
    match_link_renew,
    match_scorer_join,
    match_scorer_remove,
)
from .common import STOP_POLLING, match_labels
from .matches import RECENT_GAMES, SHEET_PAGE, chart_answer


@public
def match_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: an account joins as co-scorer; without an account the link itself lets this browser score.
    A link that opens no match any more may be known to an app on the core, which says why (a closed club night)."""
    try:
        match = match_by_link("invite", token)
    except Http404:
        gone = gone_invite_page(request, token)
        if gone is None:
            raise
        return gone
    if request.method == "POST":
        account = request_account(request)
        if account is not None:
            try:
                match_scorer_join(match=match, user=account)
            except ServiceError as error:
                refusal_as_messages(request, error)
        else:
            links = dict(request.session.get(LINKS_SESSION_KEY, {}))
            links[str(match.public_id)] = token
            request.session[LINKS_SESSION_KEY] = links
        return redirect("match_detail", match_id=match.public_id)
    return render(request, "matches/join.html", {"match": match, **match_labels(match)})


def ended_link_page(request: HttpRequest, token: str) -> HttpResponse | None:
    """What a table's scoring link opens once the event that drew the table closed its list (a league's venue, a
    tournament's series) or its list was entered on paper: that the list is closed (or kept on paper), at which
    event's table, and where the results are. 410: the link
    is gone for good. None for a link no closed list had (or one whose list was opened again)."""
    match = Match.objects.filter(ended_link=token, locked=True).first() if token else None
    if match is None:
        return None
    paper = PaperLine.objects.filter(match=match).exists()
    context = {"match": match, "place": table_place(match), "paper": paper}
    # A save from the table's phone gets the form's place, the page the whole page.
    template = "matches/partials/_link_ended.html" if from_htmx(request) else "matches/link_ended.html"
    response = render(request, template, context, status=410)
    patch_vary_headers(response, ("HX-Request",))
    return response


@public
@vary_on_headers("HX-Request")
@require_safe
def match_spectate(request: HttpRequest, token: str) -> HttpResponse:
    """The spectators' page; it polls with the version it shows and gets 204 while nothing changed."""
    if from_htmx(request):
        # Every open spectator page asks every few seconds, and nearly always nothing changed: the version is all
        # that answer needs, not the whole match.
        version = version_by_share_link(token)
        if version is None:
            # The link was renewed or turned off: say so where the sheet was; the notice does not poll.
            return render(request, "matches/partials/_link_gone.html", status=STOP_POLLING)
        if request.GET.get("version") == str(version):
            return unchanged()
    match = match_by_link("share", token)
    context = {
        "match": match,
        "sheet": match_sheet(match, last=RECENT_GAMES),
        "share_token": token,
        **match_labels(match),
    }
    template = "matches/partials/_spectator.html" if from_htmx(request) else "matches/spectate.html"
    return render(request, template, context)


@public
@require_safe
def match_spectate_chart(request: HttpRequest, token: str) -> HttpResponse:
    return chart_answer(request, match_by_link("share", token))


@public
@require_safe
def match_spectate_games(request: HttpRequest, token: str) -> HttpResponse:
    """Earlier games for spectators, a page at a time, as the scorers' list of all games."""
    match = match_by_link("share", token)
    sheet, page = games_page(match, after=request.GET.get("after"), size=SHEET_PAGE)
    context = {"match": match, "sheet": sheet, "page": page, "share_token": token, **match_labels(match)}
    return render(request, "matches/match_games.html", context)


@on_match(Action.MANAGE)
@require_POST
def match_links(request: HttpRequest, match: Match) -> HttpResponse:
    """Give a link a new address, or turn it off: whoever holds the old one loses access."""
    link = request.POST.get("link", "")
    try:
        match_link_renew(
            match=match, link=link, revoke=request.POST.get("action") == "revoke", user=request_account(request)
        )
    except ServiceError as error:
        refusal_as_messages(request, error)
    else:
        messages.success(request, _("The link was changed: the old one no longer works."))
    return redirect("match_share", match_id=match.public_id)


@on_match(Action.MANAGE)
@require_POST
def match_scorer_remove_view(request: HttpRequest, match: Match) -> HttpResponse:
    """Take a co-scorer's access away (the invite link, renewed, keeps others from joining again)."""
    name = request.POST.get("scorer", "")
    # PostgreSQL compares no text with a NUL in it: such a name is nobody's.
    scorer = None if "\x00" in name else match.scorers.filter(username=name).first()
    if scorer is not None:
        try:
            match_scorer_remove(match=match, scorer=scorer, user=request_account(request))
        except ServiceError as error:
            refusal_as_messages(request, error)
        else:
            messages.success(request, _("%(name)s can no longer score this match.") % {"name": scorer.username})
    return redirect("match_share", match_id=match.public_id)
