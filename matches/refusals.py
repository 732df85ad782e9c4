"""What a refusal of the services (or of the engine) becomes on a page: each problem next to the form's field it
names, the rest above the form or above the page, every message in the reader's language and with the suits of the
reader's deck (``render_step``). Every page turns a refusal into words here."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from .engine import RuleError
from .errors import ServiceError
from .labels import render_step
from .models import Deck
from .preferences import deck_of

FieldOf = Callable[[str], str | None]
"""The form's field for a problem's field as the services name it (``players.0``, ``rules.bock``), or None."""


def first_part(field: str) -> str:
    """``season.name`` → ``season``: a form whose fields are named as the services' first part."""
    return field.split(".")[0]


def refusal_texts(error: RuleError, request: HttpRequest | None = None) -> list[str]:
    """Each problem of the refusal in words (the reader's deck, when the request is given)."""
    deck = deck_of(request) if request is not None else Deck.FRENCH
    return [render_step(problem.message, deck) for problem in error.errors]


def refusal_as_messages(request: HttpRequest, error: RuleError) -> None:
    """The refusal above the page (for actions without a form of their own)."""
    for text in refusal_texts(error, request):
        messages.error(request, text)


def done_or_refused(request: HttpRequest, change: Callable[[], object], done: str = "") -> bool:
    """Make ``change`` (a call of a service) for a page's button: what the service refused above the page, else
    ``done`` (the words that say it was made, when there are any). True when it was made."""
    try:
        change()
    except ServiceError as error:
        refusal_as_messages(request, error)
        return False
    if done:
        messages.success(request, done)
    return True


def refusal_on_form(
    form: forms.Form, error: RuleError, field_of: FieldOf = first_part, *, request: HttpRequest | None = None
) -> None:
    """Each problem next to the field ``field_of`` names, if the form has it; the rest above the form, or (given the
    ``request``) above the page."""
    deck = deck_of(request) if request is not None else Deck.FRENCH
    for problem in error.errors:
        name = field_of(problem.field)
        text = render_step(problem.message, deck)
        if name is not None and name in form.fields:
            form.add_error(name, text)
        elif request is not None:
            messages.error(request, text)
        else:
            form.add_error(None, text)
