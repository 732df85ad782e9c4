"""Open tournaments: the money, the rankings over the series, the prize list, the cashier's list and the seating."""

import re
from itertools import combinations

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from matches.engine import RuleError
from matches.engine.draw import Tables, draw_tables, pairings_met
from matches.engine.league import SeriesLine
from matches.engine.tournaments import (
    Category,
    Doubles,
    Entrant,
    Fees,
    OrganiserShare,
    Payout,
    PrizeKind,
    PrizeSchedule,
    ScheduleKind,
    Seating,
    ShareKind,
    Side,
    TournamentRules,
    check_entry,
    check_tables,
    dues,
    money,
    pot,
    schedule_amounts,
    score_tournament,
    seat_series,
    split_by_weights,
)
from matches.labels import NO_BREAK_SPACE, euros, render_step

PLAYERS = [f"p{number:03d}" for number in range(120)]
FREE = Fees(lost_games=())


def line(player: str, game_points: int, *, won: int = 0, lost: int = 0, others_lost: int = 0) -> SeriesLine:
    return SeriesLine(player, 4, game_points, won, lost, others_lost)


def winners(prizes: object, kind: PrizeKind, category: str = "") -> list[tuple[int, int, str | None]]:
    assert isinstance(prizes, tuple)
    return [
        (prize.place, prize.amount, prize.winner)
        for prize in prizes
        if (prize.kind, prize.category) == (kind, category)
    ]


def repeat_pairings(series: list[Tables]) -> int:
    """How many pairings at the tables of ``series`` had met at a table of an earlier series."""
    met: set[frozenset[str]] = set()
    repeats = 0
    for tables in series:
        pairs = {frozenset(pair) for table in tables for pair in combinations(table, 2)}
        repeats += len(pairs & met)
        met |= pairs
    return repeats


# --- Money -----------------------------------------------------------------------------------------------------------


def test_shares_of_the_prize_money_are_paid_in_whole_cents_that_add_up_to_all_of_it() -> None:
    schedule = PrizeSchedule((3000, 2000, 1500, 1000, 1000, 750, 750))
    amounts = schedule_amounts(schedule, 123_457)
    assert sum(amounts) == 123_457
    # Exact: 37037.1, 24691.4, 18518.55, 12345.7, 12345.7, 9259.275, 9259.275; rounded down they leave 3 cents,
    # which go to the largest remainders (.7, .7, .55).
    assert amounts == (37037, 24691, 18519, 12346, 12346, 9259, 9259)


def test_the_odd_cent_goes_to_the_better_place_of_equal_shares() -> None:
    assert split_by_weights(100, [1, 1, 1]) == (34, 33, 33)
    assert split_by_weights(101, [1, 1, 1]) == (34, 34, 33)


def test_shares_as_announced_pay_their_part_and_leave_the_rest() -> None:
    schedule = PrizeSchedule((5000, 3000), payout=Payout.AS_ANNOUNCED)
    # 80 % of 100.05 € is 80.04 €, shared 5:3 (50.025 € and 30.015 €): the odd cent goes to the first place.
    assert schedule_amounts(schedule, 10_005) == (5003, 3001)


def test_amounts_as_announced_are_paid_as_they_are() -> None:
    schedule = PrizeSchedule((20_000, 10_000, 5_000), kind=ScheduleKind.AMOUNTS, payout=Payout.AS_ANNOUNCED)
    assert schedule_amounts(schedule, 40_000) == (20_000, 10_000, 5_000)


def test_amounts_paid_out_in_full_keep_their_proportions_on_the_whole_prize_money() -> None:
    schedule = PrizeSchedule((20_000, 10_000, 10_000), kind=ScheduleKind.AMOUNTS)
    assert schedule_amounts(schedule, 50_001) == (25_001, 12_500, 12_500)


