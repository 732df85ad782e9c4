"""A club's part of a backup (the section ``"club"`` of the core's backup): its players' roster, its seasons with
their histories, and each season's nights with who came, the tables, the paper lists and the night's history, each
entry with what it replaced (the old date, the dropped tables' players, the paper totals set aside).

Members are not part of it: accounts belong to an instance. What is derived (the nights' and seasons' sums) is
summed afresh. A season, night or the club itself found here already (by its public id) is left as it is.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Model
from django.utils.dateparse import parse_date

from matches.backup import (
    ByName,
    PaperWhere,
    Restored,
    Section,
    Unfit,
    book_backup,
    ended_link_restored,
    flag,
    items,
    moment,
    named,
    paper_lines,
    paper_lines_read,
    paper_restored,
    since,
    when,
)
from matches.models import Keeper

from . import services as clubs
from .models import (
    Attendance,
    Club,
    ClubRole,
    ClubTable,
    Membership,
    Night,
    NightLog,
    Roster,
    Season,
    SeasonLog,
)
from .services import night_standings_rescore, season_standings_rescore

MAX_CLUB_NAME = 100
# What a season is played and ranked by, as its backup keeps it (and as a season's history names what changed).
SETTINGS = (
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


# --- Writing -------------------------------------------------------------------------------------------------------


def club_backup(club: Club) -> dict[str, Any]:
    """Everything of a club: its book, its players' roster, seasons and nights, and their histories (not its members:
    accounts belong to an instance)."""
    data = book_backup(club.keeper)
    rosters = (
        Roster.objects.filter(player__keeper=club.keeper)
        .select_related("player")
        .order_by("player__created_at", "player__pk")
    )
    data["club"] = {
        "id": str(club.public_id),
        "name": club.name,
        "created_at": when(club.created_at),
        "roster": [
            {
                "player": str(roster.player.public_id),
                "guest": roster.guest,
                "categories": roster.categories,
                "first_name_only": roster.first_name_only,
            }
            for roster in rosters
        ],
        "seasons": [_season(season) for season in club.seasons.order_by("created_at", "pk")],
    }
    return data


def _logged(log: SeasonLog | NightLog) -> dict[str, Any]:
    return {"action": log.action, "details": log.details, "created_at": when(log.created_at)}


def _season(season: Season) -> dict[str, Any]:
    return {
        "id": str(season.public_id),
        **{name: getattr(season, name) for name in SETTINGS},
        "created_at": when(season.created_at),
        "log": [_logged(entry) for entry in season.log.order_by("created_at", "pk")],
        "nights": [_night(night) for night in season.nights.order_by("date", "created_at", "pk")],
    }


def _night(night: Night) -> dict[str, Any]:
    tables = night.tables.select_related("match").order_by("series", "number")
    return {
        "id": str(night.public_id),
        "date": night.date.isoformat(),
        "series": night.series,
        "seed": night.seed,
        "closed_at": when(night.closed_at),
        "created_at": when(night.created_at),
        "attendances": [
            {
                "player": str(attendance.player.public_id),
                "in_pot": attendance.in_pot,
                "created_at": when(attendance.created_at),
            }
            for attendance in night.attendances.select_related("player").order_by("created_at", "pk")
        ],
        "tables": [
            {
                "series": table.series,
                "number": table.number,
                "match": str(table.match.public_id),
                "paper": table.paper,
                "seed": table.seed,
                "guests_from": table.guests_from,
                "paper_lines": paper_lines(table.match),
            }
            for table in tables
        ],
        "log": [_logged(entry) for entry in night.log.order_by("created_at", "pk")],
    }


# --- Restoring -----------------------------------------------------------------------------------------------------


def club_book(data: Mapping[str, Any], user: User, version: int) -> Keeper | None:
    """The book of the club the backup is of, if it is here already (``Unfit`` unless ``user`` owns it)."""
    club = Club.objects.filter(public_id=uuid.UUID(data["id"])).first()
    if club is None:
        return None
    if not Membership.objects.filter(club=club, user=user, role=ClubRole.OWNER).exists():
        raise Unfit(data["id"])
    return club.keeper


def club_made(data: Mapping[str, Any], user: User, version: int) -> Keeper:
    """The club the backup is of, made anew with ``user`` its owner: its book."""
    club = Club.objects.create(
        public_id=uuid.UUID(data["id"]), keeper=Keeper.objects.create(), name=_club_name(data["name"])
    )
    Membership.objects.create(club=club, user=user, role=ClubRole.OWNER)
    created = since(data, "created_at", version=version, added=2, absent=None)
    if created is not None:
        Club.objects.filter(pk=club.pk).update(created_at=moment(created))
    return club.keeper


def _club_name(raw: Any) -> str:
    name = " ".join(str(raw).split())
    if not name or len(name) > MAX_CLUB_NAME:
        raise ValueError(name)
    return name


def restore_club(data: Mapping[str, Any], restored: Restored) -> dict[str, int]:
    """The club's roster, seasons and nights, into the club ``club_book`` found or ``club_made`` made; how many
    nights were added."""
    club = Club.objects.get(keeper=restored.keeper)
    version = restored.version
    for roster in items(data, "roster"):
        categories = [str(category) for category in roster["categories"]]
        clubs.roster_set(
            club=club,
            player=restored.players[roster["player"]],
            guest=flag(roster["guest"]),
            first_name_only=flag(roster["first_name_only"]),
            categories=categories,
        )
    nights = 0
    for season_data in items(data, "seasons"):
        season = _restored_season(club, season_data, version)
        for night_data in items(season_data, "nights"):
            nights += _restore_night(season, night_data, restored)
        season_standings_rescore(season)
    return {"nights": nights}


def _restored_season(club: Club, data: Mapping[str, Any], version: int) -> Season:
    public_id = uuid.UUID(data["id"])
    season = Season.objects.filter(public_id=public_id).first()
    if season is not None:
        if season.club_id != club.pk:
            raise Unfit(str(public_id))
        return season
    season = clubs.season_create(club=club, settings=_season_settings(data), public_id=public_id)
    created = since(data, "created_at", version=version, added=2, absent=None)
    if created is not None:
        Season.objects.filter(pk=season.pk).update(created_at=moment(created))
    for entry in items(data, "log") if version >= 2 else []:
        _log(SeasonLog, {"season": season}, entry, SEASON_DETAILS, version)
    return season


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
        guests_ranked=flag(data["guests_ranked"]),
        categories=[str(category) for category in data["categories"]],
        stake=int(data["stake"]),
        list_fee=int(data["list_fee"]),
        lost_fees=[(int(start), int(cents)) for start, cents in data["lost_fees"]],
    )


def _restore_night(season: Season, data: Mapping[str, Any], restored: Restored) -> int:
    """The night, with who came, its tables, paper lists and history: 1 if it was added, 0 if it was here."""
    public_id = uuid.UUID(data["id"])
    found = Night.objects.filter(public_id=public_id).first()
    if found is not None:
        if found.season_id != season.pk:
            raise Unfit(str(public_id))
        return 0
    version, players = restored.version, restored.players
    closed = moment(data["closed_at"]) if data["closed_at"] else None
    date = parse_date(data["date"])
    if date is None or not 1 <= int(data["series"]) <= clubs.MAX_SERIES:
        raise ValueError(data["date"])
    night = Night(public_id=public_id, season=season, date=date, series=int(data["series"]), seed=str(data["seed"]))
    night.full_clean(exclude=["season"], validate_unique=False)
    night.save()
    created = since(data, "created_at", version=version, added=2, absent=None)
    if created is not None:
        Night.objects.filter(pk=night.pk).update(created_at=moment(created))
    came = [
        (Attendance(night=night, player=players[entry["player"]], in_pot=flag(entry["in_pot"])), entry)
        for entry in items(data, "attendances")
    ]
    Attendance.objects.bulk_create(attendance for attendance, _ in came)
    if version >= 2:
        for attendance, entry in came:
            attendance.created_at = moment(entry["created_at"])
        Attendance.objects.bulk_update([attendance for attendance, _ in came], ["created_at"])
    for table_data in items(data, "tables"):
        _restore_table(night, table_data, restored)
    for entry in items(data, "log"):
        _log(NightLog, {"night": night}, entry, NIGHT_DETAILS, version)
    if closed is not None:
        Night.objects.filter(pk=night.pk).update(closed_at=closed)
        night.refresh_from_db()
        night_standings_rescore(night)
    return 1


def _restore_table(night: Night, data: Mapping[str, Any], restored: Restored) -> None:
    version = restored.version
    guests_from = since(data, "guests_from", version=version, added=2, absent=None)
    table = ClubTable(
        night=night,
        series=int(data["series"]),
        number=int(data["number"]),
        match=restored.matches[data["match"]],
        paper=flag(data["paper"]),
        seed=str(data["seed"]),
        guests_from=None if guests_from is None else int(guests_from),
    )
    table.full_clean(exclude=["night", "match"], validate_unique=False)
    table.save()
    if 2 <= version < 4:
        # The link the table had when its night closed, kept on the table by a file of before the core kept it on
        # the match: the core takes it (and refuses one a match here keeps).
        ended_link_restored(table.match, data["closed_link"])
    lines = paper_lines_read(data, restored)
    rules = clubs.paper_rules(table.night.season, len(lines))
    where = PaperWhere(table.number, table.series, table.night.date.isoformat(), **rules)
    paper_restored(table.match, lines, where=where)


# --- The histories' details, checked as the services write them (the history pages read them so) ------------------

Check = Callable[[Any], object]


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(value)
    return value


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(value)
    return value


def _day(value: Any) -> datetime.date:
    return datetime.date.fromisoformat(_text(value))


def _texts(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise ValueError(value)
    return [_text(item) for item in value]


def _seatings(value: Any) -> list[list[str]]:
    if not isinstance(value, list):
        raise ValueError(value)
    return [_texts(table) for table in value]


PAPER_LINE: dict[str, Check] = {
    "player": lambda value: uuid.UUID(_text(value)),
    "name": _text,
    "game_points": _whole,
    "won": _whole,
    "lost": _whole,
}


def _paper_lines(value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list):
        raise ValueError(value)
    for line in value:
        if not isinstance(line, Mapping) or set(line) != set(PAPER_LINE):
            raise ValueError(line)
        _shaped(line, PAPER_LINE)
    return value


def _settings_before(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not set(value) <= set(SETTINGS):
        raise ValueError(value)
    return value


def _shaped(details: Mapping[str, Any], shape: Mapping[str, Check]) -> None:
    for key, value in details.items():
        shape[key](value)


Shapes = Mapping[str, Mapping[str, Check]]

NIGHT_DETAILS: Shapes = {
    NightLog.Action.CLOSE: {},
    NightLog.Action.REOPEN: {},
    NightLog.Action.REDATE: {"from": _day, "to": _day},
    NightLog.Action.DROP: {"series": _whole, "seed": _text, "tables": _seatings},
    NightLog.Action.PHONES: {"series": _whole, "table": _whole, "lines": _paper_lines},
}
SEASON_DETAILS: Shapes = {
    SeasonLog.Action.EDIT: {"before": _settings_before},
    SeasonLog.Action.REMOVE_NIGHT: {"date": _day, "series": _whole, "attendees": _texts},
}


def _log(
    model: type[SeasonLog] | type[NightLog], owner: Mapping[str, Model], entry: Any, shapes: Shapes, version: int
) -> None:
    """One entry of a season's or night's history, as it was written: its action, details and moment (a version-1
    file kept a night's history without details)."""
    action = entry["action"]
    details = since(entry, "details", version=version, added=2, absent={})
    shape = shapes[action]
    if not isinstance(details, Mapping) or not set(details) <= set(shape):
        raise ValueError(details)
    _shaped(details, shape)
    logged = model.objects.create(action=action, details=dict(details), **owner)
    model.objects.filter(pk=logged.pk).update(created_at=moment(entry["created_at"]))


CLUB_SECTION = Section(
    key="club",
    book=club_book,
    make_book=club_made,
    restore=restore_club,
    by_name=ByName(
        flag="club",
        help="the club (by name) whose players, matches, seasons and nights are backed up",
        find=named(Club.objects.all(), "clubs"),
        backup=club_backup,
    ),
)
