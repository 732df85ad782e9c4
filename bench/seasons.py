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
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night, Season
from matches.models import Match, Player, Seat
from matches.services import Submission, game_add

from .bulk import LOST_ENTRY, WON_ENTRY, Tariff, write_games

PLAYERS = 60
TABLE = 4
SERIES = 48
TONIGHT_GAMES = 2  # games each of tonight's tables has entered
# A grand with 1, won: 48 + 50 for the declarer; lost: −96 − 50, and 30 to each of the other three (Seeger-Fabian).
SEEGER_FABIAN = Tariff(won=98, lost=-146, bonus=30)


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
        clubs.night_close(night=night, user=owner, unfinished=True)
    tonight = clubs.night_create(season=season, date=today)
    for player in players:
        clubs.check_in(night=tonight, player=player)
    clubs.night_draw(night=tonight, series=1, user=owner)
    for table in ClubTable.objects.filter(night=tonight).select_related("match"):
        for number in range(1, TONIGHT_GAMES + 1):
            declarer = number % TABLE  # the seat after the dealer (seat 0 deals first and sits out)
            submission = Submission(declarer=declarer, entry=WON_ENTRY if number % 3 else LOST_ENTRY)
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
    write_games(matches, tables, per_table, SEEGER_FABIAN)
