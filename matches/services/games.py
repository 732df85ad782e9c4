"""Games: adding, replaying a retried add, fixing and deleting a game, and undoing and redoing the last change."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ..engine import (
    Checkpoint,
    DealEntry,
    RuleError,
    deal_from_data,
    deal_state,
    score_next,
)
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict, Invalid
from ..models import Game, Match, MatchEvent
from ..rows import row_inserted, row_updated
from ..selectors import checkpoint_before, redoable, undoable
from .changes import (
    GameGone,
    MatchConflict,
    StaleSubmission,
    answered_before,
    bump_version,
    copy_derived,
    enter_deal,
    game_derive,
    lock_current,
    lock_match,
    recent_deals,
    record_game_change,
    refuse_closed,
    replayed_change,
    rescore_from,
    scores_inserted,
    seat_players,
)


@dataclass(frozen=True)
class Submission:
    """A deal as a scorer or a client submitted it, not yet read: all passed, or the declarer's seat and the game
    in the calculator's shape. ``number`` is the deal the form was made for (adding), if it says."""

    passed: bool = False
    declarer: int | None = None
    entry: dict[str, Any] | None = None
    number: int | None = None

    def deal(self) -> DealEntry:
        """The deal, read by the engine; raises ``Invalid`` for data of the wrong shape."""
        try:
            return deal_from_data(passed=self.passed, declarer=self.declarer, entry=self.entry)
        except RuleError as error:
            raise Invalid.from_rules(error) from error

    def reached(self, state: dict[str, Any] | None) -> bool:
        """Whether a stored state is what this submission asked for (a retry of it)."""
        try:
            wanted = deal_state(self.deal())
        except Invalid:
            return False
        return state is not None and all(state.get(name) == value for name, value in wanted.items())


@dataclass(frozen=True)
class Added:
    """What adding a game did: the game, the change that records it, and the match after it (``after``: its next
    deal can be worked out without reading the match again). ``replayed``: a retry, answered with the first result
    (the match may have moved on since)."""

    game: Game
    change: MatchEvent
    after: Checkpoint
    replayed: bool = False


def game_add(*, match: Match, user: User | None, token: uuid.UUID, submission: Submission) -> Added:
    """Append a game (or a passed deal). A retried submission (same token) returns the game it created the first
    time; the same token with other content is a ``StaleSubmission``; a form made for a deal that another phone
    entered meanwhile is refused (``Conflict``)."""
    with transaction.atomic():
        locked = lock_current(match)
        setup = locked.setup()
        earlier = _added_before(match, locked, token, submission)
        if earlier is not None:
            return earlier
        refuse_closed(locked)
        deal = submission.deal()
        if submission.number is not None and submission.number < locked.deals + 1:
            raise Conflict.about_match(
                msg(
                    gettext_noop("Game {number} was just entered from another phone: check the list before saving."),
                    number=submission.number,
                )
            )
        if submission.number is not None and submission.number > locked.deals + 1:
            # The list got shorter since the form was made (an undo or a deletion): nobody entered that game.
            raise Conflict.about_match(
                msg(
                    gettext_noop("The next game is {next}, not game {number}: check the list before saving."),
                    next=locked.deals + 1,
                    number=submission.number,
                )
            )
        last_position, recent = recent_deals(locked, setup.reach)
        point = Checkpoint(locked.deals, tuple(locked.totals), recent)
        try:
            scored = score_next(setup, point, deal)
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        version = bump_version(locked)
        game = Game(match=locked, position=last_position + 1, created_by=user, version=version)
        enter_deal(game, deal)
        game_derive(game, scored)
        row_inserted(game)
        scores_inserted(game, seat_players(locked), scored)
        after = point.after(setup, scored)
        locked.deals, locked.totals = after.deals, list(after.totals)
        row_updated(locked, ["version", "deals", "totals", "updated_at"])
        change = record_game_change(locked, game, MatchEvent.Action.ADD, token, user, before=None)
        return Added(game, change, after)


def game_replay(*, match: Match, token: uuid.UUID, submission: Submission) -> Added | None:
    """The game a retried submission (same token) added, answered as ``game_add`` answers it; None if the token
    added nothing. Changes nothing: it answers a retry from a phone that may no longer score (a closed list)."""
    with transaction.atomic():
        return _added_before(match, lock_match(match.pk), token, submission)


def _added_before(match: Match, locked: Match, token: uuid.UUID, submission: Submission) -> Added | None:
    earlier = replayed_change(locked, token) if answered_before(locked, token) else None
    if earlier is None:
        return None
    if earlier.game is None or earlier.action != MatchEvent.Action.ADD or not submission.reached(earlier.after):
        raise StaleSubmission
    copy_derived(match, locked)
    return Added(earlier.game, earlier, checkpoint_before(locked, locked.setup()), replayed=True)


@dataclass(frozen=True)
class Changed:
    """What fixing or deleting a game did: the game as it stands after the change. ``replayed``: a retry,
    answered with the game as it stands now (the match may have moved on since)."""

    game: Game
    replayed: bool = False


