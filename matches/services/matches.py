"""A match as a whole: starting it, its title, its list closed or reopened, its seats before play, discarding it,
handing it over or removing it with an account, scoring it afresh."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from ..engine import (
    RULES_VERSION,
    FieldError,
    MatchSetup,
    RuleError,
    score_deals,
    setup_match,
)
from ..engine.messages import gettext_noop, msg
from ..engine.presets import PRESETS
from ..errors import Conflict, Invalid
from ..models import Game, GameScore, Keeper, Match, MatchEvent, Player, Seat
from ..names import REPLACEMENT, name_key, unreadable
from .books import keeper_for
from .changes import (
    DERIVED,
    StaleSubmission,
    copy_derived,
    game_derive,
    game_score_rows,
    lock_match,
    record_match_change,
    refuse_closed,
    seat_players,
    stored_scores,
)
from .players import check_player_names, player_named

MAX_TITLE_LENGTH = 100


@dataclass(frozen=True)
class Started:
    """What starting a match did: the match, and whether it was started before by the same token (``replayed``: a
    retry, answered with the match its first post started)."""

    match: Match
    replayed: bool = False


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
) -> Started:
    """Start a match, checking everything a page would: the variant, scheme and rules, the players (2 to 4 as the
    variant has it, each once), the first dealer, the length, the title and the preset. The complete rule set is
    stored with it, so later changes to presets never rescore it. Players are found by name in the keeper's book,
    or added to it. A ``preset`` gives the scheme (``scheme`` None: the preset's, or the variant's first) and the
    rules that ``rules`` does not name. A retried ``token`` returns the match it started the first time (``replayed``);
    the token sent again with anything else asked otherwise is a ``StaleSubmission``. ``public_id``: the one it had
    before (a restored backup)."""
    keeper = keeper or (keeper_for(owner) if owner is not None else None)
    if keeper is None:
        raise Invalid.about_match(msg(gettext_noop("A match needs somebody to keep it.")))

    def checked() -> tuple[MatchSetup, list[str]]:
        return check_new_match(variant, scheme, rules, player_names, first_dealer, title, preset, planned_games)

    if token is not None:
        started = Match.objects.filter(token=token).first()
        if started is not None:
            return _started_again(started, keeper, checked, title=title.strip(), preset=preset)
    setup, names = checked()
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
        return _started_again(started, keeper, checked, title=title.strip(), preset=preset)
    return Started(match)


def _started_again(
    started: Match, keeper: Keeper, checked: Callable[[], tuple[MatchSetup, list[str]]], *, title: str, preset: str
) -> Started:
    """The match a retried start made the first time; the same token from another book, or with anything asked
    otherwise (the variant, scheme, rules, players, first dealer, title, preset or length), is a ``StaleSubmission``
    (and shows nothing of that match). Between guests' books the token is the credential: a guest whose first answer
    was lost retries from a browser that holds no book yet."""
    guests = started.keeper.guest_key is not None and keeper.guest_key is not None
    if started.keeper_id != keeper.pk and not guests:
        raise StaleSubmission
    try:
        setup, names = checked()
    except Invalid:
        raise StaleSubmission from None  # the first start was valid: this is not what it asked
    seated = list(Seat.objects.filter(match=started).order_by("position").values_list("player__name_key", flat=True))
    same = (
        started.variant == setup.spec.variant.value
        and started.scheme == setup.scheme.value
        and started.rules == setup.stored_rules()
        and started.first_dealer == setup.first_dealer
        and started.planned_games == setup.planned_games
        and started.title == title
        and started.preset == preset
        and seated == [name_key(name) for name in names]
    )
    if not same:
        raise StaleSubmission
    return Started(started, replayed=True)


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


def match_retitle(*, match: Match, title: str) -> Match:
    """Give the match another title (a club table whose night got another date); the version moves on, so that the
    phones showing it learn at once. Its games and rules stay as they are."""
    title = " ".join(title.split())
    if len(title) > MAX_TITLE_LENGTH:
        raise Invalid([FieldError("title", msg(gettext_noop("At most {count} characters."), count=MAX_TITLE_LENGTH))])
    with transaction.atomic():
        locked = lock_match(match.pk)
        if locked.title != title:
            before = locked.title
            locked.title = title
            locked.save(update_fields=["title", "updated_at"])
            record_match_change(
                locked, MatchEvent.Action.RETITLE, None, before={"title": before}, after={"title": title}
            )
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
        locked = lock_match(match.pk)
        refuse_closed(locked)
        if Game.objects.filter(match_id=locked.pk).exists():
            raise ListPlayed
        locked.delete()


def _list_state(match: Match) -> dict[str, bool]:
    return {"locked": match.locked, "link": match.invite_token is not None}


def match_lock(*, match: Match, user: User | None, end_scoring: bool = False, paper: bool = False) -> Match:
    """Close the match's list: no game is entered, changed or undone on it any more. With ``end_scoring`` (an
    event's closing: a club night, a league venue, a tournament series; or the table's ``paper`` list entered) its
    co-scorers' link is turned off and its co-scorers score it no longer. Recorded, and the version moves on, so
    that the phones following it learn at once; a list closed already, with nothing left to end, stays as it is. An
    event's closing is recorded on such a list all the same (a table on paper: its link off before and after), so
    that its history shows the closing as the last change of its link: the link its paper list turned off stays
    off when it goes back to its phones, as every other table's after a closing (``paper_to_phones``). A paper list
    entered anew closes nothing again."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        before = _list_state(locked)
        scorers = Match.scorers.through.objects.filter(match_id=locked.pk)
        ending = end_scoring and (locked.invite_token is not None or scorers.exists())
        if not locked.locked or ending or (end_scoring and not paper):
            locked.locked = True
            if end_scoring:
                locked.ended_link = locked.invite_token or locked.ended_link
                locked.invite_token = None
                scorers.delete()
            locked.save(update_fields=["locked", "invite_token", "ended_link", "updated_at"])
            record_match_change(locked, MatchEvent.Action.LOCK, user, before=before, after=_list_state(locked))
    match.locked, match.invite_token, match.version = locked.locked, locked.invite_token, locked.version
    return match


