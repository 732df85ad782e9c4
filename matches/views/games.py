"""Entering a game, its live preview, fixing, passing and deleting it, and undoing and redoing the last change."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from ..engine import (
    DealEntry,
    EntryShape,
    RuleError,
    ScoredDeal,
    score_deal,
    score_next,
    shape_of,
)
from ..errors import Invalid, ServiceError
from ..forms.games import GameForm, initial_from
from ..htmx import from_htmx
from ..labels import (
    render_step,
    step_back_text,
)
from ..models import Game, Match, Seat
from ..permissions import (
    Action,
    Denied,
    on_match,
    request_account,
)
from ..preferences import deck_of
from ..refusals import refusal_as_messages, refusal_texts
from ..selectors import (
    Sheet,
    SheetRow,
    checkpoint_before,
    match_sheet,
    seats_of,
    sheet_after,
    sheet_row,
)
from ..services import (
    Added,
    GameGone,
    Submission,
    game_add,
    game_delete,
    game_edit,
    game_replay,
    match_redo,
    match_undo,
)
from ..templatetags.live import saved_answer
from .common import match_labels, posted_int, posted_uuid, seat_names
from .matches import RECENT_GAMES, asked_mode, live_context, posted_game_form


def _retry_answered(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A retry of a game that was stored is answered as stored, whoever sends it: the phone that sent it may no
    longer score (its club night closed meanwhile), and must learn that its game is kept, not that it is refused."""

    @wraps(view)
    def answered(request: HttpRequest, match_id: uuid.UUID) -> HttpResponse:
        try:
            return view(request, match_id=match_id)
        except Denied:
            stored = _stored_retry(request, match_id)
            if stored is None:
                raise
            return stored

    return answered


