"""Pages: typed function views, htmx-aware; every form also works as a plain post."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from .engine import RuleError, find_variant
from .engine.presets import PRESETS
from .forms import GameForm, MatchForm, SignupForm, initial_from, preset_or_none
from .labels import contract_label, match_label, preset_label, render_step, scheme_label, variant_label
from .models import Deck, Game, Match, MatchEvent, Profile
from .selectors import (
    DECK_SESSION_KEY,
    deck_of,
    head_to_head,
    match_for_scorer,
    match_for_spectator,
    match_sheet,
    matches_for_user,
    player_matches,
    player_stats,
    players_for_user,
)
from .services import (
    GameGone,
    MatchConflict,
    StaleSubmission,
    Submission,
    game_add,
    game_delete,
    game_edit,
    match_create,
    match_undo,
    passing_allowed,
    score_deal,
)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def home(request: HttpRequest) -> HttpResponse:
    matches = matches_for_user(request.user).prefetch_related("seats__player")[:50]
    return render(request, "matches/home.html", {"matches": [(match, match_label(match)) for match in matches]})


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        Profile.objects.create(user=user)
        login(request, user)
        return redirect("match_new")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def match_new(request: HttpRequest) -> HttpResponse:
    preset = preset_or_none(request.GET.get("preset") or request.POST.get("preset"))
    if preset is None:
        presets = [(key, preset_label(key)) for key in PRESETS]
        return render(request, "matches/match_presets.html", {"presets": presets})
    known = list(players_for_user(_user(request)).values_list("name", flat=True))
    form = MatchForm(request.POST or None, preset=preset, known_players=known)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        match = match_create(
            owner=_user(request),
            variant=preset.variant.value,
            scheme=data["scheme"],
            rules=data["rules"],
            player_names=data["player_names"],
            first_dealer=data["first_dealer"],
            title=data["title"],
            preset=preset.key,
            planned_games=data["planned_games"] or preset.series.get(len(data["player_names"])),
        )
        return redirect("match_detail", pk=match.pk)
    context = {"form": form, "preset": preset, "preset_label": preset_label(preset.key)}
    return render(request, "matches/match_new.html", context)


def _what_if(request: HttpRequest, match: Match) -> str | None:
    scheme = request.GET.get("scheme")
    spec = find_variant(match.variant)
    if spec is None or scheme not in {s.value for s in spec.schemes} or scheme == match.scheme:
        return None
    return scheme


def _game_form(request: HttpRequest, match: Match, sheet: Any, data: Any = None) -> GameForm:
    names = [seat.player.name for seat in sheet.seats]
    last = sheet.rows[-1].game if sheet.rows else None
    initial: dict[str, Any] = {}
    if last is not None and last.contract and last.contract != "ramsch":
        initial["contract"] = last.contract
    return GameForm(data, match=match, seats=names, seating=sheet.next_seating, deck=deck_of(request), initial=initial)


def _live_context(request: HttpRequest, match: Match, form: GameForm | None = None) -> dict[str, Any]:
    deck = deck_of(request)
    sheet = match_sheet(match, deck=deck)
    return {
        "match": match,
        "sheet": sheet,
        "form": form or _game_form(request, match, sheet),
        "can_pass": passing_allowed(match),
        "pass_token": uuid.uuid4(),
        "undo_token": uuid.uuid4(),
        "can_undo": _undoable(match).exists(),
        "scorer": True,
        **_labels(match),
    }


def _undoable(match: Match) -> Any:
    return MatchEvent.objects.filter(match=match, undone_by__isnull=True).exclude(action=MatchEvent.Action.UNDO)


def _posted_token(request: HttpRequest) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get("token", ""))
    except ValueError:
        return None


def _labels(match: Match) -> dict[str, Any]:
    spec = find_variant(match.variant)
    schemes = [(s.value, scheme_label(s)) for s in spec.schemes if s.value != match.scheme] if spec else []
    return {
        "variant_name": variant_label(match.variant),
        "scheme_name": scheme_label(match.scheme),
        "schemes": schemes,
    }


@never_cache
@login_required
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_for_scorer(request.user, pk)
    what_if = _what_if(request, match)
    context = _live_context(request, match)
    if what_if:
        context["what_if"] = match_sheet(match, deck=deck_of(request), scheme=what_if)
        context["what_if_name"] = scheme_label(what_if)
    return render(request, "matches/match_detail.html", context)


@login_required
@require_POST
def game_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    match = match_for_scorer(request.user, pk)
    token = _posted_token(request)
    if token is not None and MatchEvent.objects.filter(match=match, token=token).exists():
        # A retry of a save that went through: the deal has moved on, so answer as the first time, without checking
        # the form against the next deal.
        return _saved(request, match)
    sheet = match_sheet(match, deck=deck_of(request))
    form = _game_form(request, match, sheet, request.POST)
    if form.is_valid():
        try:
            game_add(match=match, user=_user(request), token=form.cleaned_data["token"], submission=form.submission())
        except RuleError as error:
            form.add_rule_errors(error)
        except StaleSubmission:
            messages.error(request, _("This form was saved already; here is the match as it stands now."))
            return _saved(request, match)
        else:
            return _saved(request, match)
    template = "matches/partials/_live.html" if request.htmx else "matches/match_detail.html"
    return render(request, template, _live_context(request, match, form), status=200 if request.htmx else 400)


def _saved(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    if not request.htmx:
        return redirect("match_detail", pk=match.pk)
    return render(request, "matches/partials/_live.html", _live_context(request, match))


@login_required
@require_POST
def game_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The score of the game being entered, before it is saved."""
    match = match_for_scorer(request.user, pk)
    sheet = match_sheet(match, deck=deck_of(request))
    form = _game_form(request, match, sheet, request.POST)
    context: dict[str, Any] = {"sheet": sheet}
    if form.is_valid():
        try:
            result = score_deal(
                match=match,
                players=len(sheet.seats),
                deal=sheet.next_number,
                submission=form.submission(),
                bock=sheet.next_bock,
            )
        except RuleError as error:
            context["problems"] = [render_step(problem.message, deck_of(request)) for problem in error.errors]
        else:
            context["result"] = result
            context["steps"] = [render_step(step, deck_of(request)) for step in result.breakdown] if result else []
            context["scores"] = list(zip(sheet.seats, result.scores, strict=True)) if result is not None else []
    else:
        context["problems"] = [str(error) for errors in form.errors.values() for error in errors]
    return render(request, "matches/partials/_preview.html", context)


