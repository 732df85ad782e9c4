"""Restoring a backup (``matches.backup`` says what a file holds) without stopping the tables that are playing.

A restore runs in three steps:

1. **Check and score**, writing nothing: every player, match, game and history entry is read and checked as the
   pages check them, and every match is scored by the engine, strictly, in order. A file that fails here leaves no
   trace.
2. **Write** in short transactions (``STEP_SECONDS`` each at most, the batch growing or shrinking to fit), into a
   staging book of the restore's own that no account owns: nobody sees a half-written match, and a save at another
   table waits for one short step at most, never for the whole file.
3. **Publish** in one transaction: the staged players and matches move into the restoring account's book (or its
   club's), and the apps' sections (a club's seasons and nights) are written beside them.

If anything fails after the first step, what was staged is removed (``staging_discard``): all or nothing.
"""

from __future__ import annotations

import datetime
import gc
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, transaction

from .backup import (
    FORMAT,
    READABLE,
    Refused,
    Restored,
    Section,
    Unfit,
    ended_link,
    flag,
    items,
    link_taken,
    moment,
    sections,
    since,
)
from .engine import RULES_VERSION, DealEntry, FieldError, MatchSetup, RuleError, ScoredDeal, deal_from_data, score_deals
from .engine.messages import gettext_noop, msg
from .errors import Invalid
from .models import MATCH_ACTIONS, Game, GameScore, Keeper, Match, MatchEvent, Player, game_state
from .names import BadName, name_key, normalize_name
from .rows import Rows, rows_prepared
from .services import check_new_match, closed_lists_report, keeper_for
from .services.restored import (
    restored_book_write,
    restored_publish,
    restored_rows_write,
    restored_undos_link,
    staging_discard,
)

# A step holds the database's write lock about this long at most: a save at a table waits no longer than that.
STEP_SECONDS = 0.02
# After each step on SQLite the restore moves what it wrote from the log into the database itself: otherwise the
# log grows over steps until a commit finds it long and does that work, and when that commit is a save's, the save
# waits for it (11 ms in one run, many times that on a busy disk). Then the write lock is left free this long, so
# that a save whose wait for it ends then goes in before the next step takes it again. PostgreSQL locks rows, not the
# database: nobody waits there.
HANDOVER_SECONDS = 0.001
FIRST_STEP = 500  # rows in the first step; each next step is sized by how long the last one took
STEP_RANGE = (50, 20_000)
# How often (in games checked or rows written) the caller hears how far the restore has come.
PROGRESS_EVERY = 1000
MAX_SMALL = 32_767  # a seat, a declarer, an entry's version
MAX_WHOLE = 2_147_483_647  # a position, a version, a number

T = TypeVar("T")
Progress = Callable[[str, int, int], None]
"""Told the step (``CHECKING`` or ``WRITING``), how many items are done and how many there are."""
CHECKING, WRITING = "checking", "writing"


def _quiet(step: str, done: int, total: int) -> None:
    """No one to tell (the command line's restore without ``--verbosity``)."""


