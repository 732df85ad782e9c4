"""Backup and restore: everything of an account or of a club in one JSON file, and back into any instance.

A backup holds what was entered, never what was derived: the players, every match with its rules and seats, its
games as entered (deleted ones included) and its whole history of changes, and for a club its members, its players'
roster, its seasons, nights, attendances, tables and paper lists. Restoring writes them with new database ids under
the restoring account (a club's backup becomes a club that account owns, or goes into the one it owns already), keeps
every public id, and scores every match afresh with the current rules engine. Whatever is already there in that book
or club (by its public id) is left as it is, so a second restore of the same file changes nothing. Accounts are not
part of a backup: players are not linked to them, members are not added, and the history keeps its changes without
their authors.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from .engine import FieldError, RuleError, deal_from_data, score_deals
from .engine.messages import gettext_noop, msg
from .errors import Invalid
from .leagues import services as clubs
from .leagues.models import (
    Attendance,
    Club,
    ClubRole,
    ClubTable,
    Membership,
    Night,
    NightLog,
    PaperLine,
    Roster,
    Season,
)
from .leagues.services import night_standings_rescore, season_standings_rescore
from .models import Game, Keeper, Match, MatchEvent, Player
from .names import BadName, name_key, normalize_name
from .services import DERIVED, keeper_for, match_create, match_rescore

FORMAT = "scorekeeper-backup"
VERSION = 1
MAX_CLUB_NAME = 100


# --- Writing a backup ----------------------------------------------------------------------------------------------


def account_backup(user: User) -> dict[str, Any]:
    """Everything in a person's own book (an empty one if they have kept nothing yet)."""
    keeper = Keeper.objects.filter(user=user).first()
    book = _book(keeper) if keeper is not None else {"players": [], "matches": []}
    return {"format": FORMAT, "version": VERSION, "created": _when(timezone.now()), **book}


def club_backup(club: Club) -> dict[str, Any]:
    """Everything of a club: its book, its players' roster, seasons and nights (not its members: accounts belong to
    an instance)."""
    data = {"format": FORMAT, "version": VERSION, "created": _when(timezone.now()), **_book(club.keeper)}
    rosters = (
        Roster.objects.filter(player__keeper=club.keeper)
        .select_related("player")
        .order_by("player__created_at", "player__pk")
    )
    data["club"] = {
        "id": str(club.public_id),
        "name": club.name,
        "roster": [
            {
                "player": str(roster.player.public_id),
                "guest": roster.guest,
                "categories": roster.categories,
                "first_name_only": roster.first_name_only,
            }
            for roster in rosters
        ],
        "seasons": [_season(season) for season in club.seasons.order_by("created_at")],
    }
    return data


def _when(moment: datetime.datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _book(keeper: Keeper) -> dict[str, Any]:
    players = Player.objects.filter(keeper=keeper).order_by("created_at", "pk")
    matches = Match.objects.filter(keeper=keeper).order_by("created_at", "pk")
    return {
        "players": [{"id": str(player.public_id), "name": player.name} for player in players],
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
        "created_at": _when(match.created_at),
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
                "created_at": _when(game.created_at),
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
                "created_at": _when(event.created_at),
                "before": event.before,
                "after": event.after,
                "undo_of": str(event.undo_of.public_id) if event.undo_of else None,
            }
            for event in events
        ],
    }


def _season(season: Season) -> dict[str, Any]:
    settings = {
        name: getattr(season, name)
        for name in (
            "name",
            "variant",
            "scheme",
            "rules",
            "plan",
            "games_at_four",
            "games_at_three",
            "games_at_two",
            "ranking",
            "minimum_lists",
            "best_nights",
            "guests_ranked",
            "categories",
            "stake",
            "list_fee",
            "lost_fees",
        )
    }
    return {
        "id": str(season.public_id),
        **settings,
        "nights": [_night(night) for night in season.nights.order_by("date", "created_at")],
    }


def _night(night: Night) -> dict[str, Any]:
    tables = night.tables.select_related("match").order_by("series", "number")
    return {
        "id": str(night.public_id),
        "date": night.date.isoformat(),
        "series": night.series,
        "seed": night.seed,
        "closed_at": _when(night.closed_at),
        "attendances": [
            {"player": str(attendance.player.public_id), "in_pot": attendance.in_pot}
            for attendance in night.attendances.select_related("player")
        ],
        "tables": [
            {
                "series": table.series,
                "number": table.number,
                "match": str(table.match.public_id),
                "paper": table.paper,
                "seed": table.seed,
                "paper_lines": [
                    {
                        "player": str(line.player.public_id),
                        "game_points": line.game_points,
                        "won": line.won,
                        "lost": line.lost,
                    }
                    for line in table.paper_lines.select_related("player")
                ],
            }
            for table in tables
        ],
        "log": [
            {
                "action": entry.action,
                "created_at": _when(entry.created_at),
            }
            for entry in night.log.all()
        ],
    }


