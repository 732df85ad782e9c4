"""Entering a game.

The game form is built from the engine's list of the fields a table accepts (``EntryShape``): one rule per kind of
field turns it into form fields, reads the cleaned data back into an entry, fills the form from a stored entry, and
puts each refusal next to its field. Nothing here knows a particular field.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.http import QueryDict
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ..engine import Contract, DealEntry, EntryField, EntryShape, Kind, RuleError, game_to_data
from ..engine.cards import BASE_VALUES, CARD_POINTS_TOTAL
from ..engine.entry import BY_VALUE, FIELDS_BY_NAME
from ..engine.values import game_values
from ..field_cache import SharedFields
from ..labels import CONTRACT_NAMES, SUIT_SYMBOLS, contract_label, render_step
from ..models import Deck
from ..numbers import whole_number
from ..refusals import refusal_on_form
from ..services import Submission
from .fields import WholeNumberField


def _release() -> str:
    """A digest of what the fields' HTML is made from (this module and the templates that draw them): the HTML is
    kept in the cache between requests, and a new release must not meet the HTML an earlier one kept."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for name in ("_fields.html", "_field.html"):
        digest.update((settings.BASE_DIR / "templates" / "matches" / "partials" / name).read_bytes())
    return digest.hexdigest()[:12]


RELEASE = _release()

MORE_WITH, MORE_WITHOUT = "+", "-"  # the matadors chips for more than CHIPS, counted in a number field
CHIPS = 4
YES, NO = "yes", "no"
BY_VALUE_MODE, FULL_MODE = "value", "full"  # how a game is entered where the table offers both
# The fields a game entered by its value shares with the full entry; the rest are the full entry's alone.
SHARED_WITH_VALUE = frozenset({"declarer", "kontra", "re"})


@dataclass(frozen=True)
class Placed:
    """One entry field as the form shows it: its form fields, and the contracts it is shown for (as CSS classes)."""

    entry: EntryField
    names: tuple[str, ...]
    classes: str

    @property
    def section(self) -> str:
        """Where the field goes on the page: the main choices, the toggles, the rarer fields, the Ramsch."""
        if self.entry.name.startswith("ramsch."):
            return "ramsch"
        if self.entry.name in RARE or self.entry.kind is Kind.CHOICE:
            return "more"
        return "toggles" if self.entry.kind is Kind.FLAG else "main"

    @property
    def columns(self) -> int:
        """How many matadors chips make a row: with (or without) 1 to 4, and "more" where there can be more."""
        top = self.entry.maximum or CHIPS
        return min(CHIPS, top) + (1 if top > CHIPS else 0)

    @property
    def error_field(self) -> str:
        """The form field that shows the field's refusals: the matadors' chips, the first seat's points."""
        return self.names[0]


RARE = frozenset({"bid"})
PER_FORM = frozenset({"token", "number", "version"})  # hidden, and different in every form


def form_names(entry: EntryField, seats: Sequence[int]) -> tuple[str, ...]:
    """The form fields of one entry field: ``ramsch.pushes`` is ``pushes``; matadors are chips and a count for more
    than the chips hold; card points per seat are one field per seat."""
    short = entry.name.removeprefix("ramsch.")
    if entry.kind is Kind.MATADORS:
        return (short, f"{short}_count")
    if entry.kind is Kind.POINTS_PER_SEAT:
        return tuple(f"ramsch_{seat}" for seat in seats)
    return (short,)


def _visibility(entry: EntryField, offered: Sequence[Contract]) -> str:
    """CSS classes that show a field only for the contracts it belongs to (the form works without script)."""
    if entry.contracts is None:
        return ""
    classes = []
    for contract in (Contract.RAMSCH, Contract.NULL):
        if contract not in offered:
            continue
        if entry.contracts == {contract}:
            classes.append(f"only-{contract.value}")
        elif contract not in entry.contracts:
            classes.append(f"not-{contract.value}")
    return " ".join(classes)


