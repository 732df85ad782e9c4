"""Games written straight into the database, for the benchmark's seasons and matches of a size the services would
take hours to write: every game a grand with 1, won by the player after the dealer, lost every third deal, with the
score rows the services would write for it. Only the benchmark uses this."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from django.core.management.color import no_style
from django.db import connection, models
from django.utils import timezone

from matches.engine import ENTRY_VERSION, RULES_VERSION
from matches.models import Game, GameScore, Match, Player

BATCH = 5000
WON_ENTRY = {"contract": "grand", "matadors": 1, "declarer_card_points": 70}
LOST_ENTRY = {"contract": "grand", "matadors": 1, "declarer_card_points": 40}
VALUE = 48  # a grand with 1


@dataclass(frozen=True)
class Tariff:
    """What a won and a lost game write for the declarer, and what each other player gets when it is lost."""

    won: int
    lost: int
    bonus: int = 0


STANDARD = Tariff(won=VALUE, lost=-2 * VALUE)

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


def write_games(matches: Sequence[Match], seated: Sequence[Sequence[Player]], games: int, tariff: Tariff) -> None:
    """``games`` games at each of ``matches`` (seated in order, the first seat dealing first), with their score
    rows; each match's count, version and totals are set to match."""
    first = (Game.objects.aggregate(top=models.Max("id"))["top"] or 0) + 1
    rows = list(_games(matches, seated, games, tariff, first))
    _insert(Game, GAME_FIELDS, (row for row, _ in rows))
    _insert(GameScore, SCORE_FIELDS, (score for _, scores in rows for score in scores))
    for match, players in zip(matches, seated, strict=True):
        totals = [0] * len(players)
        for row, _ in rows:
            if row[2] == match.pk:
                totals = [total + points for total, points in zip(totals, row[15], strict=True)]
        Match.objects.filter(pk=match.pk).update(deals=games, version=games, totals=totals)
    statements = connection.ops.sequence_reset_sql(no_style(), [Game])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def _games(
    matches: Sequence[Match], seated: Sequence[Sequence[Player]], games: int, tariff: Tariff, first: int
) -> Iterator[tuple[list[Any], list[list[Any]]]]:
    now = timezone.now()
    game_id = first
    for match, players in zip(matches, seated, strict=True):
        size = len(players)
        for number in range(1, games + 1):
            dealer = (number - 1) % size
            declarer = (dealer + 1) % size
            won = number % 3 != 0
            points = [0] * size if won else [tariff.bonus] * size
            points[declarer] = tariff.won if won else tariff.lost
            entry = WON_ENTRY if won else LOST_ENTRY
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
                VALUE,
                points,
                [],
                RULES_VERSION,
            ]
            sits_out = size == 4
            scores = [
                [game_id, seat, players[seat].pk, points[seat], seat == declarer, not (sits_out and seat == dealer)]
                for seat in range(size)
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