def test_a_schedule_that_pays_more_than_the_prize_money_is_refused() -> None:
    schedule = PrizeSchedule((20_000, 10_000), kind=ScheduleKind.AMOUNTS, payout=Payout.AS_ANNOUNCED)
    with pytest.raises(RuleError) as refused:
        schedule_amounts(schedule, 29_999)
    assert refused.value.errors[0].field == "places"
    assert (
        str(refused.value.errors[0].message)
        == f"The prizes pay out 300.00{NO_BREAK_SPACE}€, but the prize money is 299.99{NO_BREAK_SPACE}€."
    )


def test_shares_of_more_than_the_whole_pot_are_refused() -> None:
    with pytest.raises(RuleError, match=re.escape(f"add up to 100.5{NO_BREAK_SPACE}%")) as refused:
        schedule_amounts(PrizeSchedule((6000, 4050), payout=Payout.AS_ANNOUNCED), 10_000)
    with translation.override("de"):
        assert f"100,5{NO_BREAK_SPACE}%" in render_step(refused.value.errors[0].message)


def test_category_prizes_beyond_the_prize_money_are_refused() -> None:
    rules = TournamentRules(
        seed="s", series=2, fees=Fees(entry=1000, lost_games=()), categories=(Category("women", (2000, 1000)),)
    )
    entrants = [Entrant(player) for player in PLAYERS[:2]]
    with pytest.raises(
        RuleError, match=re.escape(f"pay out 30.00{NO_BREAK_SPACE}€, but the prize money is 20.00{NO_BREAK_SPACE}€")
    ):
        score_tournament(rules, entrants, [[line(PLAYERS[0], 10), line(PLAYERS[1], 5)]])


def test_places_beyond_what_the_category_and_best_series_prizes_leave_say_what_those_took() -> None:
    """The prizes by place are paid from what the categories' and best series' prizes leave of the prize money: a
    refusal says so, with the prize money the cashier's list shows and what was taken off it."""
    rules = TournamentRules(
        seed="s",
        series=2,
        fees=Fees(entry=1000, lost_games=()),
        places=PrizeSchedule((50_000, 20_000), kind=ScheduleKind.AMOUNTS, payout=Payout.AS_ANNOUNCED),
        categories=(Category("Jugend", (500,)),),
    )
    entrants = [Entrant(PLAYERS[0], frozenset({"Jugend"})), Entrant(PLAYERS[1]), Entrant(PLAYERS[2])]
    with pytest.raises(RuleError) as refused:
        score_tournament(rules, entrants, [[line(player, 10 * index) for index, player in enumerate(PLAYERS[:3])]])
    (error,) = refused.value.errors
    assert error.field == "places"
    assert str(error.message) == (
        f"The prizes by place pay out 700.00{NO_BREAK_SPACE}€, but the prize money left after the categories' and best "
        f"series' prizes is 25.00{NO_BREAK_SPACE}€ (30.00{NO_BREAK_SPACE}€ less 5.00{NO_BREAK_SPACE}€)."
    )
    with translation.override("de"):
        assert render_step(error.message) == (
            f"Die Preise nach Platz zahlen 700,00{NO_BREAK_SPACE}€ aus, das Preisgeld nach den Preisen der "
            f"Wertungsklassen und der besten Serie beträgt aber 25,00{NO_BREAK_SPACE}€ (30,00{NO_BREAK_SPACE}€ "
            f"abzüglich 5,00{NO_BREAK_SPACE}€)."
        )


@given(
    st.integers(min_value=0, max_value=10_000_000),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40),
)
def test_rounding_to_whole_cents_always_adds_up_and_never_rises_down_the_list(total: int, weights: list[int]) -> None:
    weights.sort(reverse=True)
    amounts = split_by_weights(total, weights)
    assert sum(amounts) == (total if sum(weights) else 0)
    assert list(amounts) == sorted(amounts, reverse=True)
    assert all(amount >= 0 for amount in amounts)


