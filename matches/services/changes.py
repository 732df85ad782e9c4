"""The protocol every write follows, shared by the services of each subject: the match's lock, the retried token
answered first, the engine's scoring of what changed, only changed rows written, the change recorded in the match's
history and its version moved on; and the refusals every service can give."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import JSONField, Model, UUIDField

from ..engine import (
    RULES_VERSION,
    DealEntry,
    DealRefused,
    FieldError,
    Message,
    RuleError,
    ScoredDeal,
    deal_from_data,
    deal_state,
    score_deals,
)
from ..engine.entry import stored_version
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict, Gone, ServiceError
from ..models import Game, GameScore, Match, MatchEvent, Seat
from ..registry import table_place
from ..rows import row_inserted, rows_insert
from ..selectors import checkpoint_before

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
    """The match is a table of an event whose series or day was closed (until it reopens), or that entered its list
    from paper: its list stays as it is. ``event``: the event as its app names it (``registry.table_place``)."""

    def __init__(self, event: str | None = None) -> None:
        if event:
            message = msg(
                gettext_noop(
                    "This list of {event} is closed (its series or its day was closed, or it came from paper); "
                    "nothing was changed."
                ),
                event=event,
            )
        else:
            message = msg(
                gettext_noop("This list is closed (it came from paper, or its event closed it); nothing was changed.")
            )
        super().__init__([FieldError("match", message)])


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


def lock_match(match_pk: int) -> Match:
    """The match row, locked until the transaction ends: every change to a match runs one at a time."""
    return Match.objects.select_for_update().get(pk=match_pk)


# What a game's add reads of its match, read again under the lock (``lock_current``).
LOCKED_COLUMNS = (
    "version",
    "deals",
    "totals",
    "locked",
    "variant",
    "scheme",
    "rules",
    "players",
    "first_dealer",
    "planned_games",
)


def lock_current(match: Match) -> Match:
    """``match`` itself, its row locked until the transaction ends, with all that adding a game reads of it read again:
    its version, deals, totals, whether its list is closed, and its rules and table. The add of a game, which every
    table makes every minute, reads this way: one statement written out, rather than the whole row through a
    statement the ORM builds anew each time."""
    database = connections[DEFAULT_DB_ALIAS]
    lock = " FOR UPDATE" if database.features.has_select_for_update else ""
    with database.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(LOCKED_COLUMNS)} FROM {Match._meta.db_table} WHERE id = %s{lock}", [match.pk]
        )
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist
    read = dict(zip(LOCKED_COLUMNS, row, strict=True))
    for name in ("version", "deals", "variant", "scheme", "players", "first_dealer", "planned_games"):
        setattr(match, name, read[name])
    match.locked = bool(read["locked"])
    match.totals = _json_read(Match, "totals", read["totals"])
    match.rules = _json_read(Match, "rules", read["rules"])
    return match


def _json_read(model: type[Model], name: str, value: Any) -> Any:
    """A JSON column's value as read by a statement written out (text, on either database), decoded as its field
    decodes it."""
    field = model._meta.get_field(name)
    assert isinstance(field, JSONField)
    return None if value is None else json.loads(value, cls=field.decoder)


def refuse_closed(match: Match) -> None:
    if match.locked:
        place = table_place(match)
        raise ListClosed(place.event if place is not None else None)


def answered_before(match: Match, token: uuid.UUID) -> bool:
    """Whether ``token`` was answered before (usually not, and then nothing else need be read for it). Read under
    the match's lock: on PostgreSQL a statement that waited for the lock would still read everything but the locked
    row as it was before the wait, so a retry racing its first post would miss it."""
    database = connections[DEFAULT_DB_ALIAS]
    token_field = MatchEvent._meta.get_field("token")
    assert isinstance(token_field, UUIDField)
    with database.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {MatchEvent._meta.db_table} WHERE match_id = %s AND token = %s LIMIT 1",
            [match.pk, token_field.get_db_prep_value(token, database)],
        )
        return cursor.fetchone() is not None


TAIL_SLACK = 4  # deleted games the tail read passes over before it reads again


def recent_deals(match: Match, reach: int) -> tuple[int, tuple[DealEntry, ...]]:
    """The last position a game of the match took, and its last ``reach`` live deals, oldest first, in one read of
    the latest games (deleted ones included) unless many were deleted at the end."""
    rows = _latest_games(match, reach + TAIL_SLACK, live_only=False)
    last_position = rows[0][0] if rows else 0
    live = [row for row in rows if not row[1]][:reach]
    if len(live) < min(reach, match.deals):
        live = _latest_games(match, reach, live_only=True)
    recent = tuple(
        deal_from_data(passed=bool(passed), declarer=declarer, entry=_json_read(Game, "entry", entry), version=version)
        for _, _, passed, declarer, entry, version in reversed(live)
    )
    return last_position, recent


def _latest_games(match: Match, count: int, *, live_only: bool) -> list[tuple[Any, ...]]:
    """The latest ``count`` games of the match (position, deleted, passed, declarer, entry, entry version), the
    last first: read for every add, so written out."""
    live = " AND NOT deleted" if live_only else ""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(
            "SELECT position, deleted, passed, declarer, entry, entry_version "
            f"FROM {Game._meta.db_table} WHERE match_id = %s{live} ORDER BY position DESC LIMIT %s",
            [match.pk, count],
        )
        return list(cursor.fetchall())


def replayed_change(match: Match, token: uuid.UUID) -> MatchEvent | None:
    return MatchEvent.objects.filter(match=match, token=token).select_related("game", "undo_of").first()


def bump_version(match: Match) -> int:
    match.version += 1
    return match.version


def copy_derived(target: Match, source: Match) -> None:
    """Keep the caller's match object in step with what was just written."""
    target.version, target.deals, target.totals = source.version, source.deals, source.totals