@login_required
@require_POST
def game_pass(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    match = match_for_scorer(request.user, pk)
    number = request.POST.get("number", "")
    submission = Submission(passed=True, number=int(number) if number.isdigit() else None)
    try:
        game_add(match=match, user=_user(request), token=_posted_token(request) or uuid.uuid4(), submission=submission)
    except RuleError as error:
        for problem in error.errors:
            messages.error(request, render_step(problem.message))
    except StaleSubmission:
        messages.error(request, _("This form was saved already; here is the match as it stands now."))
    if request.htmx:
        return render(request, "matches/partials/_live.html", _live_context(request, match))
    return redirect("match_detail", pk=match.pk)


def _game_of(request: HttpRequest, pk: int, game_pk: int) -> tuple[Match, Game]:
    match = match_for_scorer(request.user, pk)
    game = get_object_or_404(Game, match=match, pk=game_pk, deleted=False)
    return match, game


def _row_of(request: HttpRequest, match: Match, game: Game) -> Any:
    sheet = match_sheet(match, deck=deck_of(request))
    row = next((row for row in sheet.rows if row.game.pk == game.pk), None)
    if row is None:
        raise Http404
    return sheet, row


@never_cache
@login_required
def game_edit_view(request: HttpRequest, pk: int, game_pk: int) -> HttpResponse:
    match, game = _game_of(request, pk, game_pk)
    sheet, row = _row_of(request, match, game)
    if request.method == "POST" and request.POST.get("passed"):
        return _fix_as_passed(request, match, game, row.number)
    names = [seat.player.name for seat in sheet.seats]
    stored = Submission(passed=game.passed, declarer=game.declarer, entry=game.entry)
    form = GameForm(
        request.POST or None,
        match=match,
        seats=names,
        seating=row.seating,
        deck=deck_of(request),
        initial=initial_from(stored),
    )
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            game_edit(game=game, user=_user(request), token=form.cleaned_data["token"], submission=form.submission())
        except RuleError as error:
            form.add_rule_errors(error)
        except MatchConflict as conflict:
            form.add_error(None, _conflict_text(conflict))
        except (StaleSubmission, GameGone) as gone:
            messages.error(request, _stale_text(gone))
            return redirect("match_detail", pk=match.pk)
        else:
            messages.success(request, _("Game %(number)d fixed.") % {"number": row.number})
            return redirect("match_detail", pk=match.pk)
    if request.method == "POST":
        status = 400
    context = {
        "match": match,
        "form": form,
        "row": row,
        "sheet": sheet,
        "can_pass": passing_allowed(match) and not game.passed,
        "pass_token": uuid.uuid4(),
        **_labels(match),
    }
    return render(request, "matches/game_edit.html", context, status=status)


def _fix_as_passed(request: HttpRequest, match: Match, game: Game, number: int) -> HttpResponse:
    """A game entered where everybody had passed: it becomes a passed deal, and keeps its place in the deal order."""
    try:
        game_edit(
            game=game,
            user=_user(request),
            token=_posted_token(request) or uuid.uuid4(),
            submission=Submission(passed=True),
        )
    except RuleError as error:
        for problem in error.errors:
            messages.error(request, render_step(problem.message))
    except MatchConflict as conflict:
        messages.error(request, _conflict_text(conflict))
    except (StaleSubmission, GameGone) as gone:
        messages.error(request, _stale_text(gone))
    else:
        messages.success(request, _("Game %(number)d is now a passed deal.") % {"number": number})
    return redirect("match_detail", pk=match.pk)


def _stale_text(problem: Exception) -> str:
    if isinstance(problem, GameGone):
        return _("This game was deleted meanwhile; nothing was changed.")
    return _("This form was saved already; here is the match as it stands now.")


def _conflict_text(conflict: MatchConflict) -> str:
    reasons = "; ".join(render_step(problem.message) for problem in conflict.error.errors)
    return _("This change would break game %(number)d: %(reasons)s") % {"number": conflict.number, "reasons": reasons}


@never_cache
@login_required
def game_delete_view(request: HttpRequest, pk: int, game_pk: int) -> HttpResponse:
    if request.method == "POST":
        match = match_for_scorer(request.user, pk)
        game = get_object_or_404(Game, match=match, pk=game_pk)
        try:
            game_delete(game=game, user=_user(request), token=_posted_token(request) or uuid.uuid4())
        except MatchConflict as conflict:
            messages.error(request, _conflict_text(conflict))
        except (StaleSubmission, GameGone) as gone:
            messages.error(request, _stale_text(gone))
        else:
            messages.success(request, _("Game deleted. Undo brings it back."))
        return redirect("match_detail", pk=match.pk)
    match, game = _game_of(request, pk, game_pk)
    sheet, row = _row_of(request, match, game)
    scores = [(seat.player.name, points) for seat, points in zip(sheet.seats, row.scores, strict=True)]
    context = {"match": match, "row": row, "scores": scores, "token": uuid.uuid4(), **_labels(match)}
    return render(request, "matches/game_delete.html", context)


@login_required
@require_POST
def match_undo_view(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_for_scorer(request.user, pk)
    try:
        event = match_undo(match=match, user=_user(request), token=_posted_token(request) or uuid.uuid4())
    except MatchConflict as conflict:
        messages.error(request, _conflict_text(conflict))
    else:
        if event is None or event.undo_of is None:
            messages.info(request, _("Nothing to undo."))
        else:
            undone = event.undo_of
            names = [seat.player.name for seat in match.seats.select_related("player")]
            what = _describe(
                undone.after if undone.action != MatchEvent.Action.DELETE else undone.before, names, deck_of(request)
            )
            messages.success(
                request,
                _("Undone (%(action)s): %(game)s") % {"action": undone.get_action_display(), "game": what},
            )
    return redirect("match_detail", pk=match.pk)


@login_required
def match_history(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_for_scorer(request.user, pk)
    names = [seat.player.name for seat in match.seats.select_related("player")]
    deck = deck_of(request)
    events = [
        {
            "event": event,
            "before": _describe(event.before, names, deck),
            "after": _describe(event.after, names, deck),
        }
        for event in match.events.select_related("user")
    ]
    return render(request, "matches/history.html", {"match": match, "events": events, **_labels(match)})


def _describe(state: dict[str, Any] | None, names: list[str], deck: str) -> str:
    """A stored game state in a few words: "Ben: ♣ Clubs, with 2, 70" or "all passed"."""
    if state is None:
        return "—"
    if state.get("passed"):
        text = _("all passed")
    else:
        entry = state.get("entry") or {}
        parts = [contract_label(entry.get("contract"), deck), *_entry_words(entry, names)]
        declarer = state.get("declarer")
        text = ", ".join(part for part in parts if part)
        if declarer is not None and declarer < len(names):
            text = f"{names[declarer]}: {text}"
    if state.get("deleted"):
        text += " " + _("(deleted)")
    return text


def _entry_words(entry: dict[str, Any], names: list[str]) -> list[str]:
    words: list[str] = []
    matadors = entry.get("matadors")
    if matadors is not None:
        words.append((_("with %(n)d") if matadors > 0 else _("without %(n)d")) % {"n": abs(matadors)})
    if entry.get("declarer_card_points") is not None:
        words.append(_("%(points)d card points") % {"points": entry["declarer_card_points"]})
    flags = {
        "hand": _("Hand"),
        "ouvert": _("Ouvert"),
        "kontra": _("Kontra"),
        "re": _("Re"),
        "conceded": _("conceded"),
    }
    words.extend(str(label) for name, label in flags.items() if entry.get(name))
    if entry.get("announced"):
        words.append(_("%(level)s announced") % {"level": str(entry["announced"]).capitalize()})
    if entry.get("schwarz"):
        words.append(_("Schwarz"))
    if "won" in entry:
        words.append(_("won") if entry["won"] else _("lost"))
    if entry.get("bid"):
        words.append(_("bid %(bid)d") % {"bid": entry["bid"]})
    ramsch = entry.get("ramsch")
    if ramsch:
        points = ramsch.get("card_points", [])
        words.append(" / ".join(f"{name} {value}" for name, value in zip(names, points, strict=False)))
    return words


@login_required
def match_join(request: HttpRequest, token: str) -> HttpResponse:
    match = get_object_or_404(Match, invite_token=token)
    if request.method == "POST":
        if match.owner_id != request.user.pk:
            match.scorers.add(_user(request))
        return redirect("match_detail", pk=match.pk)
    return render(request, "matches/join.html", {"match": match, **_labels(match)})


def match_spectate(request: HtmxHttpRequest, token: str) -> HttpResponse:
    match = match_for_spectator(token)
    context = {
        "match": match,
        "sheet": match_sheet(match, deck=deck_of(request)),
        "version": _version(match),
        "share_token": token,
        **_labels(match),
    }
    if request.htmx:
        if request.GET.get("version") == str(context["version"]):
            return HttpResponse(status=204)
        return render(request, "matches/partials/_spectator.html", context)
    return render(request, "matches/spectate.html", context)


def _version(match: Match) -> int:
    latest = MatchEvent.objects.filter(match=match).order_by("-id").values_list("id", flat=True).first()
    return latest or 0


@login_required
def player_list(request: HttpRequest) -> HttpResponse:
    return render(request, "matches/player_list.html", {"players": players_for_user(_user(request))})


@login_required
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(players_for_user(_user(request)), pk=pk)
    stats = [(variant_label(row.variant), row) for row in player_stats(player)]
    others = players_for_user(_user(request)).exclude(pk=player.pk)
    matches = [(match, match_label(match)) for match in player_matches(player)]
    context = {"player": player, "stats": stats, "matches": matches, "others": others}
    return render(request, "matches/player_detail.html", context)


@login_required
def player_versus(request: HttpRequest, pk: int, other_pk: int) -> HttpResponse:
    players = players_for_user(_user(request))
    first = get_object_or_404(players, pk=pk)
    second = get_object_or_404(players, pk=other_pk)
    result = head_to_head(first, second)
    context = {
        "first": first,
        "second": second,
        "result": result,
        "first_total": result.totals[first.pk],
        "second_total": result.totals[second.pk],
    }
    return render(request, "matches/player_versus.html", context)


@require_POST
def set_deck(request: HttpRequest) -> HttpResponseRedirect:
    """French or German suit names: kept in the profile, or for a visitor (a spectator) in the session."""
    deck = request.POST.get("deck", Deck.FRENCH)
    if deck in Deck.values:
        if request.user.is_authenticated:
            Profile.objects.update_or_create(user=_user(request), defaults={"deck": deck})
        else:
            request.session[DECK_SESSION_KEY] = deck
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("home")
    return HttpResponseRedirect(target)