# A table enters game after game with the same fields: each form takes copies of the ones built for its key.
ENTRY_FIELDS: SharedFields[tuple[Placed, ...]] = SharedFields(size=256)


def entry_key(shape: EntryShape, seats: Sequence[str], deck: str) -> str:
    """What a table's entry fields are built from: the forms of one key share them."""
    return repr((shape.key, list(seats), deck, get_language()))


def starting_values(fields: Mapping[str, forms.Field], initial: Mapping[str, Any]) -> str:
    """The values the ``fields`` of an unposted form start with, as JSON (see ``GameForm.starting_values``)."""
    values = {
        name: str(initial.get(name, field.initial))
        for name, field in fields.items()
        if name not in PER_FORM and initial.get(name, field.initial) not in (None, "", False)
    }
    return json.dumps(values)


def preselected_hint(preselected: str) -> str:
    """What the live result says before anything is chosen: that the contract ``preselected`` was, if any."""
    if preselected:
        return _("%(contract)s as last game; the score shows here.") % {"contract": preselected}
    return str(_("The score shows here."))


@dataclass(frozen=True)
class NextEntry:
    """The next deal's entry for a phone that keeps its fields after a save (the deal takes the same ones): a token
    of its own, the values the fields start with and the hint under them. Read from the table's shared fields, with
    no form of its own: a save's answer carries no form."""

    token: uuid.UUID
    starting_values: str
    preselected_hint: str

    @classmethod
    def of(cls, *, shape: EntryShape, seats: list[str], deck: str, initial: dict[str, Any]) -> NextEntry:
        fields = ENTRY_FIELDS.look(entry_key(shape, seats, deck))
        if fields is None:
            form = GameForm(shape=shape, seats=seats, deck=deck, initial=initial)
            return cls(form.fields["token"].initial, form.starting_values, form.preselected_hint)
        chosen = initial.get("contract")
        preselected = contract_label(chosen, deck) if chosen else ""
        return cls(uuid.uuid4(), starting_values(fields, initial), preselected_hint(preselected))


