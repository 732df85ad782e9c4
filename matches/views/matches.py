"""The home page, starting a match, the match page and its live parts, and a match's files (chart, exports, print)."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from ..engine import (
    EntryShape,
    Scheme,
    find_variant,
    shape_of,
)
from ..engine.entry import BY_VALUE
from ..engine.presets import PRESETS
from ..errors import ServiceError
from ..exports.base import export_response, format_of
from ..exports.pdf import game_list_pdf, match_header, pdf_response
from ..exports.picture import match_picture, picture_response
from ..exports.tables import MatchExport
from ..following import csrf_cookie_kept, unchanged
from ..forms.games import BY_VALUE_MODE, FULL_MODE, GameForm, NextEntry
from ..forms.matches import MatchForm
from ..game_lists import game_list
from ..htmx import from_htmx
from ..labels import (
    change_text,
    match_label,
    preset_label,
    rules_in_force,
    scheme_label,
    step_back_label,
)
from ..models import Match, MatchEvent
from ..paging import page_of
from ..permissions import (
    GUEST_SESSION_KEY,
    Action,
    access,
    guest_key_of,
    kept_players,
    on_match,
    public,
    request_account,
    visible_matches,
    visitor_of,
)
from ..preferences import deck_of
from ..selectors import (
    Sheet,
    added_since,
    games_page,
    match_chart,
    match_sheet,
    redoable,
    seats_of,
    undoable,
)
from ..services import (
    guest_keeper,
    guest_keeper_drop,
    match_create,
)
from .accounts import keep_guest
from .common import kind_labels, kind_of, match_labels, posted_int

RECENT_GAMES = 50  # the match page shows the latest games; the rest are a page away


SHEET_PAGE = 50


MATCHES_PER_PAGE = 50  # the home page's matches, latest played first


@public
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    visitor = visitor_of(request)
    keep_guest(request, visitor)
    page = page_of(
        visible_matches(visitor).prefetch_related("seats__player"),
        by="-updated_at",
        after=request.GET.get("after"),
        size=MATCHES_PER_PAGE,
    )
    shown = [
        {
            "match": match,
            "label": match_label(match),
            "kind": kind_of(match.variant, match.scheme),
            "standings": list(zip(match.seats.all(), match.totals, strict=False)),
        }
        for match in page.items
    ]
    context = {
        "matches": shown,
        "page": page,
        "guest": visitor.guest is not None,
    }
    return render(request, "matches/home.html", context)


@public
def match_new(request: HttpRequest) -> HttpResponse:
    """Start a match, with an account or without one (then it goes into this browser's guest's book)."""
    preset = PRESETS.get(request.GET.get("preset") or request.POST.get("preset") or "")
    if preset is None:
        presets = [(key, preset_label(key)) for key in PRESETS]
        return render(request, "matches/match_presets.html", {"presets": presets})
    known = list(kept_players(visitor_of(request)).values_list("name", flat=True))
    form = MatchForm(request.POST or None, preset=preset, known_players=known)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        names = form.player_names()
        account = request_account(request)
        held = guest_key_of(request)
        keeper = None if account is not None else guest_keeper(held)
        try:
            match = match_create(
                owner=account,
                keeper=keeper,
                variant=preset.variant.value,
                scheme=data["scheme"],
                rules=form.rules(),
                player_names=names,
                first_dealer=data["first_dealer"] or 0,
                title=data["title"],
                preset=preset.key,
                planned_games=data["planned_games"] or preset.series.get(len(names)),
                token=data["token"],
            ).match
        except ServiceError as error:
            form.add_service_errors(error)
            if keeper is not None and held is None:
                guest_keeper_drop(keeper)  # a guest's book started for a match that was refused holds nothing
        else:
            if account is None and match.keeper.guest_key is not None:
                # The book of the match, also when a retry found the match its first post started (and the first
                # answer, with the book's key, was lost on the way).
                request.session[GUEST_SESSION_KEY] = str(match.keeper.guest_key)
                if keeper is not None and held is None and keeper.pk != match.keeper_id:
                    guest_keeper_drop(keeper)
            return redirect("match_detail", match_id=match.public_id)
    context = {"form": form, "preset": preset, "preset_label": preset_label(preset.key)}
    return render(request, "matches/match_new.html", context, status=400 if form.errors else 200)


def _game_form(request: HttpRequest, match: Match, sheet: Sheet) -> GameForm:
    """A fresh form for the next deal, with the last game's contract preselected."""
    initial = _next_initial(request, match, sheet)
    return GameForm(shape=sheet.next.shape, seats=sheet.names, deck=deck_of(request), initial=initial)


