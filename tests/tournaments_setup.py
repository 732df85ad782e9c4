"""An open tournament as the tournament tests share it: an organiser, a tournament announced with the fees of the
clubs digest, entries online and at the door, and ways to play a series' tables from paper or by phone."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User

from matches.engine.league import reachable
from matches.services import Submission, game_add
from matches.tournaments import services as tournaments
from matches.tournaments.models import Entry, Series, Table, TableSeat, Tournament

from .factories import make_user

# 15 € to enter, 2 € a list, the clubs digest's lost-game tiers (0.50 € for the 1st to 3rd, 1 € for the 4th and
# 5th, 3 € from the 6th), the whole pot paid out by a schedule whose 7th place gets half the 1st's prize.
ENTRY_FEE = 1500
LIST_FEE = 200
PLACES = tournaments.Schedule((2000, 1600, 1400, 1200, 1100, 1050, 1000, 650))
SETTINGS = tournaments.TournamentSettings(
    name="Preisskat im Goldenen Löwen",
    date=datetime.date(2026, 12, 5),
    venue="Gasthof Goldener Löwe",
    games_at_four=16,
    games_at_three=12,
    entry_fee=ENTRY_FEE,
    list_fee=LIST_FEE,
    places=PLACES,
    categories=(("Damen", (3000, 1500)), ("Senioren", (2000,))),
    best_series=(1500,),
)


def announce(organiser: User | None = None, **changes: Any) -> Tournament:
    return tournaments.tournament_announce(
        organiser=organiser or make_user(f"organiser-{uuid.uuid4().hex[:8]}"), settings=replace(SETTINGS, **changes)
    )


def enter_field(tournament: Tournament, count: int, *, online: int = 0) -> list[Entry]:
    """``count`` players: the first ``online`` entered ahead (and paying at the door), the rest at the door; every
    third a woman, every fifth a senior."""
    entries = []
    for index in range(count):
        category = "Damen" if index % 3 == 0 else "Senioren" if index % 5 == 0 else ""
        form = tournaments.EntryForm(f"Spieler {index + 1:02d}", club=f"SC {index % 4}", category=category)
        if index < online:
            entry = tournaments.entry_register_online(tournament=tournament, form=form)
            tournaments.entry_pay(entry=entry)
        else:
            entry = tournaments.entry_at_door(tournament=tournament, form=form)
        entries.append(entry)
    return entries


def seated(table: Table) -> list[Entry]:
    return [seat.entry for seat in TableSeat.objects.filter(table=table).select_related("entry").order_by("position")]


def paper_totals(won: int, lost: int, step: int) -> tuple[int, int, int]:
    """Game points of a list with ``won`` and ``lost`` games that legal Skat values reach, near ``18 * won +
    step``."""
    for points in range(18 * won - 36 * lost + step, -1000, -1):
        if reachable(points, won=won, lost=lost):
            return points, won, lost
    raise AssertionError(f"no game points for {won} won and {lost} lost")


def enter_paper(table: Table, *, salt: int = 0) -> list[tuple[Entry, int, int, int]]:
    """Enter the table's paper list: every player a few games won and at most one lost, varied by seat and
    ``salt`` so that the field spreads out."""
    lines = []
    for position, entry in enumerate(seated(table)):
        won = (position + table.number + salt) % 4
        lost = (position + salt) % 2
        lines.append((entry, *paper_totals(won, lost, 7 * ((entry.pk + salt) % 5))))
    tournaments.table_paper_enter(table=table, lines=lines, user=None)
    return lines


def play_by_phone(table: Table) -> None:
    """Score every planned game of the table through the core, as its phone does from the table's link: the seats
    declare in turn (never the dealer, who sits out at a table of four), every third game lost."""
    match = table.match
    for number in range(match.planned_games or 0):
        declarer = (number + 1) % match.players
        points = 40 if number % 3 == 2 else 70
        game_add(
            match=match,
            user=None,
            token=uuid.uuid4(),
            submission=Submission(
                declarer=declarer, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": points}
            ),
        )


def play_series(series: Series, *, phones: Sequence[int] = (), salt: int = 0) -> None:
    """Every table of the series: those numbered in ``phones`` scored by phone, the others from paper."""
    for table in Table.objects.filter(series=series).select_related("match").order_by("number"):
        if table.number in phones:
            play_by_phone(table)
        else:
            enter_paper(table, salt=salt)
