"""Writes that touch several models, each in one transaction: starting a match, adding, fixing and undoing games.

Every change to a game leaves a ``MatchEvent`` with the state before and after. Scores are derived: after a fix,
the whole match is rescored from what was entered.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max

from .engine import Contract, GameEntry, Result, RuleError, calculate, find_variant, rules_for
from .engine.bock import bock_ahead, bock_counts
from .engine.errors import FieldError
from .engine.messages import gettext_noop, msg
from .engine.table import seating
from .models import Game, GameScore, Match, MatchEvent, Player, Seat
from .scoring import game_entry


@dataclass(frozen=True)
class Submission:
    """A game as a scorer entered it: all passed, or a declarer's seat and the calculator's ``game`` object."""

    passed: bool = False
    declarer: int | None = None
    entry: dict[str, Any] | None = None
    number: int | None = None

    def state(self) -> dict[str, Any]:
        """The game's entered state this submission asks for (as kept in the history)."""
        return {"passed": self.passed, "declarer": self.declarer, "entry": self.entry}


class StaleSubmission(Exception):
    """A form that was saved already comes back with other content (a page restored from the browser's history):
    applying it would act on an old picture of the match."""


class GameGone(Exception):
    """The game was deleted meanwhile (by another scorer, or a moment ago on this phone)."""


class MatchConflict(Exception):
    """A fix cannot be applied because a later game would no longer make sense (e.g. its declarer would sit out)."""

    def __init__(self, number: int, error: RuleError) -> None:
        self.number = number
        self.error = error
        super().__init__(f"game {number}: {error}")


def passing_allowed(match: Match) -> bool:
    """All may pass (a new deal) where there is bidding and no Ramsch replaces the passed deal."""
    spec = find_variant(match.variant)
    return bool(spec and spec.bidding) and not rules_for(match.variant, match.rules).ramsch


def score_deal(*, match: Match, players: int, deal: int, submission: Submission, bock: int) -> Result | None:
    """Score one deal of ``match`` with the engine; None when all passed. Raises ``RuleError``."""
    if submission.passed:
        if not passing_allowed(match):
            raise RuleError(
                [FieldError("passed", msg(gettext_noop("Under these rules a passed deal is not possible.")))]
            )
        return None
    entry = dict(submission.entry or {})
    is_ramsch = entry.get("contract") == Contract.RAMSCH
    if submission.declarer is None and not is_ramsch:
        raise RuleError([FieldError("declarer", msg(gettext_noop("Choose the declarer.")))])
    entry["bock"] = bock
    return calculate(
        match.variant,
        game_entry(entry),
        scheme=match.scheme,
        rules=match.rules,
        players=players,
        declarer=0 if submission.declarer is None else submission.declarer,
        dealer=seating(players, match.first_dealer, deal).dealer,
    )


def _entry_object(game: Game) -> GameEntry | None:
    return None if game.passed or game.entry is None else game_entry(game.entry)


def _submission(game: Game) -> Submission:
    return Submission(passed=game.passed, declarer=game.declarer, entry=game.entry)


def _apply_result(game: Game, result: Result | None, bock: int) -> None:
    game.bock = bock
    game.won = None if result is None else result.won
    game.game_value = 0 if result is None else result.game_value
    game.breakdown = [] if result is None else [step.to_data() for step in result.breakdown]


def _score_rows(game: Game, seats: Sequence[Seat], playing: Sequence[int], result: Result | None) -> list[GameScore]:
    return [
        GameScore(
            game=game,
            seat=seat.position,
            player_id=seat.player_id,
            points=0 if result is None else result.scores[seat.position],
            declarer=result is not None and game.declarer == seat.position and game.contract != Contract.RAMSCH,
            played=result is not None and seat.position in playing,
        )
        for seat in seats
    ]


