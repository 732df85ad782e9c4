"""Games written straight into the database, for the benchmark's seasons and matches of a size the services would
take hours to write: every game a grand with 1, won by the player after the dealer, lost every third deal, with the
score rows the services would write for it. Only the benchmark uses this."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.management.color import no_style
from django.db import connection, models
from django.utils import timezone

from matches.engine import ENTRY_VERSION, RULES_VERSION
from matches.ids import time_ordered_id
from matches.models import Game, GameScore, Match, Player
from matches.restore import GAME_COLUMNS, SCORE_COLUMNS
from matches.rows import rows_insert

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

# The columns a restore writes, with the id first: the seeded games are numbered here, not by the database.
GAME_FIELDS = ("id", *GAME_COLUMNS)


def write_games(matches: Sequence[Match], seated: Sequence[Sequence[Player]], games: int, tariff: Tariff) -> None:
    """``games`` games at each of ``matches`` (seated in order, the first seat dealing first), with their score
    rows; each match's count, version and totals are set to match."""
    first = (Game.objects.aggregate(top=models.Max("id"))["top"] or 0) + 1
    rows = list(_games(matches, seated, games, tariff, first))
    rows_insert(Game, GAME_FIELDS, (row for row, _ in rows), repeated=True)
    rows_insert(GameScore, SCORE_COLUMNS, (score for _, scores in rows for score in scores), repeated=True)
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
                time_ordered_id(),
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
