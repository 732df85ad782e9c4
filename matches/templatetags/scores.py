"""Numbers and engine messages as a score sheet writes them: a real minus sign, a plus for gains, the reader's deck."""

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django import forms, template
from django.forms import BoundField
from django.forms.utils import flatatt
from django.template import Context
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from ..addresses import address
from ..engine import Message
from ..labels import (
    FooterRow,
    amount_label,
    bock_label,
    contract_label,
    footer_rows,
    places,
    render_step,
    result_label,
    standing_label,
    standings_text,
    total_label,
)
from ..labels import euros as euros_label
from ..models import Deck
from ..papers import PaperList
from ..selectors import SheetRow

register = template.Library()

NOTHING = mark_safe("")


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
def euros(cents: int) -> str:
    """Cents as the reader writes euros: ``12.50 €``, in German ``12,50 €``, a real minus sign, the sign never on
    a line of its own."""
    return euros_label(cents, unbroken=True)


@register.filter
def amount(cents: int) -> str:
    """Cents as a column headed in euros writes them: ``12.50``, in German ``12,50``, a real minus sign."""
    return amount_label(cents)


@register.filter
def average(value: Fraction) -> str:
    """−13.3 (or −13,3 in German), −26: a whole number as it is, any other to one decimal, a real minus sign."""
    return standing_label(value)


@register.filter
def bock(rounds: int) -> str:
    """ "Bock ×2", "Bock ×4": a game's Bock as the factor its value is multiplied by."""
    return bock_label(rounds)


@register.filter
def contract(value: str | None, deck: str) -> str:
    """ "♣ Clubs" or "Acorns", "Grand", …, in the reader's deck; nothing for a passed deal."""
    return contract_label(value, deck)


def row_headline(row: SheetRow, names: list[str], kontra: Message, deck: str) -> str:
    """How a game reads in the list after its declarer and contract: "won Schneider · hand · Kontra" (``kontra``:
    the variant's word), "Ben lost"."""
    game = row.game.deal().game
    if game is None:
        return ""
    return result_label(
        game,
        won=row.won,
        scores=row.scores,
        names=names,
        breakdown=row.breakdown,
        kontra=kontra,
        sitting_out=row.seating.sitting_out,
        deck=deck,
    )


# A game's id standing in its links until each row puts its own in: reversing two addresses for every row of a
# fifty-row sheet cost more than the rest of the row.
GAME_SLOT = uuid.UUID("00000000-0000-4000-8000-00000000600d")
GAME_SLOT_TEXT = str(GAME_SLOT)


@dataclass(frozen=True)
class _RowParts:
    """What every row of one sheet shares: its links with ``GAME_SLOT`` for the game, its words in the reader's
    language, and its variant's word for Kontra."""

    edit: str
    delete: str
    fix: str
    remove: str
    passed: str
    unscorable: str
    kontra: Message


def filled(sentence: str, **values: str | int) -> SafeString:
    """A translated sentence with its values put in, each escaped as ``{% blocktranslate %}`` escapes them; the
    sentence is escaped too (that tag trusts it as template text; here it is text, not markup)."""
    return mark_safe(
        conditional_escape(sentence) % {name: conditional_escape(str(value)) for name, value in values.items()}
    )


def joined(separator: str, parts: Iterable[str]) -> SafeString:
    """``parts`` with ``separator`` between them, each escaped unless it is already safe HTML."""
    return mark_safe(conditional_escape(separator).join(conditional_escape(part) for part in parts))


@register.simple_tag(takes_context=True)
def sheet_row(context: Context, row: SheetRow) -> SafeString:
    """One line of the score sheet, written out rather than through a template of its own: a page of fifty rows and
    every save's answer draw it. The game, who declared what and its value with the result's words, its Bock and
    whether it can be scored, who dealt, the steps of its value, its links to fix and delete it (for a scorer, on a
    sheet that is not read only), and each seat's running total with what the game gave it. Every value goes through
    ``format_html``, escaped."""
    deck = str(context.get("deck") or Deck.FRENCH)
    parts = _row_parts(context)
    game = row.game
    if game.passed:
        summary = [parts.passed]
    else:
        words = row_headline(row, context["sheet"].names, parts.kontra, deck)
        summary = [
            format_html("{} · ", row.declarer_name) if row.declarer_name else NOTHING,
            contract_label(game.contract, deck),
            format_html(" · {}", row.value) if row.value else NOTHING,
        ]
        if words:
            summary.append(format_html('<span class="words"> · {}</span>', words))
    if row.bock:
        summary.append(format_html('<span class="badge">{}</span>', bock_label(row.bock)))
    if not row.scorable:
        summary.append(format_html('<span class="badge warn">{}</span>', parts.unscorable))
    steps = format_html_join("", "<li>{}</li>", ((render_step(message, deck),) for message in row.breakdown))
    links = NOTHING
    access = context.get("access")
    if not context.get("readonly") and access is not None and access.can_score:
        game_id = str(game.public_id)
        links = format_html(
            '<p class="row-links"><a href="{}">{}</a> <a href="{}">{}</a></p>',
            parts.edit.replace(GAME_SLOT_TEXT, game_id),
            parts.fix,
            parts.delete.replace(GAME_SLOT_TEXT, game_id),
            parts.remove,
        )
    cells = joined("", (_cell(points, total) for points, total in row.cells))
    classes = " ".join(name for name, on in (("bock-row", row.bock), ("lost", row.won is False)) if on)
    return format_html(
        '<tr id="game-{}"{}><td>{}</td><td class="game"><details><summary>{}</summary><p class="dealt">{}</p>'
        "{}{}</details></td>{}</tr>",
        game.public_id,
        format_html(' class="{}"', classes) if classes else NOTHING,
        row.number,
        joined("", summary),
        filled(gettext("dealt by %(dealer)s"), dealer=row.dealer_name),
        format_html('<ol class="steps">{}</ol>', steps) if steps else NOTHING,
        links,
        cells,
    )


def _cell(points: int, total: int) -> SafeString:
    """A seat's running total, with what the game gave it (if anything)."""
    gained = format_html("<small>{}</small>", signed(points)) if points else NOTHING
    return format_html('<td class="num"><span class="running">{}</span>{}</td>', total_label(total), gained)


def _row_parts(context: Context) -> _RowParts:
    """What the rows of the sheet being drawn share, made for its first row."""
    kept = context.render_context.get("sheet_row_parts")
    if not isinstance(kept, _RowParts):
        match = context["match"]
        match_id = match.public_id
        kept = _RowParts(
            edit=address("game_edit", match_id, GAME_SLOT),
            delete=address("game_delete", match_id, GAME_SLOT),
            fix=gettext("Fix"),
            remove=gettext("Delete"),
            passed=gettext("all passed"),
            unscorable=gettext("not scorable"),
            kontra=match.setup().spec.kontra,
        )
        context.render_context["sheet_row_parts"] = kept
    return kept


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


@register.simple_tag
def record_name(name: str, records: Mapping[Any, uuid.UUID] | None, player: Any) -> str:
    """``name``, linked to the person's record where ``records`` (``records.record_links``, by the players' ids or
    public ids) has the player's."""
    found = records.get(player) if records and player is not None else None
    if found is None:
        return conditional_escape(name)
    return format_html('<a href="{}">{}</a>', reverse("person_detail", args=[found]), name)