def restore(
    data: Mapping[str, Any],
    *,
    user: User,
    progress: Progress = _quiet,
    staging: Callable[[Keeper], object] = lambda staged: None,
) -> dict[str, int]:
    """Write a backup into this instance under ``user``: their own book, or (a club's backup) a club they own.
    Returns how many players, matches, games and nights were added (0 everywhere for a file restored before).

    Everything is checked as the pages check it (names, rules, every game by the engine, the seasons' settings),
    and only looked for in the restoring account's own book or club: a public id that belongs to somebody else's
    player, match, club, season or night refuses the whole file, as does the link of a list closed here (a match's
    ended link). Accounts named in the file are not trusted: no player is linked to an account, no member is added,
    and the history keeps its changes without their authors.

    ``progress`` hears how far it has come; ``staging`` is told the staging book as soon as it is made, so that a
    restore whose process dies halfway can be cleaned up by whoever keeps track of it."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _refused(gettext_noop("This is not a Scorekeeper backup."))
    version = data.get("version")
    if isinstance(version, bool) or version not in READABLE:
        raise _refused(gettext_noop("This backup was made by another version of Scorekeeper."))
    with _refusals(), _collector_paused():
        plan = _plan(data, user, int(version), progress)
        staged = Keeper.objects.create() if plan.writes else None
        try:
            if staged is not None:
                staging(staged)
                _write(plan, staged, progress)
            return _publish(plan, staged)
        except BaseException:
            if staged is not None:
                staging_discard(staged)
            raise


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector left out while a file's hundreds of thousands of objects are read and written: it
    would walk all of them again and again, and they hold no cycles to collect."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _refused(message: str) -> Invalid:
    return Invalid([FieldError("file", msg(message))])


@contextmanager
def _refusals() -> Iterator[None]:
    """What is wrong with a file, said of the file: a part that fits nowhere here, a part the pages would refuse, or
    one that cannot be read."""
    try:
        yield
    except (Unfit, IntegrityError) as error:
        raise _refused(gettext_noop("This backup does not fit the data here; nothing was restored.")) from error
    except Refused as error:
        raise Invalid([FieldError("file", error.message)]) from error
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        OverflowError,
        RecursionError,
        DataError,
        ValidationError,
        RuleError,
        BadName,
    ) as error:
        raise _refused(gettext_noop("This backup is damaged; nothing was restored.")) from error


# --- 1. Check and score, writing nothing ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Game:
    """A game of the file as it will be written: what was entered, and (a live game) what its scoring derived."""

    public_id: uuid.UUID
    position: int
    passed: bool
    declarer: int | None
    entry: Any
    entry_version: int
    deleted: bool
    version: int
    created_at: datetime.datetime
    scored: ScoredDeal | None = None
    pk: int | None = None

    def deal(self) -> DealEntry:
        return deal_from_data(passed=self.passed, declarer=self.declarer, entry=self.entry, version=self.entry_version)

    def snapshot(self) -> dict[str, object]:
        """The state the history keeps of this game (as ``Game.snapshot``)."""
        return game_state(self.entry_version, self.passed, self.declarer, self.entry, self.deleted)

    def row(self, match: int) -> tuple[Any, ...]:
        """The values of ``GAME_COLUMNS``."""
        entered = (self.public_id, match, self.position, self.passed, self.declarer, self.entry, self.entry_version)
        kept = (self.deleted, self.version, self.created_at)
        scored = self.scored
        if scored is None:  # a deleted game: nothing derived
            return (*entered, *kept, None, 0, None, 0, [], [], 0)
        breakdown = [step.to_data() for step in scored.breakdown]
        derived = (scored.number, scored.bock, scored.won, scored.game_value, list(scored.scores), breakdown)
        return (*entered, *kept, *derived, RULES_VERSION)


GAME_COLUMNS = (
    "public_id",
    "match",
    "position",
    "passed",
    "declarer",
    "entry",
    "entry_version",
    "deleted",
    "version",
    "created_at",
    "number",
    "bock",
    "won",
    "game_value",
    "points",
    "breakdown",
    "rules_version",
)
SCORE_COLUMNS = ("game", "seat", "player", "points", "declarer", "played")
ACTIONS = frozenset(MatchEvent.Action.values)
EVENT_COLUMNS = ("public_id", "match", "game", "action", "token", "version", "number", "created_at", "before", "after")


@dataclass(slots=True)
class _Event:
    """A change of the file's history as it will be written (``undo_of``: the file's id of the change it took back)."""

    public_id: uuid.UUID
    game: _Game | None  # None for a change to the match itself
    action: str
    token: uuid.UUID
    version: int
    number: int | None
    created_at: datetime.datetime
    before: Any
    after: Any
    undo_of: uuid.UUID | None

    def row(self, match: int) -> tuple[Any, ...]:
        """The values of ``EVENT_COLUMNS``."""
        kept = (self.version, self.number, self.created_at, self.before, self.after)
        return (self.public_id, match, None if self.game is None else self.game.pk, self.action, self.token, *kept)


@dataclass
class _Match:
    """A match of the file that is not here yet, checked and scored: its row, seats, games and history as they
    will be written."""

    row: Match
    seats: list[Player]
    games: list[_Game]
    events: list[_Event]


@dataclass
class _Plan:
    user: User
    version: int
    keeper: Keeper | None  # the book it goes into, if there is one yet
    section: tuple[Section, Mapping[str, Any]] | None
    players: dict[str, Player] = field(default_factory=dict)  # by the file's id: found here, or new
    new_players: list[Player] = field(default_factory=list)
    matches: dict[str, Match] = field(default_factory=dict)  # by the file's id: found here, or new
    new_matches: list[_Match] = field(default_factory=list)

    @property
    def writes(self) -> bool:
        return bool(self.new_players or self.new_matches)

    def counts(self) -> dict[str, int]:
        return {
            "players": len(self.new_players),
            "matches": len(self.new_matches),
            "games": sum(len(match.games) for match in self.new_matches),
            "nights": 0,
        }


def _plan(data: Mapping[str, Any], user: User, version: int, progress: Progress) -> _Plan:
    parts = [(section, data[section.key]) for section in sections() if data.get(section.key) is not None]
    if len(parts) > 1:
        raise ValueError("a backup is of one book")
    section = parts[0] if parts else None
    keeper = section[0].book(section[1], user, version) if section else Keeper.objects.filter(user=user).first()
    plan = _Plan(user=user, version=version, keeper=keeper, section=section)
    _plan_players(plan, items(data, "players"))
    matches = items(data, "matches")
    checked = _Count(CHECKING, sum(len(items(entry, "games")) for entry in matches), progress)
    for entry in matches:
        _plan_match(plan, entry, checked)
    _check_ended_links(plan)
    return plan


def _mine(found: Player | Match, keeper: Keeper | None) -> None:
    """A player or match of that public id belongs to the book the file goes into: elsewhere it does not fit."""
    if keeper is None or found.keeper_id != keeper.pk:
        raise Unfit(str(found.public_id))


def _plan_players(plan: _Plan, entries: Sequence[Mapping[str, Any]]) -> None:
    """Each player of the file: the one of that public id here (in this book), else the book's player of that name,
    else a new one."""
    ids = [uuid.UUID(str(entry["id"])) for entry in entries]
    found = {player.public_id: player for player in _by_public_id(Player, ids)}
    named: dict[str, Player] = (
        {player.name_key: player for player in Player.objects.filter(keeper=plan.keeper)} if plan.keeper else {}
    )
    for entry, public_id in zip(entries, ids, strict=True):
        player = found.get(public_id)
        if player is not None:
            _mine(player, plan.keeper)
        else:
            name = normalize_name(str(entry["name"]))
            player = named.get(name_key(name))
            if player is None:
                added = since(entry, "created_at", version=plan.version, added=2, absent=None)
                player = Player(public_id=public_id, name=name, name_key=name_key(name))
                if added is not None:
                    player.created_at = moment(added)
                plan.new_players.append(player)
                named[player.name_key] = player
        plan.players[str(entry["id"])] = player


def _by_public_id(model: type[T], ids: Sequence[uuid.UUID]) -> Iterator[T]:
    """The rows of ``model`` with these public ids, read a thousand at a time."""
    for start in range(0, len(ids), 1000):
        yield from model.objects.filter(public_id__in=ids[start : start + 1000])  # type: ignore[attr-defined]


def _plan_match(plan: _Plan, entry: Mapping[str, Any], checked: _Count) -> None:
    public_id = uuid.UUID(str(entry["id"]))
    found = Match.objects.filter(public_id=public_id).first()
    if found is not None:
        _mine(found, plan.keeper)
        plan.matches[str(entry["id"])] = found
        checked.add(len(items(entry, "games")))
        return
    seats = [plan.players[str(player)] for player in entry["seats"]]
    title, preset = str(entry["title"]), str(entry["preset"])
    # Checked as a new match is (variant, scheme, rules, players, dealer, length, title), with its own public id.
    setup, _ = check_new_match(
        str(entry["variant"]),
        str(entry["scheme"]),
        dict(entry["rules"]),
        [player.name for player in seats],
        int(entry["first_dealer"]),
        title,
        preset,
        entry["planned_games"],
    )
    if len({id(player) for player in seats}) != len(seats):
        raise Unfit(str(public_id))
    locked = flag(entry["locked"])
    row = Match(
        public_id=public_id,
        created_by=plan.user,
        title=title.strip(),
        variant=setup.spec.variant.value,
        scheme=setup.scheme.value,
        rules=setup.stored_rules(),
        preset=preset,
        players=setup.players,
        first_dealer=setup.first_dealer,
        planned_games=setup.planned_games,
        locked=locked,
        ended_link=ended_link(since(entry, "ended_link", version=plan.version, added=4, absent="")),
        created_at=moment(entry["created_at"]),
    )
    if locked:
        row.invite_token = None
    planned = _Match(row=row, seats=seats, games=[], events=[])
    _plan_games(planned, setup, items(entry, "games"), checked)
    _plan_history(planned, items(entry, "history"))
    row.version = max([game.version for game in planned.games] + [0])
    plan.matches[str(entry["id"])] = row
    plan.new_matches.append(planned)


def _check_ended_links(plan: _Plan) -> None:
    """The link a closed list had names one table: a file may not give it to two of its matches, nor take over one
    a match here keeps or gives out as its scoring link now (a phone that opens it is told where that match's list
    was closed)."""
    links: dict[str, Match] = {}
    for match in plan.new_matches:
        link = match.row.ended_link
        if link in links:
            raise Unfit(str(match.row.public_id))
        if link:
            links[link] = match.row
    named = list(links)
    for start in range(0, len(named), 1000):
        taken = link_taken(named[start : start + 1000])
        if taken is not None:
            raise Unfit(str(links[taken].public_id))


def _whole(value: Any, top: int = MAX_WHOLE) -> int:
    number = int(value)
    if isinstance(value, bool) or not 0 <= number <= top:
        raise ValueError(value)
    return number


def _plan_games(planned: _Match, setup: MatchSetup, entries: Sequence[Mapping[str, Any]], checked: _Count) -> None:
    """The games as entered, each read by the engine and the live ones scored strictly, in their order."""
    for entry in entries:
        planned.games.append(
            _Game(
                public_id=uuid.UUID(str(entry["id"])),
                position=_whole(entry["position"]),
                passed=flag(entry["passed"]),
                declarer=None if entry["declarer"] is None else _whole(entry["declarer"], MAX_SMALL),
                entry=entry["entry"],
                entry_version=_whole(entry["entry_version"], MAX_SMALL),
                deleted=flag(entry["deleted"]),
                version=_whole(entry["version"]),
                created_at=moment(entry["created_at"]),
            )
        )
    if len({game.position for game in planned.games}) != len(planned.games):
        raise ValueError("two games in one place")
    live = sorted((game for game in planned.games if not game.deleted), key=lambda game: game.position)
    totals = [0] * setup.players
    # Every live game scored strictly, in order: a game the rules refuse refuses the file.
    for game, (scored, _) in zip(live, score_deals(setup, (game.deal() for game in live)), strict=True):
        game.scored = scored
        totals = [total + points for total, points in zip(totals, scored.scores, strict=True)]
        checked.add(1)
    planned.row.deals, planned.row.totals = len(live), totals
    checked.add(len(planned.games) - len(live))


def _plan_history(planned: _Match, entries: Sequence[Mapping[str, Any]]) -> None:
    games = {str(game.public_id): game for game in planned.games}
    known: set[uuid.UUID] = set()
    for entry in entries:
        if entry["action"] not in ACTIONS:
            raise ValueError(entry["action"])
        game = _history_game(games, entry)
        if game is None:
            for part in (entry["before"], entry["after"]):
                if part is not None and not isinstance(part, Mapping):
                    raise ValueError(part)
        else:
            snapshot = game.snapshot()
            for state in (entry["before"], entry["after"]):
                # The state a game ended in was read with the game; any other is read here, as the history page reads
                # it.
                if state != snapshot:
                    _check_state(state)
        event = _Event(
            public_id=uuid.UUID(str(entry["id"])),
            game=game,
            action=entry["action"],
            token=uuid.UUID(str(entry["token"])),
            version=_whole(entry["version"]),
            number=None if entry["number"] is None else _whole(entry["number"]),
            created_at=moment(entry["created_at"]),
            before=entry["before"],
            after=entry["after"],
            undo_of=uuid.UUID(str(entry["undo_of"])) if entry["undo_of"] else None,
        )
        if event.undo_of is not None and event.undo_of not in known:
            raise KeyError(entry["undo_of"])
        known.add(event.public_id)
        planned.events.append(event)


def _history_game(games: Mapping[str, _Game], entry: Mapping[str, Any]) -> _Game | None:
    """The game a change of the file's history names: one of the match's for a change to a game, none for a change
    to the match itself (which nothing undoes)."""
    if entry["action"] in MATCH_ACTIONS:
        if entry["game"] is not None or entry["undo_of"]:
            raise ValueError(entry["action"])
        return None
    return games[str(entry["game"])]


def _check_state(state: Any) -> None:
    """A game's state as the history keeps it (or nothing): it must read as a deal, as the history page reads it."""
    if state is None:
        return
    if not isinstance(state, Mapping) or not isinstance(state.get("deleted"), bool):
        raise ValueError(state)
    deal_from_data(
        passed=flag(state["passed"]), declarer=state["declarer"], entry=state["entry"], version=int(state.get("v", 0))
    )