def _stored_retry(request: HttpRequest, match_id: uuid.UUID) -> HttpResponse | None:
    """The answer to a posted game whose token added a game to the match before, or None."""
    match = Match.objects.filter(public_id=match_id).first()
    if match is None:
        return None
    seats = seats_of(match)
    form = posted_game_form(request, match, [seat.player.name for seat in seats])
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
def game_create(request: HttpRequest, match: Match) -> HttpResponse:
    seats = seats_of(match)
    form = posted_game_form(request, match, [seat.player.name for seat in seats])
    refused_by_state = False
    status = Invalid.status
    if form.is_valid():
        try:
            added = game_add(
                match=match,
                user=request_account(request),
                token=form.cleaned_data["token"],
                submission=form.submission(),
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
    shown = RECENT_GAMES if refused_by_state or not from_htmx(request) else 0
    sheet = match_sheet(match, last=shown, seats=seats, refresh=False)
    context = live_context(request, match, form, sheet)
    if not from_htmx(request):
        return render(request, "matches/match_detail.html", context | match_labels(match), status=status)
    # The status says what happened (the page's htmx swaps these answers all the same; the outbox reads the status).
    template = "matches/partials/_refused.html" if refused_by_state else "matches/partials/_invalid.html"
    return render(request, template, context, status=status)


def _saved(
    request: HttpRequest, match: Match, added: Added | None, seats: list[Seat], *, entered: EntryShape | None
) -> HttpResponse:
    """After a save: a plain post goes back to the match; htmx gets the status, the notice and the new row to append
    to the sheet (the rest of the sheet stands as it is), and the form only if the next deal takes other fields
    than the one ``entered`` (otherwise the phone clears its own, with the next deal's token, number and version).
    A fresh save answers from what it wrote, without reading the match again; a retry (or a refusal) reads what
    stands now."""
    if not from_htmx(request):
        return redirect("match_detail", match_id=match.public_id)
    made = added.change if added is not None and not added.replayed else None
    if added is not None and made is not None:
        sheet = sheet_after(match, seats, [added.game], added.after)
    else:
        sheet = match_sheet(match, last=1, seats=seats, refresh=False)
    kept = not sheet.finished and sheet.next.shape == entered
    context = live_context(request, match, sheet=sheet, made=made, fields_kept=kept)
    row = sheet.rows[-1] if sheet.rows else None
    if added is not None and row is not None and row.game.pk == added.game.pk:
        context |= _saved_row(sheet, row)
    return HttpResponse(saved_answer(request, context))


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
    names = seat_names(match)
    deck = deck_of(request)
    form = GameForm(request.POST, shape=shape_of(match.setup(), number), seats=names, deck=deck)
    context: dict[str, Any] = {}
    if form.is_valid():
        try:
            scored = score(form.submission().deal())
        except RuleError as error:
            context["problems"] = refusal_texts(error, request)
        else:
            context["result"] = scored.result
            context["steps"] = [render_step(step, deck) for step in scored.breakdown]
            context["scores"] = [(name, score) for name, score in zip(names, scored.scores, strict=True) if score]
    else:
        context["problems"] = [str(error) for errors in form.errors.values() for error in errors]
    return render(request, "matches/partials/_preview.html", context)


@on_match(Action.SCORE)
@require_POST
def game_pass(request: HttpRequest, match: Match) -> HttpResponse:
    submission = Submission(passed=True, number=posted_int(request, "number"))
    token = posted_uuid(request) or uuid.uuid4()
    added: Added | None = None
    try:
        added = game_add(match=match, user=request_account(request), token=token, submission=submission)
    except ServiceError as error:
        refusal_as_messages(request, error)
    entered = shape_of(match.setup(), added.game.number or 1) if added is not None else None
    return _saved(request, match, added, seats_of(match), entered=entered)


def _game_of(match: Match, game_id: uuid.UUID) -> Game:
    return get_object_or_404(Game, match=match, public_id=game_id, deleted=False)


@never_cache
@vary_on_headers("HX-Request")
@on_match(Action.SCORE)
def game_edit_view(request: HttpRequest, match: Match, game_id: uuid.UUID) -> HttpResponse:
    if request.method == "POST":
        # A deleted game too: the service says it is gone, rather than the page pretending it never was.
        game = get_object_or_404(Game, match=match, public_id=game_id)
        if request.POST.get("passed"):
            return _fix_as_passed(request, match, game)
        if game.deleted:
            refusal_as_messages(request, GameGone())
            return redirect("match_detail", match_id=match.public_id)
    else:
        game = _game_of(match, game_id)
    row = sheet_row(match, game)
    setup = match.setup()
    shape = shape_of(setup, row.number)
    initial = {**initial_from(game.deal(), shape), "version": match.version, **asked_mode(request, shape)}
    form = GameForm(request.POST or None, shape=shape, seats=seat_names(match), deck=deck_of(request), initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                game_edit(
                    game=game,
                    user=request_account(request),
                    token=form.cleaned_data["token"],
                    submission=form.submission(),
                    version=form.cleaned_data.get("version"),
                )
            except ServiceError as error:
                if error.status == Invalid.status:
                    form.add_rule_errors(error)
                else:
                    # The game changed or went meanwhile: show it as it is now, with what happened.
                    refusal_as_messages(request, error)
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
        **match_labels(match),
    }
    if request.method == "GET" and from_htmx(request):
        return render(request, "matches/partials/_form.html", context)  # the other entry, asked for by its link
    return render(request, "matches/game_edit.html", context, status=status)


def _fix_as_passed(request: HttpRequest, match: Match, game: Game) -> HttpResponse:
    """A game entered where everybody had passed: it becomes a passed deal, and keeps its place in the deal order."""
    try:
        fixed = game_edit(
            game=game,
            user=request_account(request),
            token=posted_uuid(request) or uuid.uuid4(),
            submission=Submission(passed=True),
            version=posted_int(request, "version"),
        )
    except ServiceError as error:
        refusal_as_messages(request, error)
    else:
        messages.success(request, _("Game %(number)d is now a passed deal.") % {"number": fixed.game.number or 0})
    return redirect("match_detail", match_id=match.public_id)


@never_cache
@on_match(Action.SCORE)
def game_delete_view(request: HttpRequest, match: Match, game_id: uuid.UUID) -> HttpResponse:
    if request.method == "POST":
        game = get_object_or_404(Game, match=match, public_id=game_id)
        try:
            game_delete(
                game=game,
                user=request_account(request),
                token=posted_uuid(request) or uuid.uuid4(),
                version=posted_int(request, "version"),
            )
        except ServiceError as error:
            refusal_as_messages(request, error)
        else:
            messages.success(request, _("Game deleted. Undo brings it back."))
        return redirect("match_detail", match_id=match.public_id)
    row = sheet_row(match, _game_of(match, game_id))
    context = {
        "match": match,
        "row": row,
        "scores": list(zip(seat_names(match), row.scores, strict=True)),
        "token": uuid.uuid4(),
        **match_labels(match),
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
            user=request_account(request),
            token=posted_uuid(request) or uuid.uuid4(),
            change=posted_uuid(request, "change"),
            version=posted_int(request, "version"),
        )
    except ServiceError as error:
        refusal_as_messages(request, error)
        return redirect("match_detail", match_id=match.public_id)
    if event is None or event.undo_of is None:
        messages.info(request, _("Nothing to redo.") if redo else _("Nothing to undo."))
        return redirect("match_detail", match_id=match.public_id)
    # An undo names the change it took back; a redo names the change it brought back (what its undo had undone).
    change = event.undo_of.undo_of if redo and event.undo_of.undo_of is not None else event.undo_of
    kontra = match.setup().spec.kontra
    text = step_back_text(change, redo=redo, names=seat_names(match), deck=deck_of(request), kontra=kontra)
    messages.success(request, text)
    return redirect("match_detail", match_id=match.public_id)