def match_create(
    *,
    owner: User,
    variant: str,
    scheme: str,
    rules: dict[str, Any],
    player_names: Sequence[str],
    first_dealer: int = 0,
    title: str = "",
    preset: str = "",
    planned_games: int | None = None,
) -> Match:
    """Start a match: the complete rule set is stored with it, so later changes to presets never rescore it.

    Players are found by name in the owner's address book, or added to it.
    """
    resolved = rules_for(variant, rules).as_dict()
    spec = find_variant(variant)
    assert spec is not None
    kept = {name: value for name, value in resolved.items() if name in spec.options}
    with transaction.atomic():
        match = Match.objects.create(
            owner=owner,
            title=title,
            variant=variant,
            scheme=scheme,
            rules=kept,
            preset=preset,
            first_dealer=first_dealer,
            planned_games=planned_games,
        )
        for position, name in enumerate(player_names):
            player = Player.objects.filter(owner=owner, name__iexact=name.strip()).first()
            if player is None:
                player = Player.objects.create(owner=owner, name=name.strip())
            Seat.objects.create(match=match, position=position, player=player)
    return match


def game_add(*, match: Match, user: User | None, token: uuid.UUID, submission: Submission) -> Game:
    """Append a game. A retried submission (same token) returns the game it created the first time."""
    try:
        with transaction.atomic():
            return _game_add(match=match, user=user, token=token, submission=submission)
    except IntegrityError:
        event = MatchEvent.objects.filter(match=match, token=token).select_related("game").first()
        if event is None:
            raise
        return event.game


def _game_add(*, match: Match, user: User | None, token: uuid.UUID, submission: Submission) -> Game:
    Match.objects.select_for_update().filter(pk=match.pk).values_list("pk", flat=True).get()
    earlier = MatchEvent.objects.filter(match=match, token=token).select_related("game").first()
    if earlier is not None:
        if earlier.action != MatchEvent.Action.ADD or (earlier.after or {}).get("entry") != submission.entry:
            raise StaleSubmission
        return earlier.game
    seats = list(match.seats.all())
    live = Game.objects.filter(match=match, deleted=False)
    deal = live.count() + 1
    if submission.number is not None and submission.number != deal:
        # Another scorer saved a game since this form was shown: both would be entering the same deal.
        taken = msg(
            gettext_noop("Game {number} was just entered from another phone: check the list before saving."),
            number=submission.number,
        )
        raise RuleError([FieldError("match", taken)])
    if match.planned_games is not None and deal > match.planned_games:
        complete = msg(gettext_noop("The series is complete: {games} games."), games=match.planned_games)
        raise RuleError([FieldError("match", complete)])
    rules = rules_for(match.variant, match.rules)
    bock = 0
    if rules.bock:
        recent = list(live.order_by("-position")[: len(seats)])
        bock = bock_ahead(rules, [_entry_object(game) for game in reversed(recent)], len(seats))[0]
    result = score_deal(match=match, players=len(seats), deal=deal, submission=submission, bock=bock)
    last = Game.objects.filter(match=match).aggregate(last=Max("position"))["last"] or 0
    game = Game(
        match=match,
        position=last + 1,
        passed=submission.passed,
        declarer=submission.declarer,
        entry=submission.entry,
        created_by=user,
    )
    _apply_result(game, result, bock)
    game.save()
    playing = seating(len(seats), match.first_dealer, deal).playing
    GameScore.objects.bulk_create(_score_rows(game, seats, playing, result))
    MatchEvent.objects.create(
        match=match, game=game, action=MatchEvent.Action.ADD, token=token, user=user, after=game.snapshot()
    )
    return game


def match_rescore(match: Match) -> None:
    """Rescore every game of the match from what was entered: Bock rounds, dealers and scores follow the list.

    Raises ``MatchConflict`` naming the first game that no longer scores.
    """
    seats = list(match.seats.all())
    games = list(match.games.filter(deleted=False).order_by("position"))
    rules = rules_for(match.variant, match.rules)
    bocks = bock_counts(rules, [_entry_object(game) for game in games], len(seats))
    changed: list[Game] = []
    rows: list[GameScore] = []
    for number, (game, bock) in enumerate(zip(games, bocks, strict=True), start=1):
        try:
            result = score_deal(match=match, players=len(seats), deal=number, submission=_submission(game), bock=bock)
        except RuleError as error:
            raise MatchConflict(number, error) from error
        _apply_result(game, result, bock)
        changed.append(game)
        rows.extend(_score_rows(game, seats, seating(len(seats), match.first_dealer, number).playing, result))
    Game.objects.bulk_update(changed, ["bock", "won", "game_value", "breakdown"])
    GameScore.objects.filter(game__match=match).delete()
    GameScore.objects.bulk_create(rows)


