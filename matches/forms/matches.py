"""Starting a match: its preset, scheme, options, players, first dealer and length."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..engine import RuleError, find_variant
from ..engine.presets import Preset
from ..labels import scheme_label
from ..names import MAX_NAME_LENGTH
from ..refusals import refusal_on_form
from .fields import WholeNumberField, option_field


class MatchForm(forms.Form):
    """A new match from a preset: scheme, options (shown with the preset's values), players, first dealer, length.
    The form reads the page; ``match_create`` checks everything, and its refusals come back here by field."""

    token = forms.UUIDField(widget=forms.HiddenInput, required=False)
    title = forms.CharField(label=_("Title (optional)"), max_length=100, required=False)
    planned_games = WholeNumberField(
        label=_("Fixed number of games (optional)"),
        min_value=1,
        max_value=999,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, preset: Preset, known_players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.preset = preset
        spec = find_variant(preset.variant)
        assert spec is not None
        self.spec = spec
        self.fields["token"].initial = uuid.uuid4()
        self.fields["scheme"] = forms.ChoiceField(
            label=_("Scoring"),
            choices=[(scheme.value, scheme_label(scheme)) for scheme in spec.schemes],
            initial=preset.scheme.value,
        )
        seats = max(spec.players)
        for seat in range(seats):
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("Seat %(number)d") % {"number": seat + 1},
                max_length=MAX_NAME_LENGTH,
                required=seat < min(spec.players),
                strip=False,
                widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off"}),
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("First dealer"),
            coerce=int,
            empty_value=None,
            choices=[(seat, _("Seat %(number)d") % {"number": seat + 1}) for seat in range(seats)],
            initial=0,
            widget=forms.RadioSelect,
        )
        self.rule_initial = {name: preset.rules.get(name, default) for name, default in spec.options.items()}
        for name, initial in self.rule_initial.items():
            self.fields[f"rule_{name}"] = option_field(name, initial, spec.option_choices(name), kontra=spec.kontra)
        self.known_players = known_players

    def player_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("player_")]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("rule_")]

    def player_names(self) -> list[str]:
        """The names typed, in seat order; empty seats at the end are left out."""
        names = [self.cleaned_data.get(f"player_{seat}") or "" for seat in range(max(self.spec.players))]
        while names and not names[-1].strip():
            names.pop()
        return names

    def rules(self) -> dict[str, Any]:
        """The rules as chosen; a choice or number left out (a page from before an option existed) is the preset's."""
        chosen = {name: self.cleaned_data.get(f"rule_{name}") for name in self.spec.options}
        return {name: self.rule_initial[name] if value in (None, "") else value for name, value in chosen.items()}

    def add_service_errors(self, error: RuleError) -> None:
        """Put each refusal of ``match_create`` next to its field; the rest above the form."""
        refusal_on_form(self, error, _match_field)


def _match_field(field: str) -> str:
    """A new match's field as the form names it: ``players.2`` is ``player_2``, ``rules.bock`` is ``rule_bock``."""
    if field.startswith("players."):
        return f"player_{field.removeprefix('players.')}"
    if field.startswith("rules."):
        return f"rule_{field.removeprefix('rules.')}"
    return field
