"""Numbers as a score sheet writes them: a real minus sign, and a plus for gains."""

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def signed(value: int) -> str:
    """+36, −96, 0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\N{MINUS SIGN}{-value}"
    return "0"


@register.filter
def score(value: int) -> str:
    """36, −96, 0: a total, with a real minus sign."""
    return f"\N{MINUS SIGN}{-value}" if value < 0 else str(value)


@register.filter
def average(value: float) -> str:
    """−13.3 (or −13,3 in German): one decimal, a real minus sign."""
    return number_format(value, 1).replace("-", "\N{MINUS SIGN}")
