"""League match days between clubs: series points, a team's match day, the table, the players' ranking, the seating
and who may play, against the match day of CLUBS.md, hand-worked cases and properties."""

import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.engine import RuleError
from matches.engine.draw import table_sizes
from matches.engine.match_days import (
    CheckIn,
    LeaguePoints,
    LineUp,
    Mark,
    MatchDay,
    PlayerSeries,
    Roster,
    Seat,
    SeriesPlace,
    SeriesRules,
    SeriesTables,
    ShortVenue,
    TableRules,
    TableTie,
    TieRule,
    individual_ranking,
    league_table,
    rank_series,
    refused_check_ins,
    score_match_day,
    seat_match_day,
    seat_series,
)

ROOT = Path(__file__).resolve().parents[1]


def _points(places: list[SeriesPlace]) -> dict[str, str]:
    return {place.team: str(place.points) for place in places}


# --- A series ---------------------------------------------------------------------------------------------------------


def test_four_teams_get_3_0_2_1_1_2_0_3_by_their_series_scores() -> None:
    places = rank_series({"B": 3500, "A": 3683, "D": 3100, "C": 3400})
    assert [place.team for place in places] == ["A", "B", "C", "D"]
    assert [place.place for place in places] == [1, 2, 3, 4]
    assert _points(places) == {"A": "3:0", "B": "2:1", "C": "1:2", "D": "0:3"}


def test_teams_tied_for_second_and_third_share_the_points_as_halves() -> None:
    # Hand-worked: B and C tie; each beat D, lost to A, and the tie between them counts ½:½.
    places = rank_series({"A": 3000, "B": 2500, "C": 2500, "D": 2000})
    assert _points(places) == {"A": "3:0", "B": "1½:1½", "C": "1½:1½", "D": "0:3"}
    assert places[1].points == LeaguePoints(Fraction(3, 2), Fraction(3, 2))
    assert [place.place for place in places] == [1, 2, 2, 4]


def test_a_tie_can_give_both_the_better_or_both_the_worse_place() -> None:
    scores = {"A": 3000, "B": 2500, "C": 2500, "D": 2000}
    better = rank_series(scores, SeriesRules(tie=TieRule.BETTER_PLACE))
    worse = rank_series(scores, SeriesRules(tie=TieRule.WORSE_PLACE))
    assert _points(better) == {"A": "3:0", "B": "2:1", "C": "2:1", "D": "0:3"}
    assert _points(worse) == {"A": "3:0", "B": "1:2", "C": "1:2", "D": "0:3"}


def test_four_equal_scores_give_everyone_1_and_a_half() -> None:
    assert set(_points(rank_series(dict.fromkeys("ABCD", 2000))).values()) == {"1½:1½"}


def test_three_teams_present_get_2_0_1_1_0_2_or_count_the_absent_team_as_beaten() -> None:
    scores = {"A": 3000, "B": 2000, "C": 1000}
    assert _points(rank_series(scores, absent=1)) == {"A": "2:0", "B": "1:1", "C": "0:2"}
    beaten = SeriesRules(short_venue=ShortVenue.ABSENT_BEATEN)
    assert _points(rank_series(scores, beaten, absent=1)) == {"A": "3:0", "B": "2:1", "C": "1:2"}
    tied = rank_series({"A": 3000, "B": 3000, "C": 1000}, absent=1)
    assert _points(tied) == {"A": "1½:½", "B": "1½:½", "C": "0:2"}


def test_ispa_counts_two_points_for_every_team_beaten() -> None:
    # ISPA reports: a series won outright is "der Sechser" (6:0); a second place 4:2.
    ispa = SeriesRules(per_team_beaten=2)
    assert _points(rank_series({"A": 4700, "B": 4000, "C": 3000, "D": 2000}, ispa)) == {
        "A": "6:0",
        "B": "4:2",
        "C": "2:4",
        "D": "0:6",
    }
    assert _points(rank_series({"A": 4700, "B": 3000, "C": 3000, "D": 2000}, ispa))["B"] == "3:3"


@pytest.mark.parametrize(("count", "absent"), [(1, 0), (5, 0), (4, 1)])
def test_a_series_of_one_team_or_of_a_fifth_team_is_refused(count: int, absent: int) -> None:
    with pytest.raises(RuleError) as refused:
        rank_series({f"T{number}": 1000 for number in range(count)}, absent=absent)
    assert [error.field for error in refused.value.errors] == ["series"]


scores = st.integers(min_value=-2000, max_value=6000)
series_scores = st.dictionaries(st.sampled_from("ABCD"), scores, min_size=2, max_size=4)
tie_rules = st.sampled_from(list(TieRule))
short_rules = st.sampled_from(list(ShortVenue))
factors = st.sampled_from([1, 2])