def record_game_change(
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
    change = MatchEvent(
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
    row_inserted(change)
    return change


def enter_deal(game: Game, deal: DealEntry) -> None:
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


def seat_players(match: Match) -> list[int]:
    """The seats' player ids, in seat order (read for every add, so written out)."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(f"SELECT player_id FROM {Seat._meta.db_table} WHERE match_id = %s ORDER BY position", [match.pk])
        return [player for (player,) in cursor.fetchall()]


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


def scores_inserted(game: Game, players: Sequence[int], scored: ScoredDeal) -> None:
    """The score rows of a game just inserted, one per seat (``players``: the seats' player ids), in one statement."""
    rows = game_score_rows(game, players, scored)
    rows_insert(
        GameScore,
        ("game", "seat", "player", "points", "declarer", "played"),
        [(game.pk, row.seat, row.player_id, row.points, row.declarer, row.played) for row in rows],
    )


def rescore_from(match: Match, changed: Game, *, renumbered: bool, own_errors: type[ServiceError]) -> None:
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
    stored = stored_scores(games)
    deltas = [0] * setup.players
    try:
        scored_deals = [scored for scored, _ in score_deals(setup, [game.deal() for game in games], point)]
    except DealRefused as refused:
        if not changed.deleted and refused.number == first:
            raise own_errors(refused.errors) from refused
        raise MatchConflict(refused.number, refused) from refused
    players = seat_players(match)
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
        for seat, row in stored_scores([changed]).get(changed.pk, {}).items():
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


def stored_scores(games: Sequence[Game]) -> dict[int, dict[int, GameScore]]:
    rows: dict[int, dict[int, GameScore]] = {}
    for row in GameScore.objects.filter(game__in=[game.pk for game in games if game.pk]):
        rows.setdefault(row.game_id, {})[row.seat] = row
    return rows


def record_match_change(
    match: Match, action: str, user: User | None, *, before: Any = None, after: Any = None
) -> MatchEvent:
    """A change to the match itself in its history (no game: ``MatchEvent.MATCH_ACTIONS``), after its version moved
    on."""
    bump_version(match)
    match.save(update_fields=["version", "updated_at"])
    return MatchEvent.objects.create(
        match=match, action=action, token=uuid.uuid4(), user=user, version=match.version, before=before, after=after
    )
