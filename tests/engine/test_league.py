"""Seeger-Fabian lists, rankings, season tables and the cashier, against the worked sheet of CLUBS.md."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.engine import RuleError
from matches.engine.league import (
    MoneyRules,
    NightResult,
    PaperLine,
    RankingRule,
    SeasonRanking,
    SeriesLine,
    SeriesMoney,
    Standing,
    cashier,
    check_paper,
    game_points_of_total,
    lines_from_paper,
    lost_games_fee,
    prizes,
    rank,
    reachable,
    season_standings,
    seeger_fabian_total,
)
from matches.engine.skat import LEGAL_GAME_VALUES


def test_the_worked_three_table_sheet_adds_up_as_printed() -> None:
    # ppuetz.de, "Abrechnung", as quoted in CLUBS.md.
    lines = lines_from_paper(
        [PaperLine("P1", 455, won=20, lost=4), PaperLine("P2", 608, won=12, lost=0), PaperLine("P3", 486, 9, 0)]
    )
    assert [line.total for line in lines] == [1255, 1368, 1096]
    assert [(line.won_points, line.lost_points, line.bonus) for line in lines] == [
        (1000, 200, 0),
        (600, 0, 160),
        (450, 0, 160),
    ]


def test_a_four_table_gives_30_for_every_game_the_others_lost() -> None:
    lines = lines_from_paper(
        [
            PaperLine("A", 300, won=10, lost=2),
            PaperLine("B", 100, won=5, lost=1),
            PaperLine("C", 0, won=0, lost=0),
            PaperLine("D", 72, won=3, lost=0),
        ]
    )
    assert [line.others_lost for line in lines] == [1, 2, 3, 3]
    assert [line.total for line in lines] == [300 + 400 + 30, 100 + 200 + 60, 90, 72 + 150 + 90]


def test_one_lost_game_moves_minus_50_and_plus_80_or_90() -> None:
    three = lines_from_paper([PaperLine("A", -48, 0, 1), PaperLine("B", 0, 0, 0), PaperLine("C", 0, 0, 0)])
    assert [line.total - line.game_points for line in three] == [-50, 40, 40]
    four = lines_from_paper([PaperLine(p, 0, 0, 0) for p in "ABC"] + [PaperLine("D", -48, 0, 1)])
    assert sum(line.total - line.game_points for line in four) == -50 + 90


def test_ties_go_to_more_won_then_fewer_lost_then_the_lot() -> None:
    rows = [
        Standing("fewer won", Fraction(1000), won=9, lost=0),
        Standing("more lost", Fraction(1000), won=10, lost=3),
        Standing("best", Fraction(1000), won=10, lost=1),
        Standing("top", Fraction(1200), won=1, lost=5),
    ]
    places = rank(rows, seed="night 1")
    assert [place.standing.player for place in places] == ["top", "best", "more lost", "fewer won"]
    assert not any(place.by_lot for place in places)


def test_a_lot_decides_a_full_tie_the_same_way_every_time_and_says_so() -> None:
    rows = [Standing(name, Fraction(500), won=5, lost=1) for name in ("Anna", "Ben", "Cleo", "Dora")]
    first = [place.standing.player for place in rank(rows, seed="night 7")]
    assert first == [place.standing.player for place in rank(list(reversed(rows)), seed="night 7")]
    assert all(place.by_lot for place in rank(rows, seed="night 7"))
    orders = {tuple(place.standing.player for place in rank(rows, seed=f"night {n}")) for n in range(20)}
    assert len(orders) > 1  # the seed draws the lot


NIGHTS = [
    NightResult("Anna", "1", 1200, won=10, lost=1, lists=1),
    NightResult("Anna", "2", 800, won=6, lost=2, lists=1),
    NightResult("Anna", "3", 1000, won=8, lost=1, lists=1),
    NightResult("Ben", "1", 1500, won=12, lost=0, lists=1),
    NightResult("Ben", "2", 1400, won=11, lost=0, lists=1),
    NightResult("Cleo", "1", 900, won=7, lost=1, lists=2),
]


def _scores(ranking: SeasonRanking) -> dict[str, Fraction]:
    return {row.player: row.score for row in season_standings(NIGHTS, ranking)}


def test_a_season_ranked_by_total_sums_every_list() -> None:
    assert _scores(SeasonRanking(RankingRule.TOTAL)) == {"Anna": 3000, "Ben": 2900, "Cleo": 900}


def test_an_average_counts_missing_lists_as_zero_up_to_the_minimum() -> None:
    scores = _scores(SeasonRanking(RankingRule.AVERAGE, minimum_lists=3))
    assert scores == {"Anna": 1000, "Ben": Fraction(2900, 3), "Cleo": 300}
    assert _scores(SeasonRanking(RankingRule.AVERAGE))["Ben"] == 1450


def test_best_nights_count_only_the_best() -> None:
    scores = _scores(SeasonRanking(RankingRule.BEST_NIGHTS, best_nights=2))
    assert scores == {"Anna": 2200, "Ben": 2900, "Cleo": 900}
    best = SeasonRanking(RankingRule.BEST_NIGHTS, best_nights=1)
    anna = next(row for row in season_standings(NIGHTS, best) if row.player == "Anna")
    assert anna.won == 10  # only the counted night's games break ties


def test_lost_game_fees_are_tiered_per_list() -> None:
    tiers = ((1, 50), (4, 100))
    assert [lost_games_fee(lost, tiers) for lost in range(6)] == [0, 50, 100, 150, 250, 350]
    assert lost_games_fee(3, ()) == 0


def test_prizes_share_the_whole_pot_the_first_place_most() -> None:
    assert prizes(1000, 3) == [501, 333, 166]
    assert prizes(0, 3) == []
    assert prizes(100, 0) == []


@given(st.integers(min_value=0, max_value=100_000), st.integers(min_value=1, max_value=15))
def test_prizes_never_lose_a_cent_and_never_rise_down_the_table(pot: int, count: int) -> None:
    shares = prizes(pot, count)
    assert sum(shares) == pot or pot == 0
    assert shares == sorted(shares, reverse=True)


def test_the_cashier_sums_what_each_player_pays_and_wins() -> None:
    rules = MoneyRules(stake=500, list_fee=100, lost_fees=((1, 50), (4, 100)))
    series = SeriesMoney(
        places=[("Anna", 0), ("Ben", 4), ("Cleo", 1), ("Dora", 2), ("Emil", 0), ("Fred", 1), ("Gus", 0)],
        tables=2,
        in_pot=frozenset({"Anna", "Ben", "Cleo", "Dora", "Emil", "Fred"}),
    )
    accounts = {account.player: account for account in cashier([series], rules)}
    assert accounts["Anna"].prizes == 2000
    assert accounts["Ben"].prizes == 1000
    assert accounts["Gus"].stakes == 0
    assert accounts["Gus"].prizes == 0
    assert accounts["Gus"].paid == 100
    assert accounts["Ben"].paid == 500 + 100 + 250
    assert sum(account.prizes for account in accounts.values()) == 6 * 500
    assert sum(account.balance for account in accounts.values()) == -(7 * 100 + 250 + 50 + 100 + 50)


def test_game_points_are_reachable_only_from_legal_game_values() -> None:
    assert reachable(0, won=0, lost=0)
    assert not reachable(10, won=0, lost=0)
    assert reachable(18, won=1, lost=0)
    assert not reachable(19, won=1, lost=0)
    assert reachable(-36, won=0, lost=1)
    assert not reachable(-18, won=0, lost=1)
    assert reachable(18 + 20 - 2 * 23, won=2, lost=1)
    assert not reachable(17, won=1, lost=0)
    assert not reachable(265, won=1, lost=0)


@given(
    st.lists(st.sampled_from(sorted(LEGAL_GAME_VALUES)), max_size=6),
    st.lists(st.sampled_from(sorted(LEGAL_GAME_VALUES)), max_size=4),
)
def test_any_series_of_legal_games_is_reachable(won: list[int], lost: list[int]) -> None:
    assert reachable(sum(won) - 2 * sum(lost), won=len(won), lost=len(lost))


def test_paper_totals_no_series_can_produce_are_refused_by_line() -> None:
    with pytest.raises(RuleError) as refused:
        check_paper(
            [PaperLine("A", 19, 1, 0), PaperLine("B", 0, 0, 0), PaperLine("C", 5, 0, 0)], games=36, skat_values=True
        )
    assert [error.field for error in refused.value.errors] == ["lines.0.game_points", "lines.2.game_points"]
    with pytest.raises(RuleError) as refused:
        check_paper([PaperLine("A", 18 * 20, 20, 0), PaperLine("B", 18 * 17, 17, 0)], games=36, skat_values=False)
    assert [error.field for error in refused.value.errors] == ["lines"]
    check_paper([PaperLine("A", 455, 20, 4), PaperLine("B", 608, 12, 0)], games=36, skat_values=True)


def test_the_whole_pot_is_paid_out_when_fewer_play_for_it_than_there_are_tables() -> None:
    series = SeriesMoney(places=[("Anna", 0), ("Ben", 1), ("Cleo", 2)], tables=3, in_pot=frozenset({"Anna", "Ben"}))
    accounts = {account.player: account for account in cashier([series], MoneyRules(stake=500))}
    assert accounts["Anna"].prizes + accounts["Ben"].prizes == 1000
    assert accounts["Cleo"].prizes == 0


# (source, table size, game points, won, lost, the others' lost games, Seeger-Fabian total)
SEEGER_FABIAN_LISTS = [
    ("Abrechnung sheet: 455 + 1000 − 200 = 1255", 3, 455, 20, 4, 0, 1255),
    ("Abrechnung sheet: 608 + 600 + 4 × 40 = 1368", 3, 608, 12, 0, 4, 1368),
    ("Abrechnung sheet: 486 + 450 + 160 = 1096", 3, 486, 9, 0, 4, 1096),
    ("clubs digest: one lost game moves −50 for its declarer (clubs with 1 lost: −48)", 3, -48, 0, 1, 0, -98),
    ("clubs digest: and +40 to each other player at a table of three", 3, 0, 0, 0, 1, 40),
    ("clubs digest: and +30 to each other player at a table of four, the dealer who sits out too", 4, 0, 0, 0, 1, 30),
    ("ISkO-SWO 5.1 at a table of four: 300 + 50 × (10 − 2) + 1 × 30 = 730", 4, 300, 10, 2, 1, 730),
]


@pytest.mark.parametrize(
    ("size", "game_points", "won", "lost", "others_lost", "total"),
    [pytest.param(*case, id=source) for source, *case in SEEGER_FABIAN_LISTS],
)
def test_a_lists_seeger_fabian_total_and_its_game_points_are_as_the_rules_texts_work_them(
    size: int, game_points: int, won: int, lost: int, others_lost: int, total: int
) -> None:
    counts = {"won": won, "lost": lost, "others_lost": others_lost, "table_size": size}
    assert seeger_fabian_total(game_points, **counts) == total
    assert game_points_of_total(total, **counts) == game_points


@given(
    st.builds(
        SeriesLine,
        player=st.just("P"),
        table_size=st.sampled_from((3, 4)),
        game_points=st.integers(min_value=-10_000, max_value=10_000),
        won=st.integers(min_value=0, max_value=48),
        lost=st.integers(min_value=0, max_value=48),
        others_lost=st.integers(min_value=0, max_value=144),
    )
)
def test_the_game_points_of_a_lists_total_are_the_lists_game_points(line: SeriesLine) -> None:
    counts = {"won": line.won, "lost": line.lost, "others_lost": line.others_lost, "table_size": line.table_size}
    assert game_points_of_total(line.total, **counts) == line.game_points
