"""Every write, in one protocol: each change runs in one transaction under its match's lock, answers a retried token
first (before anything is checked, so a retry racing its first post gets the first answer), then checks the version
the request was made on, lets the engine decide, writes only the rows whose values change, records a ``MatchEvent``
and bumps the match's version. Every failure is a ``ServiceError`` (see ``errors.py``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from .engine import (
    RULES_VERSION,
    Checkpoint,
    DealEntry,
    DealRefused,
    FieldError,
    MatchSetup,
    Message,
    RuleError,
    ScoredDeal,
    deal_from_data,
    deal_state,
    score_deals,
    score_next,
    setup_match,
)
from .engine.entry import stored_version
from .engine.messages import gettext_noop, msg
from .engine.presets import PRESETS
from .errors import Conflict, Gone, Invalid, ServiceError
from .models import Game, GameScore, Keeper, Match, MatchEvent, Player, Seat, new_link_token
from .names import REPLACEMENT, BadName, name_key, normalize_name, unreadable
from .selectors import checkpoint_before, redoable, undoable

MAX_TITLE_LENGTH = 100
ENTERED = ("passed", "declarer", "entry", "entry_version", "deleted")
DERIVED = ("number", "bock", "won", "game_value", "points", "breakdown", "rules_version")


class StaleSubmission(Conflict):
    """A form that was saved already comes back with other content (a page restored from the browser's history):
    applying it would act on an old picture of the match."""

    def __init__(self) -> None:
        super().__init__(
            [FieldError("match", msg(gettext_noop("This form was saved already; here is the match as it stands now.")))]
        )


class GameGone(Gone):
    """The game was deleted meanwhile (by another scorer, or a moment ago on this phone)."""

    def __init__(self) -> None:
        super().__init__(
            [FieldError("match", msg(gettext_noop("This game was deleted meanwhile; nothing was changed.")))]
        )


class ListClosed(Conflict):
    """The match is a table of a club night that was closed (until the night reopens), or that entered its list from
    paper: its list stays as it is."""

    def __init__(self) -> None:
        super().__init__(
            [
                FieldError(
                    "match",
                    msg(
                        gettext_noop(
                            "This list is closed (its club night was closed, or it came from paper); "
                            "nothing was changed."
                        )
                    ),
                )
            ]
        )


class MatchConflict(Conflict):
    """A change cannot be applied because a game would no longer make sense (e.g. its declarer would sit out)."""

    def __init__(self, number: int, error: RuleError) -> None:
        self.number = number
        self.error = error
        reasons = join_messages([problem.message for problem in error.errors])
        super().__init__(
            [
                FieldError(
                    "match",
                    msg(
                        gettext_noop("This change would break game {number}: {reasons}"), number=number, reasons=reasons
                    ),
                )
            ]
        )


def join_messages(messages: Sequence[Message]) -> Message:
    """Several messages as one, separated by semicolons."""
    joined = messages[-1]
    for earlier in reversed(messages[:-1]):
        joined = msg(gettext_noop("{first}; {rest}"), first=earlier, rest=joined)
    return joined


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


# --- Keepers and players -------------------------------------------------------------------------------------------


def keeper_for(user: User) -> Keeper:
    """A person's own keeper, made on first use."""
    keeper, _ = Keeper.objects.get_or_create(user=user)
    return keeper


def guest_keeper(key: str | None) -> Keeper:
    """The guest's book of a browser without an account (by the key it holds), started on first use."""
    found = Keeper.objects.filter(guest_key=key, user__isnull=True).first() if key else None
    return found or Keeper.objects.create(guest_key=uuid.uuid4())


def keeper_claim(*, key: str | None, user: User) -> Keeper | None:
    """A guest who signs up or logs in takes their book along: its matches and players become the account's, a
    player of a name the account's book has already becoming that player, with their history. None when the
    browser held no guest's book."""
    if not key:
        return None
    with transaction.atomic():
        # Locked, and read again under the lock: two log-ins at once take the book once.
        guest = Keeper.objects.select_for_update().filter(guest_key=key, user__isnull=True).first()
        if guest is None:
            return None
        own = Keeper.objects.filter(user=user).first()
        if own is None:
            guest.user, guest.guest_key = user, None
            guest.save(update_fields=["user", "guest_key"])
            Match.objects.filter(keeper=guest, created_by__isnull=True).update(created_by=user)
            return guest
        list(Match.objects.select_for_update().filter(keeper=guest).order_by("pk").values("pk"))
        for player in Player.objects.filter(keeper=guest):
            same = Player.objects.filter(keeper=own, name_key=player.name_key).first()
            if same is None:
                Player.objects.filter(pk=player.pk).update(keeper=own)
                continue
            Seat.objects.filter(player=player).update(player=same)
            GameScore.objects.filter(player=player).update(player=same)
            player.delete()
        Match.objects.filter(keeper=guest).update(keeper=own, created_by=user)
        guest.delete()
        return own


def match_links_claim(*, links: Mapping[str, str], user: User) -> None:
    """Invite links held without an account (by match public id) make the account a co-scorer of their matches,
    as long as each link still opens its match."""
    for public_id, token in links.items():
        match = (
            Match.objects.filter(public_id=public_id, invite_token=token, locked=False).select_related("keeper").first()
        )
        if match is not None and match.keeper.user_id != user.pk:
            match_scorer_join(match=match, user=user)


def player_named(keeper: Keeper, name: str) -> Player:
    """The keeper's player of that name (compared by ``name_key``), added if new. Two requests adding the same new
    player at the same moment both get the one player."""
    key = name_key(name)
    found = Player.objects.filter(keeper=keeper, name_key=key).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Player.objects.create(keeper=keeper, name=name, name_key=key)
    except IntegrityError:
        return Player.objects.get(keeper=keeper, name_key=key)


def check_player_names(raw_names: Sequence[str]) -> list[str]:
    """The names in seat order, normalised; raises ``Invalid`` naming each bad seat (``players.0``, …) and a name
    given twice."""
    errors: list[FieldError] = []
    names: list[str] = []
    for seat, raw in enumerate(raw_names):
        try:
            names.append(normalize_name(raw))
        except BadName as bad:
            errors.append(FieldError(f"players.{seat}", bad.message))
    keys = [name_key(name) for name in names]
    if len(set(keys)) != len(keys):
        errors.append(FieldError("players", msg(gettext_noop("Each player can sit at the table only once."))))
    if errors:
        raise Invalid(errors)
    return names


# --- Starting a match ----------------------------------------------------------------------------------------------


def match_create(
    *,
    owner: User | None,
    variant: str,
    scheme: str | None,
    rules: dict[str, Any],
    player_names: Sequence[str],
    first_dealer: int = 0,
    title: str = "",
    preset: str = "",
    planned_games: int | None = None,
    token: uuid.UUID | None = None,
    keeper: Keeper | None = None,
    public_id: uuid.UUID | None = None,
) -> Match:
    """Start a match, checking everything a page would: the variant, scheme and rules, the players (2 to 4 as the
    variant has it, each once), the first dealer, the length, the title and the preset. The complete rule set is
    stored with it, so later changes to presets never rescore it. Players are found by name in the keeper's book,
    or added to it. A ``preset`` gives the scheme (``scheme`` None: the preset's, or the variant's first) and the
    rules that ``rules`` does not name. A retried ``token`` returns the match it started the first time.
    ``public_id``: the one it had before (a restored backup)."""
    keeper = keeper or (keeper_for(owner) if owner is not None else None)
    if keeper is None:
        raise Invalid.about_match(msg(gettext_noop("A match needs somebody to keep it.")))
    if token is not None:
        started = Match.objects.filter(token=token).first()
        if started is not None:
            return _started_again(started, keeper, variant, player_names)
    setup, names = check_new_match(variant, scheme, rules, player_names, first_dealer, title, preset, planned_games)
    try:
        with transaction.atomic():
            match = Match.objects.create(
                public_id=public_id or uuid.uuid4(),
                keeper=keeper,
                created_by=owner,
                token=token,
                title=title.strip(),
                variant=setup.spec.variant.value,
                scheme=setup.scheme.value,
                rules=setup.stored_rules(),
                preset=preset,
                players=setup.players,
                first_dealer=setup.first_dealer,
                planned_games=setup.planned_games,
                totals=[0] * setup.players,
            )
            Seat.objects.bulk_create(
                Seat(match=match, position=position, player=player_named(keeper, name))
                for position, name in enumerate(names)
            )
    except IntegrityError:
        started = Match.objects.filter(token=token).first() if token is not None else None
        if started is None:
            raise
        return _started_again(started, keeper, variant, player_names)
    return match


def _key_of(raw: object) -> str | None:
    try:
        return name_key(normalize_name(str(raw)))
    except BadName:
        return None


def _started_again(started: Match, keeper: Keeper, variant: str, player_names: Sequence[str]) -> Match:
    """The match a retried start made the first time; the same token from another book, or for another variant or
    other players, is a ``StaleSubmission`` (and shows nothing of that match). Between guests' books the token is
    the credential: a guest whose first answer was lost retries from a browser that holds no book yet."""
    keys = [_key_of(name) for name in player_names]
    seated = list(Seat.objects.filter(match=started).order_by("position").values_list("player__name_key", flat=True))
    guests = started.keeper.guest_key is not None and keeper.guest_key is not None
    if (started.keeper_id != keeper.pk and not guests) or started.variant != variant or seated != keys:
        raise StaleSubmission
    return started


def check_new_match(
    variant: str,
    scheme: str | None,
    rules: dict[str, Any],
    player_names: Sequence[str],
    first_dealer: int,
    title: str,
    preset: str,
    planned_games: int | None,
) -> tuple[MatchSetup, list[str]]:
    """What a new match is checked for (variant, scheme, rules, players, first dealer, length, title, preset): its
    setup and the names in seat order, or ``Invalid`` naming every field that is wrong."""
    errors: list[FieldError] = []
    names: list[str] = []
    try:
        names = check_player_names(player_names)
    except Invalid as error:
        errors.extend(error.errors)
    chosen = PRESETS.get(preset) if preset else None
    if chosen is not None:
        # A preset is where the choices start: its scheme and rules, each changed only where the table said so.
        if chosen.variant.value != variant:
            errors.append(FieldError("preset", msg(gettext_noop("This preset is for another variant."))))
        scheme = scheme or chosen.scheme.value
        rules = {**chosen.rules, **rules}
    setup: MatchSetup | None = None
    try:
        setup = setup_match(
            variant,
            scheme=scheme,
            rules=rules,
            players=len(player_names),
            first_dealer=first_dealer,
            planned_games=planned_games,
        )
    except RuleError as error:
        errors.extend(error.errors)
    if len(title.strip()) > MAX_TITLE_LENGTH:
        errors.append(FieldError("title", msg(gettext_noop("At most {count} characters."), count=MAX_TITLE_LENGTH)))
    if REPLACEMENT in title:
        errors.append(FieldError("title", unreadable()))
    if preset and preset not in PRESETS:
        errors.append(FieldError("preset", msg(gettext_noop("Must be one of: {choices}."), choices=", ".join(PRESETS))))
    if errors:
        raise Invalid(errors)
    assert setup is not None
    return setup, names


# --- Games ---------------------------------------------------------------------------------------------------------


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
        locked = _lock(match.pk)
        setup = locked.setup()
        earlier = _added_before(match, locked, token, submission)
        if earlier is not None:
            return earlier
        _refuse_closed(locked)
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
        last_position, recent = _tail(locked, setup.reach)
        point = Checkpoint(locked.deals, tuple(locked.totals), recent)
        try:
            scored = score_next(setup, point, deal)
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        version = _bump(locked)
        game = Game(match=locked, position=last_position + 1, created_by=user, version=version)
        _enter(game, deal)
        game_derive(game, scored)
        game.save(force_insert=True)
        GameScore.objects.bulk_create(game_score_rows(game, _seat_players(locked), scored))
        after = point.after(setup, scored)
        locked.deals, locked.totals = after.deals, list(after.totals)
        locked.save(update_fields=["version", "deals", "totals", "updated_at"])
        change = _record(locked, game, MatchEvent.Action.ADD, token, user, before=None)
        _copy_derived(match, locked)
        return Added(game, change, after)


def game_replay(*, match: Match, token: uuid.UUID, submission: Submission) -> Added | None:
    """The game a retried submission (same token) added, answered as ``game_add`` answers it; None if the token
    added nothing. Changes nothing: it answers a retry from a phone that may no longer score (a closed list)."""
    with transaction.atomic():
        return _added_before(match, _lock(match.pk), token, submission)


def _added_before(match: Match, locked: Match, token: uuid.UUID, submission: Submission) -> Added | None:
    earlier = _replayed(locked, token) if _answered(locked, token) else None
    if earlier is None:
        return None
    if earlier.game is None or earlier.action != MatchEvent.Action.ADD or not submission.reached(earlier.after):
        raise StaleSubmission
    _copy_derived(match, locked)
    return Added(earlier.game, earlier, checkpoint_before(locked, locked.setup()), replayed=True)


def game_edit(
    *,
    game: Game,
    user: User | None,
    token: uuid.UUID,
    submission: Submission,
    version: int | None = None,
) -> Game:
    """Replace what was entered for a game; the games it reaches are rescored. The old entry stays in the history.

    ``version`` is the match version the form was made on: if the game changed since, the fix is refused
    (``Conflict``) rather than overwriting the other change unseen. Raises ``Invalid`` for an entry the rules refuse,
    ``GameGone`` if the game was deleted meanwhile, ``StaleSubmission`` for a form saved before with other content.
    """
    with transaction.atomic():
        locked = _lock(game.match_id)
        earlier = _replayed(locked, token)
        if earlier is not None:
            if (
                earlier.game_id != game.pk
                or earlier.action != MatchEvent.Action.EDIT
                or not submission.reached(earlier.after)
            ):
                raise StaleSubmission
            return Game.objects.get(pk=game.pk)
        _refuse_closed(locked)
        current = _live_game(game, version)
        deal = submission.deal()
        before = current.snapshot()
        _enter(current, deal)
        current.version = _bump(locked)
        _rescore(locked, current, renumbered=False, own_errors=Invalid)
        _record(locked, current, MatchEvent.Action.EDIT, token, user, before=before)
        return current


def game_delete(*, game: Game, user: User | None, token: uuid.UUID, version: int | None = None) -> Game:
    """Take a game off the list; it stays in the history and undo brings it back. Later games move up a deal."""
    with transaction.atomic():
        locked = _lock(game.match_id)
        earlier = _replayed(locked, token)
        if earlier is not None:
            if earlier.game_id != game.pk or earlier.action != MatchEvent.Action.DELETE:
                raise StaleSubmission
            return Game.objects.get(pk=game.pk)
        _refuse_closed(locked)
        current = _live_game(game, version)
        before, number = current.snapshot(), current.number
        current.deleted = True
        current.version = _bump(locked)
        _rescore(locked, current, renumbered=True, own_errors=MatchConflict)
        _record(locked, current, MatchEvent.Action.DELETE, token, user, before=before, number=number)
        return current


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


# --- Undo and redo -------------------------------------------------------------------------------------------------


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
    return _step_back(match=match, user=user, token=token, change=change, version=version, redo=False)


def match_redo(
    *,
    match: Match,
    user: User | None,
    token: uuid.UUID,
    change: uuid.UUID | None = None,
    version: int | None = None,
) -> MatchEvent | None:
    """Take back the latest undo (as long as nothing was changed after it); None if there is nothing to redo."""
    return _step_back(match=match, user=user, token=token, change=change, version=version, redo=True)


def _step_back(
    *,
    match: Match,
    user: User | None,
    token: uuid.UUID,
    change: uuid.UUID | None,
    version: int | None,
    redo: bool,
) -> MatchEvent | None:
    with transaction.atomic():
        locked = _lock(match.pk)
        done = _replayed(locked, token)
        if done is not None:
            if done.action != (MatchEvent.Action.REDO if redo else MatchEvent.Action.UNDO):
                raise StaleSubmission
            return done
        _refuse_closed(locked)
        if version is not None and locked.version != version:
            raise Conflict.about_match(
                msg(gettext_noop("The match was changed on another phone meanwhile; nothing was undone or redone."))
            )
        target = redoable(locked) if redo else undoable(locked)
        if target is None:
            return None
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
        game.version = _bump(locked)
        _rescore(locked, game, renumbered=renumbered, own_errors=MatchConflict)
        action = MatchEvent.Action.REDO if redo else MatchEvent.Action.UNDO
        event = _record(locked, game, action, token, user, before=before, undo_of=target, number=game.number or number)
        _copy_derived(match, locked)
        return event


# --- The shared machinery ------------------------------------------------------------------------------------------


def _lock(match_pk: int) -> Match:
    """The match row, locked until the transaction ends: every change to a match runs one at a time."""
    return Match.objects.select_for_update().get(pk=match_pk)


def _refuse_closed(match: Match) -> None:
    if match.locked:
        raise ListClosed


def _answered(match: Match, token: uuid.UUID) -> bool:
    """Whether ``token`` was answered before (usually not, and then nothing else need be read for it). Read under
    the match's lock: on PostgreSQL a statement that waited for the lock would still read everything but the locked
    row as it was before the wait, so a retry racing its first post would miss it."""
    return MatchEvent.objects.filter(match_id=match.pk, token=token).exists()


TAIL_SLACK = 4  # deleted games the tail read passes over before it reads again


def _tail(match: Match, reach: int) -> tuple[int, tuple[DealEntry, ...]]:
    """The last position a game of the match took, and its last ``reach`` live deals, oldest first, in one read of
    the latest games (deleted ones included) unless many were deleted at the end."""
    rows = list(
        Game.objects.filter(match_id=match.pk)
        .order_by("-position")
        .values_list("position", "deleted", "passed", "declarer", "entry", "entry_version")[: reach + TAIL_SLACK]
    )
    last_position = rows[0][0] if rows else 0
    live = [row for row in rows if not row[1]][:reach]
    if len(live) < min(reach, match.deals):
        live = list(
            Game.objects.filter(match_id=match.pk, deleted=False)
            .order_by("-position")
            .values_list("position", "deleted", "passed", "declarer", "entry", "entry_version")[:reach]
        )
    recent = tuple(
        deal_from_data(passed=passed, declarer=declarer, entry=entry, version=version)
        for _, _, passed, declarer, entry, version in reversed(live)
    )
    return last_position, recent


def _replayed(match: Match, token: uuid.UUID) -> MatchEvent | None:
    return MatchEvent.objects.filter(match=match, token=token).select_related("game", "undo_of").first()


def _bump(match: Match) -> int:
    match.version += 1
    return match.version


def _copy_derived(target: Match, source: Match) -> None:
    """Keep the caller's match object in step with what was just written."""
    target.version, target.deals, target.totals = source.version, source.deals, source.totals


def _record(
    match: Match,
    game: Game,
    action: str,
    token: uuid.UUID,
    user: User | None,
    *,
    before: dict[str, Any] | None,
    undo_of: MatchEvent | None = None,
    number: int | None = None,
) -> MatchEvent:
    """The change in the history, with the game's number then (a deleted game keeps the number it had)."""
    return MatchEvent.objects.create(
        match=match,
        game=game,
        action=action,
        token=token,
        user=user,
        version=match.version,
        number=number if number is not None else game.number,
        before=before,
        after=game.snapshot(),
        undo_of=undo_of,
    )


def _enter(game: Game, deal: DealEntry) -> None:
    state = deal_state(deal)
    game.passed, game.declarer, game.entry = state["passed"], state["declarer"], state["entry"]
    game.entry_version = stored_version(deal)


def game_derive(game: Game, scored: ScoredDeal) -> None:
    """Set what the engine derives for ``game`` from its scoring."""
    game.number = scored.number
    game.bock = scored.bock
    game.won = scored.won
    game.game_value = scored.game_value
    game.points = list(scored.scores)
    game.breakdown = [step.to_data() for step in scored.breakdown]
    game.rules_version = RULES_VERSION


def _seat_players(match: Match) -> list[int]:
    return list(Seat.objects.filter(match_id=match.pk).order_by("position").values_list("player_id", flat=True))


def game_score_rows(game: Game, players: Sequence[int], scored: ScoredDeal) -> list[GameScore]:
    """The score rows of ``game`` as scored, one per seat (``players``: the seats' player ids)."""
    return [
        GameScore(
            game=game,
            seat=seat,
            player_id=player,
            points=scored.scores[seat],
            declarer=scored.declarer == seat,
            played=scored.played[seat],
        )
        for seat, player in enumerate(players)
    ]


def _rescore(match: Match, changed: Game, *, renumbered: bool, own_errors: type[ServiceError]) -> None:
    """Rescore the list from ``changed`` on and write only what changes; ``changed`` (already changed in memory)
    is saved with it.

    A fix keeps every game's number, so only the games its Bock can reach are rescored; a deletion or a restored
    game moves every later game a deal, and all of them are. Refusals of ``changed`` itself raise ``own_errors``,
    of a later game a ``MatchConflict`` naming it.
    """
    setup = match.setup()
    point = checkpoint_before(match, setup, position=changed.position)
    first = point.deals + 1
    later = Game.objects.filter(match=match, deleted=False, position__gt=changed.position).order_by("position")
    games = list(later if renumbered else later[: setup.reach])
    if not changed.deleted:
        games.insert(0, changed)
    stored = _stored_scores(games)
    deltas = [0] * setup.players
    try:
        scored_deals = [scored for scored, _ in score_deals(setup, [game.deal() for game in games], point)]
    except DealRefused as refused:
        if not changed.deleted and refused.number == first:
            raise own_errors(refused.errors) from refused
        raise MatchConflict(refused.number, refused) from refused
    players = _seat_players(match)
    games_changed: list[Game] = []
    rows_changed: list[GameScore] = []
    rows_new: list[GameScore] = []
    for game, scored in zip(games, scored_deals, strict=True):
        old_derived = tuple(getattr(game, name) for name in DERIVED)
        old_number = game.number
        game_derive(game, scored)
        if game is not changed and old_derived != tuple(getattr(game, name) for name in DERIVED):
            if game.number != old_number:
                # Another deal now, with other seats: a fix made for the old one must not land on it unseen.
                game.version = match.version
            games_changed.append(game)
        rows = stored.get(game.pk, {})
        for row in game_score_rows(game, players, scored):
            old = rows.get(row.seat)
            deltas[row.seat] += row.points - (old.points if old else 0)
            if old is None:
                rows_new.append(row)
            elif (old.points, old.declarer, old.played) != (row.points, row.declarer, row.played):
                old.points, old.declarer, old.played = row.points, row.declarer, row.played
                rows_changed.append(old)
    if changed.deleted:
        for seat, row in _stored_scores([changed]).get(changed.pk, {}).items():
            deltas[seat] -= row.points
        GameScore.objects.filter(game=changed).delete()
        changed.number, changed.points = None, []
    changed.save()
    Game.objects.bulk_update(games_changed, [*DERIVED, "version"])
    GameScore.objects.bulk_update(rows_changed, ["points", "declarer", "played"])
    GameScore.objects.bulk_create(rows_new)
    match.totals = [total + delta for total, delta in zip(match.totals, deltas, strict=True)]
    if renumbered:
        match.deals += -1 if changed.deleted else 1
    match.save(update_fields=["version", "deals", "totals", "updated_at"])


def _stored_scores(games: Sequence[Game]) -> dict[int, dict[int, GameScore]]:
    rows: dict[int, dict[int, GameScore]] = {}
    for row in GameScore.objects.filter(game__in=[game.pk for game in games if game.pk]):
        rows.setdefault(row.game_id, {})[row.seat] = row
    return rows


# --- Links ---------------------------------------------------------------------------------------------------------


def match_link_renew(*, match: Match, link: str, revoke: bool = False) -> Match:
    """Give the co-scorers' (``invite``) or the spectators' (``share``) link a new address, or turn it off: whoever
    holds the old one loses access."""
    field = {"invite": "invite_token", "share": "share_token"}.get(link)
    if field is None:
        raise Invalid([FieldError("link", msg(gettext_noop("Must be one of: {choices}."), choices="invite, share"))])
    with transaction.atomic():
        locked = _lock(match.pk)
        _refuse_closed(locked)
        setattr(locked, field, None if revoke else new_link_token())
        locked.save(update_fields=[field, "updated_at"])
    setattr(match, field, getattr(locked, field))
    return match


def match_retitle(*, match: Match, title: str) -> Match:
    """Give the match another title (a club table whose night got another date); the version moves on, so that the
    phones showing it learn at once. Its games and rules stay as they are."""
    title = " ".join(title.split())
    if len(title) > MAX_TITLE_LENGTH:
        raise Invalid([FieldError("title", msg(gettext_noop("At most {count} characters."), count=MAX_TITLE_LENGTH))])
    with transaction.atomic():
        locked = _lock(match.pk)
        if locked.title != title:
            locked.title = title
            _bump(locked)
            locked.save(update_fields=["title", "version", "updated_at"])
    match.title, match.version = locked.title, locked.version
    return match


class ListPlayed(Conflict):
    """A match whose list has had a game cannot be discarded: what was entered stays, with its history."""

    def __init__(self) -> None:
        super().__init__(
            [
                FieldError(
                    "match", msg(gettext_noop("A game was saved on this list; it stays, and nothing was removed."))
                )
            ]
        )


def match_discard(*, match: Match) -> None:
    """Remove a match on whose list nothing was ever entered (a club table drawn by mistake). A game saved once,
    even one deleted or undone since, keeps the match: what a table entered is never removed with it. A locked
    list (a closed night's, or one entered from paper) stays too. Runs inside the caller's transaction, if any."""
    with transaction.atomic():
        locked = _lock(match.pk)
        _refuse_closed(locked)
        if Game.objects.filter(match_id=locked.pk).exists():
            raise ListPlayed
        locked.delete()


# --- The match itself: its list closed or reopened, its seats, its co-scorers, its book ---------------------------


def _record_match(match: Match, action: str, user: User | None, *, before: Any = None, after: Any = None) -> MatchEvent:
    """A change to the match itself in its history (no game: ``MatchEvent.MATCH_ACTIONS``), after its version moved
    on."""
    _bump(match)
    match.save(update_fields=["version", "updated_at"])
    return MatchEvent.objects.create(
        match=match, action=action, token=uuid.uuid4(), user=user, version=match.version, before=before, after=after
    )


def _list_state(match: Match) -> dict[str, bool]:
    return {"locked": match.locked, "link": match.invite_token is not None}


def match_lock(*, match: Match, user: User | None, end_scoring: bool = False) -> Match:
    """Close the match's list: no game is entered, changed or undone on it any more (a club table entered from
    paper). With ``end_scoring`` (a club night closing) its co-scorers' link is turned off and its co-scorers score
    it no longer. Recorded, and the version moves on, so that the phones following it learn at once; a list closed
    already, with nothing left to end, stays as it is."""
    with transaction.atomic():
        locked = _lock(match.pk)
        before = _list_state(locked)
        scorers = Match.scorers.through.objects.filter(match_id=locked.pk)
        ending = end_scoring and (locked.invite_token is not None or scorers.exists())
        if not locked.locked or ending:
            locked.locked = True
            if end_scoring:
                locked.invite_token = None
                scorers.delete()
            locked.save(update_fields=["locked", "invite_token", "updated_at"])
            _record_match(locked, MatchEvent.Action.LOCK, user, before=before, after=_list_state(locked))
    match.locked, match.invite_token, match.version = locked.locked, locked.invite_token, locked.version
    return match


def match_unlock(*, match: Match, user: User | None) -> Match:
    """Take games on the match's list again (a club table turned back from its paper totals to its phones, a club
    night reopened). Recorded, and the version moves on, so that the phones following it offer their entry form at
    once."""
    with transaction.atomic():
        locked = _lock(match.pk)
        if locked.locked:
            before = _list_state(locked)
            locked.locked = False
            locked.save(update_fields=["locked", "updated_at"])
            _record_match(locked, MatchEvent.Action.UNLOCK, user, before=before, after=_list_state(locked))
    match.locked, match.version = locked.locked, locked.version
    return match


class SeatsKept(Conflict):
    """A list that has had a game keeps its seats: its games were scored for the players who sat there."""

    def __init__(self) -> None:
        super().__init__(
            [FieldError("match", msg(gettext_noop("A game was saved on this list; its seats stay as they are.")))]
        )


def match_reseat(*, match: Match, players: Sequence[Player], user: User | None) -> Match:
    """Seat ``players`` at the match, in this order, before anything was entered on its list (a club secretary's
    last word on a draw). The match keeps its number of seats; each player sits once and is of the match's book.
    Recorded (the seats before and after, by the players' public ids), and the version moves on."""
    with transaction.atomic():
        locked = _lock(match.pk)
        _refuse_closed(locked)
        if Game.objects.filter(match_id=locked.pk).exists():
            raise SeatsKept
        if len(players) != locked.players or len({player.pk for player in players}) != len(players):
            raise Invalid([FieldError("players", msg(gettext_noop("Each seat needs one player of its own.")))])
        if any(player.keeper_id != locked.keeper_id for player in players):
            raise Invalid([FieldError("players", msg(gettext_noop("Each player must be of the match's book.")))])
        seats = list(Seat.objects.filter(match_id=locked.pk).select_related("player").order_by("position"))
        before = [str(seat.player.public_id) for seat in seats]
        after = [str(player.public_id) for player in players]
        if before != after:
            Seat.objects.filter(match_id=locked.pk).delete()
            Seat.objects.bulk_create(
                Seat(match=locked, position=position, player=player) for position, player in enumerate(players)
            )
            _record_match(locked, MatchEvent.Action.RESEAT, user, before={"seats": before}, after={"seats": after})
    match.version = locked.version
    return match


def match_scorer_join(*, match: Match, user: User) -> Match:
    """``user`` scores the match beside its keeper (who scores it anyway): they joined by its invite link, or took
    the links this browser held before logging in along. Not on a closed list; recorded once."""
    with transaction.atomic():
        locked = _lock(match.pk)
        _refuse_closed(locked)
        own = Keeper.objects.filter(pk=locked.keeper_id, user_id=user.pk).exists()
        if not own and not locked.scorers.filter(pk=user.pk).exists():
            locked.scorers.add(user)
            _record_match(locked, MatchEvent.Action.JOIN, user)
    match.version = locked.version
    return match


def match_scorer_remove(*, match: Match, scorer: User, user: User | None = None) -> Match:
    """A co-scorer no longer scores the match (their games and changes stay, with their name). A locked list keeps
    the co-scorers it had. ``user`` is who removed them (recorded)."""
    with transaction.atomic():
        locked = _lock(match.pk)
        _refuse_closed(locked)
        if locked.scorers.filter(pk=scorer.pk).exists():
            locked.scorers.remove(scorer)
            _record_match(locked, MatchEvent.Action.LEAVE, user)
    match.version = locked.version
    return match


def match_hand_over(*, match: Match, to: User) -> Match:
    """Move the match into ``to``'s book (its keeper's account is being deleted, ``to`` scored it with them): each
    of its players becomes the player of that name there (made if the book has none), with their seats and scores
    in this match; ``to`` scores it as its keeper from now on. Recorded."""
    with transaction.atomic():
        locked = _lock(match.pk)
        target = keeper_for(to)
        former_owner = Keeper.objects.filter(pk=locked.keeper_id).values_list("user_id", flat=True).first()
        for seat in Seat.objects.filter(match=locked).select_related("player"):
            old = seat.player
            new = Player.objects.filter(keeper=target, name_key=old.name_key).first()
            if new is None:
                account = old.account_id if old.account_id not in {former_owner, None} else None
                if account is not None and Player.objects.filter(keeper=target, account_id=account).exists():
                    account = None
                new = Player.objects.create(keeper=target, name=old.name, name_key=old.name_key, account_id=account)
            Seat.objects.filter(pk=seat.pk).update(player=new)
            GameScore.objects.filter(game__match=locked, player=old).update(player=new)
        locked.keeper = target
        locked.save(update_fields=["keeper", "updated_at"])
        locked.scorers.remove(to)
        _record_match(locked, MatchEvent.Action.HAND_OVER, to)
    match.keeper, match.version = locked.keeper, locked.version
    return match


def match_delete(*, match: Match) -> None:
    """Remove a match with everything on it (its games and history): the book it is kept in goes with its account,
    and nobody else scored it."""
    with transaction.atomic():
        _lock(match.pk).delete()


def account_matches_release(*, user: User) -> None:
    """The account's name taken off the matches it started, the games it saved and the changes it made (which stay,
    without an author), and off the lists it co-scored: what is left to do to matches once the account's own were
    handed over or removed, before the account itself goes."""
    with transaction.atomic():
        Match.objects.filter(created_by=user).update(created_by=None)
        Game.objects.filter(created_by=user).update(created_by=None)
        MatchEvent.objects.filter(user=user).update(user=None)
        Match.scorers.through.objects.filter(user=user).delete()


def guest_keeper_drop(keeper: Keeper) -> None:
    """Remove a guest's book that was started for a match that was not kept: it holds nothing (a book that holds a
    match is refused)."""
    keeper.delete()


# --- Players: linking to an account, merging -----------------------------------------------------------------------


def player_link(*, player: Player, account: User) -> Player:
    """Link a player to the account of the person, who then sees their own statistics in every match they sat in.
    A keeper's book links each account to one player at most: two entries of one person are merged first."""
    with transaction.atomic():
        other = (
            Player.objects.select_for_update()
            .filter(keeper=player.keeper_id, account=account)
            .exclude(pk=player.pk)
            .first()
        )
        if other is not None:
            already = msg(
                gettext_noop("This account is linked to {name} already: merge the two players first."), name=other.name
            )
            raise Conflict([FieldError("account", already)])
        player.account = account
        player.link_token = None
        player.save(update_fields=["account", "link_token"])
    return player


def player_link_invite(*, player: Player) -> str:
    """A link the person can open, signed in, to link the player to their account (a new one each time)."""
    player.link_token = new_link_token()
    player.save(update_fields=["link_token"])
    return player.link_token


def player_claim(*, token: str, account: User) -> Player:
    """Follow a player's link invitation: the player becomes linked to ``account``."""
    player = Player.objects.filter(link_token=token).first() if token else None
    if player is None:
        raise Gone.about_match(msg(gettext_noop("This link is no longer valid: ask for a new one.")))
    return player_link(player=player, account=account)


def player_unlink(*, player: Player) -> Player:
    player.account = None
    player.link_token = None
    player.save(update_fields=["account", "link_token"])
    return player


def player_merge(*, into: Player, other: Player) -> Player:
    """Two entries of one person become one: ``other``'s seats and scores move to ``into``, with their history.
    Refused for players of different books, and for two players who sat at one table."""
    if into.pk == other.pk or into.keeper_id != other.keeper_id:
        raise Invalid([FieldError("other", msg(gettext_noop("Choose another player of the same book.")))])
    with transaction.atomic():
        # The matches of the one who goes are locked, in a fixed order, as every change to a match is: a game
        # added meanwhile would otherwise give them scores after their scores moved.
        list(Match.objects.select_for_update(of=("self",)).filter(seats__player=other).order_by("pk").values("pk"))
        if Seat.objects.filter(player=into, match__seats__player=other).exists():
            raise Conflict([FieldError("other", msg(gettext_noop("These two sat at one table: they are two people.")))])
        Seat.objects.filter(player=other).update(player=into)
        GameScore.objects.filter(player=other).update(player=into)
        if into.account_id is None and other.account_id is not None:
            into.account_id = other.account_id
            into.save(update_fields=["account"])
        other.delete()
    return into


# --- Rescoring -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RescoreReport:
    """What rescoring a match found: how many stored derived values differed from a fresh scoring (and were
    rewritten, unless only checking), and the games the rules no longer accept."""

    match: Match
    changed: int
    problems: tuple[str, ...] = ()


def match_rescore(match: Match, *, check: bool = False) -> RescoreReport:
    """Score the whole match afresh from what was entered and compare with what is stored: every game's number,
    Bock, result, breakdown, rules version and scores, and the match's totals. Unless ``check``, rewrite what
    differs (and bump the version, so that every page showing the match refreshes)."""
    with transaction.atomic():
        locked = _lock(match.pk)
        setup = locked.setup()
        games = list(Game.objects.filter(match=locked).order_by("position"))
        live = [game for game in games if not game.deleted]
        stored = _stored_scores(games)
        players = _seat_players(locked)
        scored = [deal for deal, _ in score_deals(setup, [game.deal() for game in live], lenient=True)]
        problems = tuple(
            f"{locked.public_id} game {deal.number}: {'; '.join(str(problem) for problem in deal.problems)}"
            for deal in scored
            if not deal.scorable
        )
        changed = 0
        games_changed: list[Game] = []
        rows_changed: list[GameScore] = []
        rows_new: list[GameScore] = []
        for game, deal in zip(live, scored, strict=True):
            old = tuple(getattr(game, name) for name in DERIVED)
            game_derive(game, deal)
            differs = sum(1 for name, value in zip(DERIVED, old, strict=True) if getattr(game, name) != value)
            if differs:
                changed += differs
                games_changed.append(game)
            rows = stored.get(game.pk, {})
            for row in game_score_rows(game, players, deal):
                kept = rows.get(row.seat)
                if kept is None:
                    changed += 1
                    rows_new.append(row)
                elif (kept.points, kept.declarer, kept.played) != (row.points, row.declarer, row.played):
                    changed += 1
                    kept.points, kept.declarer, kept.played = row.points, row.declarer, row.played
                    rows_changed.append(kept)
        stray = [
            game for game in games if game.deleted and (game.number is not None or game.points or stored.get(game.pk))
        ]
        changed += len(stray)
        totals = [0] * setup.players
        for deal in scored:
            totals = [total + points for total, points in zip(totals, deal.scores, strict=True)]
        if (locked.deals, locked.totals) != (len(live), totals):
            changed += 1
        if changed and not check:
            for game in stray:
                game.number, game.points = None, []
            Game.objects.bulk_update([*games_changed, *stray], list(DERIVED))
            GameScore.objects.filter(game__in=stray).delete()
            GameScore.objects.bulk_update(rows_changed, ["points", "declarer", "played"])
            GameScore.objects.bulk_create(rows_new)
            locked.deals, locked.totals = len(live), totals
            locked.save(update_fields=["deals", "totals", "updated_at"])
            _record_match(locked, MatchEvent.Action.RESCORE, None, after={"changed": changed, "rules": RULES_VERSION})
            _copy_derived(match, locked)
    return RescoreReport(match=locked, changed=changed, problems=problems)