def test_the_pot_takes_the_entry_fees_and_the_organiser_keeps_list_and_lost_game_fees() -> None:
    fees = Fees(entry=1500, per_list=300)
    lines = [line("a", 0, lost=7), line("a", 0, lost=2)]
    # 3 × 0.50 + 2 × 1 + 2 × 3 = 9.50 € for seven lost games, 1 € for two.
    owed = dues(Entrant("a"), lines, fees)
    assert (owed.entry, owed.lists, owed.lost_games, owed.total) == (1500, 600, 1050, 3150)
    money_pot = pot([owed, dues(Entrant("b"), [], fees)], OrganiserShare())
    assert (money_pot.total, money_pot.kept, money_pot.main, money_pot.prize_money) == (4650, 1650, 3000, 3000)


def test_the_organiser_takes_a_share_rounded_down_or_a_fixed_amount() -> None:
    fees = Fees(entry=999, lost_games=())
    every_due = [dues(Entrant(player), [], fees) for player in "abc"]
    assert pot(every_due, OrganiserShare(value=1000)).share == 299  # 10 % of 29.97 €
    assert pot(every_due, OrganiserShare(ShareKind.FIXED, 500)).prize_money == 2497
    with pytest.raises(
        RuleError, match=re.escape(f"share of 30.00{NO_BREAK_SPACE}€ is more than the pot of 29.97{NO_BREAK_SPACE}€")
    ):
        pot(every_due, OrganiserShare(ShareKind.FIXED, 3000))


def test_money_is_written_in_euros_and_cents() -> None:
    assert str(money(1205)) == f"12.05{NO_BREAK_SPACE}€"
    assert str(money(50)) == f"0.50{NO_BREAK_SPACE}€"


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", ["0.00", "999.50", "1,000.00", "10,000.00", "100,000.05", "1,000,000.00", "1,234,567.89"]),
        ("en-gb", ["0.00", "999.50", "1,000.00", "10,000.00", "100,000.05", "1,000,000.00", "1,234,567.89"]),
        ("de", ["0,00", "999,50", "1.000,00", "10.000,00", "100.000,05", "1.000.000,00", "1.234.567,89"]),
    ],
)
def test_money_in_a_message_groups_its_thousands_as_the_pages_do_in_the_readers_language(
    language: str, written: list[str]
) -> None:
    """Below nought too, with a real minus sign: what is left of a pot that its other prizes overdraw."""
    cents = [0, 99950, 100000, 1000000, 10000005, 100000000, 123456789]
    with translation.override(language):
        below = [render_step(money(-amount)) for amount in (1, 150, 123456789)]
        assert below == [euros(-amount, unbroken=True) for amount in (1, 150, 123456789)]
        assert below[0] == f"\N{MINUS SIGN}{written[0][:-1]}1{NO_BREAK_SPACE}€"
    with translation.override(language):
        shown = [render_step(money(amount)) for amount in cents]
        assert shown == [f"{figure}{NO_BREAK_SPACE}€" for figure in written]
        assert shown == [euros(amount, unbroken=True) for amount in cents]


def test_a_refusal_names_a_large_amount_with_its_thousands_grouped_in_either_language() -> None:
    every_due = [dues(Entrant(player), [], Fees(entry=99950, lost_games=())) for player in "ab"]
    with pytest.raises(RuleError) as refused:
        pot(every_due, OrganiserShare(ShareKind.FIXED, 100000000))
    assert [render_step(problem.message) for problem in refused.value.errors] == [
        f"The organiser's share of 1,000,000.00{NO_BREAK_SPACE}€ is more than the pot of 1,999.00{NO_BREAK_SPACE}€."
    ]
    with translation.override("de"):
        assert [render_step(problem.message) for problem in refused.value.errors] == [
            f"Der Anteil des Veranstalters von 1.000.000,00{NO_BREAK_SPACE}€ ist mehr als der Topf von "
            f"1.999,00{NO_BREAK_SPACE}€."
        ]


