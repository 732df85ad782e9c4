"""The form fields every form of the site shares: a whole number as typed, an amount in euros as typed, a rule option
as a variant offers it, and the token of a form that makes something new."""

from __future__ import annotations

import hashlib
import json
import uuid
from decimal import Decimal
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from ..engine import OPTIONS, Message
from ..labels import OPTION_CHOICE_LABELS, euros, render_step
from ..numbers import MOST, NOT_A_WHOLE_NUMBER, TooMuch, hundredths, whole_number

AMOUNT_FORMAT = _("Write an amount as 15, 15.50 or 15,50.")
IN_PERCENT = _("“%(text)s” is written in percent: write an amount in euros.")


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


def as_euros(cents: int) -> str:
    """Cents as a form shows them again, in the reader's language: 1250 → ``12.50`` (in German ``12,50``), 1500 →
    ``15``."""
    return number_format(Decimal(cents) / 100, 2) if cents % 100 else str(cents // 100)


class EuroField(forms.Field):
    """An amount in euros as people type it (``15``, ``15.50``, ``15,50``, ``1.000,50``: ``numbers.hundredths``), in
    cents (empty: nothing); at most ``most`` cents where given, and never more than ``numbers.MOST``: a larger amount
    is told "at most", not how to write one. A text field with the decimal keyboard, not a number field: a browser's
    number field reads a German comma its own way ("2,00" became 200). An amount written in percent is refused,
    never read as euros, unless the field takes a share too (``percent``: its form tells the two apart)."""

    def __init__(self, *, most: int | None = None, percent: bool = False, **kwargs: Any) -> None:
        self.most = most
        self.percent = percent
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int:
        text = str(value or "").strip()
        if not text:
            return 0
        if "%" in text and not self.percent:
            raise forms.ValidationError(IN_PERCENT, code="invalid", params={"text": text})
        most = MOST if self.most is None else min(self.most, MOST)
        try:
            cents = hundredths(text)
        except TooMuch:
            cents = MOST + 1
        except ValueError:
            raise forms.ValidationError(AMOUNT_FORMAT, code="invalid") from None
        if cents > most:
            raise forms.ValidationError(
                _("At most %(most)s."), code="max_value", params={"most": euros(most, unbroken=True)}
            )
        return cents

    def prepare_value(self, value: Any) -> Any:
        return as_euros(value) if isinstance(value, int) else value


def option_field(name: str, initial: bool | int | str, choices: tuple[str, ...], *, kontra: Message) -> forms.Field:
    """A rule option as the variant offers it (``choices``: the values this variant has), its label and help in the
    variant's word for Kontra (``kontra``)."""
    spec = OPTIONS[name].worded(kontra)
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