@given(series_scores, factors)
def test_shared_points_of_a_series_always_add_up_to_one_point_a_pairing_each_way(
    scores: dict[str, int], factor: int
) -> None:
    places = rank_series(scores, SeriesRules(per_team_beaten=factor), absent=4 - len(scores))
    pairings = len(scores) * (len(scores) - 1) // 2
    assert sum(place.points.plus for place in places) == pairings * factor
    assert sum(place.points.minus for place in places) == pairings * factor


@given(series_scores, tie_rules, short_rules, factors)
def test_every_team_of_a_series_gets_one_point_for_every_other_team_whatever_the_rule(
    scores: dict[str, int], tie: TieRule, short: ShortVenue, factor: int
) -> None:
    absent = 4 - len(scores)
    places = rank_series(scores, SeriesRules(tie, short, factor), absent=absent)
    counted = len(scores) - 1 + (absent if short is ShortVenue.ABSENT_BEATEN else 0)
    assert {place.points.plus + place.points.minus for place in places} == {counted * factor}


@given(series_scores, tie_rules, st.randoms())
def test_the_ranking_of_a_series_does_not_depend_on_the_order_the_teams_are_given(
    scores: dict[str, int], tie: TieRule, rng: random.Random
) -> None:
    teams = list(scores)
    rng.shuffle(teams)
    shuffled = {team: scores[team] for team in teams}
    assert rank_series(shuffled, SeriesRules(tie)) == rank_series(scores, SeriesRules(tie))


@given(series_scores, tie_rules, st.data())
def test_swapping_two_teams_scores_swaps_their_points(
    scores: dict[str, int], tie: TieRule, data: st.DataObject
) -> None:
    one, other = data.draw(st.lists(st.sampled_from(sorted(scores)), min_size=2, max_size=2, unique=True))
    swapped = scores | {one: scores[other], other: scores[one]}
    before = {place.team: place.points for place in rank_series(scores, SeriesRules(tie))}
    after = {place.team: place.points for place in rank_series(swapped, SeriesRules(tie))}
    assert (after[one], after[other]) == (before[other], before[one])


# --- A match day ------------------------------------------------------------------------------------------------------


def test_the_match_day_of_clubs_md_gives_team_i_5_4_and_10075_game_points() -> None:
    # CLUBS.md (club 1010004, 2022): Team I 3683 / 3283 / 3109 = 10075, league points 3:0 + 1:2 + 1:2 = 5:4. The
    # other three teams' scores are invented so that Team I comes first, third and third.
    day = score_match_day(
        ["Team I", "Akener Stadtwache", "Wernigerode", "Flöha II"],
        [
            {"Team I": 3683, "Akener Stadtwache": 3500, "Wernigerode": 3400, "Flöha II": 3100},
            {"Team I": 3283, "Akener Stadtwache": 4000, "Wernigerode": 3500, "Flöha II": 3000},
            {"Team I": 3109, "Akener Stadtwache": 3300, "Wernigerode": 3200, "Flöha II": 2900},
        ],
    )
    rows = {row.team: row for row in day.rows}
    assert str(rows["Team I"].points) == "5:4"
    assert rows["Team I"].game_points == 10075
    assert [str(place.points) for place in rows["Team I"].series if place] == ["3:0", "1:2", "1:2"]
    # Wernigerode has 5:4 too (1:2 + 2:1 + 2:1), and more game points (10100).
    assert [(row.team, str(row.points)) for row in day.rows] == [
        ("Akener Stadtwache", "8:1"),
        ("Wernigerode", "5:4"),
        ("Team I", "5:4"),
        ("Flöha II", "0:9"),
    ]


def test_four_series_add_up_to_a_match_day_like_10_2() -> None:
    day = score_match_day(
        ["A", "B", "C", "D"],
        [
            {"A": 4000, "B": 3000, "C": 2000, "D": 1000},
            {"A": 3000, "B": 4000, "C": 2000, "D": 1000},
            {"A": 4000, "B": 3000, "C": 2000, "D": 1000},
            {"A": 4000, "B": 3000, "C": 2000, "D": 1000},
        ],
    )
    assert str(day.rows[0].points) == "11:1"
    assert (day.rows[0].team, day.rows[1].team, str(day.rows[1].points)) == ("A", "B", "9:3")


