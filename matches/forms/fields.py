"""The form fields every form of the site shares: a whole number as typed, and a rule option as a variant offers it."""

from __future__ import annotations

from typing import Any

from django import forms

from ..engine import OPTIONS
from ..labels import OPTION_CHOICE_LABELS, render_step
from ..numbers import NOT_A_WHOLE_NUMBER, whole_number


class WholeNumberField(forms.IntegerField):
    """A whole number written with the digits 0 to 9, as the API's query parameters take it (``matches.numbers``)."""

    default_error_messages = {"invalid": NOT_A_WHOLE_NUMBER}

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        try:
            return whole_number(str(value))
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None


def option_field(name: str, initial: bool | int | str, choices: tuple[str, ...]) -> forms.Field:
    """A rule option as the variant offers it (``choices``: the values this variant has)."""
    spec = OPTIONS[name]
    label, help_text = render_step(spec.label), render_step(spec.help)
    if spec.kind == "bool":
        return forms.BooleanField(label=label, help_text=help_text, required=False, initial=initial)
    if spec.kind == "choice":
        return forms.ChoiceField(
            label=label,
            help_text=help_text,
            choices=[(choice, OPTION_CHOICE_LABELS.get(choice, choice)) for choice in choices],
            initial=initial,
            required=False,
        )
    return WholeNumberField(
        label=label,
        help_text=help_text,
        min_value=spec.minimum,
        max_value=spec.maximum,
        initial=initial,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
