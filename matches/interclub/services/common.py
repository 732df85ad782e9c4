"""What the league's services share: the league's and a venue's locks, a series checked against its venue, names and
federation numbers compared, and who plays for another club in the league (a player plays for one club in a
league)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Func, Q, Value
from django.db.models.functions import Replace, Upper
from django.db.models.lookups import Exact

from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.models import Player
from matches.names import name_key

from ..models import Group, League, RosterEntry, Venue

# A match day has two to four series (clubs digest: 4 in the 1. Bundesliga, 3 down to the Oberliga, 2 below).
MIN_SERIES, MAX_SERIES = 2, 4


def lock_league(league: League) -> League:
    """The league's row, locked: changes that must see every roster of the league (who may play for whom) wait
    for each other here."""
    return League.objects.select_for_update().get(pk=league.pk)


def league_of_group(group: Group) -> League:
    return group.division.league


def named_already(names: Iterable[str], name: str) -> bool:
    """Whether ``name`` is one of ``names`` as names are compared ("Jörg", "jörg" and "JÖRG" are one name): asked
    under the league's lock, so that two of one name entered at once are one."""
    key = name_key(name)
    return any(name_key(one) == key for one in names)


# A federation number is kept as written, its "-", "/" and "." with it, but they only set its parts apart: "12-345",
# "12.345" and "12345" are one member's number, and taking them for two would let one member onto two rosters.
SEPARATORS = "-/."


def same_number(number: str) -> Q:
    """Roster entries whose federation number has the letters and digits of ``number``, in capitals or small letters,
    however either is written ("12-345", "12.345" and "12345" are one number); none for a number without any (a "-"
    kept from before numbers were checked is no number to find)."""
    key = "".join(char for char in number.upper() if char not in SEPARATORS)
    if not key:
        return Q(pk__in=[])
    written: Func = Upper("federation_number")
    for separator in SEPARATORS:
        written = Replace(written, Value(separator), Value(""))
    return Q(Exact(written, key))


def entered_elsewhere(league: League, club_id: int, player: Player, federation_number: str) -> RosterEntry | None:
    """The roster entry of another club's team in the league that stands for the same person (the same federation
    number, however written, or a club-book player linked to the same account), if any."""
    if not federation_number and player.account_id is None:
        return None
    same = Q(pk__in=[])
    if federation_number:
        same |= same_number(federation_number)
    if player.account_id is not None:
        same |= Q(player__account_id=player.account_id)
    return (
        RosterEntry.objects.filter(same, team__group__division__league=league)
        .exclude(team__club_id=club_id)
        .select_related("team__club")
        .first()
    )


def other_club_refusal(player_name: str, other: RosterEntry, field: str) -> Invalid:
    # The engine's words for it (matches.engine.match_days.refused_check_ins), so that the two say the same.
    return Invalid.on(
        field,
        gettext_noop("{player} is on the roster of {other} ({club}): a player plays for one club in a league."),
        player=player_name,
        other=other.team.name,
        club=other.team.club.name,
    )


def lock_venue(venue: Venue) -> Venue:
    """The venue's row, locked for this change: two check-ins, seatings or closings of one venue wait for each
    other, so that a series seated twice at once is seated once."""
    return (
        Venue.objects.select_for_update(of=("self",))
        .select_related("match_day__group__division__league")
        .get(pk=venue.pk)
    )


def open_venue(venue: Venue) -> Venue:
    """The venue, locked; a closed venue refuses every change to its line-ups, tables and lists."""
    locked = lock_venue(venue)
    if locked.closed_at is not None:
        raise Conflict.on("venue", gettext_noop("This venue's lists are closed; nothing was changed."))
    return locked


def checked_series(venue: Venue, series: int) -> int:
    """``series``, refused unless the venue plays it."""
    if not 1 <= series <= venue.series:
        raise Invalid.on("series", gettext_noop("This venue plays {count} series."), count=venue.series)
    return series
