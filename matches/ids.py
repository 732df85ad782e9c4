"""Public ids that grow with time (UUID version 7, RFC 9562, section 5.7), for the rows a match gains by the
thousand: its games and its history.

A random id (version 4) lands anywhere in its unique index, so every row written touches another page of it: a restore
of a long list, written in short steps, rewrote nearly a whole page of each such index per row. An id that begins with
its moment lands at the index's end, beside the rows written just before it. The moment it tells (to the millisecond)
is one the game's history shows anyway.
"""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections.abc import Callable

from django.utils import timezone

VERSION = 7
VARIANT = 0b10  # RFC 9562's variant
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MILLISECOND = datetime.timedelta(milliseconds=1)


def time_ordered_id(
    at: datetime.datetime | None = None, random_bits: Callable[[int], int] = secrets.randbits
) -> uuid.UUID:
    """A version-7 id for the moment ``at`` (an aware datetime; now if not given): 48 bits of Unix time in
    milliseconds, then 74 random bits from ``random_bits`` (a seeded source makes the same ids again, as a
    benchmark's file needs)."""
    moment = timezone.now() if at is None else at
    milliseconds = (moment - EPOCH) // MILLISECOND
    if not 0 <= milliseconds < 1 << 48:
        raise ValueError(f"{moment} is outside the time a version-7 id can tell")
    value = milliseconds << 80 | VERSION << 76 | random_bits(12) << 64 | VARIANT << 62 | random_bits(62)
    return uuid.UUID(int=value)