# --- Rankings and prizes ---------------------------------------------------------------------------------------------


def test_ties_across_series_go_to_more_won_then_fewer_lost_then_the_lot() -> None:
    rules = TournamentRules(seed="ties", series=2, fees=FREE)
    entrants = [Entrant(player) for player in "abcdef"]
    series = [
        [line("a", 500, won=4), line("b", 550, won=3), line("c", 600, won=3, lost=1), line("d", 400, won=5)],
        [line("a", 500, won=4), line("b", 550, won=5), line("c", 500, won=3), line("d", 600, won=3)],
    ]
    # Seeger-Fabian at a table of four: a 700 + 700, b 700 + 800, c 700 + 650, d 650 + 750.
    totals = score_tournament(rules, entrants[:4], series).rankings.total
    by_total = {place.standing.player: place.standing.score for place in totals}
    assert by_total == {"a": 1400, "b": 1500, "c": 1350, "d": 1400}
    # a and d: 1400 with 8 won and none lost each: the lot decides, and says so.
    assert totals[0].standing.player == "b"
    assert {place.standing.player for place in totals[1:3]} == {"a", "d"}
    assert [place.by_lot for place in totals] == [False, True, True, False]
    again = score_tournament(rules, entrants[:4], series).rankings.total
    assert again == totals


def test_fewer_lost_games_break_a_tie_of_total_and_won() -> None:
    rules = TournamentRules(seed="x", series=2, fees=FREE)
    series = [[line("a", 150, won=2, lost=1), line("b", 100, won=2)], [line("a", 0), line("b", 0)]]
    # a: 150 + 50 × (2 − 1) = 200; b: 100 + 100 = 200; equal won; b lost fewer.
    totals = score_tournament(rules, [Entrant("a"), Entrant("b")], series).rankings.total
    assert [place.standing.player for place in totals] == ["b", "a"]
    assert not any(place.by_lot for place in totals)


CATEGORY_FIELD = [Entrant("ann", frozenset({"women"})), Entrant("bob"), Entrant("cyd", frozenset({"women", "seniors"}))]
CATEGORY_LISTS = [
    [line("bob", 900), line("ann", 800), line("cyd", 700), line("dan", 600)],
    [line("bob", 900), line("ann", 800), line("cyd", 700), line("dan", 600)],
]


def category_rules(women: int, **options: object) -> TournamentRules:
    return TournamentRules(
        seed="c",
        series=2,
        fees=Fees(entry=10_000, lost_games=()),
        places=PrizeSchedule((5, 3), payout=Payout.IN_FULL),
        categories=(Category("women", (women,)),),
        **options,  # type: ignore[arg-type]
    )


def test_a_player_placed_for_two_prizes_wins_the_better_and_the_other_passes_on() -> None:
    entrants = [*CATEGORY_FIELD, Entrant("dan")]
    # 400 € prize money: 10 € for the best woman, the places share the rest 5:3 (243.75 € and 146.25 €).
    result = score_tournament(category_rules(1000), entrants, CATEGORY_LISTS)
    assert winners(result.prizes, PrizeKind.PLACE) == [(1, 24375, "bob"), (2, 14625, "ann")]
    assert winners(result.prizes, PrizeKind.CATEGORY, "women") == [(1, 1000, "cyd")]
    # The best woman's prize is worth more than the second place: ann takes it, the second place passes to cyd.
    result = score_tournament(category_rules(15_000), entrants, CATEGORY_LISTS)
    assert winners(result.prizes, PrizeKind.PLACE) == [(1, 15625, "bob"), (2, 9375, "cyd")]
    assert winners(result.prizes, PrizeKind.CATEGORY, "women") == [(1, 15_000, "ann")]


