"""Numbers and engine messages as a score sheet writes them: a real minus sign, a plus for gains, the reader's deck."""

from django import template
from django.utils.formats import number_format

from ..engine import Message
from ..labels import contract_label, render_step

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


@register.filter
def contract(value: str | None, deck: str) -> str:
    """ "♣ Clubs" or "Acorns", "Grand", …, in the reader's deck; nothing for a passed deal."""
    return contract_label(value, deck)


@register.filter
def step(message: Message, deck: str) -> str:
    """A message of the engine (a breakdown step) in the reader's language and deck."""
    return render_step(message, deck)