# --- 2. Write, in short steps, into a staging book -----------------------------------------------------------------


@dataclass
class _Count:
    """How far a step of the restore has come, told to its ``progress`` every ``PROGRESS_EVERY`` items."""

    step: str
    total: int
    progress: Progress
    done: int = 0

    def add(self, items: int) -> None:
        before, self.done = self.done, self.done + items
        if before // PROGRESS_EVERY != self.done // PROGRESS_EVERY or self.done == self.total:
            self.progress(self.step, self.done, self.total)


class _Steps:
    """Writes rows in short transactions: each batch is made ready first, then written holding the write lock about
    ``STEP_SECONDS`` at most; the next batch is sized by how long the lock was held for the last one."""

    def __init__(self, written: _Count) -> None:
        self.size = FIRST_STEP
        self.written = written
        self.held = 0.0

    def locked(self, rows: Rows) -> None:
        """Write ``rows`` (made ready) in a transaction of their own."""
        began = time.monotonic()
        restored_rows_write(rows)
        self.held += time.monotonic() - began
        if connection.vendor == "sqlite" and not connection.in_atomic_block:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
            time.sleep(HANDOVER_SECONDS)

    def write(self, items: Sequence[T], step: Callable[[_Steps, Sequence[T]], None]) -> None:
        """``step`` each batch of ``items``; the step writes through ``locked``."""
        start = 0
        while start < len(items):
            batch = items[start : start + self.size]
            self.held = 0.0
            step(self, batch)
            low, high = STEP_RANGE
            self.size = max(low, min(high, int(len(batch) * STEP_SECONDS / max(self.held, 0.001))))
            start += len(batch)
            self.written.add(len(batch))