def test_of_two_equal_prizes_the_place_is_kept_and_the_category_prize_passes_on() -> None:
    rules = TournamentRules(
        seed="c",
        series=2,
        fees=Fees(entry=10_000, lost_games=()),
        places=PrizeSchedule((20_000, 10_000), kind=ScheduleKind.AMOUNTS, payout=Payout.AS_ANNOUNCED),
        categories=(Category("women", (10_000,)),),
    )
    result = score_tournament(rules, [*CATEGORY_FIELD, Entrant("dan")], CATEGORY_LISTS)
    assert winners(result.prizes, PrizeKind.PLACE) == [(1, 20_000, "bob"), (2, 10_000, "ann")]
    assert winners(result.prizes, PrizeKind.CATEGORY, "women") == [(1, 10_000, "cyd")]


def test_where_the_organiser_allows_both_a_player_wins_both_prizes() -> None:
    result = score_tournament(
        category_rules(1000, doubles=Doubles.BOTH), [*CATEGORY_FIELD, Entrant("dan")], CATEGORY_LISTS
    )
    assert winners(result.prizes, PrizeKind.PLACE)[1][2] == "ann"
    assert winners(result.prizes, PrizeKind.CATEGORY, "women") == [(1, 1000, "ann")]
    assert result.cashier.lines[0].won == 14625 + 1000


def test_a_category_prize_nobody_can_win_stays_with_the_organiser() -> None:
    rules = TournamentRules(
        seed="c",
        series=2,
        fees=Fees(entry=1000, lost_games=()),
        places=PrizeSchedule((1,)),
        categories=(Category("youth", (500,)),),
    )
    result = score_tournament(rules, [*CATEGORY_FIELD, Entrant("dan")], CATEGORY_LISTS)
    assert winners(result.prizes, PrizeKind.PLACE) == [(1, 3500, "bob")]
    assert winners(result.prizes, PrizeKind.CATEGORY, "youth") == [(1, 500, None)]
    assert result.cashier.not_paid_out == 500
    assert result.cashier.organiser == 500


def test_the_best_single_series_wins_its_prize() -> None:
    rules = TournamentRules(
        seed="b",
        series=2,
        fees=Fees(entry=1000, lost_games=()),
        places=PrizeSchedule((1,)),
        best_series=(500,),
    )
    series = [
        [line("a", 900), line("b", 1200), line("c", 100), line("d", 0)],
        [line("a", 900), line("b", 0), line("c", 1300), line("d", 0)],
    ]
    entrants = [Entrant(player) for player in "abcd"]
    result = score_tournament(rules, entrants, series)
    assert [place.standing.player for place in result.rankings.best_series][:2] == ["c", "b"]
    assert winners(result.prizes, PrizeKind.PLACE) == [(1, 3500, "a")]
    assert winners(result.prizes, PrizeKind.BEST_SERIES) == [(1, 500, "c")]


def test_tandems_and_teams_are_ranked_by_their_members_totals_and_share_their_prizes() -> None:
    entrants = [Entrant(player) for player in "abcdefgh"]
    series = [
        [line(player, points) for player, points in zip("abcd", (400, 300, 200, 100), strict=True)]
        + [line(player, points) for player, points in zip("efgh", (350, 250, 150, 50), strict=True)],
        [line(player, 100) for player in "abcdefgh"],
    ]
    rules = TournamentRules(
        seed="t",
        series=2,
        fees=Fees(tandem=500, team=1001, lost_games=()),
        tandems=PrizeSchedule((2, 1)),
        teams=PrizeSchedule((1,)),
    )
    tandems = [Side("AH", ("a", "h")), Side("BC", ("b", "c")), Side("EF", ("e", "f"))]
    teams = [Side("ABCD", ("a", "b", "c", "d")), Side("EFGH", ("e", "f", "g", "h"))]
    result = score_tournament(rules, entrants, series, tandems=tandems, teams=teams)
    assert [(place.standing.player, int(place.standing.score)) for place in result.rankings.tandems] == [
        ("EF", 800),
        ("BC", 700),
        ("AH", 650),
    ]
    assert [(place.standing.player, int(place.standing.score)) for place in result.rankings.teams] == [
        ("ABCD", 1400),
        ("EFGH", 1200),
    ]
    # Tandems: 6 × 5 € = 30 € split 2:1; teams: 8 × 10.01 € = 80.08 € to ABCD, 20.02 € each.
    assert winners(result.prizes, PrizeKind.TANDEM) == [(1, 2000, "EF"), (2, 1000, "BC")]
    assert winners(result.prizes, PrizeKind.TEAM) == [(1, 8008, "ABCD")]
    won = {line.player: line.won for line in result.cashier.lines}
    assert won == {"a": 2002, "b": 2502, "c": 2502, "d": 2002, "e": 1000, "f": 1000, "g": 0, "h": 0}


