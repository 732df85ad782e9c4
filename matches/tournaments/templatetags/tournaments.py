"""How the tournament pages write money and results: euros in the reader's language, a real minus sign."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

from matches.labels import standing_label

register = template.Library()

MINUS = "\N{MINUS SIGN}"


@register.filter
def euros(cents: int) -> str:
    """Cents as the reader writes euros: ``12.50 €``, in German ``12,50 €``."""
    return f"{number_format(cents / 100, 2)} €".replace("-", MINUS)


@register.filter
def points(value: Fraction) -> str:
    """A ranking's score as a table of results writes it (a real minus sign)."""
    return standing_label(value)
