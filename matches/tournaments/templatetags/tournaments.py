"""How the tournament pages write money and results: euros in the reader's language, a real minus sign."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

from matches.labels import NO_BREAK_SPACE, rounded

register = template.Library()


@register.filter
def percent(basis_points: int) -> str:
    """A share in basis points as the reader writes a percentage: ``12.5 %``, in German ``12,5 %``, a no-break
    space before the sign (as the euros filter has before the €)."""
    whole, rest = divmod(basis_points, 100)
    places = 2 if rest % 10 else 1
    shown = str(whole) if not rest else number_format(rounded(Fraction(basis_points, 100), places), places)
    return f"{shown}{NO_BREAK_SPACE}%"