def test_a_tandem_of_one_or_a_player_in_two_teams_is_refused() -> None:
    entrants = [Entrant(player) for player in "abcde"]
    with pytest.raises(RuleError) as refused:
        score_tournament(
            TournamentRules(seed="s", series=2),
            entrants,
            [],
            tandems=[Side("A", ("a",)), Side("A", ("b", "b"))],
            teams=[Side("T1", ("a", "b", "c", "d")), Side("T2", ("e", "b", "c", "x"))],
        )
    messages = {(error.field, str(error.message)) for error in refused.value.errors}
    assert ("tandems.0", "A needs 2 different players.") in messages
    assert ("tandems.1", "A is entered twice.") in messages
    assert ("tandems.1", "b plays in two tandems.") not in messages
    assert ("teams.1", "b plays in two teams.") in messages
    assert ("teams.1", "x has not entered the tournament.") in messages


# --- The cashier -----------------------------------------------------------------------------------------------------


def test_the_cashier_lists_what_each_player_paid_owes_and_won() -> None:
    rules = TournamentRules(
        seed="k",
        series=2,
        fees=Fees(entry=1500, per_list=200),
        share=OrganiserShare(value=1000),
        places=PrizeSchedule((2, 1)),
    )
    entrants = [Entrant("a", paid=1900), Entrant("b", paid=1900), Entrant("c", paid=0)]
    series = [
        [SeriesLine("a", 3, 600, 5, 1, 2), SeriesLine("b", 3, 300, 3, 2, 1), SeriesLine("c", 3, -100, 0, 1, 3)],
        [SeriesLine("a", 3, 400, 4, 0, 4), SeriesLine("b", 3, 500, 4, 3, 1), SeriesLine("c", 3, 0, 0, 1, 3)],
    ]
    cashier = score_tournament(rules, entrants, series).cashier
    a, b, c = cashier.lines
    assert (a.dues.total, a.owed, a.won, a.balance) == (1950, 50, 2700, 2650)
    assert (b.dues.lost_games, b.dues.total, b.owed, b.won) == (250, 2150, 250, 1350)
    assert (c.dues.total, c.owed, c.won, c.balance) == (2000, 2000, 0, -2000)
    # 45 € entries, 10 % of which the organiser keeps (4.50 €): 40.50 € paid out 2:1. The organiser also keeps the
    # 12 € list fees and the 4 € lost-game fees.
    assert (cashier.pot.total, cashier.pot.share, cashier.paid_out, cashier.organiser) == (6100, 450, 4050, 2050)
    assert cashier.paid_in + cashier.owed == cashier.paid_out + cashier.organiser


