"""Pages: thin adapters over the services and selectors, htmx-aware; every form also works as a plain post.

Who may open a page is declared on it (``permissions.on_match`` and friends) and decided by ``permissions``; a
refusal of a service comes back as a ``ServiceError`` and is shown next to its field or above the form.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from .engine import (
    DealEntry,
    EntryShape,
    RuleError,
    Scheme,
    ScoredDeal,
    describe,
    find_variant,
    game_from_data,
    score_deal,
    score_next,
    shape_of,
)
from .engine.entry import BY_VALUE
from .engine.presets import PRESETS
from .errors import Invalid, ServiceError
from .exports.base import export_response, format_of
from .exports.pdf import game_list_pdf, match_header, pdf_response
from .exports.picture import match_picture, picture_response
from .exports.tables import MatchExport, PlayerStatsExport
from .following import csrf_cookie_kept, unchanged
from .forms import BY_VALUE_MODE, FULL_MODE, GameForm, MatchForm, SignupForm, initial_from
from .labels import (
    contract_label,
    match_label,
    preset_label,
    render_step,
    rules_in_force,
    scheme_label,
    variant_label,
)
from .models import Deck, Game, Match, MatchEvent, Player, Profile, Seat
from .permissions import (
    GUEST_SESSION_KEY,
    LINKS_SESSION_KEY,
    Action,
    Denied,
    Role,
    Visitor,
    access,
    can,
    fellow_players,
    guest_key_of,
    kept_players,
    match_by_link,
    on_match,
    on_player,
    player_role,
    public,
    signed_in,
    subject_for,
    version_by_share_link,
    visible_matches,
    visitor_of,
)
from .preferences import DECK_SESSION_KEY, deck_of
from .registry import gone_invite_page
from .selectors import (
    BadPlace,
    Sheet,
    SheetRow,
    added_since,
    checkpoint_before,
    game_list,
    guest_match_count,
    head_to_head,
    match_chart,
    match_sheet,
    page_of,
    player_matches,
    player_stats,
    redoable,
    seats_of,
    sheet_after,
    sheet_row,
    undoable,
)
from .services import (
    Added,
    GameGone,
    Submission,
    game_add,
    game_delete,
    game_edit,
    game_replay,
    guest_keeper,
    guest_keeper_drop,
    keeper_claim,
    match_create,
    match_link_renew,
    match_links_claim,
    match_redo,
    match_scorer_join,
    match_scorer_remove,
    match_undo,
    player_claim,
    player_link,
    player_link_invite,
    player_merge,
    player_unlink,
)

RECENT_GAMES = 50  # the match page shows the latest games; the rest are a page away
SHEET_PAGE = 50
HISTORY_PAGE = 50
MATCHES_PER_PAGE = 50  # the home page's matches, latest played first
PLAYERS_PER_PAGE = 100
STOP_POLLING = 286  # "nothing more to follow": the answer takes the polling element's place, and the polling ends


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _account(request: HttpRequest) -> User | None:
    user = request.user
    return user if user.is_authenticated and isinstance(user, User) else None


def _posted_uuid(request: HttpRequest, name: str = "token") -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get(name, ""))
    except ValueError:
        return None


def _posted_int(request: HttpRequest, name: str) -> int | None:
    value = request.POST.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


def _report(request: HttpRequest, error: RuleError) -> None:
    """A refusal as messages above the page (for actions without a form of their own)."""
    for problem in error.errors:
        messages.error(request, render_step(problem.message, deck_of(request)))


def _names(match: Match) -> list[str]:
    return [seat.player.name for seat in seats_of(match)]


# --- Home, accounts, preferences -----------------------------------------------------------------------------------


@public
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    visitor = visitor_of(request)
    _keep_guest(request, visitor)
    try:
        page = page_of(
            visible_matches(visitor).prefetch_related("seats__player"),
            by="-updated_at",
            after=request.GET.get("after"),
            size=MATCHES_PER_PAGE,
        )
    except BadPlace:
        raise Http404 from None
    shown = [
        {
            "match": match,
            "label": match_label(match),
            "kind": _kind(match.variant, match.scheme),
            "standings": list(zip(match.seats.all(), match.totals, strict=False)),
        }
        for match in page.items
    ]
    context = {
        "matches": shown,
        "older": page.after,
        "paged": bool(request.GET.get("after")),
        "guest": visitor.guest is not None,
    }
    return render(request, "matches/home.html", context)


@public
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        Profile.objects.create(user=user)
        login(request, user, backend="matches.backends.AccountBackend")
        target = request.GET.get("next", "")
        if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
            return redirect(target)
        return redirect("match_new")
    return render(request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")})


def _keep_guest(request: HttpRequest, visitor: Visitor) -> None:
    """A guest's book lives as long as the session that holds its key: each visit keeps the session for another
    full term, so that a book in use every week does not expire."""
    if visitor.guest is not None:
        request.session.modified = True


def take_along(sender: object, request: HttpRequest | None, user: User, **kwargs: object) -> None:
    """On logging in (signing up logs in too): what this browser kept without an account comes along: the guest's
    book becomes the account's, and the invite links it held make the account a co-scorer of those matches."""
    if request is None:
        return
    key = request.session.pop(GUEST_SESSION_KEY, None)
    kept = guest_match_count(key)
    keeper_claim(key=key, user=user)
    if kept:
        message = ngettext(
            "The match started in this browser is kept in your account.",
            "The %(count)d matches started in this browser are kept in your account.",
            kept,
        ) % {"count": kept}
        messages.success(request, message, fail_silently=True)
    links = request.session.pop(LINKS_SESSION_KEY, {})
    if isinstance(links, dict):
        match_links_claim(links=links, user=user)


