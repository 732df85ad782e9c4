"""Backup and restore: everything of an account or of a club in one JSON file, and back into any instance.

A backup holds what was entered, never what was derived: the players, every match with its rules and seats, its
games as entered (deleted ones included) and its whole history of changes, each with the moment it was made; an app
built on the core adds its part of a book (the club app: a club's players' roster, its seasons, nights, attendances,
tables, paper lists and the seasons' and nights' histories) as a section of its own (``register_section``).
Restoring writes them with new database ids under the restoring account (a club's backup becomes a club that account
owns, or goes into the one it owns already), keeps every public id, and scores every match afresh with the current
rules engine. Whatever is already there in that book or club (by its public id) is left as it is, so a second
restore of the same file changes nothing. Accounts are not part of a backup: players are not linked to them, members
are not added, and the histories keep their changes without their authors.

Every list in a file comes in a fixed order, so that the same book always gives the same file.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .engine import FieldError, RuleError, deal_from_data, score_deals
from .engine.messages import Message, gettext_noop, msg
from .errors import Invalid
from .models import Game, Keeper, Match, MatchEvent, Player
from .names import BadName, name_key, normalize_name
from .services import DERIVED, keeper_for, match_create, match_rescore

FORMAT = "scorekeeper-backup"
# Version 2 added when each player was added, and (for a club) when the club, its seasons, nights and check-ins were
# made, the seasons' histories, what each entry of a night's history replaced, and each table's closed link and guests'
# table. A version-1 file still restores: what it did not keep is made as a restore makes it.
VERSION = 2
READABLE = (1, 2)


# --- Sections: what the apps on the core keep of a book -----------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    """The core's part of a file as restored, for a section to refer to: the book, its players and matches by their
    public ids, and the file's version."""

    keeper: Keeper
    players: Mapping[str, Player]
    matches: Mapping[str, Match]
    version: int


@dataclass(frozen=True)
class Section:
    """A part of a backup an app keeps under ``key`` in the file (the club app: ``"club"``). ``book``: the book a file
    with this part restores into, for the restoring account and the file's version (made if need be; ``Unfit`` if it
    is somebody else's); ``restore``: writes the part once the book's players and matches are in, and says how many
    of what it added."""

    key: str
    book: Callable[[Mapping[str, Any], User, int], Keeper]
    restore: Callable[[Mapping[str, Any], Restored], Mapping[str, int]]


_sections: list[Section] = []


def register_section(section: Section) -> None:
    """An app's part of a backup, restored after the core's (the app registers it when it is ready)."""
    if all(known.key != section.key for known in _sections):
        _sections.append(section)


# --- Writing a backup ----------------------------------------------------------------------------------------------


def account_backup(user: User) -> dict[str, Any]:
    """Everything in a person's own book (an empty one if they have kept nothing yet)."""
    keeper = Keeper.objects.filter(user=user).first()
    return book_backup(keeper)


def book_backup(keeper: Keeper | None) -> dict[str, Any]:
    """A backup of the players and matches of ``keeper``'s book (of none: an empty one), for a section to add to."""
    book = _book(keeper) if keeper is not None else {"players": [], "matches": []}
    return {"format": FORMAT, "version": VERSION, "created": when(timezone.now()), **book}


def when(moment: datetime.datetime | None) -> str | None:
    """A moment as a file keeps it."""
    return moment.isoformat() if moment else None


def _book(keeper: Keeper) -> dict[str, Any]:
    players = Player.objects.filter(keeper=keeper).order_by("created_at", "pk")
    matches = Match.objects.filter(keeper=keeper).order_by("created_at", "pk")
    return {
        "players": [
            {"id": str(player.public_id), "name": player.name, "created_at": when(player.created_at)}
            for player in players
        ],
        "matches": [_match(match) for match in matches],
    }


def _match(match: Match) -> dict[str, Any]:
    seats = match.seats.select_related("player").order_by("position")
    games = match.games.order_by("position")
    events = MatchEvent.objects.filter(match=match).select_related("game", "undo_of").order_by("version", "id")
    return {
        "id": str(match.public_id),
        "title": match.title,
        "variant": match.variant,
        "scheme": match.scheme,
        "rules": match.rules,
        "preset": match.preset,
        "first_dealer": match.first_dealer,
        "planned_games": match.planned_games,
        "locked": match.locked,
        "created_at": when(match.created_at),
        "seats": [str(seat.player.public_id) for seat in seats],
        "games": [
            {
                "id": str(game.public_id),
                "position": game.position,
                "passed": game.passed,
                "declarer": game.declarer,
                "entry": game.entry,
                "entry_version": game.entry_version,
                "deleted": game.deleted,
                "version": game.version,
                "created_at": when(game.created_at),
            }
            for game in games
        ],
        "history": [
            {
                "id": str(event.public_id),
                "game": str(event.game.public_id),
                "action": event.action,
                "token": str(event.token),
                "version": event.version,
                "number": event.number,
                "created_at": when(event.created_at),
                "before": event.before,
                "after": event.after,
                "undo_of": str(event.undo_of.public_id) if event.undo_of else None,
            }
            for event in events
        ],
    }