def _write(plan: _Plan, staged: Keeper, progress: Progress) -> None:
    steps = _Steps(_Count(WRITING, sum(len(match.games) + len(match.events) for match in plan.new_matches), progress))
    restored_book_write(
        staged=staged, players=plan.new_players, matches=[(match.row, match.seats) for match in plan.new_matches]
    )
    for match in plan.new_matches:
        steps.write(match.games, partial(_write_games, match.row.pk, [player.pk for player in match.seats]))
        steps.write(match.events, partial(_write_events, match.row.pk))
        _link_undos(match)


def _write_games(match: int, players: Sequence[int], steps: _Steps, games: Sequence[_Game]) -> None:
    """The games, then (once each game has learnt its row's id) their score rows."""
    steps.locked(rows_prepared(Game, GAME_COLUMNS, [game.row(match) for game in games]))
    positions = [game.position for game in games]
    ids = dict(
        Game.objects.filter(match_id=match, position__gte=min(positions), position__lte=max(positions)).values_list(
            "position", "pk"
        )
    )
    for game in games:
        game.pk = ids[game.position]
    scores = [
        (game.pk, seat, player, game.scored.scores[seat], game.scored.declarer == seat, game.scored.played[seat])
        for game in games
        if game.scored is not None
        for seat, player in enumerate(players)
    ]
    steps.locked(rows_prepared(GameScore, SCORE_COLUMNS, scores))