# --- Restoring -----------------------------------------------------------------------------------------------------

MAX_ITEMS = 100_000  # players, matches, games, history entries or nights in one file: more is not a backup of ours


class Unfit(Exception):
    """What the file names is here already, in a book or club the restoring account does not own."""


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
    if data.get("version") != VERSION:
        raise _refused(gettext_noop("This backup was made by another version of Scorekeeper."))
    try:
        with transaction.atomic():
            return _restore(data, user)
    except (Unfit, IntegrityError) as error:
        raise _refused(gettext_noop("This backup does not fit the data here; nothing was restored.")) from error
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


def _items(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    items = data[key]
    if not isinstance(items, list) or len(items) > MAX_ITEMS or not all(isinstance(item, Mapping) for item in items):
        raise ValueError(key)
    return items


def _restore(data: Mapping[str, Any], user: User) -> dict[str, int]:
    counts = dict.fromkeys(("players", "matches", "games", "nights"), 0)
    club_data = data.get("club")
    club: Club | None = None
    if club_data is not None:
        club = _club_of(club_data, user)
        keeper = club.keeper
    else:
        keeper = keeper_for(user)
    players = {entry["id"]: _player(keeper, entry, counts) for entry in _items(data, "players")}
    matches = {entry["id"]: _restored_match(keeper, entry, players, user, counts) for entry in _items(data, "matches")}
    if club is not None and club_data is not None:
        _restore_club(club, club_data, players, matches, counts)
    return counts


def _club_of(data: Mapping[str, Any], user: User) -> Club:
    """The club the backup is of: here already and owned by ``user``, or made anew with ``user`` its owner."""
    public_id = uuid.UUID(data["id"])
    club = Club.objects.filter(public_id=public_id).first()
    if club is None:
        club = Club.objects.create(public_id=public_id, keeper=Keeper.objects.create(), name=_club_name(data["name"]))
        Membership.objects.create(club=club, user=user, role=ClubRole.OWNER)
        return club
    if not Membership.objects.filter(club=club, user=user, role=ClubRole.OWNER).exists():
        raise Unfit(data["id"])
    return club


def _club_name(raw: Any) -> str:
    name = " ".join(str(raw).split())
    if not name or len(name) > MAX_CLUB_NAME:
        raise ValueError(name)
    return name


def _mine(found: Player | Match | None, keeper: Keeper) -> None:
    """A player or match of that public id belongs to ``keeper``'s book, if there is one: elsewhere it does not fit."""
    if found is not None and found.keeper_id != keeper.pk:
        raise Unfit(str(found.public_id))


def _player(keeper: Keeper, entry: Mapping[str, Any], counts: dict[str, int]) -> Player:
    public_id = uuid.UUID(entry["id"])
    found = Player.objects.filter(public_id=public_id).first()
    _mine(found, keeper)
    if found is not None:
        return found
    name = normalize_name(str(entry["name"]))
    same = Player.objects.filter(keeper=keeper, name_key=name_key(name)).first()
    if same is not None:
        return same
    counts["players"] += 1
    return Player.objects.create(public_id=public_id, keeper=keeper, name=name, name_key=name_key(name))


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
    games = _restored_games(match, _items(entry, "games"))
    _restored_history(match, _items(entry, "history"), games)
    version = max([game.version for game in games.values()] + [0])
    Match.objects.filter(pk=match.pk).update(version=version, created_at=parse_datetime(entry["created_at"]))
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
            passed=_flag(game["passed"]),
            declarer=None if game["declarer"] is None else int(game["declarer"]),
            entry=game["entry"],
            entry_version=int(game["entry_version"]),
            deleted=_flag(game["deleted"]),
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
        Game.objects.filter(pk=game.pk).update(created_at=parse_datetime(entry["created_at"]))
    return {str(game.public_id): game for game in written}


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


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
        MatchEvent.objects.filter(pk=event.pk).update(created_at=parse_datetime(entry["created_at"]))
        events[entry["id"]] = event


def _check_state(state: Any) -> None:
    """A game's state as the history keeps it (or nothing): it must read as a deal, as the history page reads it."""
    if state is None:
        return
    if not isinstance(state, Mapping) or not isinstance(state.get("deleted"), bool):
        raise ValueError(state)
    deal_from_data(
        passed=_flag(state["passed"]), declarer=state["declarer"], entry=state["entry"], version=int(state.get("v", 0))
    )


def _restore_club(
    club: Club,
    data: Mapping[str, Any],
    players: Mapping[str, Player],
    matches: Mapping[str, Match],
    counts: dict[str, int],
) -> None:
    for roster in _items(data, "roster"):
        categories = [str(category) for category in roster["categories"]]
        clubs.roster_set(
            club=club,
            player=players[roster["player"]],
            guest=_flag(roster["guest"]),
            first_name_only=_flag(roster["first_name_only"]),
            categories=categories,
        )
    for season_data in _items(data, "seasons"):
        public_id = uuid.UUID(season_data["id"])
        season = Season.objects.filter(public_id=public_id).first()
        if season is not None and season.club_id != club.pk:
            raise Unfit(str(public_id))
        if season is None:
            season = clubs.season_create(club=club, settings=_season_settings(season_data), public_id=public_id)
        for night_data in _items(season_data, "nights"):
            _restore_night(season, night_data, players, matches, counts)
        season_standings_rescore(season)


def _season_settings(data: Mapping[str, Any]) -> clubs.SeasonSettings:
    return clubs.SeasonSettings(
        name=str(data["name"]),
        variant=str(data["variant"]),
        scheme=str(data["scheme"]),
        rules=dict(data["rules"]),
        plan=str(data["plan"]),
        games_at_four=int(data["games_at_four"]),
        games_at_three=int(data["games_at_three"]),
        games_at_two=int(data["games_at_two"]),
        ranking=str(data["ranking"]),
        minimum_lists=int(data["minimum_lists"]),
        best_nights=int(data["best_nights"]),
        guests_ranked=_flag(data["guests_ranked"]),
        categories=[str(category) for category in data["categories"]],
        stake=int(data["stake"]),
        list_fee=int(data["list_fee"]),
        lost_fees=[(int(start), int(cents)) for start, cents in data["lost_fees"]],
    )


def _restore_night(
    season: Season,
    data: Mapping[str, Any],
    players: Mapping[str, Player],
    matches: Mapping[str, Match],
    counts: dict[str, int],
) -> None:
    public_id = uuid.UUID(data["id"])
    found = Night.objects.filter(public_id=public_id).first()
    if found is not None:
        if found.season_id != season.pk:
            raise Unfit(str(public_id))
        return
    closed = parse_datetime(data["closed_at"]) if data["closed_at"] else None
    date = parse_date(data["date"])
    if date is None or not 1 <= int(data["series"]) <= clubs.MAX_SERIES:
        raise ValueError(data["date"])
    night = Night(public_id=public_id, season=season, date=date, series=int(data["series"]), seed=str(data["seed"]))
    night.full_clean(exclude=["season"], validate_unique=False)
    night.save()
    Attendance.objects.bulk_create(
        Attendance(night=night, player=players[entry["player"]], in_pot=_flag(entry["in_pot"]))
        for entry in _items(data, "attendances")
    )
    for table_data in _items(data, "tables"):
        table = ClubTable(
            night=night,
            series=int(table_data["series"]),
            number=int(table_data["number"]),
            match=matches[table_data["match"]],
            paper=_flag(table_data["paper"]),
            seed=str(table_data["seed"]),
        )
        table.full_clean(exclude=["night", "match"], validate_unique=False)
        table.save()
        lines = [
            PaperLine(
                table=table,
                player=players[line["player"]],
                game_points=int(line["game_points"]),
                won=int(line["won"]),
                lost=int(line["lost"]),
            )
            for line in _items(table_data, "paper_lines")
        ]
        for line in lines:
            line.full_clean(exclude=["table", "player"], validate_unique=False)
        PaperLine.objects.bulk_create(lines)
    for entry in _items(data, "log"):
        if entry["action"] not in NightLog.Action.values:
            raise ValueError(entry["action"])
        logged = NightLog.objects.create(night=night, action=entry["action"])
        NightLog.objects.filter(pk=logged.pk).update(created_at=parse_datetime(entry["created_at"]))
    if closed is not None:
        Night.objects.filter(pk=night.pk).update(closed_at=closed)
        night.refresh_from_db()
        night_standings_rescore(night)
    counts["nights"] += 1