def _back_to(request: HttpRequest, target: str) -> str:
    """``target`` if it is a page of this site (over HTTPS if this request came so), else the home page."""
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return reverse("home")
    return target


@public
@require_safe
def preferences(request: HttpRequest) -> HttpResponse:
    """The language and the suit names, chosen on a page of their own (linked at the bottom of every page); each
    choice leads back to the page the visitor came from (``next``)."""
    return render(request, "matches/preferences.html", {"next": _back_to(request, request.GET.get("next", ""))})


@public
@require_POST
def set_deck(request: HttpRequest) -> HttpResponseRedirect:
    """French or German suit names: kept in the profile, or for a visitor (a spectator) in the session."""
    deck = request.POST.get("deck", Deck.FRENCH)
    account = _account(request)
    if deck in Deck.values:
        if account is not None:
            Profile.objects.update_or_create(user=account, defaults={"deck": deck})
        else:
            request.session[DECK_SESSION_KEY] = deck
    return HttpResponseRedirect(_back_to(request, request.POST.get("next", "")))


# --- Starting a match ----------------------------------------------------------------------------------------------


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
        account = _account(request)
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
            )
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


# --- The match page and entering games -----------------------------------------------------------------------------


def _kind(variant: str, scheme: str) -> str:
    """ "Skat · Seeger-Fabian": what a record counts, for statistics kept apart by variant and scheme."""
    return f"{variant_label(variant)} · {scheme_label(scheme)}"


def _kind_labels(match: Match) -> dict[str, Any]:
    """The variant and the scheme, as the status line names them."""
    return {"variant_name": variant_label(match.variant), "scheme_name": scheme_label(match.scheme)}


def _labels(match: Match) -> dict[str, Any]:
    """What a whole page says about the match: its name, its kind, and the other schemes it can be seen under."""
    spec = find_variant(match.variant)
    schemes = [(s.value, scheme_label(s)) for s in spec.schemes if s.value != match.scheme] if spec else []
    return {"match_name": match_label(match), **_kind_labels(match), "schemes": schemes}


def _game_form(request: HttpRequest, match: Match, sheet: Sheet) -> GameForm:
    """A fresh form for the next deal, with the last game's contract preselected."""
    shape = sheet.next.shape
    initial: dict[str, Any] = {"number": sheet.next_number, "version": match.version}
    last = sheet.rows[-1].game.contract if sheet.rows else None
    if last is not None and last in shape.contracts and last != "ramsch":
        initial["contract"] = last
    if last == BY_VALUE and shape.by_value:
        initial["mode"] = BY_VALUE_MODE  # the table enters by value: the next game starts there too
    initial |= _asked_mode(request, shape)
    return GameForm(shape=shape, seats=sheet.names, deck=deck_of(request), initial=initial)


def _asked_mode(request: HttpRequest, shape: EntryShape) -> dict[str, str]:
    """The entry a page asked for (``?entry=value`` or ``?entry=full``), where the table offers both."""
    asked = request.GET.get("entry")
    return {"mode": asked} if shape.by_value and asked in (BY_VALUE_MODE, FULL_MODE) else {}