def _write_events(match: int, steps: _Steps, events: Sequence[_Event]) -> None:
    steps.locked(rows_prepared(MatchEvent, EVENT_COLUMNS, [event.row(match) for event in events]))


def _link_undos(match: _Match) -> None:
    """Each undo and redo to the change it took back (once every change has its row)."""
    undos = [event for event in match.events if event.undo_of is not None]
    named = {event.public_id for event in undos} | {event.undo_of for event in undos if event.undo_of}
    ids = dict(MatchEvent.objects.filter(match_id=match.row.pk, public_id__in=named).values_list("public_id", "pk"))
    restored_undos_link(
        [MatchEvent(pk=ids[event.public_id], undo_of_id=ids[event.undo_of]) for event in undos if event.undo_of]
    )


# --- 3. Publish, in one transaction ---------------------------------------------------------------------------------


def _publish(plan: _Plan, staged: Keeper | None) -> dict[str, int]:
    counts = plan.counts()
    with transaction.atomic():
        keeper = plan.keeper or (
            plan.section[0].make_book(plan.section[1], plan.user, plan.version)
            if plan.section
            else keeper_for(plan.user)
        )
        if staged is not None:
            restored_publish(staged=staged, keeper=keeper)
            for player in plan.new_players:
                player.keeper = keeper
            for match in plan.new_matches:
                match.row.keeper = keeper
        if plan.section is not None:
            section, part = plan.section
            restored = Restored(keeper=keeper, players=plan.players, matches=plan.matches, version=plan.version)
            for name, count in section.restore(part, restored).items():
                counts[name] += count
            # Every player's closed list of the events it brought, kept in the core as its kind's closing keeps it.
            closed_lists_report(match_ids=[match.pk for match in plan.matches.values()])
    return counts
