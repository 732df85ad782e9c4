"""The form fields every form of the site shares: a whole number as typed, a rule option as a variant offers it, and
the token of a form that makes something new."""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

from django import forms
from django.http import QueryDict

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


UNASKED = ("once", "csrfmiddlewaretoken")


class MakesOnce(forms.Form):
    """A form that makes something new (a club, a season, a league, a tournament), made once however often the
    form is sent (``matches.services.once``). ``token``: the token the form was sent with (None: none, or not a
    token); every page of the form, the first and one shown again with errors, carries a new one, so that a form
    corrected after a refusal, or sent again on purpose after being told it was saved, makes something new."""

    once = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        self.token: uuid.UUID | None = None
        if data is not None:
            try:
                self.token = uuid.UUID(str(data.get("once", "")))
            except ValueError:
                self.token = None
            data = data.copy()
            data["once"] = str(uuid.uuid4())
        super().__init__(data, *args, **kwargs)
        self.fields["once"].initial = uuid.uuid4()

    def asked(self, path: str) -> str:
        """A digest of the values sent to ``path`` but the token: the same token sent with others is no retry."""
        sent = self.data
        lists = sent.lists() if isinstance(sent, QueryDict) else ((name, [value]) for name, value in sent.items())
        values = sorted((name, [str(value) for value in values]) for name, values in lists if name not in UNASKED)
        return hashlib.sha256(json.dumps([path, values]).encode()).hexdigest()