def test_a_team_that_joins_at_the_second_series_scores_from_there() -> None:
    # Anlage 10: a team with fewer than three players at the start joins at the next series.
    day = score_match_day(
        ["A", "B", "C", "D"],
        [{"A": 3000, "B": 2000, "C": 1000}, {"A": 3000, "B": 2000, "C": 1000, "D": 4000}],
    )
    rows = {row.team: row for row in day.rows}
    assert rows["D"].series[0] is None
    assert (str(rows["D"].points), rows["D"].game_points) == ("3:0", 4000)
    assert str(rows["A"].points) == "4:1"


def test_a_match_day_refuses_a_fifth_team_a_team_twice_and_a_stranger_in_a_series() -> None:
    with pytest.raises(RuleError) as refused:
        score_match_day(["A", "B", "C", "D", "E"], [])
    assert [error.field for error in refused.value.errors] == ["teams"]
    with pytest.raises(RuleError) as refused:
        score_match_day(["A", "A", "B"], [{"A": 1, "B": 2, "X": 3}])
    assert [error.field for error in refused.value.errors] == ["teams", "series.0"]
    assert "X is not one of the venue's teams" in str(refused.value)


# --- The league table -------------------------------------------------------------------------------------------------


def _day(*ranked: str) -> list[dict[str, int]]:
    """Three series in which the teams finish in the order given: 3000, 2900, 2800, 2700 by place."""
    return [{team: 3000 - 100 * place for place, team in enumerate(ranked)} for _ in range(3)]


def _group_of_eight() -> list[MatchDay]:
    # Hand-worked: over three match days A has 9 + 6 + 9 = 24, B 6 + 9 + 3, C 3 + 9 + 6 and E 9 + 0 + 9 = 18 each
    # (with 26100 game points each: places 2, 1, 3 / 3, 1, 2 / 1, 4, 1), F 6 + 0 + 6 = 12, D 0 + 6 + 3 = 9,
    # G 3 + 3 + 0 = 6, H 0 + 3 + 0 = 3.
    venues = [
        ("A", "B", "C", "D"),
        ("E", "F", "G", "H"),
        ("C", "A", "G", "E"),
        ("B", "D", "H", "F"),
        ("A", "F", "D", "H"),
        ("E", "C", "B", "G"),
    ]
    return [score_match_day(venue, _day(*venue)) for venue in venues]


def test_the_table_over_three_match_days_shares_a_tied_rank_and_marks_promotion_and_relegation() -> None:
    table = league_table(_group_of_eight(), TableRules(promoted=2, relegated=2))
    assert [(row.rank, row.team, str(row.points), row.game_points) for row in table] == [
        (1, "A", "24:3", 9000 + 8700 + 9000),
        (2, "B", "18:9", 26100),
        (2, "C", "18:9", 26100),
        (2, "E", "18:9", 26100),
        (5, "F", "12:15", 8700 + 8100 + 8700),
        (6, "D", "9:18", 8100 + 8700 + 8400),
        (7, "G", "6:21", 8400 + 8400 + 8100),
        (8, "H", "3:24", 8100 + 8400 + 8100),
    ]
    assert [row.mark for row in table] == [Mark.PROMOTION] * 4 + [None, None] + [Mark.RELEGATION] * 2
    # Three teams share the second place: the table cannot say which of them goes up.
    assert [row.undecided for row in table] == [False, True, True, True, False, False, False, False]
    assert {row.match_days for row in table} == {3}


def test_a_table_before_any_match_day_places_nobody_and_says_nothing_is_undecided() -> None:
    """Eight teams that have not played have no place that anybody's games decided: none of them is placed, marked
    or undecided, and they are listed by name."""
    table = league_table([], TableRules(promoted=2, relegated=2), teams=list("HGFEDCBA"))
    assert [(row.rank, row.team, row.match_days) for row in table] == [(None, team, 0) for team in "ABCDEFGH"]
    assert not any(row.mark or row.undecided for row in table)


def test_a_team_that_has_not_played_is_placed_after_the_others_and_the_last_place_played_goes_down() -> None:
    """A team with no match day yet has no place: it is listed after the teams that played, even one whose game
    points are below nothing, and is never marked; the places up and down are those of the teams that played, so the
    last of them holds the group's one relegation place."""
    day = score_match_day("ABCD", _day(*"ABCD"))
    behind = score_match_day("EF", [{"E": 2000, "F": -100}])
    table = league_table([day, behind], TableRules(promoted=1, relegated=1), teams=list("ABCDEFZ"))
    assert [(row.rank, row.team) for row in table] == [
        (1, "A"),
        (2, "B"),
        (3, "C"),
        (4, "E"),
        (5, "D"),
        (6, "F"),
        (None, "Z"),
    ]
    assert [row.mark for row in table] == [Mark.PROMOTION, None, None, None, None, Mark.RELEGATION, None]