def game_edit(
    *,
    game: Game,
    user: User | None,
    token: uuid.UUID,
    submission: Submission,
    version: int | None = None,
) -> Changed:
    """Replace what was entered for a game; the games it reaches are rescored. The old entry stays in the history.

    ``version`` is the match version the form was made on: if the game changed since, the fix is refused
    (``Conflict``) rather than overwriting the other change unseen. Raises ``Invalid`` for an entry the rules refuse,
    ``GameGone`` if the game was deleted meanwhile, ``StaleSubmission`` for a form saved before with other content.
    """
    with transaction.atomic():
        locked = lock_match(game.match_id)
        earlier = replayed_change(locked, token)
        if earlier is not None:
            if (
                earlier.game_id != game.pk
                or earlier.action != MatchEvent.Action.EDIT
                or not submission.reached(earlier.after)
            ):
                raise StaleSubmission
            return Changed(Game.objects.get(pk=game.pk), replayed=True)
        refuse_closed(locked)
        current = _live_game(game, version)
        deal = submission.deal()
        before = current.snapshot()
        enter_deal(current, deal)
        current.version = bump_version(locked)
        rescore_from(locked, current, renumbered=False, own_errors=Invalid)
        record_game_change(locked, current, MatchEvent.Action.EDIT, token, user, before=before)
        return Changed(current)


def game_delete(*, game: Game, user: User | None, token: uuid.UUID, version: int | None = None) -> Changed:
    """Take a game off the list; it stays in the history and undo brings it back. Later games move up a deal."""
    with transaction.atomic():
        locked = lock_match(game.match_id)
        earlier = replayed_change(locked, token)
        if earlier is not None:
            if earlier.game_id != game.pk or earlier.action != MatchEvent.Action.DELETE:
                raise StaleSubmission
            return Changed(Game.objects.get(pk=game.pk), replayed=True)
        refuse_closed(locked)
        current = _live_game(game, version)
        before, number = current.snapshot(), current.number
        current.deleted = True
        current.version = bump_version(locked)
        rescore_from(locked, current, renumbered=True, own_errors=MatchConflict)
        record_game_change(locked, current, MatchEvent.Action.DELETE, token, user, before=before, number=number)
        return Changed(current)


def _live_game(game: Game, version: int | None) -> Game:
    """The game as stored now (read under the match's lock), if it is still on the list and unchanged since
    ``version``."""
    current = Game.objects.get(pk=game.pk)
    if current.deleted:
        raise GameGone
    if version is not None and current.version > version:
        raise Conflict.about_match(
            msg(
                gettext_noop(
                    "Game {number} was changed on another phone meanwhile; nothing was changed here. "
                    "Look at it again before changing it."
                ),
                number=current.number or 0,
            )
        )
    return current


def match_undo(
    *,
    match: Match,
    user: User | None,
    token: uuid.UUID,
    change: uuid.UUID | None = None,
    version: int | None = None,
) -> MatchEvent | None:
    """Undo the latest change not yet undone (adding, fixing, deleting or redoing a game); None if there is nothing
    left. ``change`` names the change the undo was offered for and ``version`` the match version the page showed:
    when the match moved on since, nothing is undone and a ``Conflict`` says what the latest change is now."""
    return match_step(match=match, user=user, token=token, change=change, version=version, redo=False).change


def match_redo(
    *,
    match: Match,
    user: User | None,
    token: uuid.UUID,
    change: uuid.UUID | None = None,
    version: int | None = None,
) -> MatchEvent | None:
    """Take back the latest undo (as long as nothing was changed after it); None if there is nothing to redo."""
    return match_step(match=match, user=user, token=token, change=change, version=version, redo=True).change


@dataclass(frozen=True)
class Stepped:
    """What an undo or a redo did: the change that records it (None: there was nothing to undo or redo), and whether
    it was made before by the same token (``replayed``: a retry, answered with the change its first post made)."""

    change: MatchEvent | None
    replayed: bool = False


def match_step(
    *,
    match: Match,
    user: User | None,
    token: uuid.UUID,
    change: uuid.UUID | None,
    version: int | None,
    redo: bool,
) -> Stepped:
    """Undo (``redo`` False) or redo the latest change, as ``match_undo`` and ``match_redo`` say; the token sent
    again for another step, or with another ``change`` named, is a ``StaleSubmission``."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        done = replayed_change(locked, token)
        if done is not None:
            other = change is not None and (done.undo_of is None or done.undo_of.public_id != change)
            if done.action != (MatchEvent.Action.REDO if redo else MatchEvent.Action.UNDO) or other:
                raise StaleSubmission
            return Stepped(done, replayed=True)
        refuse_closed(locked)
        if version is not None and locked.version != version:
            raise Conflict.about_match(
                msg(gettext_noop("The match was changed on another phone meanwhile; nothing was undone or redone."))
            )
        target = redoable(locked) if redo else undoable(locked)
        if target is None:
            return Stepped(None)
        if change is not None and target.public_id != change:
            raise Conflict.about_match(
                msg(gettext_noop("The last change is not the one shown any more; nothing was undone or redone."))
            )
        assert target.game_id is not None  # only a game's changes are undone and redone
        game = Game.objects.get(pk=target.game_id)
        before, number = game.snapshot(), game.number
        restored = target.before or {**before, "deleted": True}
        renumbered = bool(restored["deleted"]) != game.deleted
        game.passed, game.declarer, game.entry = restored["passed"], restored["declarer"], restored["entry"]
        game.deleted, game.entry_version = restored["deleted"], int(restored.get("v", 0))
        game.version = bump_version(locked)
        rescore_from(locked, game, renumbered=renumbered, own_errors=MatchConflict)
        action = MatchEvent.Action.REDO if redo else MatchEvent.Action.UNDO
        event = record_game_change(
            locked, game, action, token, user, before=before, undo_of=target, number=game.number or number
        )
        copy_derived(match, locked)
        return Stepped(event)