def _next_entry(request: HttpRequest, match: Match, sheet: Sheet) -> NextEntry:
    """What a phone keeping its fields needs for the next deal: what ``_game_form`` would start with."""
    initial = _next_initial(request, match, sheet)
    return NextEntry.of(shape=sheet.next.shape, seats=sheet.names, deck=deck_of(request), initial=initial)


def _next_initial(request: HttpRequest, match: Match, sheet: Sheet) -> dict[str, Any]:
    """The next deal's entry starts with the last game's contract preselected, and by value if it was so entered."""
    shape = sheet.next.shape
    initial: dict[str, Any] = {"number": sheet.next_number, "version": match.version}
    last = sheet.rows[-1].game.contract if sheet.rows else None
    if last is not None and last in shape.contracts and last != "ramsch":
        initial["contract"] = last
    if last == BY_VALUE and shape.by_value:
        initial["mode"] = BY_VALUE_MODE  # the table enters by value: the next game starts there too
    return initial | asked_mode(request, shape)


def asked_mode(request: HttpRequest, shape: EntryShape) -> dict[str, str]:
    """The entry a page asked for (``?entry=value`` or ``?entry=full``), where the table offers both."""
    asked = request.GET.get("entry")
    return {"mode": asked} if shape.by_value and asked in (BY_VALUE_MODE, FULL_MODE) else {}


def posted_game_form(request: HttpRequest, match: Match, seats: list[str]) -> GameForm:
    """A posted game, read as the deal it was made for (its ``number``), so that a retry finds its fields although
    the deal moved on."""
    number = posted_int(request, "number") or match.deals + 1
    return GameForm(request.POST, shape=shape_of(match.setup(), number), seats=seats, deck=deck_of(request))


def live_context(
    request: HttpRequest,
    match: Match,
    form: GameForm | None = None,
    sheet: Sheet | None = None,
    *,
    made: MatchEvent | None = None,
    fields_kept: bool = False,
) -> dict[str, Any]:
    """What the live part of the match page shows (the whole page adds ``match_labels``). ``made``: the change this
    request just made, which is the one to undo, and there is nothing to redo (a redo takes back an undo only until
    the next change). ``fields_kept``: the phone keeps its entry's fields for the next deal, which needs only
    ``next_entry`` instead of a form."""
    sheet = sheet or match_sheet(match, last=RECENT_GAMES, refresh=False)
    allowed = access(visitor_of(request), match)
    deck = deck_of(request)
    context: dict[str, Any] = {"match": match, "sheet": sheet, "access": allowed, **kind_labels(match)}
    if allowed.can_score:
        undo = made or undoable(match)
        redo = None if made else redoable(match)
        kontra = match.setup().spec.kontra
        context |= {
            "pass_token": uuid.uuid4(),
            "undo_token": uuid.uuid4(),
            "redo_token": uuid.uuid4(),
            "undo": undo,
            "undo_label": step_back_label(undo, redo=False),
            "undo_text": change_text(undo, sheet.names, deck, kontra) if undo else "",
            "redo": redo,
            "redo_label": step_back_label(redo.undo_of if redo else None, redo=True),
            "redo_text": change_text(redo.undo_of, sheet.names, deck, kontra) if redo and redo.undo_of else "",
        }
        if fields_kept:
            context["next_entry"] = _next_entry(request, match, sheet)
        else:
            context["form"] = form or _game_form(request, match, sheet)
    return context


@never_cache
@vary_on_headers("HX-Request")
@on_match(Action.VIEW)
@require_safe
@csrf_cookie_kept
def match_detail(request: HttpRequest, match: Match) -> HttpResponse:
    keep_guest(request, visitor_of(request))
    context = live_context(request, match)
    if from_htmx(request) and "form" in context:
        # The other entry, asked for by the link at the form's foot: the form alone.
        return render(request, "matches/partials/_form.html", context)
    context |= match_labels(match)
    scheme = request.GET.get("scheme")
    spec = find_variant(match.variant)
    if spec is not None and scheme in {s.value for s in spec.schemes} and scheme != match.scheme:
        context["what_if"] = match_sheet(match, scheme=scheme)
        context["what_if_name"] = scheme_label(Scheme(scheme))
    return render(request, "matches/match_detail.html", context)