def test_the_direct_comparison_separates_teams_by_the_series_they_won_against_each_other() -> None:
    # B beat C three times (day 1) and lost to E and C three times each (day 3); C beat E on day 2; E beat both on
    # day 3: C and E won 6 series against the other two, B 3.
    table = league_table(_group_of_eight(), TableRules(tie=TableTie.DIRECT, promoted=2, relegated=2))
    assert [(row.rank, row.team) for row in table[:4]] == [(1, "A"), (2, "C"), (2, "E"), (4, "B")]
    assert [row.mark for row in table[:4]] == [Mark.PROMOTION, Mark.PROMOTION, Mark.PROMOTION, None]
    assert [row.undecided for row in table[:4]] == [False, True, True, False]


def test_a_lot_from_the_groups_seed_orders_the_tied_teams_the_same_way_every_time() -> None:
    days = _group_of_eight()
    drawn = league_table(days, TableRules(tie=TableTie.LOT, seed="Staffel 3"))
    assert [row.rank for row in drawn] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert {row.team for row in drawn[1:4]} == {"B", "C", "E"}
    assert [row.by_lot for row in drawn] == [False, True, True, True, False, False, False, False]
    assert drawn == league_table(list(reversed(days)), TableRules(tie=TableTie.LOT, seed="Staffel 3"))


def test_equal_league_points_are_ordered_by_game_points_then_minus_points_if_the_group_says_so() -> None:
    days = [
        score_match_day(["A", "B", "C"], [{"A": 3000, "B": 2000}, {"A": 1000, "B": 2500, "C": 900}]),
        score_match_day(["C", "D"], [{"C": 5000, "D": 1000}]),
    ]
    # A 1:0 + 1:1 = 2:1 (4000), B 0:1 + 2:0 = 2:1 (4500), C 0:2 + 1:0 = 1:2, D 0:1.
    table = league_table(days, teams=["A", "B", "C", "D", "E"])
    assert [(row.team, str(row.points)) for row in table] == [
        ("B", "2:1"),
        ("A", "2:1"),
        ("C", "1:2"),
        ("D", "0:1"),
        ("E", "0:0"),
    ]
    fewer_minus = league_table(days, TableRules(minus_counts=True))
    assert [row.team for row in fewer_minus][2:] == ["C", "D"]
    assert table[-1].match_days == 0


def test_negative_places_up_or_down_are_refused() -> None:
    with pytest.raises(RuleError):
        league_table([], TableRules(relegated=-1))


# --- The players' ranking ---------------------------------------------------------------------------------------------


def test_players_are_ranked_by_their_exact_average_with_the_leagues_minimum_of_series() -> None:
    lists = [
        PlayerSeries("Anna", 1200),
        PlayerSeries("Anna", 1000),
        PlayerSeries("Ben", 1100),
        PlayerSeries("Cleo", 1100),
        PlayerSeries("Cleo", 1100),
        PlayerSeries("Dora", 1000),
        PlayerSeries("Dora", 1000),
        PlayerSeries("Dora", 1300),
        PlayerSeries("Emil", 1000),
        PlayerSeries("Emil", 1001),
    ]
    ranking = individual_ranking(lists, minimum_series=2)
    assert [(row.rank, row.player, row.average, row.total, row.series) for row in ranking] == [
        (1, "Dora", Fraction(1100), 3300, 3),
        (2, "Anna", Fraction(1100), 2200, 2),
        (2, "Cleo", Fraction(1100), 2200, 2),
        (4, "Emil", Fraction(2001, 2), 2001, 2),
    ]
    assert [row.player for row in individual_ranking(lists, minimum_series=0)][:5] == [
        "Dora",
        "Anna",
        "Cleo",
        "Ben",
        "Emil",
    ]


# --- Seating ----------------------------------------------------------------------------------------------------------


def _team(name: str, size: int) -> LineUp:
    return LineUp(name, tuple(f"{name}{number}" for number in range(1, size + 1)))


def _meetings(plan: tuple[SeriesTables, ...]) -> Counter[frozenset[str]]:
    return Counter(
        frozenset((one.player, other.player))
        for tables in plan
        for table in tables
        for one, other in combinations(table, 2)
    )


def _teams_at(table: tuple[Seat, ...]) -> list[str]:
    return [seat.team for seat in table]


