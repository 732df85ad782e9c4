"""Backup and restore: everything of an account or of a club in one JSON file, and back into any instance.

A backup holds what was entered, never what was derived: the players, every match with its rules and seats, its
games as entered (deleted ones included) and its whole history of changes, and for a club its members, its players'
roster, its seasons, nights, attendances, tables and paper lists. Restoring writes them with new database ids under
the restoring account (a club's backup becomes a club that account owns), keeps every public id, and scores every
match afresh with the current rules engine. Whatever is already there (by its public id) is left as it is, so a
second restore of the same file changes nothing.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from .engine import FieldError
from .engine.messages import gettext_noop, msg
from .errors import Invalid
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
from .models import Game, Keeper, Match, MatchEvent, Player, Seat
from .names import name_key
from .services import keeper_for, match_rescore

FORMAT = "scorekeeper-backup"
VERSION = 1


# --- Writing a backup ----------------------------------------------------------------------------------------------


def account_backup(user: User) -> dict[str, Any]:
    """Everything in a person's own book (an empty one if they have kept nothing yet)."""
    keeper = Keeper.objects.filter(user=user).first()
    book = _book(keeper) if keeper is not None else {"players": [], "matches": []}
    return {"format": FORMAT, "version": VERSION, "created": _when(timezone.now()), **book}


def club_backup(club: Club) -> dict[str, Any]:
    """Everything of a club: its book, its members, seasons and nights."""
    data = {"format": FORMAT, "version": VERSION, "created": _when(timezone.now()), **_book(club.keeper)}
    rosters = Roster.objects.filter(player__keeper=club.keeper).select_related("player")
    data["club"] = {
        "id": str(club.public_id),
        "name": club.name,
        "members": [
            {"username": membership.user.username, "role": membership.role}
            for membership in club.memberships.select_related("user").order_by("user__username")
        ],
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
    players = Player.objects.filter(keeper=keeper).select_related("account").order_by("created_at", "pk")
    matches = Match.objects.filter(keeper=keeper).order_by("created_at", "pk")
    return {
        "players": [
            {
                "id": str(player.public_id),
                "name": player.name,
                "account": player.account.username if player.account else None,
            }
            for player in players
        ],
        "matches": [_match(match) for match in matches],
    }


def _match(match: Match) -> dict[str, Any]:
    seats = match.seats.select_related("player").order_by("position")
    games = match.games.order_by("position")
    events = MatchEvent.objects.filter(match=match).select_related("game", "user", "undo_of").order_by("version", "id")
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
                "user": event.user.username if event.user else None,
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
                "user": entry.user.username if entry.user else None,
                "created_at": _when(entry.created_at),
            }
            for entry in night.log.select_related("user")
        ],
    }


# --- Restoring -----------------------------------------------------------------------------------------------------


def _refused(message: str) -> Invalid:
    return Invalid([FieldError("file", msg(message))])