@given(
    entry=st.integers(min_value=0, max_value=5000),
    per_list=st.integers(min_value=0, max_value=500),
    percent=st.integers(min_value=0, max_value=2500),
    places=st.lists(st.integers(min_value=0, max_value=100), max_size=12),
    lost=st.lists(st.integers(min_value=0, max_value=12), min_size=9, max_size=9),
    paid=st.lists(st.integers(min_value=0, max_value=5000), min_size=9, max_size=9),
    keeps_lost=st.booleans(),
)
def test_the_cashiers_sums_balance_to_the_cent(
    entry: int, per_list: int, percent: int, places: list[int], lost: list[int], paid: list[int], keeps_lost: bool
) -> None:
    rules = TournamentRules(
        seed="sums",
        series=2,
        fees=Fees(entry=entry, per_list=per_list, tandem=300),
        share=OrganiserShare(value=percent, keeps_lost_game_fees=keeps_lost),
        places=PrizeSchedule(tuple(places)),
        tandems=PrizeSchedule((1,)),
    )
    players = PLAYERS[:9]
    entrants = [Entrant(player, paid=amount) for player, amount in zip(players, paid, strict=True)]
    series = [
        [
            SeriesLine(player, 3, 100 * index, 0, count, 0)
            for index, (player, count) in enumerate(zip(players, lost, strict=True))
        ]
    ] * 2
    cashier = score_tournament(rules, entrants, series, tandems=[Side("T", (players[0], players[1]))]).cashier
    # Every cent due (paid in, or still owed by a player) is a prize or the organiser's.
    assert cashier.paid_in + cashier.owed == cashier.paid_out + cashier.organiser
    assert sum(line.won for line in cashier.lines) == cashier.paid_out
    assert sum(line.balance for line in cashier.lines) == cashier.paid_out - cashier.owed
    assert cashier.not_paid_out >= 0


# --- Entries and seating ---------------------------------------------------------------------------------------------


def test_late_entries_join_until_the_first_series_is_drawn() -> None:
    check_entry("late", entrants=["a", "b"], drawn=0)
    with pytest.raises(RuleError, match=re.escape("Series 1 is drawn: entries are closed.")):
        check_entry("late", entrants=["a", "b"], drawn=1)
    with pytest.raises(RuleError, match=re.escape("a has entered already.")):
        check_entry("a", entrants=["a", "b"], drawn=0)


def test_the_first_series_is_drawn_from_the_tournaments_seed_the_same_every_time() -> None:
    rules = TournamentRules(seed="open 2026")
    first = seat_series(PLAYERS[:37], number=1, rules=rules)
    assert first == seat_series(list(reversed(PLAYERS[:37])), number=1, rules=rules)
    assert first != seat_series(PLAYERS[:37], number=1, rules=TournamentRules(seed="open 2027"))
    assert [len(table) for table in first] == [4] * 7 + [3] * 3
    second = seat_series(PLAYERS[:37], number=2, rules=rules, before=[first])
    assert second == seat_series(PLAYERS[:37], number=2, rules=rules, before=[first])


def test_a_later_series_seated_by_the_standings_puts_the_leaders_at_table_one() -> None:
    rules = TournamentRules(seed="s")
    standings = [f"p{number:03d}" for number in reversed(range(14))]
    tables = seat_series(PLAYERS[:14], number=2, rules=rules, seating=Seating.STANDINGS, standings=standings)
    assert tables == (
        ("p013", "p012", "p011", "p010"),
        ("p009", "p008", "p007", "p006"),
        ("p005", "p004", "p003"),
        ("p002", "p001", "p000"),
    )


def test_a_withdrawal_between_series_replans_the_tables_with_the_rest_of_three() -> None:
    rules = TournamentRules(seed="w")
    first = seat_series(PLAYERS[:16], number=1, rules=rules)
    assert [len(table) for table in first] == [4, 4, 4, 4]
    still_in = [player for player in PLAYERS[:16] if player != "p005"]
    for seating in (Seating.DRAW, Seating.STANDINGS):
        second = seat_series(still_in, number=2, rules=rules, seating=seating, before=[first], standings=PLAYERS[:16])
        assert [len(table) for table in second] == [4, 4, 4, 3]
        assert sorted(player for table in second for player in table) == still_in