def test_four_teams_of_four_sit_one_of_each_team_a_table_and_meet_every_opponent_once_in_four_series() -> None:
    plan = seat_match_day([_team(name, 4) for name in "ABCD"], series=4)
    assert [[seat.player for seat in table] for table in plan[0]] == [
        ["A1", "B1", "C1", "D1"],
        ["A2", "B2", "C2", "D2"],
        ["A3", "B3", "C3", "D3"],
        ["A4", "B4", "C4", "D4"],
    ]
    assert all(_teams_at(table) == ["A", "B", "C", "D"] for tables in plan for table in tables)
    meetings = _meetings(plan)
    assert len(meetings) == 16 * 12 // 2
    assert set(meetings.values()) == {1}


@pytest.mark.parametrize(
    ("sizes", "tables"),
    [
        ((4, 4, 4, 3), [4, 4, 4, 3]),  # Anlage 10, case 1: three tables of four and one of three
        ((4, 4, 3, 3), [4, 4, 3, 3]),  # case 2
        ((4, 3, 3, 3), [4, 3, 3, 3]),  # case 3
        ((3, 3, 3, 3), [4, 4, 4]),  # case 4: three tables of four
        ((4, 4, 4), [3, 3, 3, 3]),  # case 5: a team absent, four tables of three
        ((3, 3, 3), [3, 3, 3]),
    ],
)
def test_short_teams_sit_as_the_federation_lays_out_with_no_two_of_a_team_at_a_table(
    sizes: tuple[int, ...], tables: list[int]
) -> None:
    plan = seat_match_day([_team(name, size) for name, size in zip("ABCD", sizes, strict=False)], series=3)
    for series in plan:
        assert sorted((len(table) for table in series), reverse=True) == tables
        assert all(len(set(_teams_at(table))) == len(table) for table in series)
    if sizes != (3, 3, 3, 3):
        assert max(_meetings(plan).values()) == 1


def test_each_series_seats_differently() -> None:
    plan = seat_match_day([_team(name, 4) for name in "ABCD"], series=3)
    assert len({frozenset(frozenset(seat.player for seat in table) for table in tables) for tables in plan}) == 3


def test_two_teams_of_four_share_two_tables_and_mix_anew_each_series() -> None:
    # Anlage 10: two teams play only with four players each; two of a team at a table cannot be avoided then.
    plan = seat_match_day([_team("A", 4), _team("B", 4)], series=2)
    assert [sorted(_teams_at(table)) for table in plan[0]] == [["A", "A", "B", "B"]] * 2
    assert plan[0] != plan[1]


def test_a_seed_gives_another_plan_the_same_every_time_and_keeps_the_meetings() -> None:
    teams = [_team(name, 4) for name in "ABCD"]
    drawn = seat_match_day(teams, series=4, seed="match day 3")
    assert drawn == seat_match_day(teams, series=4, seed="match day 3")
    assert drawn != seat_match_day(teams, series=4)
    assert set(_meetings(drawn).values()) == {1}