# --- Restoring -----------------------------------------------------------------------------------------------------

MAX_ITEMS = 100_000  # players, matches, games, history entries or nights in one file: more is not a backup of ours


class Unfit(Exception):
    """What the file names is here already, in a book or club the restoring account does not own."""


class Refused(Exception):
    """A part of the file that the pages would refuse, with the message that says which part and why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(str(message))


def _refused(message: str) -> Invalid:
    return Invalid([FieldError("file", msg(message))])


def restore(data: Mapping[str, Any], *, user: User) -> dict[str, int]:
    """Write a backup into this instance under ``user``: their own book, or (a club's backup) a club they own.
    Returns how many players, matches, games and nights were added (0 everywhere for a file restored before).

    Everything is checked as the pages check it (names, rules, every game by the engine, the seasons' settings),
    and only looked for in the restoring account's own book or club: a public id that belongs to somebody else's
    player, match, club, season or night refuses the whole file. Accounts named in the file are not trusted: no
    player is linked to an account, no member is added, and the history keeps its changes without their authors."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _refused(gettext_noop("This is not a Scorekeeper backup."))
    version = data.get("version")
    if isinstance(version, bool) or version not in READABLE:
        raise _refused(gettext_noop("This backup was made by another version of Scorekeeper."))
    try:
        with transaction.atomic():
            return _restore(data, user, int(version))
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
        DatabaseError,
        ValidationError,
        RuleError,
        BadName,
    ) as error:
        raise _refused(gettext_noop("This backup is damaged; nothing was restored.")) from error


def items(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The list of objects under ``key`` (of a sane length)."""
    found = data[key]
    if not isinstance(found, list) or len(found) > MAX_ITEMS or not all(isinstance(item, Mapping) for item in found):
        raise ValueError(key)
    return found


def flag(value: Any) -> bool:
    """A yes or no, as the file must say it."""
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


def moment(value: Any) -> datetime.datetime:
    """A moment as ``when`` wrote it, with its offset."""
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None or parsed.tzinfo is None:
        raise ValueError(value)
    return parsed


def since(entry: Mapping[str, Any], key: str, *, version: int, added: int, absent: Any) -> Any:
    """``entry[key]``, a field the format's version ``added`` brought: a file of an older version left it out,
    meaning ``absent``."""
    return entry[key] if version >= added else absent


def _restore(data: Mapping[str, Any], user: User, version: int) -> dict[str, int]:
    counts = dict.fromkeys(("players", "matches", "games", "nights"), 0)
    parts = [(section, data[section.key]) for section in _sections if data.get(section.key) is not None]
    if len(parts) > 1:
        raise ValueError("a backup is of one book")
    keeper = parts[0][0].book(parts[0][1], user, version) if parts else keeper_for(user)
    players = {entry["id"]: _player(keeper, entry, version, counts) for entry in items(data, "players")}
    matches = {entry["id"]: _restored_match(keeper, entry, players, user, counts) for entry in items(data, "matches")}
    restored = Restored(keeper=keeper, players=players, matches=matches, version=version)
    for section, part in parts:
        for name, count in section.restore(part, restored).items():
            counts[name] += count
    return counts


def _mine(found: Player | Match | None, keeper: Keeper) -> None:
    """A player or match of that public id belongs to ``keeper``'s book, if there is one: elsewhere it does not fit."""
    if found is not None and found.keeper_id != keeper.pk:
        raise Unfit(str(found.public_id))


def _player(keeper: Keeper, entry: Mapping[str, Any], version: int, counts: dict[str, int]) -> Player:
    public_id = uuid.UUID(entry["id"])
    found = Player.objects.filter(public_id=public_id).first()
    _mine(found, keeper)
    if found is not None:
        return found
    name = normalize_name(str(entry["name"]))
    same = Player.objects.filter(keeper=keeper, name_key=name_key(name)).first()
    if same is not None:
        return same
    added = since(entry, "created_at", version=version, added=2, absent=None)
    counts["players"] += 1
    player = Player.objects.create(public_id=public_id, keeper=keeper, name=name, name_key=name_key(name))
    if added is not None:
        Player.objects.filter(pk=player.pk).update(created_at=moment(added))
    return player


def _restored_match(
    keeper: Keeper, entry: Mapping[str, Any], players: Mapping[str, Player], user: User, counts: dict[str, int]
) -> Match:
    public_id = uuid.UUID(entry["id"])
    found = Match.objects.filter(public_id=public_id).first()
    _mine(found, keeper)
    if found is not None:
        return found
    seats = [players[player] for player in entry["seats"]]
    # Checked as a new match is (variant, scheme, rules, players, dealer, length, title), with its own public id.
    match = match_create(
        owner=user,
        keeper=keeper,
        public_id=public_id,
        variant=str(entry["variant"]),
        scheme=str(entry["scheme"]),
        rules=dict(entry["rules"]),
        player_names=[player.name for player in seats],
        first_dealer=int(entry["first_dealer"]),
        title=str(entry["title"]),
        preset=str(entry["preset"]),
        planned_games=entry["planned_games"],
    )
    if [seat.player_id for seat in match.seats.order_by("position")] != [player.pk for player in seats]:
        raise Unfit(str(public_id))
    games = _restored_games(match, items(entry, "games"))
    _restored_history(match, items(entry, "history"), games)
    version = max([game.version for game in games.values()] + [0])
    Match.objects.filter(pk=match.pk).update(version=version, created_at=moment(entry["created_at"]))
    match_rescore(Match.objects.get(pk=match.pk))
    if entry["locked"] is True:
        Match.objects.filter(pk=match.pk).update(locked=True, invite_token=None)
    counts["matches"] += 1
    counts["games"] += len(games)
    return Match.objects.get(pk=match.pk)


def _restored_games(match: Match, entries: Sequence[Mapping[str, Any]]) -> dict[str, Game]:
    """The games as entered, each read by the engine and the live ones scored strictly, in their order, before any
    is written."""
    games = [
        Game(
            public_id=uuid.UUID(game["id"]),
            match=match,
            position=int(game["position"]),
            passed=flag(game["passed"]),
            declarer=None if game["declarer"] is None else int(game["declarer"]),
            entry=game["entry"],
            entry_version=int(game["entry_version"]),
            deleted=flag(game["deleted"]),
            version=int(game["version"]),
        )
        for game in entries
    ]
    for game in games:
        game.full_clean(exclude=["match", *DERIVED], validate_unique=False)
    live = sorted((game for game in games if not game.deleted), key=lambda game: game.position)
    # Every live game scored strictly, in order: a game the rules refuse refuses the file.
    for _ in score_deals(match.setup(), [game.deal() for game in live]):
        pass
    written = Game.objects.bulk_create(games)
    for game, entry in zip(written, entries, strict=True):
        Game.objects.filter(pk=game.pk).update(created_at=moment(entry["created_at"]))
    return {str(game.public_id): game for game in written}


def _restored_history(match: Match, entries: Sequence[Mapping[str, Any]], games: Mapping[str, Game]) -> None:
    events: dict[str, MatchEvent] = {}
    for entry in entries:
        for state in (entry["before"], entry["after"]):
            _check_state(state)
        if entry["action"] not in MatchEvent.Action.values:
            raise ValueError(entry["action"])
        event = MatchEvent.objects.create(
            public_id=uuid.UUID(entry["id"]),
            match=match,
            game=games[entry["game"]],
            action=entry["action"],
            token=uuid.UUID(entry["token"]),
            version=int(entry["version"]),
            number=None if entry["number"] is None else int(entry["number"]),
            before=entry["before"],
            after=entry["after"],
            undo_of=events[entry["undo_of"]] if entry["undo_of"] else None,
        )
        MatchEvent.objects.filter(pk=event.pk).update(created_at=moment(entry["created_at"]))
        events[entry["id"]] = event


def _check_state(state: Any) -> None:
    """A game's state as the history keeps it (or nothing): it must read as a deal, as the history page reads it."""
    if state is None:
        return
    if not isinstance(state, Mapping) or not isinstance(state.get("deleted"), bool):
        raise ValueError(state)
    deal_from_data(
        passed=flag(state["passed"]), declarer=state["declarer"], entry=state["entry"], version=int(state.get("v", 0))
    )
