"""A secretary's corrections: a series drawn before play dropped, a night re-dated or removed when opened by
mistake, and a paper table turned back to its phones, each kept in the night's or the season's history."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.models import Game, Seat
from matches.services import match_retitle
from matches.services import paper_to_phones as core_paper_to_phones
from matches.services.tables import moved_on, table_title

from ..models import ClubTable, Night, NightLog, SeasonLog
from .common import checked_night_date, open_night, remove_tables


def _played(tables: Sequence[ClubTable]) -> list[ClubTable]:
    """The tables that entered something: a paper list, or a game (one deleted or undone since counts too: it was
    saved, and its history stays with its list)."""
    with_games = set(
        Game.objects.filter(match_id__in=[table.match_id for table in tables]).values_list("match_id", flat=True)
    )
    return [table for table in tables if table.paper or table.match_id in with_games]


def _seating(tables: Sequence[ClubTable]) -> list[list[str]]:
    """Each table's players by name, in seat order, as the history keeps a dropped draw."""
    seats = Seat.objects.filter(match_id__in=[table.match_id for table in tables]).select_related("player")
    by_match: dict[int, list[str]] = {}
    for seat in seats.order_by("match_id", "position"):
        by_match.setdefault(seat.match_id, []).append(seat.player.name)
    return [by_match.get(table.match_id, []) for table in tables]


def series_drop(*, night: Night, series: int, user: User) -> Night:
    """Remove the tables of a series before play (their matches through the core), so that the series can be drawn
    again, with other attendees, say. Refused once a table of the series entered something. The night's history
    keeps who sat where."""
    with transaction.atomic():
        locked = open_night(night)
        tables = list(ClubTable.objects.filter(night=locked, series=series).select_for_update().order_by("number"))
        if not tables:
            raise Invalid.on("series", gettext_noop("Series {series} has no tables drawn."), series=series)
        played = _played(tables)
        if played:
            raise Conflict.on(
                "series",
                gettext_noop("Table {number} of series {series} has entered its list: the series stays as drawn."),
                number=played[0].number,
                series=series,
            )
        details = {"series": series, "seed": tables[0].seed, "tables": _seating(tables)}
        remove_tables(tables)
        NightLog.objects.create(night=locked, action=NightLog.Action.DROP, user=user, details=details)
        moved_on(locked)
        return locked


def night_redate(*, night: Night, date: datetime.date, user: User) -> Night:
    """Give an open night another date; its tables' lists are named by it (through the core, so that their phones
    learn). Recorded with the date it had."""
    with transaction.atomic():
        locked = open_night(night)
        if locked.date == date:
            return locked
        before, locked.date = locked.date, checked_night_date(date)
        locked.save(update_fields=["date"])
        club = locked.season.club.name
        for table in ClubTable.objects.filter(night=locked).select_related("match"):
            match_retitle(match=table.match, title=table_title(table.number, table.series, club, locked.date))
        details = {"from": before.isoformat(), "to": date.isoformat()}
        NightLog.objects.create(night=locked, action=NightLog.Action.REDATE, user=user, details=details)
        moved_on(locked)
        return locked


def night_remove(*, night: Night, user: User) -> None:
    """Remove a night opened by mistake: its check-ins and the tables drawn (their matches through the core). Refused
    for a night whose tables entered something, and for a closed one. The season's history keeps its date."""
    with transaction.atomic():
        locked = open_night(night)
        tables = list(ClubTable.objects.filter(night=locked).select_for_update().order_by("series", "number"))
        if _played(tables):
            raise Conflict.on(
                "night",
                gettext_noop(
                    "Games or a paper list were entered at this night's tables: it stays, with its lists. "
                    "Give it another date if that was the mistake."
                ),
            )
        attendees = list(locked.attendances.order_by("player__name").values_list("player__name", flat=True))
        details = {"date": locked.date.isoformat(), "series": locked.series, "attendees": attendees}
        remove_tables(tables)
        SeasonLog.objects.create(
            season_id=locked.season_id, action=SeasonLog.Action.REMOVE_NIGHT, user=user, details=details
        )
        locked.delete()


def paper_to_phones(*, table: ClubTable, user: User) -> ClubTable:
    """Turn a table entered from paper back to game-by-game entry: its paper totals go to the night's history (with
    the players' names), its list takes games again, and its scoring link works again: the one its paper list turned
    off, so that the table's QR card and the link its players have score again (a new one where the link was turned
    off before the paper list)."""
    with transaction.atomic():
        open_night(table.night)
        locked = ClubTable.objects.select_for_update().select_related("match").get(pk=table.pk)
        if not locked.paper:
            return locked
        kept = [
            {
                "player": str(line.player.public_id),
                "name": line.player.name,
                "game_points": line.game_points,
                "won": line.won,
                "lost": line.lost,
            }
            for line in core_paper_to_phones(match=locked.match, user=user)
        ]
        locked.paper = False
        locked.save(update_fields=["paper"])
        details = {"series": locked.series, "table": locked.number, "lines": kept}
        NightLog.objects.create(night=locked.night, action=NightLog.Action.PHONES, user=user, details=details)
        moved_on(locked.night)
        return locked
