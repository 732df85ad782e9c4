"""Numbers and engine messages as a score sheet writes them: a real minus sign, a plus for gains, the reader's deck."""

from typing import Any

from django import forms, template
from django.forms import BoundField
from django.forms.utils import flatatt
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from ..engine import Message
from ..labels import (
    FooterRow,
    bock_label,
    contract_label,
    footer_rows,
    places,
    render_step,
    result_label,
    standings_text,
    total_label,
)
from ..registry import PaperList
from ..selectors import SheetRow

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
    return total_label(value)


@register.filter
def average(value: float) -> str:
    """−13.3 (or −13,3 in German): one decimal, a real minus sign."""
    return number_format(value, 1).replace("-", "\N{MINUS SIGN}")


@register.filter
def bock(rounds: int) -> str:
    """ "Bock ×2", "Bock ×4": a game's Bock as the factor its value is multiplied by."""
    return bock_label(rounds)


@register.filter
def contract(value: str | None, deck: str) -> str:
    """ "♣ Clubs" or "Acorns", "Grand", …, in the reader's deck; nothing for a passed deal."""
    return contract_label(value, deck)


@register.simple_tag
def row_headline(row: SheetRow, names: list[str], deck: str) -> str:
    """How a game reads in the list after its declarer and contract: "won Schneider · hand · Kontra", "Ben lost"."""
    game = row.game.deal().game
    if game is None:
        return ""
    return result_label(game, won=row.won, scores=row.scores, names=names, breakdown=row.breakdown, deck=deck)


@register.simple_tag
def match_share_text(title: str, standings: list[tuple[Any, int]]) -> str:
    """The match's standings as a short text, best first (equal totals share a place)."""
    ranked = places([total for _, total in standings])
    rows = [(place, standings[seat][0].player.name, total_label(standings[seat][1])) for place, seat in ranked]
    return standings_text(title, rows)


@register.simple_tag
def paper_footer(paper: PaperList) -> list[FooterRow]:
    """The footer a list kept on paper was entered with, line by line as the paper has it."""
    return footer_rows(paper.lines, seeger_fabian=paper.seeger_fabian, players=len(paper.lines))


@register.filter
def step(message: Message, deck: str) -> str:
    """A message of the engine (a breakdown step) in the reader's language and deck."""
    return render_step(message, deck)


FAST_INPUTS = (forms.NumberInput, forms.HiddenInput, forms.TextInput, forms.CheckboxInput)


@register.simple_tag
def field_block(field: BoundField, extra_class: str = "") -> SafeString:
    """One form field with its label, help and errors, as big touch targets (radio and checkbox choices as buttons).

    Written out directly rather than through a widget template per input: the game form has dozens of inputs, and
    rendering each through its own template was most of what answering a save cost."""
    widget = field.field.widget
    classes = " ".join(part for part in ("field", "invalid" if field.errors else "", extra_class) if part)
    help_text = format_html('<p class="help">{}</p>', field.help_text) if field.help_text else ""
    errors = format_html_join(
        "", '<p class="error" role="alert" id="{}_error">{}</p>', ((field.auto_id, error) for error in field.errors)
    )
    if isinstance(widget, forms.CheckboxInput):
        body = format_html('<label class="toggle">{} <span>{}</span></label>', _input(field), field.label)
    elif isinstance(widget, forms.RadioSelect | forms.CheckboxSelectMultiple):
        body = format_html(
            '<fieldset class="choices"><legend>{}</legend>{}</fieldset>', field.label, choice_buttons(field)
        )
    else:
        body = format_html('<label for="{}">{}</label>\n{}', field.id_for_label, field.label, _input(field))
    return format_html('<div class="{}">{}{}{}</div>', classes, body, help_text, errors)


def _input(field: BoundField) -> SafeString:
    """A single input as Django's widget would write it (its attributes, required, aria-invalid, the value)."""
    widget = field.field.widget
    if not isinstance(widget, FAST_INPUTS):
        return mark_safe(str(field))
    attrs = widget.build_attrs(widget.attrs, field.build_widget_attrs({"id": field.auto_id}, widget))
    value = field.value()
    if isinstance(widget, forms.CheckboxInput):
        attrs["checked"] = widget.check_test(value)
        value = None
    else:
        value = widget.format_value(value)
    shown = format_html(' value="{}"', value) if value is not None else ""
    return format_html('<input type="{}" name="{}"{}{}>', widget.input_type, field.html_name, shown, flatatt(attrs))


def choice_buttons(field: BoundField) -> SafeString:
    """The options of a radio or checkbox field as buttons."""
    widget = field.field.widget
    value = field.value()
    if value is None:
        chosen: set[str] = set()
    elif isinstance(value, list | tuple):
        chosen = {str(item) for item in value}
    else:
        chosen = {str(value)}
    required = field.field.required and widget.use_required_attribute(field.initial)
    invalid = bool(field.errors)
    return format_html_join(
        "",
        '<label class="choice"><input type="{}" name="{}" value="{}" id="{}_{}"{}{}{}><span>{}</span></label>',
        (
            (
                widget.input_type,
                field.html_name,
                option,
                field.auto_id,
                index,
                mark_safe(" checked") if str(option) in chosen else "",
                mark_safe(" required") if required else "",
                mark_safe(' aria-invalid="true"') if invalid else "",
                label,
            )
            for index, (option, label) in enumerate(widget.choices)
        ),
    )
