"""Who sits at which table on a club night: table sizes, a draw reproducible from its seed, and seating by ranking.

Skat seats as many tables of four as possible and the rest at tables of three (t3 = (4 − n mod 4) mod 4,
t4 = (n − 3·t3) / 4); some clubs prefer tables of three; two-player games seat pairs. One, two or five players
cannot be seated at Skat tables. A draw can avoid the pairings of recent nights: among a few shuffles from the seed,
each improved by swapping players between tables while that lowers the weight of the pairings met before, the
lightest wins. The same attendees, seed and history give the same tables. Guests may be placed from a given table
on, so that the members' tables are not broken up: the members fill the tables before it, the guests sit from it on,
and members left over sit after the guests.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from .errors import FieldError, RuleError
from .messages import gettext_noop, msg


class TablePlan(StrEnum):
    """How a night's attendees are split into tables."""

    FOURS = "fours"  # as many tables of four as possible, the rest of three (the usual Skat club night)
    THREES = "threes"  # as many tables of three as possible, the rest of four
    PAIRS = "pairs"  # two-player games: tables of two


Pairing = frozenset[str]
Tables = tuple[tuple[str, ...], ...]

# Shuffles tried from one seed, and passes of swaps over each: enough for 60 attendees, cheap for 12.
RESTARTS = 6
MAX_PASSES = 20
# A pairing of the last night weighs 1, of the night before ½, and so on.
RECENCY_DECAY = 0.5


@dataclass(frozen=True)
class Guests:
    """Who is a guest, and the table (counted from 1) the guests sit from."""

    who: frozenset[str]
    from_table: int


def _cannot_seat(count: int, plan: TablePlan) -> RuleError:
    if plan is TablePlan.PAIRS:
        message = msg(gettext_noop("{count} players cannot be seated in pairs: an even number is needed."), count=count)
    else:
        message = msg(
            gettext_noop("{count} players cannot be seated at tables of three and four."),
            count=count,
        )
    return RuleError([FieldError("attendees", message)])