def test_a_fixed_plan_seats_as_given_and_a_player_in_two_seats_is_refused() -> None:
    rules = TournamentRules(seed="p")
    plan = (("a", "b", "c", "d"), ("e", "f", "g"))
    assert seat_series(list("abcdefg"), number=2, rules=rules, seating=Seating.PLAN, plan=plan) == plan
    with pytest.raises(RuleError) as refused:
        check_tables((("a", "b", "c", "d"), ("e", "a", "g")), list("abcdef"))
    assert {str(error.message) for error in refused.value.errors} == {
        "a has two seats: at table 1 and at table 2.",
        "g does not play this series.",
        "f has no seat.",
    }
    with pytest.raises(RuleError, match="Table 2 seats 2"):
        check_tables((("a", "b", "c", "d"), ("e", "f")), list("abcdef"))


def test_a_player_with_two_lists_in_a_series_or_not_entered_is_refused() -> None:
    rules = TournamentRules(seed="r", series=2, fees=FREE)
    with pytest.raises(RuleError) as refused:
        score_tournament(rules, [Entrant("a")], [[line("a", 10), line("a", 20), line("z", 0)]])
    assert {str(error.message) for error in refused.value.errors} == {
        "a has two lists in series 1.",
        "z has not entered the tournament.",
    }


def test_a_series_beyond_the_tournaments_is_refused() -> None:
    with pytest.raises(RuleError, match="has 2 series, not more"):
        seat_series(PLAYERS[:8], number=3, rules=TournamentRules(seed="s", series=2))
    with pytest.raises(RuleError, match="plays 2 to 4 series, not 5"):
        score_tournament(TournamentRules(seed="s", series=5), [], [])


def test_every_meeting_weighs_alike_within_a_tournament() -> None:
    series = [(("a", "b", "c"),), (("a", "d", "e"),)]
    assert pairings_met(series, decay=1.0)[frozenset({"a", "b"})] == 1.0
    assert pairings_met(series)[frozenset({"a", "b"})] == 0.5


def test_drawing_again_avoids_repeat_pairings_far_better_than_a_random_draw() -> None:
    """120 players, three series, three tournaments. A random draw of 30 tables of four makes 180 pairings, each of
    which a later random series seats together again with a chance of 3/119: about 4.5 repeats in series 2 and 9 in
    series 3, some 13 a tournament (measured 8 to 23 over eight seeds, 45 over the three below). Drawing again sees
    that every player has met only 3 or 6 of 119 others and can nearly always seat them apart (measured: none at
    all). A tenth of the random draw's repeats leaves room for a few, and fails the moment repeats are not avoided."""
    engine = random = 0
    for seed in ("one", "two", "three"):
        rules = TournamentRules(seed=seed)
        drawn: list[Tables] = []
        for number in (1, 2, 3):
            drawn.append(seat_series(PLAYERS, number=number, rules=rules, before=drawn))
        engine += repeat_pairings(drawn)
        random += repeat_pairings([draw_tables(PLAYERS, seed=f"{seed} random {number}") for number in (1, 2, 3)])
    assert random >= 20
    assert engine * 10 <= random


@given(
    count=st.integers(min_value=3, max_value=60).filter(lambda count: count != 5),
    seed=st.text(max_size=8),
    withdrawn=st.sets(st.integers(min_value=0, max_value=59), max_size=6),
)
def test_every_player_still_in_is_seated_once_in_every_series(count: int, seed: str, withdrawn: set[int]) -> None:
    rules = TournamentRules(seed=seed)
    first = seat_series(PLAYERS[:count], number=1, rules=rules)
    still_in = [player for index, player in enumerate(PLAYERS[:count]) if index not in withdrawn]
    if len(still_in) in (0, 1, 2, 5):
        return
    second = seat_series(still_in, number=2, rules=rules, before=[first])
    for tables, players in ((first, PLAYERS[:count]), (second, still_in)):
        check_tables(tables, players)
        assert sorted(player for table in tables for player in table) == sorted(players)