def _fewest_team_mates(sizes: list[int], tables: list[int]) -> int:
    """The fewest pairs of team-mates any seating of teams of ``sizes`` at ``tables`` has: each team spread over the
    tables as evenly as their seats allow, searched through."""
    best: list[int] = []

    def spread(team: int, free: list[int], pairs: int) -> None:
        if best and pairs >= best[0]:
            return
        if team == len(sizes):
            best[:] = [pairs]
            return
        for counts in product(*(range(min(seats, sizes[team]) + 1) for seats in free)):
            if sum(counts) == sizes[team]:
                taken = [seats - count for seats, count in zip(free, counts, strict=True)]
                spread(team + 1, taken, pairs + sum(count * (count - 1) // 2 for count in counts))

    spread(0, tables, 0)
    return best[0]


@pytest.mark.parametrize("sizes", [(4, 4, 3), (4, 3, 4), (3, 4, 4), (4, 3, 3), (3, 4, 3), (3, 3, 4), (4, 4)])
@pytest.mark.parametrize("seed", [None, "a", "b", "c", "d", "e"])
def test_teams_that_cannot_sit_apart_seat_no_more_team_mates_together_than_the_tables_make_unavoidable(
    sizes: tuple[int, ...], seed: str | None
) -> None:
    # 4-4-3 at tables of 4, 4 and 3: two pairs of team-mates whatever the seating; 4-3-3 at 4, 3 and 3: one.
    teams = [_team(name, size) for name, size in zip("ABC", sizes, strict=False)]
    before: list[list[list[str]]] = []
    for number in range(1, 5):
        tables = seat_series(teams, number=number, before=before, seed=seed)
        fewest = _fewest_team_mates(list(sizes), [len(table) for table in tables])
        together = sum(one.team == other.team for table in tables for one, other in combinations(table, 2))
        assert together == fewest == {(4, 4): 4, 11: 2, 10: 1}.get(sizes if len(sizes) == 2 else sum(sizes))
        before.append([[seat.player for seat in table] for table in tables])


@pytest.mark.parametrize(
    ("line_ups", "fields", "words"),
    [
        ([_team(name, 4) for name in "ABCDE"], ["teams"], "2 to 4 teams, not 5"),
        ([_team("A", 5), _team("B", 4), _team("C", 4)], ["teams.0"], "A brings 5 players"),
        ([_team("A", 2), _team("B", 4), _team("C", 4)], ["teams.0"], "A brings 2 players"),
        ([_team("A", 1), _team("B", 4), _team("C", 4)], ["teams.0"], "A brings 1 player: a team"),
        ([_team("A", 4), _team("B", 3)], ["teams.1"], "both play with 4 players"),
        ([_team("A", 4), LineUp("B", ("B1", "B2", "A1")), _team("C", 4)], ["teams.1"], "A1 is listed twice"),
        (
            [_team("A", 4), _team("A", 4), _team("C", 4)],
            ["teams.1", "teams.1", "teams.1", "teams.1", "teams"],
            "A team",
        ),
        ([_team("A", 4)], ["teams"], "not 1"),
    ],
)
def test_impossible_line_ups_are_refused_with_the_field_at_fault(
    line_ups: list[LineUp], fields: list[str], words: str
) -> None:
    with pytest.raises(RuleError) as refused:
        seat_match_day(line_ups, series=3)
    assert [error.field for error in refused.value.errors] == fields
    assert words in str(refused.value)


line_up_sizes = st.one_of(
    st.lists(st.sampled_from([3, 4]), min_size=3, max_size=4),
    st.just([4, 4]),
)


@given(line_up_sizes, st.integers(min_value=1, max_value=4), st.one_of(st.none(), st.text(max_size=5)))
def test_every_series_seats_every_player_once_at_tables_of_three_and_four(
    sizes: list[int], series: int, seed: str | None
) -> None:
    teams = [_team(name, size) for name, size in zip("ABCD", sizes, strict=False)]
    plan = seat_match_day(teams, series=series, seed=seed)
    everybody = sorted(player for team in teams for player in team.players)
    assert len(plan) == series
    for tables in plan:
        assert sorted(seat.player for table in tables for seat in table) == everybody
        assert {len(table) for table in tables} <= {3, 4}


@given(line_up_sizes, st.integers(min_value=1, max_value=4), st.one_of(st.none(), st.text(max_size=5)))
def test_no_two_players_of_a_team_share_a_table_when_a_layout_without_that_exists(
    sizes: list[int], series: int, seed: str | None
) -> None:
    players = sum(sizes)
    # Apart means one player of a team per table: at least as many tables as the largest team, each of 3 or 4.
    apart = any(3 * tables <= players <= 4 * tables for tables in range(max(sizes), players + 1))
    plan = seat_match_day([_team(name, size) for name, size in zip("ABCD", sizes, strict=False)], series=series)
    together = any(len(set(_teams_at(table))) < len(table) for tables in plan for table in tables)
    assert together != apart


# The report: series 1 seated 4-4-4-3 (Herz Dame I short), series 2 4-4-4-4 with Sabine come in; the fixed plan of
# series 2 seated Ewa with Jürgen again at table 3 and Horst with Emre again at table 4.
REPORTED_SEED = "Spieltag 3778"
REPORTED_SERIES_1 = [
    LineUp("Herz Dame I", ("Anke", "Ewa", "Horst")),
    LineUp("Kreuz Bube I", ("Bernd", "Karl", "Wilfried", "Emre")),
    LineUp("Pik As I", ("Yusuf", "Gerda", "Olaf", "Petra")),
    LineUp("Karo Sieben I", ("Dieter", "Jürgen", "Uwe", "Inge")),
]
REPORTED_SERIES_2 = [LineUp("Herz Dame I", ("Anke", "Ewa", "Horst", "Sabine")), *REPORTED_SERIES_1[1:]]


def _names(tables: SeriesTables) -> list[list[str]]:
    return [[seat.player for seat in table] for table in tables]


def _together_again(tables: SeriesTables, before: list[list[list[str]]]) -> list[tuple[str, str]]:
    met = {frozenset(pair) for series in before for table in series for pair in combinations(table, 2)}
    return [
        (one.player, other.player)
        for table in tables
        for one, other in combinations(table, 2)
        if frozenset((one.player, other.player)) in met
    ]


def test_a_series_after_a_short_one_seats_nobody_together_again_who_sat_together_before() -> None:
    first = seat_series(REPORTED_SERIES_1, number=1, seed=REPORTED_SEED)
    assert _names(first) == [
        ["Bernd", "Gerda", "Inge"],
        ["Anke", "Karl", "Petra", "Dieter"],
        ["Ewa", "Wilfried", "Olaf", "Jürgen"],
        ["Horst", "Emre", "Yusuf", "Uwe"],
    ]
    before = [_names(first)]
    planned = seat_match_day(REPORTED_SERIES_2, series=2, seed=REPORTED_SEED)[1]
    assert _together_again(planned, before) == [("Ewa", "Jürgen"), ("Horst", "Emre")]
    second = seat_series(REPORTED_SERIES_2, number=2, before=before, seed=REPORTED_SEED)
    assert _names(second) == [
        ["Anke", "Bernd", "Yusuf", "Jürgen"],
        ["Ewa", "Karl", "Gerda", "Uwe"],
        ["Horst", "Wilfried", "Petra", "Inge"],
        ["Sabine", "Emre", "Olaf", "Dieter"],
    ]
    assert _together_again(second, before) == []
    assert all(_teams_at(table) == ["Herz Dame I", "Kreuz Bube I", "Pik As I", "Karo Sieben I"] for table in second)
    assert seat_series(REPORTED_SERIES_2, number=2, before=before, seed=REPORTED_SEED) == second


@pytest.mark.parametrize("seed", [None, "match day 3"])
def test_series_of_unchanged_line_ups_of_four_are_seated_as_the_fixed_plan(seed: str | None) -> None:
    teams = [_team(name, 4) for name in "ABCD"]
    plan = seat_match_day(teams, series=4, seed=seed)
    before: list[list[list[str]]] = []
    for number in range(1, 5):
        tables = seat_series(teams, number=number, before=before, seed=seed)
        assert tables == plan[number - 1]
        before.append(_names(tables))


def test_four_teams_of_three_sit_three_pairs_together_again_in_series_2_as_every_seating_does() -> None:
    # The four who sat at a table of series 1 have three tables to go to in series 2: two of them sit together
    # again, for each of the three tables of series 1.
    teams = [_team(name, 3) for name in "ABCD"]
    first = seat_series(teams, number=1)
    second = seat_series(teams, number=2, before=[_names(first)])
    assert len(_together_again(second, [_names(first)])) == 3
    assert _fewest_together_again_possible(teams, [_names(first)], team_mates=0, below=3) == 3


def _team_mates(table: tuple[Seat, ...]) -> int:
    return sum(one.team == other.team for one, other in combinations(table, 2))


def _table_sizes_of_the_rules(line_ups: list[LineUp]) -> list[int]:
    """The tables DSkV Anlage 10 lays out: one player of each team at each of as few tables of three and four as
    the largest team needs, where the teams can sit apart; else as many tables of four as can be."""
    players = sum(len(one.players) for one in line_ups)
    largest = max(len(one.players) for one in line_ups)
    if players >= 3 * largest:
        return sorted([4] * (players - 3 * largest) + [3] * (4 * largest - players))
    return sorted(table_sizes(players))


def _fewest_together_again_possible(
    line_ups: list[LineUp], before: list[list[list[str]]], *, team_mates: int, below: int
) -> int:
    """The fewest pairs that sat together ``before`` which a seating of ``line_ups`` at the rules' tables seats
    together again, with at most ``team_mates`` pairs of one team at a table; ``below`` if none seats fewer. Every
    way to split the players into tables is tried (each player joins a table begun before, or begins the next),
    a split given up once it seats ``below`` such pairs, or too many team-mates, together."""
    met = {frozenset(pair) for series in before for table in series for pair in combinations(table, 2)}
    players = [(player, one.team) for one in line_ups for player in one.players]
    sizes = _table_sizes_of_the_rules(line_ups)
    tables: list[list[tuple[str, str]]] = []
    fewest = below

    def split(index: int, again: int, mates: int) -> None:
        nonlocal fewest
        if again >= fewest or mates > team_mates or sum(len(table) == 4 for table in tables) > sizes.count(4):
            return
        if index == len(players):
            if sorted(len(table) for table in tables) == sizes:
                fewest = again
            return
        player, team = players[index]
        for table in tables:
            if len(table) < 4:
                more = sum(frozenset((player, other)) in met for other, _ in table)
                mates_more = sum(other_team == team for _, other_team in table)
                table.append((player, team))
                split(index + 1, again + more, mates + mates_more)
                table.pop()
        if len(tables) < len(sizes):
            tables.append([(player, team)])
            split(index + 1, again, mates)
            tables.pop()

    split(0, 0, 0)
    return fewest


@st.composite
def venue_days(draw: st.DrawFn) -> tuple[list[list[LineUp]], str | None]:
    """A venue's series: each team (two to four) has a pool of four to six players, and checks in three or four of
    them for each series in any order, or none (a team that comes late, or leaves); a seed or none."""
    teams = draw(st.sampled_from(["ABCD", "ABCD", "ABC", "AB"]))
    pools = {team: [f"{team}{number}" for number in range(1, draw(st.integers(4, 6)) + 1)] for team in teams}
    days = []
    for _ in range(draw(st.integers(2, 4))):
        present = [team for team in teams if draw(st.integers(0, 7))] if len(teams) > 2 else list(teams)
        if len(present) < 3:
            present = list(teams)
        size = st.just(4) if len(present) == 2 else st.sampled_from([4, 4, 3])
        days.append([LineUp(team, tuple(draw(st.permutations(pools[team]))[: draw(size)])) for team in present])
    return days, draw(st.one_of(st.none(), st.text(max_size=5)))


@settings(max_examples=200)
@given(venue_days())
def test_each_series_seats_as_few_together_again_as_any_seating_can_and_team_mates_apart_where_they_can_be(
    day: tuple[list[list[LineUp]], str | None],
) -> None:
    series, seed = day
    before: list[list[list[str]]] = []
    for number, line_ups in enumerate(series, start=1):
        tables = seat_series(line_ups, number=number, before=before, seed=seed)
        assert sorted(seat.player for table in tables for seat in table) == sorted(
            player for one in line_ups for player in one.players
        )
        assert sorted(len(table) for table in tables) == _table_sizes_of_the_rules(line_ups)
        players = sum(len(one.players) for one in line_ups)
        apart = players >= 3 * max(len(one.players) for one in line_ups)
        planned = seat_match_day(line_ups, series=number, seed=seed)[number - 1]
        team_mates = 0 if apart else sum(_team_mates(table) for table in planned)
        assert sum(_team_mates(table) for table in tables) <= team_mates
        again = len(_together_again(tables, before))
        if again:
            assert _fewest_together_again_possible(line_ups, before, team_mates=team_mates, below=again) == again
        assert seat_series(line_ups, number=number, before=before, seed=seed) == tables
        before.append(_names(tables))


# --- Who may play -----------------------------------------------------------------------------------------------------

ROSTERS = [
    Roster("Kreuz Bube I", "Kreuz Bube", frozenset({"Anna", "Ben", "Cleo", "Dora"}), frozenset({"Emil"})),
    Roster("Kreuz Bube II", "Kreuz Bube", frozenset({"Fred", "Gus", "Hans", "Ida"}), frozenset({"Anna"})),
    Roster("Pik As", "Pik As", frozenset({"Jan", "Kai", "Lea", "Max"})),
]


def test_check_ins_of_the_roster_and_the_substitution_list_stand() -> None:
    check_ins = [CheckIn("Anna", "Kreuz Bube I"), CheckIn("Emil", "Kreuz Bube I"), CheckIn("Jan", "Pik As")]
    assert refused_check_ins(check_ins, ROSTERS) == []
    assert refused_check_ins([CheckIn("Anna", "Kreuz Bube II")], ROSTERS) == []


def test_check_ins_that_break_the_league_rules_are_refused_each_saying_why() -> None:
    check_ins = [
        CheckIn("Anna", "Kreuz Bube I"),
        CheckIn("Anna", "Kreuz Bube II"),
        CheckIn("Jan", "Kreuz Bube II"),
        CheckIn("Otto", "Pik As"),
        CheckIn("Kai", "Herz Dame"),
        CheckIn("Emil", "Kreuz Bube I"),
        CheckIn("Emil", "Kreuz Bube I"),
    ]
    refused = {error.field: str(error.message) for error in refused_check_ins(check_ins, ROSTERS)}
    assert refused == {
        "check_ins.1": "Anna plays for Kreuz Bube I today: a player plays for one team a match day.",
        "check_ins.2": "Jan is on the roster of Pik As (Pik As): a player plays for one club in a league.",
        "check_ins.3": "Otto is neither in the line-up nor on the substitution list of Pik As.",
        "check_ins.4": "Herz Dame is not a team of this league.",
        "check_ins.6": "Emil is checked in for Kreuz Bube I twice.",
    }


def test_the_match_days_module_imports_without_django() -> None:
    code = (
        "import sys\n"
        "import matches.engine.match_days\n"
        "print(','.join(sorted(name for name in sys.modules if name.split('.')[0] in {'django', 'rest_framework'})))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env={"PATH": ""}
    )
    assert done.stdout.strip() == ""
