"""How a figure that is not a whole number is shown and written: rounded (a half away from zero) in one place, the same
on the pages, in the files and in the API, with a real minus sign, and with decimal commas in the German CSV."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from matches.exports.base import Cell, Exporter, csv_chunks
from matches.labels import amount_label, euros, figure_cell, rounded, standing_label

MINUS = "\N{MINUS SIGN}"
NO_BREAK = "\N{NO-BREAK SPACE}"


@pytest.mark.parametrize(
    ("value", "places", "shown"),
    [
        (Fraction(2705, 3), 2, "901.67"),
        (Fraction(2705, 3), 1, "901.7"),
        (Fraction(2519, 3), 1, "839.7"),
        (Fraction(1, 4), 1, "0.3"),
        (Fraction(-1, 4), 1, "-0.3"),
        (Fraction(1, 8), 2, "0.13"),
        (Fraction(-1, 8), 2, "-0.13"),
        (Fraction(-1, 30), 1, "0.0"),
        (Fraction(263, 100), 2, "2.63"),
        (12, 2, "12.00"),
    ],
)
def test_a_figure_is_rounded_a_half_away_from_zero(value: Fraction, places: int, shown: str) -> None:
    assert str(rounded(value, places)) == shown


@given(
    st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=1000),
    st.integers(min_value=0, max_value=3),
)
def test_a_rounded_figure_is_the_nearest_at_its_places_and_the_same_either_side_of_zero(
    value: Fraction, places: int
) -> None:
    shown = rounded(value, places)
    unit = Fraction(1, 10**places)
    assert abs(Fraction(shown) - value) <= unit / 2
    assert shown.as_tuple().exponent == -places
    assert rounded(-value, places) == -shown


def test_a_reader_sees_an_average_rounded_and_a_whole_one_whole_with_a_real_minus_sign() -> None:
    assert standing_label(Fraction(2705, 3)) == "901.7"
    assert standing_label(Fraction(-26)) == f"{MINUS}26"
    assert standing_label(Fraction(-53, 2)) == f"{MINUS}26.5"
    with translation.override("de"):
        assert standing_label(Fraction(2705, 3)) == "901,7"
        assert euros(-1550) == f"{MINUS}15,50 €"
    assert amount_label(150005) == "1,500.05"


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", ["0.00", "999.50", "1,000.00", "10,000.00", "1,000,000.00", f"{MINUS}1,500.05"]),
        ("de", ["0,00", "999,50", "1.000,00", "10.000,00", "1.000.000,00", f"{MINUS}1.500,05"]),
    ],
)
def test_a_reader_sees_an_amount_with_its_thousands_grouped_as_their_language_groups_them(
    language: str, shown: list[str]
) -> None:
    cents = [0, 99950, 100000, 1000000, 100000000, -150005]
    with translation.override(language):
        assert [amount_label(amount) for amount in cents] == shown
        assert [euros(amount, unbroken=True) for amount in cents] == [f"{figure}{NO_BREAK}€" for figure in shown]
        assert [euros(amount) for amount in cents] == [f"{figure} €" for figure in shown]


def test_a_program_reads_a_figure_whole_or_to_two_places() -> None:
    assert figure_cell(Fraction(2705, 3)) == 901.67
    assert figure_cell(Fraction(1, 8)) == 0.13
    assert figure_cell(Fraction(-26)) == -26
    assert isinstance(figure_cell(Fraction(4, 2)), int)


class Figures(Exporter):
    sheet = "Figures"
    filename = "figures"

    def headers(self) -> list[str]:
        return ["Name", "Average", "Points"]

    def rows(self) -> Iterator[Sequence[Cell]]:
        return iter([["Anna", 131.5, 12], ["Ben", figure_cell(Fraction(-2705, 3)), -3]])


def test_the_semicolon_csv_writes_decimal_commas_and_the_comma_csv_decimal_points() -> None:
    semicolon = "".join(csv_chunks(Figures(), ";")).splitlines()
    assert semicolon[1:] == ["Anna;131,5;12", "Ben;-901,67;-3"]
    comma = "".join(csv_chunks(Figures(), ",")).splitlines()
    assert comma[1:] == ["Anna,131.5,12", "Ben,-901.67,-3"]


def test_the_exact_figure_survives_in_decimal() -> None:
    assert rounded(Fraction(10**20 + 1, 10), 1) == Decimal("10000000000000000000.1")