def _record(*, game: Game, action: str, token: uuid.UUID, user: User | None, before: dict[str, Any]) -> MatchEvent:
    return MatchEvent.objects.create(
        match_id=game.match_id,
        game=game,
        action=action,
        token=token,
        user=user,
        before=before,
        after=game.snapshot(),
    )


def _change(
    *, game: Game, user: User | None, token: uuid.UUID, action: str, submission: Submission | None = None
) -> Game:
    """Change one game under the match's lock: fix it (``submission``) or delete it, rescore the match and keep the
    history, once per token. The game is read again under the lock, so a change made a moment ago by another scorer
    is neither overwritten unseen nor recorded with a wrong "before"."""
    state = submission.state() if submission is not None else {"deleted": True}
    try:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=game.match_id).values_list("pk", flat=True).get()
            earlier = MatchEvent.objects.filter(match_id=game.match_id, token=token).first()
            if earlier is not None:
                if earlier.game_id != game.pk or earlier.action != action or not _reached(earlier, state):
                    raise StaleSubmission
                return Game.objects.get(pk=game.pk)
            current = Game.objects.select_for_update().get(pk=game.pk)
            if current.deleted:
                raise GameGone
            before = current.snapshot()
            if submission is not None:
                seats = current.match.seats.count()
                deal = Game.objects.filter(match_id=current.match_id, deleted=False, position__lte=current.position)
                score_deal(match=current.match, players=seats, deal=deal.count(), submission=submission, bock=0)
            for name, value in state.items():
                setattr(current, name, value)
            current.save(update_fields=list(state))
            match_rescore(current.match)
            _record(game=current, action=action, token=token, user=user, before=before)
            return current
    except IntegrityError:
        if not MatchEvent.objects.filter(match_id=game.match_id, token=token).exists():
            raise
        return Game.objects.get(pk=game.pk)


def _reached(event: MatchEvent, state: dict[str, Any]) -> bool:
    after = event.after or {}
    return all(after.get(name) == value for name, value in state.items())


def game_edit(*, game: Game, user: User | None, token: uuid.UUID, submission: Submission) -> Game:
    """Replace what was entered for a game; every later game is rescored. The old entry stays in the history.

    Raises ``RuleError`` for an entry the rules refuse, ``GameGone`` if the game was deleted meanwhile,
    ``StaleSubmission`` for a form saved before with other content, ``MatchConflict`` if a later game would break.
    """
    return _change(game=game, user=user, token=token, action=MatchEvent.Action.EDIT, submission=submission)


def game_delete(*, game: Game, user: User | None, token: uuid.UUID) -> Game:
    """Take a game off the list; it stays in the history and can be brought back by undo."""
    return _change(game=game, user=user, token=token, action=MatchEvent.Action.DELETE)


def match_undo(*, match: Match, user: User | None, token: uuid.UUID) -> MatchEvent | None:
    """Undo the latest change not yet undone (adding, fixing or deleting a game); None if there is nothing left."""
    try:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=match.pk).values_list("pk", flat=True).get()
            done = MatchEvent.objects.filter(match=match, token=token).first()
            if done is not None:
                return done
            last = (
                MatchEvent.objects.filter(match=match, undone_by__isnull=True)
                .exclude(action=MatchEvent.Action.UNDO)
                .select_related("game")
                .first()
            )
            if last is None:
                return None
            game = last.game
            before = game.snapshot()
            restored = last.before or {**before, "deleted": True}
            for name in ("passed", "declarer", "entry", "deleted"):
                setattr(game, name, restored[name])
            game.save(update_fields=["passed", "declarer", "entry", "deleted"])
            match_rescore(match)
            return MatchEvent.objects.create(
                match=match,
                game=game,
                action=MatchEvent.Action.UNDO,
                token=token,
                user=user,
                before=before,
                after=game.snapshot(),
                undo_of=last,
            )
    except IntegrityError:
        done = MatchEvent.objects.filter(match=match, token=token).first()
        if done is None:
            raise
        return done
