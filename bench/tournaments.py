"""The open tournaments the benchmark measures: a room of players two series into the evening.

Each is set up through the tournament's services as the organiser and the door run it: announced, every player
entered at the door and paid, series 1 and 2 drawn (the second avoiding the first's pairings), every table's list
entered from paper and each series closed, so that the standings are kept; then (for the live page) series 3
drawn, with one table in three of it entered, so that the page shows a series being played. No game is entered by
phone: the figures read what a closed series kept and count the tables being played, never a game. The draw's
figure draws the third series and takes it back (``undraw``), so that every repetition meets the same tournament.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine.league import reachable
from matches.models import Match, Player
from matches.tournaments import services as tournaments
from matches.tournaments.models import Entry, Payment, Series, Table, TableSeat, Tournament

SERIES = 3
GAMES_AT_FOUR = 48
GAMES_AT_THREE = 36
# Of the series being played, this share of the tables have their lists in (one in three).
DONE_EVERY = 3


@dataclass(frozen=True)
class BenchTournament:
    """A tournament with series 1 and 2 closed (and series 3 being played, where seeded so)."""

    tournament: Tournament
    organiser: User


def seed_tournament(organiser: User, name: str, players: int, *, playing: bool = True) -> BenchTournament:
    """A tournament of ``players`` entered at the door, two series played from paper and closed; with ``playing``,
    the third drawn and one table in three of it entered."""
    tournament = _announced(organiser, name)
    for number in range(1, players + 1):
        form = tournaments.EntryForm(f"Spieler {number:03d}", club=f"SC {number % 12:02d}")
        tournaments.entry_at_door(tournament=tournament, form=form, user=organiser)
    for number in (1, 2):
        series = draw(tournament, number, organiser)
        for table in Table.objects.filter(series=series).order_by("number"):
            enter_paper(table, organiser)
        tournaments.series_close(series=series, user=organiser)
    if playing:
        for table in Table.objects.filter(series=draw(tournament, SERIES, organiser)).order_by("number"):
            if table.number % DONE_EVERY == 0:
                enter_paper(table, organiser)
    tournament.refresh_from_db()
    return BenchTournament(tournament, organiser)


def seed_room(organiser: User, name: str, players: int, *, drawn: bool) -> BenchTournament:
    """A tournament of ``players`` entered at the door and paid, as the desk has it before the draw (``drawn``:
    with series 1 drawn and not a game entered yet, as the desk has it when play begins)."""
    tournament = _announced(organiser, name)
    for number in range(1, players + 1):
        form = tournaments.EntryForm(f"Spieler {number:04d}", club=f"SC {number % 40:02d}")
        tournaments.entry_at_door(tournament=tournament, form=form, user=organiser)
    if drawn:
        draw(tournament, 1, organiser)
    tournament.refresh_from_db()
    return BenchTournament(tournament, organiser)


def take_entry_back(entry_id: int) -> None:
    """Take an entry back as if it had never been made (its payments and its player in the tournament's book), so
    that the next entry meets the room as the last one did."""
    with transaction.atomic():
        entry = Entry.objects.get(pk=entry_id)
        Payment.objects.filter(entry=entry).delete()
        entry.delete()
        Player.objects.filter(pk=entry.player_id).delete()


def _announced(organiser: User, name: str) -> Tournament:
    return tournaments.tournament_announce(
        organiser=organiser,
        settings=tournaments.TournamentSettings(
            name=name,
            date=datetime.date(2026, 12, 5),
            venue="Stadthalle",
            series=SERIES,
            games_at_four=GAMES_AT_FOUR,
            games_at_three=GAMES_AT_THREE,
            entry_fee=1500,
            list_fee=200,
            places=tournaments.Schedule((3000, 2000, 1500, 1100, 900, 700, 500, 300)),
        ),
    )


def draw(tournament: Tournament, number: int, organiser: User) -> Series:
    """Series ``number`` drawn as the organiser draws it: from its seed, avoiding the pairings of the series
    before."""
    tournaments.series_draw(tournament=tournament, number=number, user=organiser)
    return Series.objects.get(tournament=tournament, number=number)


def undraw(tournament: Tournament, number: int) -> None:
    """Take series ``number`` back as if it had not been drawn (its tables, their matches and seats), so that the
    next draw meets the tournament as the last one did."""
    with transaction.atomic():
        series = Series.objects.get(tournament=tournament, number=number)
        matches = list(Table.objects.filter(series=series).values_list("match_id", flat=True))
        TableSeat.objects.filter(series=series).delete()
        Table.objects.filter(series=series).delete()
        Match.objects.filter(pk__in=matches).delete()
        series.delete()


def enter_paper(table: Table, organiser: User) -> None:
    """The table's paper list: each player a few games won and lost by seat and table, with game points that legal
    Skat values reach, so that the field spreads out over the series."""
    seats = list(TableSeat.objects.filter(table=table).select_related("entry").order_by("position"))
    lines: list[tuple[Entry, int, int, int]] = []
    for position, seat in enumerate(seats):
        won = (position + table.number + seat.entry.pk) % 7
        lost = (position + seat.entry.pk) % 3
        lines.append((seat.entry, _points(won, lost, (seat.entry.pk * 7 + table.number) % 40), won, lost))
    tournaments.table_paper_enter(table=table, lines=lines, user=organiser)


def _points(won: int, lost: int, step: int) -> int:
    """Game points of a list with ``won`` and ``lost`` games that legal Skat values reach, near ``24 * won + step``."""
    for points in range(24 * won - 48 * lost + step, -2000, -1):
        if reachable(points, won=won, lost=lost):
            return points
    raise AssertionError(f"no game points for {won} won and {lost} lost")
