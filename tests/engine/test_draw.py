"""Table draws: sizes for 3 to 60 attendees, reproducible from the seed, avoiding recent pairings, seeding."""

import random
from itertools import combinations

import pytest

from matches.engine import RuleError
from matches.engine.draw import Guests, TablePlan, draw_tables, pairings_met, seat_by_ranking, table_sizes

PEOPLE = [f"p{number:02d}" for number in range(60)]


@pytest.mark.parametrize("count", range(3, 61))
def test_every_count_but_five_is_seated_at_tables_of_four_and_three(count: int) -> None:
    if count == 5:
        with pytest.raises(RuleError) as refused:
            table_sizes(count)
        assert "5 players cannot be seated" in str(refused.value)
        return
    sizes = table_sizes(count)
    assert sum(sizes) == count
    assert set(sizes) <= {3, 4}
    assert sizes.count(3) == (4 - count % 4) % 4  # as many tables of four as possible
    tables = draw_tables(PEOPLE[:count], seed="s")
    assert tuple(len(table) for table in tables) == sizes
    assert sorted(person for table in tables for person in table) == PEOPLE[:count]


@pytest.mark.parametrize("count", [1, 2, 5])
def test_one_two_or_five_cannot_be_seated(count: int) -> None:
    with pytest.raises(RuleError):
        table_sizes(count)
    with pytest.raises(RuleError):
        table_sizes(count, TablePlan.THREES)


def test_clubs_that_prefer_tables_of_three_get_as_many_as_possible() -> None:
    assert table_sizes(12, TablePlan.THREES) == (3, 3, 3, 3)
    assert table_sizes(13, TablePlan.THREES) == (4, 3, 3, 3)
    assert table_sizes(11, TablePlan.THREES) == (4, 4, 3)
    assert table_sizes(11) == (4, 4, 3)


def test_two_player_clubs_are_seated_in_pairs() -> None:
    assert table_sizes(6, TablePlan.PAIRS) == (2, 2, 2)
    with pytest.raises(RuleError, match="even number"):
        table_sizes(7, TablePlan.PAIRS)


def test_the_same_seed_gives_the_same_tables_whatever_the_order_of_check_in() -> None:
    people = PEOPLE[:11]
    met = pairings_met([draw_tables(people, seed="last week")])
    shuffled = list(reversed(people))
    assert draw_tables(people, seed="42", met=met) == draw_tables(shuffled, seed="42", met=met)
    assert draw_tables(people, seed="42") != draw_tables(people, seed="43")


def test_somebody_checked_in_twice_is_refused() -> None:
    with pytest.raises(RuleError, match="twice"):
        draw_tables(["a", "b", "a", "c"], seed="s")


def _repeats(tables: tuple[tuple[str, ...], ...], before: tuple[tuple[str, ...], ...]) -> int:
    pairs = {frozenset(pair) for table in before for pair in combinations(table, 2)}
    return sum(frozenset(pair) in pairs for table in tables for pair in combinations(table, 2))


def test_over_a_season_of_20_nights_the_draw_avoids_last_nights_pairings() -> None:
    rng = random.Random(7)
    avoided, blind = [], []
    nights: list[tuple[tuple[str, ...], ...]] = []
    for night in range(20):
        people = sorted(rng.sample(PEOPLE[:18], 16))
        if nights:
            drawn = draw_tables(people, seed=f"night {night}", met=pairings_met(nights))
            avoided.append(_repeats(drawn, nights[-1]))
            blind.append(_repeats(draw_tables(people, seed=f"night {night}"), nights[-1]))
        else:
            drawn = draw_tables(people, seed=f"night {night}")
        nights.append(drawn)
    # A blind draw of 16 at tables of four meets about 3 of last night's 24 pairings again; the draw avoids them.
    assert sum(blind) / len(blind) > 2
    assert sum(avoided) / len(avoided) < 0.5
    assert max(avoided) <= 2


def test_sixty_attendees_with_a_long_history_are_drawn() -> None:
    nights = [draw_tables(PEOPLE, seed=str(night)) for night in range(10)]
    tables = draw_tables(PEOPLE, seed="eleven", met=pairings_met(nights))
    assert _repeats(tables, nights[-1]) == 0


def test_seating_by_ranking_puts_the_best_together_at_table_one() -> None:
    ranked = [f"r{place}" for place in range(1, 12)]
    assert seat_by_ranking(ranked) == (("r1", "r2", "r3", "r4"), ("r5", "r6", "r7", "r8"), ("r9", "r10", "r11"))


MEMBERS = [f"m{number:02d}" for number in range(12)]
GUESTS = [f"g{number}" for number in range(7)]


def _guest_tables(tables: tuple[tuple[str, ...], ...]) -> list[int]:
    return [number for number, table in enumerate(tables, start=1) if any(person in GUESTS for person in table)]


def test_guests_sit_from_the_table_the_secretary_names_on() -> None:
    # 19 players: tables of 4, 4, 4, 4 and 3; the 12 members fill tables 1 to 3, the 7 guests tables 4 and 5.
    guests = Guests(frozenset(GUESTS), from_table=4)
    tables = draw_tables(MEMBERS + GUESTS, seed="night", guests=guests)
    assert _guest_tables(tables) == [4, 5]
    assert sorted(tables[3] + tables[4]) == sorted(GUESTS)


def test_from_an_earlier_table_the_members_left_over_sit_after_the_guests() -> None:
    tables = draw_tables(MEMBERS + GUESTS, seed="night", guests=Guests(frozenset(GUESTS), from_table=3))
    assert all(person in MEMBERS for person in tables[0] + tables[1])
    assert all(person in GUESTS for person in tables[2])
    assert [person in GUESTS for person in tables[3]] == [True, True, True, False]
    assert all(person in MEMBERS for person in tables[4])


def test_guests_from_a_table_keep_the_draw_reproducible_and_avoid_pairings_among_their_kind() -> None:
    everybody = MEMBERS + GUESTS
    history = [draw_tables(everybody, seed=str(night)) for night in range(3)]
    guests = Guests(frozenset(GUESTS), from_table=4)
    once = draw_tables(everybody, seed="again", met=pairings_met(history), guests=guests)
    assert once == draw_tables(list(reversed(everybody)), seed="again", met=pairings_met(history), guests=guests)
    assert _guest_tables(once) == [4, 5]


def test_seating_by_ranking_places_the_guests_from_their_table_on_in_ranking_order() -> None:
    ranked = ["g0", "m00", "m01", "g1", "m02", "m03", "m04", "m05", "g2", "m06", "m07"]
    tables = seat_by_ranking(ranked, guests=Guests(frozenset(GUESTS), from_table=3))
    assert tables == (("m00", "m01", "m02", "m03"), ("m04", "m05", "m06", "m07"), ("g0", "g1", "g2"))


@pytest.mark.parametrize(
    ("from_table", "message"),
    [
        (6, "There are 5 tables: guests can sit from table 5 at the latest."),
        (5, "The 12 members do not fill the 16 seats before table 5."),
        (0, "Guests sit from table 1 or later."),
    ],
)
def test_guests_from_a_table_that_cannot_be_kept_are_refused(from_table: int, message: str) -> None:
    with pytest.raises(RuleError) as refused:
        draw_tables(MEMBERS + GUESTS, seed="night", guests=Guests(frozenset(GUESTS), from_table=from_table))
    assert [error.field for error in refused.value.errors] == ["guests_from"]
    assert message in str(refused.value)
