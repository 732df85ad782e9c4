"""A date input takes and shows its date as ISO (YYYY-MM-DD) in every language: a browser leaves a date field empty
when its value is written any other way, and refuses the form until a date is picked."""

import datetime
from collections.abc import Iterator

import pytest
from django import forms
from django.test import Client
from django.urls import reverse
from django.utils import translation

import matches.clubs.forms
import matches.forms
from matches.clubs import services as clubs

from .factories import make_user

DAY = datetime.date(2026, 11, 26)


def _form_classes() -> Iterator[type[forms.BaseForm]]:
    """Every form the project defines (the pages' forms, the club's forms and any made from them)."""
    seen: set[type[forms.BaseForm]] = set()
    waiting: list[type[forms.BaseForm]] = [forms.BaseForm]
    while waiting:
        for form in waiting.pop().__subclasses__():
            if form not in seen:
                seen.add(form)
                waiting.append(form)
    modules = (matches.forms.__name__, matches.clubs.forms.__name__)
    yield from (form for form in seen if form.__module__.startswith(modules))


def _date_fields() -> list[tuple[str, forms.Field]]:
    return [
        (f"{form.__name__}.{name}", field)
        for form in _form_classes()
        for name, field in getattr(form, "base_fields", {}).items()
        if getattr(field.widget, "input_type", "") == "date"
    ]


def test_every_date_input_writes_its_value_as_iso_in_german() -> None:
    fields = _date_fields()
    assert "NightForm.date" in {name for name, _ in fields}
    with translation.override("de"):
        for name, field in fields:
            assert 'value="2026-11-26"' in field.widget.render("date", DAY), name


@pytest.mark.django_db
def test_the_german_season_page_offers_todays_date_as_iso() -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    client = Client(headers={"accept-language": "de"})
    client.force_login(owner)
    page = client.get(reverse("season_detail", args=[season.public_id])).content.decode()
    assert "Abend eröffnen" in page
    assert f'type="date" name="date" value="{datetime.date.today().isoformat()}"' in page
