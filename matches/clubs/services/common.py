"""What the club's services share: a night locked for a change (a closed night refuses every change), the dates
a night may have, and removing tables on which nothing was entered."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.utils import timezone
from django.utils.formats import date_format

from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.services import match_discard

from ..models import ClubTable, Night

# The dates a club night may have (docs/rules.md): lists of past seasons may be typed in from paper, but not from
# before 2000; a season's nights may be planned from its start, up to eleven months ahead. A date beyond is a slip
# of the date picker, or a year typed one too high.
EARLIEST_NIGHT = datetime.date(2000, 1, 1)
NIGHT_DAYS_AHEAD = 330


def night_dates(today: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The first and the last date a club night may have, seen from ``today``."""
    return EARLIEST_NIGHT, today + datetime.timedelta(days=NIGHT_DAYS_AHEAD)


def checked_night_date(date: datetime.date) -> datetime.date:
    """``date``, refused unless a club night may have it (``night_dates``)."""
    earliest, latest = night_dates(timezone.localdate())
    if not earliest <= date <= latest:
        raise Invalid.on(
            "date",
            gettext_noop("Choose a date from {earliest} to {latest}."),
            earliest=date_format(earliest),
            latest=date_format(latest),
        )
    return date


def open_night(night: Night) -> Night:
    """The night, locked for this change; a closed night refuses every change."""
    locked = Night.objects.select_for_update().get(pk=night.pk)
    if locked.closed_at is not None:
        raise Conflict.on("night", gettext_noop("This night is closed; nothing was changed."))
    return locked


def remove_tables(tables: Sequence[ClubTable]) -> None:
    """Remove tables on which nothing was entered: their matches through the core, which refuses a list that had a
    game (the caller's transaction then keeps the tables too)."""
    ClubTable.objects.filter(pk__in=[table.pk for table in tables]).delete()
    for table in tables:
        match_discard(match=table.match)