def table_sizes(count: int, plan: TablePlan = TablePlan.FOURS) -> tuple[int, ...]:
    """The size of every table for ``count`` attendees, larger tables first; ``RuleError`` if they cannot be seated."""
    if plan is TablePlan.PAIRS:
        if count < 2 or count % 2:
            raise _cannot_seat(count, plan)
        return (2,) * (count // 2)
    if plan is TablePlan.FOURS:
        threes = (4 - count % 4) % 4
        fours = (count - 3 * threes) // 4
    else:
        fours = count % 3
        threes = (count - 4 * fours) // 3
    if count < 3 or fours < 0 or threes < 0:
        raise _cannot_seat(count, plan)
    return (4,) * fours + (3,) * threes


def pairings_met(nights: Sequence[Tables], *, decay: float = RECENCY_DECAY) -> dict[Pairing, float]:
    """How much each pairing weighs from the nights (or series) before, oldest first: the last weighs 1, each one
    before it ``decay`` times the next (1.0: every meeting weighs the same, as within one tournament)."""
    weights: dict[Pairing, float] = {}
    for age, tables in enumerate(reversed(nights)):
        weight = decay**age
        for table in tables:
            for pair in combinations(table, 2):
                key = frozenset(pair)
                weights[key] = weights.get(key, 0.0) + weight
    return weights


def met_again(tables: Tables, before: Sequence[Tables]) -> list[tuple[str, str]]:
    """The pairs of ``tables`` who sat together at one of the tables ``before`` (each pair once, in seat order):
    what a draw that avoids the pairings met could not avoid."""
    met = set(pairings_met(before, decay=1.0))
    return [pair for table in tables for pair in combinations(table, 2) if frozenset(pair) in met]


def draw_tables(
    attendees: Sequence[str],
    *,
    seed: str,
    plan: TablePlan = TablePlan.FOURS,
    met: Mapping[Pairing, float] | None = None,
    guests: Guests | None = None,
) -> Tables:
    """Draw the tables for ``attendees`` (ids) from ``seed``, avoiding the pairings in ``met`` where it can; with
    ``guests``, the guests sit from their table on (swaps to avoid pairings stay among members or among guests)."""
    sizes = table_sizes(len(attendees), plan)
    if len(set(attendees)) != len(attendees):
        raise RuleError([FieldError("attendees", msg(gettext_noop("Somebody is checked in twice.")))])
    rng = random.Random(seed)
    people = sorted(attendees)
    best: list[list[str]] | None = None
    best_weight = 0.0
    for _ in range(RESTARTS if met else 1):
        rng.shuffle(people)
        tables = _cut(_guests_placed(people, sizes, guests), sizes)
        if met:
            _improve(tables, _by_person(met), guests.who if guests else frozenset())
        weight = _weight(tables, met or {})
        if best is None or weight < best_weight:
            best, best_weight = tables, weight
    assert best is not None
    return tuple(tuple(table) for table in best)


def seat_by_ranking(ranked: Sequence[str], plan: TablePlan = TablePlan.FOURS, guests: Guests | None = None) -> Tables:
    """Seat in ranking order: the best players together at table 1, the next at table 2, and so on (a season's
    ranking, or a second series seated by the first); with ``guests``, members and guests each in ranking order,
    the guests from their table on."""
    if len(set(ranked)) != len(ranked):
        raise RuleError([FieldError("attendees", msg(gettext_noop("Somebody is checked in twice.")))])
    sizes = table_sizes(len(ranked), plan)
    return tuple(tuple(table) for table in _cut(_guests_placed(ranked, sizes, guests), sizes))


def _guests_placed(people: Sequence[str], sizes: Sequence[int], guests: Guests | None) -> list[str]:
    """``people`` in seat order, each kind in the order given: the members for the tables before the guests' first
    table, then the guests, then the members left over. ``RuleError`` if the guests cannot sit from that table."""
    if guests is None:
        return list(people)
    if guests.from_table < 1:
        raise _guests_refused(gettext_noop("Guests sit from table 1 or later."))
    if guests.from_table > len(sizes):
        raise _guests_refused(
            gettext_noop("There are {count} tables: guests can sit from table {count} at the latest."),
            count=len(sizes),
        )
    members = [person for person in people if person not in guests.who]
    seats_before = sum(sizes[: guests.from_table - 1])
    if len(members) < seats_before:
        raise _guests_refused(
            gettext_noop("The {count} members do not fill the {seats} seats before table {number}."),
            count=len(members),
            seats=seats_before,
            number=guests.from_table,
        )
    return members[:seats_before] + [person for person in people if person in guests.who] + members[seats_before:]


def _guests_refused(message: str, **params: int) -> RuleError:
    return RuleError([FieldError("guests_from", msg(message, **params))])


def _cut(people: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(list(people[start : start + size]))
        start += size
    return tables


def _weight(tables: Sequence[Sequence[str]], met: Mapping[Pairing, float]) -> float:
    return sum(met.get(frozenset(pair), 0.0) for table in tables for pair in combinations(table, 2))


def _by_person(met: Mapping[Pairing, float]) -> dict[str, dict[str, float]]:
    """The weights by person and partner, for quick lookups while swapping."""
    weights: dict[str, dict[str, float]] = {}
    for pair, weight in met.items():
        if len(pair) == 2:
            one, other = sorted(pair)
            weights.setdefault(one, {})[other] = weight
            weights.setdefault(other, {})[one] = weight
    return weights


def _against(person: str, others: Sequence[str], met: Mapping[str, Mapping[str, float]]) -> float:
    partners = met.get(person, {})
    return sum(partners.get(other, 0.0) for other in others)


def _improve(tables: list[list[str]], met: Mapping[str, Mapping[str, float]], guests: frozenset[str]) -> None:
    """Swap players between tables while a swap makes the pairings lighter (first improvement, in a fixed order); a
    guest swaps only with a guest and a member with a member, so that the guests keep their tables."""
    # What each player has met at their own table: a swap of two players who met nobody there lowers nothing, and
    # two tables where nobody met anybody are passed over, which leaves the swaps (and the tables) as they were.
    burden = [_burdens(table, met) for table in tables]
    for _ in range(MAX_PASSES):
        improved = False
        for first, second in combinations(range(len(tables)), 2):
            if not (any(burden[first]) or any(burden[second])):
                continue
            for i in range(len(tables[first])):
                for j in range(len(tables[second])):
                    one, other = tables[first][i], tables[second][j]
                    if (one in guests) != (other in guests):
                        continue
                    now = burden[first][i] + burden[second][j]
                    if not now:
                        continue
                    rest_one = [p for p in tables[first] if p != one]
                    rest_other = [p for p in tables[second] if p != other]
                    swapped = _against(one, rest_other, met) + _against(other, rest_one, met)
                    if swapped < now:
                        tables[first][i], tables[second][j] = other, one
                        burden[first], burden[second] = _burdens(tables[first], met), _burdens(tables[second], met)
                        improved = True
        if not improved:
            return


def _burdens(table: Sequence[str], met: Mapping[str, Mapping[str, float]]) -> list[float]:
    """What each player at ``table`` has met of the others there, in seat order."""
    return [_against(person, [p for p in table if p != person], met) for person in table]