def _posted_game_form(request: HttpRequest, match: Match, seats: list[str]) -> GameForm:
    """A posted game, read as the deal it was made for (its ``number``), so that a retry finds its fields although
    the deal moved on."""
    number = _posted_int(request, "number") or match.deals + 1
    return GameForm(request.POST, shape=shape_of(match.setup(), number), seats=seats, deck=deck_of(request))


def _live_context(
    request: HttpRequest,
    match: Match,
    form: GameForm | None = None,
    sheet: Sheet | None = None,
    *,
    made: MatchEvent | None = None,
) -> dict[str, Any]:
    """What the live part of the match page shows (the whole page adds ``_labels``). ``made``: the change this
    request just made, which is the one to undo, and there is nothing to redo (a redo takes back an undo only until
    the next change)."""
    sheet = sheet or match_sheet(match, last=RECENT_GAMES, refresh=False)
    allowed = access(visitor_of(request), match)
    deck = deck_of(request)
    context: dict[str, Any] = {"match": match, "sheet": sheet, "access": allowed, **_kind_labels(match)}
    if allowed.can_score:
        undo = made or undoable(match)
        redo = None if made else redoable(match)
        context |= {
            "form": form or _game_form(request, match, sheet),
            "pass_token": uuid.uuid4(),
            "undo_token": uuid.uuid4(),
            "redo_token": uuid.uuid4(),
            "undo": undo,
            "undo_label": _step_back_label(undo, redo=False),
            "undo_text": _change_text(undo, sheet.names, deck) if undo else "",
            "redo": redo,
            "redo_label": _step_back_label(redo.undo_of if redo else None, redo=True),
            "redo_text": _change_text(redo.undo_of, sheet.names, deck) if redo and redo.undo_of else "",
        }
    return context


def _step_back_label(change: MatchEvent | None, *, redo: bool) -> str:
    """ "Undo game 5", "Redo game 5": the button names the game its change is about."""
    if change is None or change.number is None:
        return _("Redo") if redo else _("Undo last change")
    return (_("Redo game %(number)s") if redo else _("Undo game %(number)s")) % {"number": change.number}


