"""The game form's entry fields are built once per table and shared between requests: no request changes them."""

import copy
import uuid
from typing import Any

import pytest
from django import forms
from django.test import Client

from matches.engine.match import shape_of
from matches.field_cache import Fields
from matches.forms.games import ENTRY_FIELDS, PER_FORM, GameForm, NextEntry
from matches.models import Match

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


def _choices(choices: Any) -> list[tuple[str, str]]:
    return [(str(value), str(label)) for value, label in choices or ()]


def _state(field: forms.Field) -> dict[str, Any]:
    """All a request could change in a field: its label, initial, requiredness, messages, widget and choices."""
    widget = field.widget
    return {
        "label": str(field.label),
        "initial": field.initial,
        "required": field.required,
        "disabled": field.disabled,
        "help_text": str(field.help_text),
        "error_messages": {code: str(message) for code, message in field.error_messages.items()},
        "validators": list(field.validators),
        "choices": _choices(getattr(field, "choices", None)),
        "widget_attrs": copy.deepcopy(widget.attrs),
        "widget_choices": _choices(getattr(widget, "choices", None)),
        "widget_required": widget.is_required,
    }


@pytest.fixture
def only_one_table_shape() -> None:
    """The fields kept start empty, so that the one key the test's tables have is the only one kept."""
    ENTRY_FIELDS.kept.clear()


def _shared() -> Fields:
    """The fields of the one table shape kept."""
    (fields, _), *others = ENTRY_FIELDS.kept.values()
    assert not others, "the tables of the test were meant to share their fields"
    return fields


def _post(client: Client, match: Match, **fields: str) -> int:
    match.refresh_from_db()
    data = {"token": str(uuid.uuid4()), "number": str(match.deals + 1), **fields}
    return client.post(f"/matches/{match.public_id}/games/", data).status_code


@pytest.mark.usefixtures("only_one_table_shape")
def test_no_request_changes_the_fields_tables_of_one_shape_share() -> None:
    owner = make_user("owner")
    first, second = make_match(owner), make_match(owner)
    client = Client()
    client.force_login(owner)
    assert client.get(f"/matches/{first.public_id}/").status_code == 200
    shared = _shared()
    before = {name: _state(field) for name, field in shared.items()}

    # Forms of both tables drawn, read, refused by the form and by the rules, previewed and fixed.
    game = add(first, declarer=1, contract="hearts", matadors=2, declarer_card_points=70)
    assert client.get(f"/matches/{second.public_id}/").status_code == 200
    assert _post(client, second, contract="grand", declarer="2", matadors="1", declarer_card_points="40") == 302
    assert _post(client, first, contract="clubs", declarer="x", matadors="9", declarer_card_points="abc") == 400
    assert _post(client, second, contract="clubs", declarer="0", declarer_card_points="95", outcome="won") == 400
    assert _post(client, first, contract="spades", matadors="+") == 400
    preview = {"token": str(uuid.uuid4()), "contract": "null", "declarer": "1", "null_result": "lost"}
    assert client.post(f"/matches/{second.public_id}/preview/", preview).status_code == 200
    edit = f"/matches/{first.public_id}/games/{game.public_id}/edit/"
    assert client.get(edit).status_code == 200
    assert client.post(edit, {"token": str(uuid.uuid4()), "contract": "diamonds", "matadors": "-9"}).status_code == 400

    assert _shared() is shared
    assert {name: _state(field) for name, field in shared.items()} == before


@pytest.mark.usefixtures("only_one_table_shape")
def test_a_form_changes_only_its_own_copies_of_the_fields() -> None:
    match = make_match(make_user("owner"))
    shape = shape_of(match.setup(), 1)
    mine = GameForm(shape=shape, seats=["Anna", "Ben", "Cleo"])
    shared = _shared()
    before = {name: _state(field) for name, field in shared.items()}
    assert not any(mine.fields[name] is field for name, field in shared.items())

    mine.fields["declarer_card_points"].widget.attrs["aria-invalid"] = "true"
    mine.fields["declarer_card_points"].error_messages["invalid"] = "changed"
    mine.fields["contract"].initial = "grand"
    contract = mine.fields["contract"]
    assert isinstance(contract, forms.ChoiceField)
    contract.choices = [("grand", "Grand")]
    # The lists of choices changed in place, the field's and the widget's.
    declarer = mine.fields["declarer"]
    assert isinstance(declarer, forms.ChoiceField)
    assert isinstance(declarer.choices, list)
    declarer.choices.append((9, "Dora"))
    outcome = mine.fields["outcome"].widget
    assert isinstance(outcome, forms.RadioSelect)
    assert isinstance(outcome.choices, list)
    outcome.choices.append(("lost-schwarz", "Lost schwarz"))
    mine.fields["matadors"].required = True

    assert {name: _state(field) for name, field in shared.items()} == before
    theirs = GameForm(shape=shape, seats=["Anna", "Ben", "Cleo"])
    # Every form draws a token of its own; the rest starts as the shared fields are.
    assert {name: _state(theirs.fields[name]) for name in shared if name not in PER_FORM} == {
        name: state for name, state in before.items() if name not in PER_FORM
    }


@pytest.mark.parametrize("last_contract", [None, "grand"])
def test_the_next_entry_read_from_the_kept_fields_starts_as_a_fresh_form(
    only_one_table_shape: None, last_contract: str | None
) -> None:
    """A save whose next deal takes the same fields answers with the next entry's start, read from the table's
    kept fields rather than from a form of its own: the same as a fresh form's, whether the fields were kept
    already or not."""
    match = make_match(make_user("owner"))
    shape = shape_of(match.setup(), 2)
    seats = ["Anna", "Ben", "Cleo"]
    initial: dict[str, Any] = {"number": 2, "version": 1} | ({"contract": last_contract} if last_contract else {})
    built = NextEntry.of(shape=shape, seats=seats, deck="french", initial=initial)
    assert ENTRY_FIELDS.kept, "the entry was read through a form, which keeps the table's fields"
    read = NextEntry.of(shape=shape, seats=seats, deck="french", initial=initial)
    form = GameForm(shape=shape, seats=seats, deck="french", initial=initial)
    for entry in (built, read):
        assert entry.starting_values == form.starting_values
        assert entry.preselected_hint == form.preselected_hint
    assert built.token != read.token
    assert ("grand" in read.starting_values) is (last_contract == "grand")
