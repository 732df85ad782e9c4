"""A club season of any length for the benchmark: sixty players, tables of four playing series of up to 48 games.

The nights before tonight are written in bulk (a million games through the services would take hours) and then
closed through the service, as a secretary closes them; tonight's night is checked in, drawn and played game by game
through the services. The games of the closed nights are real rows, so the database is as large as such a season
makes it, though the season table never reads them.
"""

from __future__ import annotations

import datetime
import math
import uuid
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from django.contrib.auth.models import User
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils import timezone

from matches.engine import ENTRY_VERSION, RULES_VERSION
from matches.leagues import services as clubs
from matches.leagues.models import ClubTable, Night, Season
from matches.models import Game, GameScore, Match, Player, Seat
from matches.services import Submission, game_add

PLAYERS = 60
TABLE = 4
SERIES = 48
TONIGHT_GAMES = 2  # games each of tonight's tables has entered
BATCH = 5000
ENTRY = {"contract": "grand", "matadors": 1, "declarer_card_points": 70}
LOST_ENTRY = {"contract": "grand", "matadors": 1, "declarer_card_points": 40}
# A grand with 1, won: 48 + 50 for the declarer; lost: −96 − 50, and 30 to each of the other three (Seeger-Fabian).
WON, LOST, BONUS = 98, -146, 30


def seed_season(owner: User, name: str, games: int) -> Season:
    """A season whose closed nights hold about ``games`` games, and tonight's night under way."""
    club = clubs.club_create(owner=owner, name=name)
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name=name))
    players = [clubs.club_player_add(club=club, name=f"Spieler {number:02d}") for number in range(PLAYERS)]
    tables = PLAYERS // TABLE
    nights = max(1, math.ceil(games / (tables * SERIES)))
    per_table = max(1, min(SERIES, games // (nights * tables)))
    today = datetime.date(2026, 11, 24)
    written = Night.objects.bulk_create(
        Night(season=season, date=today - datetime.timedelta(days=7 * (nights - index))) for index in range(nights)
    )
    for night in written:
        with transaction.atomic():
            _played_night(night, owner, players, per_table)
        clubs.night_close(night=night, user=owner)
    tonight = clubs.night_create(season=season, date=today)
    for player in players:
        clubs.check_in(night=tonight, player=player)
    clubs.night_draw(night=tonight, series=1, user=owner)
    for table in ClubTable.objects.filter(night=tonight).select_related("match"):
        for number in range(1, TONIGHT_GAMES + 1):
            declarer = number % TABLE  # the seat after the dealer (seat 0 deals first and sits out)
            submission = Submission(declarer=declarer, entry=ENTRY if number % 3 else LOST_ENTRY)
            game_add(match=table.match, user=owner, token=uuid.uuid4(), submission=submission)
    return season


def _played_night(night: Night, owner: User, players: Sequence[Player], per_table: int) -> None:
    """One closed night's tables, seats and games, in bulk: each table plays ``per_table`` games."""
    season = night.season
    shift = night.pk % PLAYERS
    order = [players[(index + shift) % PLAYERS] for index in range(PLAYERS)]
    tables = [order[start : start + TABLE] for start in range(0, PLAYERS, TABLE)]
    matches = Match.objects.bulk_create(
        Match(
            keeper_id=season.club.keeper_id,
            created_by=owner,
            variant=season.variant,
            scheme=season.scheme,
            rules=season.rules,
            players=TABLE,
            planned_games=SERIES,
            deals=per_table,
            version=per_table,
            totals=[0] * TABLE,
        )
        for _ in tables
    )
    ClubTable.objects.bulk_create(
        ClubTable(night=night, series=1, number=number, match=match) for number, match in enumerate(matches, start=1)
    )
    Seat.objects.bulk_create(
        Seat(match=match, position=position, player=player)
        for match, seated in zip(matches, tables, strict=True)
        for position, player in enumerate(seated)
    )
    first = (Game.objects.aggregate(top=models.Max("id"))["top"] or 0) + 1
    games = list(_games(matches, tables, per_table, first))
    _insert(Game, GAME_FIELDS, (row for row, _ in games))
    _insert(GameScore, SCORE_FIELDS, (score for _, scores in games for score in scores))
    _reset_sequences()


GAME_FIELDS = (
    "id",
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
SCORE_FIELDS = ("game", "seat", "player", "points", "declarer", "played")


def _games(
    matches: Sequence[Match], tables: Sequence[Sequence[Player]], per_table: int, first: int
) -> Iterator[tuple[list[Any], list[list[Any]]]]:
    now = timezone.now()
    game_id = first
    for match, seated in zip(matches, tables, strict=True):
        for number in range(1, per_table + 1):
            dealer = (number - 1) % TABLE
            declarer = (dealer + 1) % TABLE
            won = number % 3 != 0
            points = [0] * TABLE if won else [BONUS] * TABLE
            points[declarer] = WON if won else LOST
            entry = ENTRY if won else LOST_ENTRY
            row = [
                game_id,
                uuid.uuid4(),
                match.pk,
                number,
                False,
                declarer,
                entry,
                ENTRY_VERSION,
                False,
                number,
                now,
                number,
                0,
                won,
                48,
                points,
                [],
                RULES_VERSION,
            ]
            scores = [
                [game_id, seat, seated[seat].pk, points[seat], seat == declarer, seat != dealer]
                for seat in range(TABLE)
            ]
            yield row, scores
            game_id += 1


def _insert(model: type[models.Model], names: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Rows straight into ``model``'s table, in batches; values that the database stores in its own form (uuids,
    JSON, times) are prepared by their fields, the few distinct JSON values and times once each."""
    fields = [model._meta.get_field(name) for name in names]
    assert all(isinstance(field, models.Field) for field in fields)
    kinds = [_kind(field) for field in fields]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(field.column)) for field in fields)  # type: ignore[union-attr]
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    known: dict[tuple[int, str], Any] = {}

    def prepare(index: int, value: Any) -> Any:
        kind = kinds[index]
        if kind == "plain":
            return value
        if kind == "each":
            return fields[index].get_db_prep_save(value, connection)  # type: ignore[union-attr]
        key = (index, repr(value))
        if key not in known:
            known[key] = fields[index].get_db_prep_save(value, connection)  # type: ignore[union-attr]
        return known[key]

    with connection.cursor() as cursor:
        iterator = iter(rows)
        while batch := list(islice(iterator, BATCH)):
            cursor.executemany(sql, [[prepare(index, value) for index, value in enumerate(row)] for row in batch])


def _kind(field: Any) -> str:
    """How a field's values are prepared: as they are, each on its own (uuids), or once per distinct value."""
    if isinstance(field, models.UUIDField):
        return "each"
    if isinstance(field, models.JSONField | models.DateTimeField):
        return "once"
    return "plain"


def _reset_sequences() -> None:
    """Games were written with their ids: the database's counter for them (PostgreSQL's sequence) moves past."""
    statements = connection.ops.sequence_reset_sql(no_style(), [Game])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