@never_cache
@vary_on_headers("HX-Request")
@on_match(Action.VIEW)
@require_safe
@csrf_cookie_kept
def match_detail(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    _keep_guest(request, visitor_of(request))
    context = _live_context(request, match)
    if request.htmx and "form" in context:
        # The other entry, asked for by the link at the form's foot: the form alone.
        return render(request, "matches/partials/_form.html", context)
    context |= _labels(match)
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
def match_share(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """The match's rules, "what if", links, downloads and sharing: the part of the match page loaded when it is
    scrolled to, or a page of their own (without a script, and where managing a link leads back to)."""
    context: dict[str, Any] = {
        "match": match,
        "access": access(visitor_of(request), match),
        "rules": rules_in_force(match),
        **_labels(match),
    }
    if context["access"].can_manage:
        context["scorers"] = list(match.scorers.order_by("username"))
    if request.htmx:
        return render(request, "matches/partials/_share_tools.html", context)
    # On a page of its own, the standings to share as text are the page's (on the match page they are the totals').
    context["sheet"] = match_sheet(match, last=0)
    return render(request, "matches/match_share.html", context)


@never_cache
@on_match(Action.VIEW)
@require_safe
@csrf_cookie_kept
def match_follow(request: HtmxHttpRequest, match: Match) -> HttpResponse:
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
            context = _live_context(request, match, sheet=sheet) | {"new_row": row}
            return render(request, "matches/partials/_followed.html", context)
    return render(request, "matches/partials/_followed.html", _live_context(request, match))


@never_cache
@on_match(Action.VIEW)
@require_safe
def match_games(request: HttpRequest, match: Match) -> HttpResponse:
    """The whole list, a page at a time, from the latest games back."""
    upto = request.GET.get("upto", "")
    sheet = match_sheet(match, upto=int(upto) if upto.isascii() and upto.isdigit() else None, last=SHEET_PAGE)
    context = {
        "match": match,
        "sheet": sheet,
        "later": _later(sheet),
        "access": access(visitor_of(request), match),
        **_labels(match),
    }
    return render(request, "matches/match_games.html", context)


def _later(sheet: Sheet) -> int | None:
    """Where the next page of the list ends, if games come after the ones shown."""
    shown = sheet.rows[-1].number if sheet.rows else 0
    return shown + SHEET_PAGE if shown < sheet.match.deals else None


def _chart(request: HttpRequest, match: Match) -> HttpResponse:
    """The running totals as an SVG picture; its address names the match version, so it is drawn once per change."""
    chart = match_chart(match, seats_of(match))
    response = HttpResponse(render_to_string("matches/chart.svg", {"chart": chart}), content_type="image/svg+xml")
    if request.GET.get("v") == str(match.version):
        response["Cache-Control"] = "private, max-age=31536000, immutable"
    return response


@on_match(Action.VIEW)
@require_safe
def match_chart_svg(request: HttpRequest, match: Match) -> HttpResponse:
    return _chart(request, match)


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


def _retry_answered(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A retry of a game that was stored is answered as stored, whoever sends it: the phone that sent it may no
    longer score (its club night closed meanwhile), and must learn that its game is kept, not that it is refused."""

    @wraps(view)
    def answered(request: HtmxHttpRequest, match_id: uuid.UUID) -> HttpResponse:
        try:
            return view(request, match_id=match_id)
        except Denied:
            stored = _stored_retry(request, match_id)
            if stored is None:
                raise
            return stored

    return answered


def _stored_retry(request: HtmxHttpRequest, match_id: uuid.UUID) -> HttpResponse | None:
    """The answer to a posted game whose token added a game to the match before, or None."""
    match = Match.objects.filter(public_id=match_id).first()
    if match is None:
        return None
    seats = seats_of(match)
    form = _posted_game_form(request, match, [seat.player.name for seat in seats])
    if not form.is_valid():
        return None
    try:
        added = game_replay(match=match, token=form.cleaned_data["token"], submission=form.submission())
    except ServiceError:
        return None
    return None if added is None else _saved(request, match, added, seats, entered=form.shape)


@_retry_answered
@on_match(Action.SCORE)
@require_POST
def game_create(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    seats = seats_of(match)
    form = _posted_game_form(request, match, [seat.player.name for seat in seats])
    refused_by_state = False
    status = Invalid.status
    if form.is_valid():
        try:
            added = game_add(
                match=match, user=_account(request), token=form.cleaned_data["token"], submission=form.submission()
            )
        except ServiceError as error:
            form.add_rule_errors(error)
            status = error.status
            if error.status != Invalid.status:
                # Another phone moved the match on: the entry stays for the scorer to check against the list, made
                # out for the deal that is next now, so that saving it again is a new decision, not the same refusal.
                refused_by_state = True
                match.refresh_from_db()
                form.renew(number=match.deals + 1, version=match.version)
        else:
            return _saved(request, match, added, seats, entered=form.shape)
    shown = RECENT_GAMES if refused_by_state or not request.htmx else 0
    sheet = match_sheet(match, last=shown, seats=seats, refresh=False)
    context = _live_context(request, match, form, sheet)
    if not request.htmx:
        return render(request, "matches/match_detail.html", context | _labels(match), status=status)
    # The status says what happened (the page's htmx swaps these answers all the same; the outbox reads the status).
    template = "matches/partials/_refused.html" if refused_by_state else "matches/partials/_invalid.html"
    return render(request, template, context, status=status)


def _saved(
    request: HtmxHttpRequest, match: Match, added: Added | None, seats: list[Seat], *, entered: EntryShape | None
) -> HttpResponse:
    """After a save: a plain post goes back to the match; htmx gets the status, the notice and the new row to append
    to the sheet (the rest of the sheet stands as it is), and the form only if the next deal takes other fields
    than the one ``entered`` (otherwise the phone clears its own, with the next deal's token, number and version).
    A fresh save answers from what it wrote, without reading the match again; a retry (or a refusal) reads what
    stands now."""
    if not request.htmx:
        return redirect("match_detail", match_id=match.public_id)
    if added is not None and not added.replayed:
        sheet = sheet_after(match, seats, [added.game], added.after)
        context = _live_context(request, match, sheet=sheet, made=added.change)
        context |= _saved_row(sheet, sheet.rows[-1])
    else:
        sheet = match_sheet(match, last=1, seats=seats, refresh=False)
        context = _live_context(request, match, sheet=sheet)
        row = sheet.rows[-1] if sheet.rows else None
        if added is not None and row is not None and row.game.pk == added.game.pk:
            context |= _saved_row(sheet, row)
    context["keep_fields"] = not sheet.finished and sheet.next.shape == entered
    return render(request, "matches/partials/_saved.html", context)


def _saved_row(sheet: Sheet, row: SheetRow) -> dict[str, Any]:
    """The row a save added, for the sheet and for the notice that names it with who scored what."""
    scores = [(seat, points) for seat, points in zip(sheet.seats, row.scores, strict=True) if points]
    return {"new_row": row, "saved_scores": scores}


@on_match(Action.SCORE)
@require_POST
def game_preview(request: HttpRequest, match: Match) -> HttpResponse:
    """The score of the game being entered, before it is saved: the next deal only, whatever the match's length."""
    setup = match.setup()
    point = checkpoint_before(match, setup)
    number = point.deals + 1
    return _preview(request, match, number, lambda deal: score_next(setup, point, deal))


@on_match(Action.SCORE)
@require_POST
def game_fix_preview(request: HttpRequest, match: Match, game_id: uuid.UUID) -> HttpResponse:
    """The score a fix would give the game, at its place in the match (its number and the Bock in force there)."""
    game = _game_of(match, game_id)
    setup = match.setup()
    number = game.number or 1
    return _preview(request, match, number, lambda deal: score_deal(setup, deal, number=number, bock=game.bock))


def _preview(request: HttpRequest, match: Match, number: int, score: Callable[[DealEntry], ScoredDeal]) -> HttpResponse:
    names = _names(match)
    deck = deck_of(request)
    form = GameForm(request.POST, shape=shape_of(match.setup(), number), seats=names, deck=deck)
    context: dict[str, Any] = {}
    if form.is_valid():
        try:
            scored = score(form.submission().deal())
        except RuleError as error:
            context["problems"] = [render_step(problem.message, deck) for problem in error.errors]
        else:
            context["result"] = scored.result
            context["steps"] = [render_step(step, deck) for step in scored.breakdown]
            context["scores"] = [(name, score) for name, score in zip(names, scored.scores, strict=True) if score]
    else:
        context["problems"] = [str(error) for errors in form.errors.values() for error in errors]
    return render(request, "matches/partials/_preview.html", context)


@on_match(Action.SCORE)
@require_POST
def game_pass(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    submission = Submission(passed=True, number=_posted_int(request, "number"))
    token = _posted_uuid(request) or uuid.uuid4()
    added: Added | None = None
    try:
        added = game_add(match=match, user=_account(request), token=token, submission=submission)
    except ServiceError as error:
        _report(request, error)
    entered = shape_of(match.setup(), added.game.number or 1) if added is not None else None
    return _saved(request, match, added, seats_of(match), entered=entered)


def _game_of(match: Match, game_id: uuid.UUID) -> Game:
    return get_object_or_404(Game, match=match, public_id=game_id, deleted=False)


@never_cache
@vary_on_headers("HX-Request")
@on_match(Action.SCORE)
def game_edit_view(request: HtmxHttpRequest, match: Match, game_id: uuid.UUID) -> HttpResponse:
    if request.method == "POST":
        # A deleted game too: the service says it is gone, rather than the page pretending it never was.
        game = get_object_or_404(Game, match=match, public_id=game_id)
        if request.POST.get("passed"):
            return _fix_as_passed(request, match, game)
        if game.deleted:
            _report(request, GameGone())
            return redirect("match_detail", match_id=match.public_id)
    else:
        game = _game_of(match, game_id)
    row = sheet_row(match, game)
    setup = match.setup()
    shape = shape_of(setup, row.number)
    initial = {**initial_from(game.deal(), shape), "version": match.version, **_asked_mode(request, shape)}
    form = GameForm(request.POST or None, shape=shape, seats=_names(match), deck=deck_of(request), initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                game_edit(
                    game=game,
                    user=_account(request),
                    token=form.cleaned_data["token"],
                    submission=form.submission(),
                    version=form.cleaned_data.get("version"),
                )
            except ServiceError as error:
                if error.status == Invalid.status:
                    form.add_rule_errors(error)
                else:
                    # The game changed or went meanwhile: show it as it is now, with what happened.
                    _report(request, error)
                    if error.status == GameGone.status:
                        return redirect("match_detail", match_id=match.public_id)
                    return redirect("game_edit", match_id=match.public_id, game_id=game.public_id)
            else:
                messages.success(request, _("Game %(number)d fixed.") % {"number": row.number})
                return redirect("match_detail", match_id=match.public_id)
    context = {
        "match": match,
        "form": form,
        "row": row,
        "can_pass": setup.can_pass and not game.passed,
        "pass_token": uuid.uuid4(),
        **_labels(match),
    }
    if request.method == "GET" and request.htmx:
        return render(request, "matches/partials/_form.html", context)  # the other entry, asked for by its link
    return render(request, "matches/game_edit.html", context, status=status)


def _fix_as_passed(request: HttpRequest, match: Match, game: Game) -> HttpResponse:
    """A game entered where everybody had passed: it becomes a passed deal, and keeps its place in the deal order."""
    try:
        fixed = game_edit(
            game=game,
            user=_account(request),
            token=_posted_uuid(request) or uuid.uuid4(),
            submission=Submission(passed=True),
            version=_posted_int(request, "version"),
        )
    except ServiceError as error:
        _report(request, error)
    else:
        messages.success(request, _("Game %(number)d is now a passed deal.") % {"number": fixed.number or 0})
    return redirect("match_detail", match_id=match.public_id)


@never_cache
@on_match(Action.SCORE)
def game_delete_view(request: HttpRequest, match: Match, game_id: uuid.UUID) -> HttpResponse:
    if request.method == "POST":
        game = get_object_or_404(Game, match=match, public_id=game_id)
        try:
            game_delete(
                game=game,
                user=_account(request),
                token=_posted_uuid(request) or uuid.uuid4(),
                version=_posted_int(request, "version"),
            )
        except ServiceError as error:
            _report(request, error)
        else:
            messages.success(request, _("Game deleted. Undo brings it back."))
        return redirect("match_detail", match_id=match.public_id)
    row = sheet_row(match, _game_of(match, game_id))
    context = {
        "match": match,
        "row": row,
        "scores": list(zip(_names(match), row.scores, strict=True)),
        "token": uuid.uuid4(),
        **_labels(match),
    }
    return render(request, "matches/game_delete.html", context)


@on_match(Action.SCORE)
@require_POST
def match_undo_view(request: HttpRequest, match: Match) -> HttpResponse:
    return _step_back(request, match, redo=False)


@on_match(Action.SCORE)
@require_POST
def match_redo_view(request: HttpRequest, match: Match) -> HttpResponse:
    return _step_back(request, match, redo=True)


def _step_back(request: HttpRequest, match: Match, *, redo: bool) -> HttpResponse:
    """Undo or redo the change the page named, if it is still the latest; say what was taken back."""
    service = match_redo if redo else match_undo
    try:
        event = service(
            match=match,
            user=_account(request),
            token=_posted_uuid(request) or uuid.uuid4(),
            change=_posted_uuid(request, "change"),
            version=_posted_int(request, "version"),
        )
    except ServiceError as error:
        _report(request, error)
        return redirect("match_detail", match_id=match.public_id)
    if event is None or event.undo_of is None:
        messages.info(request, _("Nothing to redo.") if redo else _("Nothing to undo."))
        return redirect("match_detail", match_id=match.public_id)
    # An undo names the change it took back; a redo names the change it brought back (what its undo had undone).
    change = event.undo_of.undo_of if redo and event.undo_of.undo_of is not None else event.undo_of
    messages.success(request, _step_text(change, redo=redo, names=_names(match), deck=deck_of(request)))
    return redirect("match_detail", match_id=match.public_id)


def _step_text(change: MatchEvent, *, redo: bool, names: list[str], deck: str) -> str:
    """What an undo or a redo of ``change`` did to its game, with the game as it now stands (or stood, if it is off
    the list): "Game 5 restored: …" for an undone deletion, never the name of the change it took back alone."""
    added, deleted = change.action == MatchEvent.Action.ADD, change.action == MatchEvent.Action.DELETE
    if redo:
        if added:
            text = _("Game %(number)s entered again (redo): %(game)s")
        elif deleted:
            text = _("Game %(number)s deleted again (redo): %(game)s")
        else:
            text = _("Game %(number)s changed again (redo): %(game)s")
        state = change.before if deleted else change.after
    else:
        if added:
            text = _("Game %(number)s undone (no longer on the list): %(game)s")
        elif deleted:
            text = _("Game %(number)s restored: %(game)s")
        else:
            text = _("Game %(number)s undone (back as before the change): %(game)s")
        state = change.after if added else change.before
    return text % {"number": change.number or "–", "game": _state_text(state, names, deck)}


@never_cache
@on_match(Action.VIEW)
@require_safe
def match_history(request: HttpRequest, match: Match) -> HttpResponse:
    """Every change, newest first, a page at a time (``before`` a version)."""
    names = _names(match)
    deck = deck_of(request)
    before = request.GET.get("before", "")
    changes = match.events.select_related("user")
    if before.isascii() and before.isdigit():
        changes = changes.filter(version__lt=int(before))
    page = list(changes[: HISTORY_PAGE + 1])
    seated = _seated_names(match, page[:HISTORY_PAGE])
    events = [_history_item(event, names, deck, seated) for event in page[:HISTORY_PAGE]]
    older = page[HISTORY_PAGE - 1].version if len(page) > HISTORY_PAGE else None
    context = {"match": match, "events": events, "older": older, **_labels(match)}
    return render(request, "matches/history.html", context)


def _history_item(event: MatchEvent, names: list[str], deck: str, seated: Mapping[str, str]) -> dict[str, Any]:
    """A change as the history page lists it: the game's state, or the match's part, before and after."""
    if event.game_id is None:
        return {"event": event, "before": _part_text(event.before, seated), "after": _part_text(event.after, seated)}
    before, after = _state_text(event.before, names, deck), _state_text(event.after, names, deck)
    return {"event": event, "before": before, "after": after}


def _seated_names(match: Match, events: Sequence[MatchEvent]) -> dict[str, str]:
    """The names of the players that changes of seats name (by public id), in one read of the match's book."""
    named = {
        str(player)
        for event in events
        if event.game_id is None
        for part in (event.before, event.after)
        if isinstance(part, dict)
        for player in part.get("seats", [])
    }
    players = Player.objects.filter(keeper_id=match.keeper_id, public_id__in=named) if named else []
    return {str(player.public_id): player.name for player in players}


def _part_text(part: dict[str, Any] | None, seated: Mapping[str, str]) -> str:
    """What a change to the match itself changed, in a few words: "closed, co-scorers' link off", "Anna, Ben, Cleo",
    "3 values scored afresh"."""
    if not part:
        return "—"
    words = []
    if "locked" in part:
        words.append(_("closed") if part["locked"] else _("open"))
    if "link" in part:
        words.append(_("co-scorers' link on") if part["link"] else _("co-scorers' link off"))
    if "seats" in part:
        words.append(", ".join(seated.get(str(player), "?") for player in part["seats"]))
    if "changed" in part:
        count = int(part["changed"])
        words.append(
            ngettext("%(count)s value scored afresh", "%(count)s values scored afresh", count) % {"count": count}
        )
    return ", ".join(words) or "—"


def _change_text(event: MatchEvent, names: list[str], deck: str) -> str:
    """A change in a few words: "game 5 added: Ben: ♣ Clubs, with 2, 70 card points"."""
    state = event.before if event.action == MatchEvent.Action.DELETE else event.after
    return _("game %(number)s %(action)s: %(game)s") % {
        "number": event.number or "–",
        "action": event.get_action_display(),
        "game": _state_text(state, names, deck),
    }


def _state_text(state: dict[str, Any] | None, names: list[str], deck: str) -> str:
    """A stored game state in a few words: "Ben: ♣ Clubs, with 2, 70 card points" or "all passed"."""
    if state is None:
        return "—"
    if state.get("passed"):
        text = _("all passed")
    else:
        entry = state.get("entry") or {}
        words = [contract_label(entry.get("contract"), deck)]
        try:
            game = game_from_data(entry, version=int(state.get("v", 0)))
            words += [render_step(word, deck) for word in describe(game, names)]
        except RuleError:
            words.append(_("(not readable)"))
        text = ", ".join(word for word in words if word)
        declarer = state.get("declarer")
        if isinstance(declarer, int) and 0 <= declarer < len(names):
            text = f"{names[declarer]}: {text}"
    if state.get("deleted"):
        text += " " + _("(deleted)")
    return text


# --- Sharing: co-scorers, spectators, links ------------------------------------------------------------------------


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
        account = _account(request)
        if account is not None:
            try:
                match_scorer_join(match=match, user=account)
            except ServiceError as error:
                _report(request, error)
        else:
            links = dict(request.session.get(LINKS_SESSION_KEY, {}))
            links[str(match.public_id)] = token
            request.session[LINKS_SESSION_KEY] = links
        return redirect("match_detail", match_id=match.public_id)
    return render(request, "matches/join.html", {"match": match, **_labels(match)})


@public
@vary_on_headers("HX-Request")
@require_safe
def match_spectate(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The spectators' page; it polls with the version it shows and gets 204 while nothing changed."""
    if request.htmx:
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
        **_labels(match),
    }
    template = "matches/partials/_spectator.html" if request.htmx else "matches/spectate.html"
    return render(request, template, context)


@public
@require_safe
def match_spectate_chart(request: HttpRequest, token: str) -> HttpResponse:
    return _chart(request, match_by_link("share", token))


@public
@require_safe
def match_spectate_games(request: HttpRequest, token: str) -> HttpResponse:
    """Earlier games for spectators, a page at a time, as the scorers' list of all games."""
    match = match_by_link("share", token)
    upto = request.GET.get("upto", "")
    sheet = match_sheet(match, upto=int(upto) if upto.isascii() and upto.isdigit() else None, last=SHEET_PAGE)
    context = {"match": match, "sheet": sheet, "later": _later(sheet), "share_token": token, **_labels(match)}
    return render(request, "matches/match_games.html", context)


@on_match(Action.MANAGE)
@require_POST
def match_links(request: HttpRequest, match: Match) -> HttpResponse:
    """Give a link a new address, or turn it off: whoever holds the old one loses access."""
    link = request.POST.get("link", "")
    try:
        match_link_renew(match=match, link=link, revoke=request.POST.get("action") == "revoke")
    except ServiceError as error:
        _report(request, error)
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
            match_scorer_remove(match=match, scorer=scorer, user=_account(request))
        except ServiceError as error:
            _report(request, error)
        else:
            messages.success(request, _("%(name)s can no longer score this match.") % {"name": scorer.username})
    return redirect("match_share", match_id=match.public_id)


# --- Players -------------------------------------------------------------------------------------------------------


@signed_in
@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    try:
        page = page_of(
            kept_players(visitor_of(request)), by="name", after=request.GET.get("after"), size=PLAYERS_PER_PAGE
        )
    except BadPlace:
        raise Http404 from None
    linked = Player.objects.filter(account=_account(request)).select_related("keeper__user").order_by("name")
    context = {"players": page.items, "later": page.after, "paged": bool(request.GET.get("after")), "linked": linked}
    return render(request, "matches/player_list.html", context)


@signed_in
@require_safe
def player_me(request: HttpRequest) -> HttpResponse:
    """Your own statistics, across every match you sat in as a player linked to your account, whoever kept it."""
    linked = list(Player.objects.filter(account=_account(request)))
    stats = [(_kind(row.variant, row.scheme), row) for row in player_stats(linked)] if linked else []
    return render(request, "matches/player_me.html", {"linked": linked, "stats": stats})


def _account_of(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


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
    stats = [(_kind(row.variant, row.scheme), row) for row in player_stats(player)]
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
            "kind": _kind(row.variant, row.scheme),
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
    account = _account(request)
    try:
        if action == "unlink":
            player_unlink(player=player)
        elif action == "me" and account is not None and can(visitor, Action.MANAGE, player):
            player_link(player=player, account=account)
        elif action == "invite" and can(visitor, Action.MANAGE, player):
            player_link_invite(player=player)
    except ServiceError as error:
        _report(request, error)
    if action == "unlink" and not can(visitor, Action.VIEW, player):
        return redirect("player_list")
    return redirect("player_detail", player_id=player.public_id)


@on_player(Action.MANAGE)
@require_POST
def player_merge_view(request: HttpRequest, player: Player) -> HttpResponse:
    chosen = _posted_uuid(request, "other")
    other = fellow_players(visitor_of(request), player).filter(public_id=chosen).first() if chosen else None
    if other is None:
        return _player_page(request, player, [_("Choose another player of the same book.")], status=400)
    try:
        player_merge(into=player, other=other)
    except ServiceError as error:
        refusals = [render_step(problem.message, deck_of(request)) for problem in error.errors]
        return _player_page(request, player, refusals, status=error.status)
    merged = {"other": other.name, "player": player.name}
    messages.success(request, _("%(other)s is now part of %(player)s.") % merged)
    return redirect("player_detail", player_id=player.public_id)


@signed_in
def player_claim_view(request: HttpRequest, token: str) -> HttpResponse:
    """A link invitation to a player: signed in, confirm that this player is you."""
    player = Player.objects.filter(link_token=token).select_related("keeper__user").first()
    if request.method == "POST" and player is not None:
        account = _account(request)
        assert account is not None
        try:
            player_claim(token=token, account=account)
        except ServiceError as error:
            _report(request, error)
            return redirect("player_list")
        messages.success(request, _("%(name)s is linked to your account.") % {"name": player.name})
        return redirect("player_me")
    return render(request, "matches/player_claim.html", {"player": player}, status=200 if player else 410)