@never_cache
@vary_on_headers("HX-Request")
@on_match(Action.VIEW)
@require_safe
def match_share(request: HttpRequest, match: Match) -> HttpResponse:
    """The match's rules, "what if", links, downloads and sharing: the part of the match page loaded when it is
    scrolled to, or a page of their own (without a script, and where managing a link leads back to)."""
    context: dict[str, Any] = {
        "match": match,
        "access": access(visitor_of(request), match),
        "rules": rules_in_force(match),
        **match_labels(match),
    }
    if context["access"].can_manage:
        context["scorers"] = list(match.scorers.order_by("username"))
    if from_htmx(request):
        return render(request, "matches/partials/_share_tools.html", context)
    # On a page of its own, the standings to share as text are the page's (on the match page they are the totals').
    context["sheet"] = match_sheet(match, last=0)
    return render(request, "matches/match_share.html", context)


@never_cache
@on_match(Action.VIEW)
@require_safe
@csrf_cookie_kept
def match_follow(request: HttpRequest, match: Match) -> HttpResponse:
    """What a scorer's page asks every few seconds: nothing (204) while the match is at the version it shows;
    otherwise the totals, the next deal and the list as they stand, in place. The form is left as it is: a game
    being entered is not lost, and saving it against a deal another phone entered is refused with the reason."""
    shown = request.GET.get("version", "")
    if shown == str(match.version):
        return unchanged()
    # Mostly another phone saved the next game: that row is all the list needs, as after a save on this phone.
    added = added_since(match, int(shown)) if shown.isascii() and shown.isdigit() and len(shown) < 10 else None
    if added is not None:
        sheet = match_sheet(match, last=1, refresh=False)
        row = sheet.rows[-1] if sheet.rows else None
        if row is not None and row.game.pk == added and row.number > 1:
            context = live_context(request, match, sheet=sheet) | {"new_row": row}
            return render(request, "matches/partials/_followed.html", context)
    return render(request, "matches/partials/_followed.html", live_context(request, match))


@never_cache
@on_match(Action.VIEW)
@require_safe
def match_games(request: HttpRequest, match: Match) -> HttpResponse:
    """The whole list, a page at a time, from the latest games back."""
    sheet, page = games_page(match, after=request.GET.get("after"), size=SHEET_PAGE)
    context = {
        "match": match,
        "sheet": sheet,
        "page": page,
        "access": access(visitor_of(request), match),
        **match_labels(match),
    }
    return render(request, "matches/match_games.html", context)


def chart_answer(request: HttpRequest, match: Match) -> HttpResponse:
    """The running totals as an SVG picture; its address names the match version, so it is drawn once per change."""
    chart = match_chart(match, seats_of(match))
    response = HttpResponse(render_to_string("matches/chart.svg", {"chart": chart}), content_type="image/svg+xml")
    if request.GET.get("v") == str(match.version):
        response["Cache-Control"] = "private, max-age=31536000, immutable"
    return response


@on_match(Action.VIEW)
@require_safe
def match_chart_svg(request: HttpRequest, match: Match) -> HttpResponse:
    return chart_answer(request, match)


@on_match(Action.VIEW)
@require_safe
def match_export(request: HttpRequest, match: Match, fmt: str) -> HttpResponseBase:
    """The match's list as a file: CSV (comma or semicolon), XLSX, ODS or JSON."""
    return export_response(MatchExport(match, seats_of(match), deck_of(request)), format_of(fmt))


@on_match(Action.VIEW)
@require_safe
def match_picture_png(request: HttpRequest, match: Match) -> HttpResponseBase:
    """The totals as a picture to send to a group chat."""
    return picture_response(request, match_picture(match))


@on_match(Action.VIEW)
@require_safe
def match_print(request: HttpRequest, match: Match) -> HttpResponse:
    """The match's list to print (PDF), as the table would have kept it on paper."""
    seats = seats_of(match)
    games = game_list(match, seats)
    header = match_header(match, games.names)
    return pdf_response(game_list_pdf(games, header, deck_of(request)), match_label(match))