class GameForm(forms.Form):
    """One game, with exactly the fields the variant and its rules accept. Works as a plain form post.

    The form checks only what a field can hold; the rules are the engine's, asked by the services. ``number`` is the
    deal the form was made for and ``version`` the match version it showed.
    """

    def __init__(self, *args: Any, shape: EntryShape, seats: list[str], deck: str = Deck.FRENCH, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.shape = shape
        self.seat_names = seats
        self.deck = deck
        self.shape_key = entry_key(shape, seats, deck)
        fields, placed = ENTRY_FIELDS.take(self.shape_key, self._build)
        self.fields.update(fields)
        self.fields["token"].initial = uuid.uuid4()
        self.placed = list(placed)

    def _build(self) -> tuple[dict[str, forms.Field], tuple[Placed, ...]]:
        """The fields of the entry and where they go, as built for every form of the same ``shape_key``."""
        fields = _per_form_fields()
        placed: list[Placed] = []
        every_seat = tuple(range(len(self.seat_names)))
        for entry in self.shape.fields:
            for name, field in zip(form_names(entry, every_seat), self._fields_for(entry, every_seat), strict=True):
                fields[name] = field
            playing = tuple(int(choice) for choice in entry.choices) if entry.kind is Kind.POINTS_PER_SEAT else ()
            placed.append(Placed(entry, form_names(entry, playing), _visibility(entry, self.shape.contracts)))
        if self.shape.by_value:
            fields.update(self._value_fields())
        return fields, tuple(placed)

    def _value_fields(self) -> dict[str, forms.Field]:
        """The value entry's own fields: which entry (by value or in full), the value, and won or lost."""
        value = FIELDS_BY_NAME["value"]
        return {
            "mode": forms.ChoiceField(
                label=_("Entry"),
                choices=[(BY_VALUE_MODE, _("By value")), (FULL_MODE, _("Full entry"))],
                initial=FULL_MODE,
                required=False,
                widget=forms.RadioSelect,
            ),
            "value": _number(render_step(value.label), None, None),  # the engine says which values a game has
            "value_won": forms.TypedChoiceField(
                label=_("Won or lost"),
                choices=[(YES, _("won")), (NO, _("lost"))],
                coerce=lambda chosen: chosen == YES,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            ),
        }

    def _fields_for(self, entry: EntryField, seats: Sequence[int]) -> Iterator[forms.Field]:
        label = render_step(entry.label)
        kind = entry.kind
        if kind is Kind.CONTRACT:
            choices = [(value, contract_label(value, self.deck)) for value in entry.choices]
            # Where a game may be entered by its value, the contract is asked only of the full entry (``clean``).
            yield forms.ChoiceField(
                label=label,
                choices=choices,
                widget=forms.RadioSelect,
                initial=entry.default,
                required=not self.shape.by_value,
            )
        elif kind is Kind.SEAT:
            empty: list[tuple[Any, Any]] = [] if entry.name == "declarer" else [("", _("nobody"))]
            seat_field = forms.TypedChoiceField(
                label=label,
                coerce=int,
                empty_value=None,
                required=False,
                choices=[*empty, *((seat, self.seat_names[seat]) for seat in seats)],
                widget=forms.RadioSelect,
                initial=entry.default,
            )
            yield _offer(seat_field, empty, entry, self.seat_names)
        elif kind is Kind.MATADORS:
            yield forms.ChoiceField(
                label=label, choices=_matador_chips(entry), widget=forms.RadioSelect, required=False
            )
            yield _number(_("How many"), 1, entry.maximum)
        elif kind is Kind.OUTCOME:
            labels = [render_step(choice) for choice in entry.choice_labels]
            yield forms.ChoiceField(
                label=label,
                choices=list(zip(entry.choices, labels, strict=True)),
                required=False,
                widget=forms.RadioSelect,
            )
        elif kind is Kind.NUMBER:
            optional = entry.name == "declarer_card_points" and self.shape.get("outcome") is not None
            yield _number(
                _("Card points (optional)") if optional else label,
                entry.minimum,
                entry.maximum,
                initial=entry.default,
                big=entry.name != "bid",
            )
        elif kind is Kind.FLAG:
            yield forms.BooleanField(label=label, required=False)
        elif kind is Kind.CHOICE:
            labels = [render_step(choice) for choice in entry.choice_labels]
            yield forms.ChoiceField(
                label=label,
                choices=list(zip(entry.choices, labels, strict=True)),
                required=False,
                widget=forms.RadioSelect,
                initial=entry.default,
            )
        elif kind is Kind.RESULT:
            won, lost = (render_step(choice) for choice in entry.choice_labels)
            yield forms.TypedChoiceField(
                label=label,
                choices=[(YES, won), (NO, lost)],
                coerce=lambda value: value == YES,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            )
        elif kind is Kind.POINTS_PER_SEAT:
            for seat in seats:
                yield _number(self.seat_names[seat], entry.minimum, entry.maximum)
        elif kind is Kind.SEATS:
            seats_field = forms.TypedMultipleChoiceField(
                label=label,
                coerce=int,
                empty_value=None,
                choices=[(seat, self.seat_names[seat]) for seat in seats],
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            yield _offer(seats_field, [], entry, self.seat_names)

    # Layout for the template.

    def section(self, name: str) -> list[tuple[Placed, list[forms.BoundField]]]:
        """The fields of one section, as the entry in use shows them: the value entry only those it shares."""
        by_value = self.by_value
        return [
            (placed, [self[field] for field in placed.names])
            for placed in self.placed
            if placed.section == name and (not by_value or placed.entry.name in SHARED_WITH_VALUE)
        ]

    @property
    def main(self) -> list[tuple[Placed, list[forms.BoundField]]]:
        return self.section("main")

    @property
    def toggles(self) -> list[tuple[Placed, list[forms.BoundField]]]:
        return self.section("toggles")

    @property
    def more(self) -> list[tuple[Placed, list[forms.BoundField]]]:
        return self.section("more")

    @property
    def ramsch(self) -> list[tuple[Placed, list[forms.BoundField]]]:
        return self.section("ramsch")

    @property
    def by_value(self) -> bool:
        """Whether this form takes the game as the value entry: the table offers it and it was chosen."""
        return self.shape.by_value and self._mode() == BY_VALUE_MODE

    @property
    def other_mode(self) -> str | None:
        """The entry a tap at the form's foot switches to, where the table offers both."""
        if not self.shape.by_value:
            return None
        return FULL_MODE if self.by_value else BY_VALUE_MODE

    def _mode(self) -> str:
        if not self.is_bound:
            return str(self.initial.get("mode", FULL_MODE))
        cleaned = getattr(self, "cleaned_data", None)
        return str((self.data if cleaned is None else cleaned).get("mode") or FULL_MODE)

    @property
    def value_games(self) -> str:
        """The games that give each value this table's games can have, for the value picks, in short: a suit or grand
        game's name, base value and its lowest and highest multiplier, a null game's name and value ("♦,9,2,18;…;
        null,23;…"). The script spells out the values from it; the engine checks the value saved."""
        multipliers: dict[Contract, list[int]] = {}
        nulls: list[str] = []
        for value, readings in game_values(self.shape.contracts).items():
            for reading in readings:
                if reading.multiplier is None:
                    nulls.append(f"{render_step(reading.label, self.deck)},{value}")
                else:
                    multipliers.setdefault(reading.contract, []).append(reading.multiplier)
        games = [
            f"{_short_name(contract, self.deck)},{BASE_VALUES[contract]},{min(each)},{max(each)}"
            for contract, each in multipliers.items()
        ]
        return ";".join([*games, *nulls])

    @property
    def more_open(self) -> bool:
        """The rarer fields start open when they hold something or have an error."""
        return any(field.value() or field.errors for _, fields in self.more for field in fields)

    @property
    def card_points(self) -> int:
        """The card points of a deal, for the script that reckons the opponents' and a Ramsch's last player's: every
        variant here is played with 32 cards, which hold 120."""
        return CARD_POINTS_TOTAL

    def opponents_points(self) -> int | None:
        """The card points of a deal minus the declarer's as typed, for the line under the field."""
        if "declarer_card_points" not in self.fields:
            return None
        try:
            points = whole_number(str(self["declarer_card_points"].value()))
        except ValueError:
            return None
        return self.card_points - points if 0 <= points <= self.card_points else None

    @property
    def preselected(self) -> str:
        """The contract an unposted form starts with (the last game's), to say so rather than choose silently."""
        chosen = self.initial.get("contract")
        return "" if self.is_bound or not chosen else contract_label(chosen, self.deck)

    @property
    def starting_values(self) -> str:
        """The values an unposted form starts with (its chips preselected, its numbers filled), as JSON: a phone
        that keeps its fields after a save sets them again from this."""
        return starting_values(self.fields, self.initial)

    @property
    def preselected_hint(self) -> str:
        """What the live result says before anything is chosen: that the contract was preselected, if it was."""
        return preselected_hint(self.preselected)

    @property
    def fresh_key(self) -> str:
        """What the fields of an unposted form look like depends on nothing but this key (so their HTML can be kept
        and reused); a posted form shows what was typed and its errors instead."""
        initial = sorted((name, str(value)) for name, value in self.initial.items() if name not in PER_FORM)
        return repr((RELEASE, self.shape_key, initial))

    def renew(self, *, number: int, version: int) -> None:
        """Keep what was typed, but make the form out anew for deal ``number`` of the match at ``version``, with a
        token of its own: after a refusal because the match moved on, saving again is a new submission."""
        data = QueryDict(mutable=True)
        data.update(self.data)
        data["token"] = str(uuid.uuid4())
        data["number"] = str(number)
        data["version"] = str(version)
        self.data = data

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.by_value:
            return data
        contract = data.get("contract")
        if not contract:
            self.add_error("contract", forms.Field.default_error_messages["required"])
        for placed in self.placed:
            offered = placed.entry.contracts
            if placed.entry.kind is not Kind.MATADORS or (offered is not None and contract not in offered):
                continue
            chips, count = placed.names
            if data.get(chips) in (MORE_WITH, MORE_WITHOUT) and data.get(count) is None:
                self.add_error(count, _("How many?"))
        return data

    # Reading and filling.

    def submission(self) -> Submission:
        """The deal as entered, in the engine's shape; only the fields the chosen contract uses."""
        data = self.cleaned_data
        if self.by_value:
            return self._value_submission()
        contract = data["contract"]
        game: dict[str, Any] = {}
        declarer: int | None = None
        for placed in self.placed:
            entry = placed.entry
            if entry.contracts is not None and contract not in entry.contracts:
                continue
            value = self._read(entry, form_names(entry, ()))
            if entry.name == "declarer":
                declarer = value
            elif value is not None:
                _put(game, entry.name, value)
        return Submission(declarer=declarer, entry=game, number=data.get("number"))

    def _value_submission(self) -> Submission:
        """A game entered by its value: the value and won or lost as typed, Kontra and Re, no contract."""
        data = self.cleaned_data
        game: dict[str, Any] = {"contract": BY_VALUE}
        if data.get("value") is not None:
            game["value"] = data["value"]
        if data.get("value_won") is not None:
            game["won"] = data["value_won"]
        for flag in ("kontra", "re"):
            if data.get(flag):
                game[flag] = True
        return Submission(declarer=data.get("declarer"), entry=game, number=data.get("number"))

    def _read(self, entry: EntryField, names: tuple[str, ...]) -> Any:
        data = self.cleaned_data
        kind = entry.kind
        if kind is Kind.MATADORS:
            chip = data.get(names[0]) or ""
            if chip in (MORE_WITH, MORE_WITHOUT):
                count = data.get(names[1])
                return None if count is None else -count if chip == MORE_WITHOUT else count
            return int(chip) or None if chip else None
        if kind is Kind.POINTS_PER_SEAT:
            return [data.get(f"ramsch_{seat}") or 0 for seat in range(len(self.seat_names))]
        if kind is Kind.FLAG:
            return True if data.get(names[0]) else None
        if kind is Kind.SEATS:
            return data.get(names[0]) or None
        value = data.get(names[0])
        return None if value == "" else value

    def add_rule_errors(self, error: RuleError) -> None:
        """Put each refusal next to its field; what belongs to no field shown goes above the form."""
        by_path = {placed.entry.path: placed.error_field for placed in self.placed}
        if self.by_value:
            by_path |= {"game.value": "value", "game.won": "value_won", "game.contract": "mode"}

        def field_of(path: str) -> str | None:
            if path not in by_path and path.startswith("game.ramsch"):
                return by_path.get("game.ramsch.card_points")
            return by_path.get(path)

        refusal_on_form(self, error, field_of)


def _per_form_fields() -> dict[str, forms.Field]:
    """The hidden fields every game form has, each form with values of its own (``PER_FORM``): built with the entry's
    fields and copied with them, which costs less than a form's deep copy of fields declared on its class."""
    return {
        "token": forms.UUIDField(widget=forms.HiddenInput),
        # The API's bound on a deal's number: no list gets near it.
        "number": WholeNumberField(widget=forms.HiddenInput, required=False, min_value=1, max_value=100_000),
        "version": WholeNumberField(widget=forms.HiddenInput, required=False, min_value=0),
    }


def _matador_chips(entry: EntryField) -> list[tuple[str, Any]]:
    """ "with 1" to "with 4" and "without 1" to "without 4" as chips, "with …" and "without …" for more (counted
    in the number field beside them) where the contract has more, and "none" where none is allowed (Laufende).
    Each chip shows its number; "with" and "without" are in its name for screen readers and lead each row."""
    top = entry.maximum or CHIPS
    chips: list[tuple[str, Any]] = []
    for sign, word, more in ((1, _("with"), MORE_WITH), (-1, _("without"), MORE_WITHOUT)):
        for count in range(1, min(CHIPS, top) + 1):
            chips.append((str(sign * count), format_html('<span class="prefix">{} </span>{}', word, count)))
        if top > CHIPS:
            chips.append((more, format_html('<span class="prefix">{} </span>{}', word, _("more"))))
    if entry.minimum == 0:
        chips.append(("0", _("none")))
    return chips


def _short_name(contract: Contract, deck: str) -> str:
    """A suit or grand, short enough for a chip: "♣" (or "Acorns"), "Grand"."""
    if contract not in SUIT_SYMBOLS:
        return contract_label(contract, deck)
    return SUIT_SYMBOLS[contract] if deck == Deck.FRENCH else str(CONTRACT_NAMES[Deck(deck)][contract])


def _offer(field: forms.ChoiceField, empty: list[tuple[Any, Any]], entry: EntryField, names: list[str]) -> forms.Field:
    """A seat field accepts every seat of the table, so that a form made for an earlier deal still reads (the rules
    then say who may declare); it shows only the seats that play this deal, in seat order, so that each player's
    button stays in its place from game to game."""
    field.widget.choices = [*empty, *((int(seat), names[int(seat)]) for seat in entry.choices)]
    return field


def _number(
    label: Any, minimum: int | None, maximum: int | None, *, initial: Any = None, big: bool = True
) -> forms.Field:
    attrs = {"inputmode": "numeric"}
    if big:
        attrs["pattern"] = "[0-9]*"
    return WholeNumberField(
        label=label,
        min_value=minimum,
        max_value=maximum,
        initial=initial,
        required=False,
        widget=forms.NumberInput(attrs=attrs),
    )


def _put(game: dict[str, Any], path: str, value: Any) -> None:
    if path.startswith("ramsch."):
        game.setdefault("ramsch", {})[path.removeprefix("ramsch.")] = value
    else:
        game[path] = value


def initial_from(deal: DealEntry, shape: EntryShape) -> dict[str, Any]:
    """Form data for a stored deal, to fix it."""
    initial: dict[str, Any] = {"declarer": deal.declarer}
    if deal.game is None:
        return initial
    if deal.game.contract == BY_VALUE:
        return initial | _value_initial(deal.game.value, deal.game.won, kontra=deal.game.kontra, re=deal.game.re)
    data = game_to_data(deal.game)
    for entry in shape.fields:
        value = _value_at(data, entry.name)
        if value is None or entry.name == "declarer":
            continue
        if entry.kind is Kind.MATADORS:
            chips, count = form_names(entry, ())
            if abs(value) <= CHIPS:
                initial[chips] = str(value)
            else:
                initial[chips], initial[count] = MORE_WITH if value > 0 else MORE_WITHOUT, abs(value)
        elif entry.kind is Kind.RESULT:
            initial[entry.name] = YES if value else NO
        elif entry.kind is Kind.POINTS_PER_SEAT:
            initial.update({f"ramsch_{seat}": points for seat, points in enumerate(value)})
        else:
            initial[entry.name.removeprefix("ramsch.")] = value
    return initial


def _value_initial(value: int | None, won: bool | None, *, kontra: bool, re: bool) -> dict[str, Any]:
    """Form data for a game entered by its value: the value entry chosen, with what was entered."""
    initial: dict[str, Any] = {"mode": BY_VALUE_MODE, "value": value, "kontra": kontra, "re": re}
    if won is not None:
        initial["value_won"] = YES if won else NO
    return initial


def _value_at(data: dict[str, Any], path: str) -> Any:
    if path.startswith("ramsch."):
        return (data.get("ramsch") or {}).get(path.removeprefix("ramsch."))
    return data.get(path)