def match_unlock(*, match: Match, user: User | None) -> Match:
    """Take games on the match's list again (a club table turned back from its paper totals to its phones, a club
    night reopened). Recorded, and the version moves on, so that the phones following it offer their entry form at
    once."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        if locked.locked:
            before = _list_state(locked)
            locked.locked = False
            locked.save(update_fields=["locked", "updated_at"])
            record_match_change(locked, MatchEvent.Action.UNLOCK, user, before=before, after=_list_state(locked))
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
        locked = lock_match(match.pk)
        refuse_closed(locked)
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
            record_match_change(
                locked, MatchEvent.Action.RESEAT, user, before={"seats": before}, after={"seats": after}
            )
    match.version = locked.version
    return match


def match_hand_over(*, match: Match, to: User) -> Match:
    """Move the match into ``to``'s book (its keeper's account is being deleted, ``to`` scored it with them): each
    of its players becomes the player of that name there (made if the book has none), with their seats and scores
    in this match; ``to`` scores it as its keeper from now on. Recorded."""
    with transaction.atomic():
        locked = lock_match(match.pk)
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
        record_match_change(locked, MatchEvent.Action.HAND_OVER, to)
    match.keeper, match.version = locked.keeper, locked.version
    return match


def match_delete(*, match: Match) -> None:
    """Remove a match with everything on it (its games and history): the book it is kept in goes with its account,
    and nobody else scored it."""
    with transaction.atomic():
        lock_match(match.pk).delete()


def account_matches_release(*, user: User) -> None:
    """The account's name taken off the matches it started, the games it saved and the changes it made (which stay,
    without an author), and off the lists it co-scored: what is left to do to matches once the account's own were
    handed over or removed, before the account itself goes."""
    with transaction.atomic():
        Match.objects.filter(created_by=user).update(created_by=None)
        Game.objects.filter(created_by=user).update(created_by=None)
        MatchEvent.objects.filter(user=user).update(user=None)
        Match.scorers.through.objects.filter(user=user).delete()


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
        locked = lock_match(match.pk)
        setup = locked.setup()
        games = list(Game.objects.filter(match=locked).order_by("position"))
        live = [game for game in games if not game.deleted]
        stored = stored_scores(games)
        players = seat_players(locked)
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
            record_match_change(
                locked, MatchEvent.Action.RESCORE, None, after={"changed": changed, "rules": RULES_VERSION}
            )
            copy_derived(match, locked)
    return RescoreReport(match=locked, changed=changed, problems=problems)