def restore(data: Mapping[str, Any], *, user: User) -> dict[str, int]:
    """Write a backup into this instance under ``user``: their own book, or (a club's backup) a club they own.
    Returns how many players, matches, games and nights were added (0 everywhere for a file restored before)."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _refused(gettext_noop("This is not a Scorekeeper backup."))
    if data.get("version") != VERSION:
        raise _refused(gettext_noop("This backup was made by another version of Scorekeeper."))
    try:
        with transaction.atomic():
            return _restore(data, user)
    except IntegrityError as error:
        raise _refused(gettext_noop("This backup does not fit the data here; nothing was restored.")) from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _refused(gettext_noop("This backup is damaged; nothing was restored.")) from error


def _restore(data: Mapping[str, Any], user: User) -> dict[str, int]:
    counts = dict.fromkeys(("players", "matches", "games", "nights"), 0)
    club_data = data.get("club")
    club: Club | None = None
    if club_data is not None:
        club = Club.objects.filter(public_id=uuid.UUID(club_data["id"])).first()
        if club is None:
            club = Club.objects.create(
                public_id=uuid.UUID(club_data["id"]), keeper=Keeper.objects.create(), name=club_data["name"]
            )
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": ClubRole.OWNER})
        keeper = club.keeper
    else:
        keeper = keeper_for(user)
    players = {entry["id"]: _player(keeper, entry, counts) for entry in data["players"]}
    matches = {entry["id"]: _restored_match(keeper, entry, players, user, counts) for entry in data["matches"]}
    if club is not None and club_data is not None:
        _restore_club(club, club_data, players, matches, counts)
    return counts


def _player(keeper: Keeper, entry: Mapping[str, Any], counts: dict[str, int]) -> Player:
    public_id = uuid.UUID(entry["id"])
    found = Player.objects.filter(public_id=public_id).first()
    if found is not None:
        return found
    key = name_key(entry["name"])
    same = Player.objects.filter(keeper=keeper, name_key=key).first()
    if same is not None:
        return same
    account = User.objects.filter(username=entry["account"]).first() if entry.get("account") else None
    counts["players"] += 1
    return Player.objects.create(public_id=public_id, keeper=keeper, name=entry["name"], name_key=key, account=account)


def _restored_match(
    keeper: Keeper, entry: Mapping[str, Any], players: Mapping[str, Player], user: User, counts: dict[str, int]
) -> Match:
    public_id = uuid.UUID(entry["id"])
    found = Match.objects.filter(public_id=public_id).first()
    if found is not None:
        return found
    seats = [players[player] for player in entry["seats"]]
    match = Match.objects.create(
        public_id=public_id,
        keeper=keeper,
        created_by=user,
        title=entry["title"],
        variant=entry["variant"],
        scheme=entry["scheme"],
        rules=entry["rules"],
        preset=entry["preset"],
        players=len(seats),
        first_dealer=entry["first_dealer"],
        planned_games=entry["planned_games"],
        totals=[0] * len(seats),
    )
    Seat.objects.bulk_create(
        Seat(match=match, position=position, player=player) for position, player in enumerate(seats)
    )
    games = Game.objects.bulk_create(
        Game(
            public_id=uuid.UUID(game["id"]),
            match=match,
            position=game["position"],
            passed=game["passed"],
            declarer=game["declarer"],
            entry=game["entry"],
            entry_version=game["entry_version"],
            deleted=game["deleted"],
            version=game["version"],
        )
        for game in entry["games"]
    )
    by_id = {str(game.public_id): game for game in games}
    events: dict[str, MatchEvent] = {}
    users = {
        name: User.objects.filter(username=name).first()
        for name in {event["user"] for event in entry["history"] if event["user"]}
    }
    for game in entry["games"]:
        Game.objects.filter(pk=by_id[game["id"]].pk).update(created_at=parse_datetime(game["created_at"]))
    for event in entry["history"]:
        events[event["id"]] = MatchEvent.objects.create(
            public_id=uuid.UUID(event["id"]),
            match=match,
            game=by_id[event["game"]],
            action=event["action"],
            token=uuid.UUID(event["token"]),
            version=event["version"],
            number=event["number"],
            user=users.get(event["user"]) if event["user"] else None,
            before=event["before"],
            after=event["after"],
            undo_of=events[event["undo_of"]] if event["undo_of"] else None,
        )
        MatchEvent.objects.filter(pk=events[event["id"]].pk).update(created_at=parse_datetime(event["created_at"]))
    version = max([game.version for game in games] + [event.version for event in events.values()] + [0])
    Match.objects.filter(pk=match.pk).update(version=version, created_at=parse_datetime(entry["created_at"]))
    match_rescore(Match.objects.get(pk=match.pk))
    if entry["locked"]:
        Match.objects.filter(pk=match.pk).update(locked=True, invite_token=None)
    counts["matches"] += 1
    counts["games"] += len(games)
    return Match.objects.get(pk=match.pk)


def _restore_club(
    club: Club,
    data: Mapping[str, Any],
    players: Mapping[str, Player],
    matches: Mapping[str, Match],
    counts: dict[str, int],
) -> None:
    for member in data["members"]:
        account = User.objects.filter(username=member["username"]).first()
        if account is not None:
            Membership.objects.get_or_create(club=club, user=account, defaults={"role": member["role"]})
    for roster in data["roster"]:
        Roster.objects.get_or_create(
            player=players[roster["player"]],
            defaults={
                "guest": roster["guest"],
                "categories": roster["categories"],
                "first_name_only": roster["first_name_only"],
            },
        )
    for season_data in data["seasons"]:
        season = Season.objects.filter(public_id=uuid.UUID(season_data["id"])).first()
        if season is None:
            fields = {key: value for key, value in season_data.items() if key not in ("id", "nights")}
            season = Season.objects.create(public_id=uuid.UUID(season_data["id"]), club=club, **fields)
        for night_data in season_data["nights"]:
            _restore_night(season, night_data, players, matches, counts)
        season_standings_rescore(season)


def _restore_night(
    season: Season,
    data: Mapping[str, Any],
    players: Mapping[str, Player],
    matches: Mapping[str, Match],
    counts: dict[str, int],
) -> None:
    public_id = uuid.UUID(data["id"])
    if Night.objects.filter(public_id=public_id).exists():
        return
    closed = parse_datetime(data["closed_at"]) if data["closed_at"] else None
    date = parse_date(data["date"])
    if date is None:
        raise ValueError(data["date"])
    night = Night.objects.create(
        public_id=public_id, season=season, date=date, series=data["series"], seed=data["seed"], closed_at=closed
    )
    Attendance.objects.bulk_create(
        Attendance(night=night, player=players[entry["player"]], in_pot=entry["in_pot"])
        for entry in data["attendances"]
    )
    for table_data in data["tables"]:
        table = ClubTable.objects.create(
            night=night,
            series=table_data["series"],
            number=table_data["number"],
            match=matches[table_data["match"]],
            paper=table_data["paper"],
            seed=table_data["seed"],
        )
        PaperLine.objects.bulk_create(
            PaperLine(
                table=table,
                player=players[line["player"]],
                game_points=line["game_points"],
                won=line["won"],
                lost=line["lost"],
            )
            for line in table_data["paper_lines"]
        )
    for entry in data["log"]:
        NightLog.objects.create(
            night=night,
            action=entry["action"],
            user=User.objects.filter(username=entry["user"]).first() if entry["user"] else None,
        )
    if closed is not None:
        night_standings_rescore(night)
    counts["nights"] += 1
