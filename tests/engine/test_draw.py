"""Table draws: sizes for 3 to 60 attendees, reproducible from the seed, avoiding recent pairings, seeding."""

import random
from itertools import combinations

import pytest

from matches.engine import RuleError
from matches.engine.draw import TablePlan, draw_tables, pairings_met, seat_by_ranking, table_sizes

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
