"""The tournament pages through the test client: announcing a tournament, the organiser's desk from the door to
closing a series, online entry and its confirmation, the results, the prize list and the cashier's list; each
refusal next to its field; and who may use each address."""

from __future__ import annotations

import csv
import html
import io
import re
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.engine.tournaments import PrizeSchedule
from matches.labels import amount_label, euros
from matches.models import Person
from matches.numbers import MOST, TooMuch, hundredths
from matches.permissions import LINKS_SESSION_KEY
from matches.tournaments import services as tournaments
from matches.tournaments import views
from matches.tournaments.exports import prize_sheet
from matches.tournaments.forms import TournamentForm, hundredths_list
from matches.tournaments.models import Category, Entry, Payment, Series, Side, Table, Tournament
from matches.tournaments.selectors import tournament_results

from .factories import make_user
from .test_queries import enter
from .tournaments_setup import (
    ENTRY_FEE,
    LIST_FEE,
    announce,
    enter_field,
    enter_paper,
    paper_totals,
    play_series,
    seated,
)

pytestmark = pytest.mark.django_db

NO_BREAK = "\N{NO-BREAK SPACE}"


def browser(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def error_of(response_text: str, field_id: str) -> str:
    """The message shown next to the field of that id (``<p class="error" ... id="<id>_error">``)."""
    found = re.search(rf'id="{re.escape(field_id)}_error">([^<]*)<', response_text)
    assert found is not None, f"no message next to {field_id}"
    return found[1]


def desk(tournament: Tournament) -> str:
    return reverse("tournaments:desk", args=[tournament.public_id])


def organiser_of(tournament: Tournament) -> Client:
    assert tournament.organiser is not None
    return browser(tournament.organiser)


ANNOUNCED = {
    "name": "Preisskat im Löwen",
    "date": "2026-12-05",
    "venue": "Gasthof Löwe",
    "series": "3",
    "games_at_four": "48",
    "games_at_three": "36",
    "entry_fee": "15,00 €",
    "list_fee": "2",
    "seats": "40",
    "places": "200; 160; 140,50",
    "places_kind": "amounts",
    "places_payout": "as-announced",
    "share_kind": "percent",
    "share_value": "0",
    "keeps_list_fees": "on",
    "keeps_lost_game_fees": "on",
    "categories": "Damen: 30; 15\nSenioren: 20",
    "best_series": "15",
    "lost_game_tiers": "1: 0,50; 4: 1; 6: 3",
    "tandem_fee": "5",
    "tandem_prizes": "60 40",
    "tandem_kind": "shares",
    "team_fee": "",
    "team_prizes": "",
    "team_kind": "shares",
    "doubles": "better",
    "late_entries": "on",
}


# --- Amounts as people type them --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "cents"),
    [
        ("15", 1500),
        ("15,5", 1550),
        ("15.50", 1550),
        ("15,50 €", 1550),
        ("€ 0.50", 50),
        ("1.000", 100_000),
        ("1.000,50", 100_050),
        ("1,000.50", 100_050),
    ],
)
def test_an_amount_is_read_in_cents_as_either_language_writes_it(typed: str, cents: int) -> None:
    assert hundredths(typed) == cents


@pytest.mark.parametrize("typed", ["", "15,505", "fifteen", "-5", "20,160,140", "1.2.3", "0,500", "0.500", "00,500"])
def test_what_is_no_amount_is_refused(typed: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(typed)}$"):
        hundredths(typed)


@pytest.mark.parametrize("typed", ["10.000,01", "100000", "99999999999", "1.000.000"])
def test_an_amount_written_well_but_too_large_is_told_apart_from_what_is_no_amount(typed: str) -> None:
    with pytest.raises(TooMuch, match=f"^{re.escape(typed)}$"):
        hundredths(typed)
    assert hundredths("10.000") == MOST


def test_amounts_by_place_are_separated_by_semicolons_spaces_or_a_comma_and_a_space() -> None:
    assert hundredths_list("200; 160; 140,50") == (20000, 16000, 14050)
    assert hundredths_list("200, 160, 140.50") == (20000, 16000, 14050)
    assert hundredths_list("200 € 160 €\n140") == (20000, 16000, 14000)
    assert hundredths_list("") == ()


# --- Announcing -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "tiers"), [("de", "1: 0,50; 4: 1; 6: 3"), ("en", "1: 0.50; 4: 1; 6: 3")])
def test_the_announcing_form_offers_the_fees_for_lost_games_in_the_readers_language(language: str, tiers: str) -> None:
    client = browser(make_user("olga"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = html.unescape(client.get(reverse("tournaments:new")).content.decode())
    field = re.search(r'<input type="text" name="lost_game_tiers" value="([^"]*)"', page)
    assert field is not None
    assert field[1] == tiers


def test_an_organiser_announces_a_tournament_with_amounts_in_euros_stored_in_cents() -> None:
    organiser = make_user("olga")
    client = browser(organiser)
    assert "Announce the tournament" in client.get(reverse("tournaments:new")).content.decode()
    response = client.post(reverse("tournaments:new"), ANNOUNCED)
    assert response.status_code == 302, response.content.decode()
    tournament = Tournament.objects.get()
    assert response["Location"] == desk(tournament)
    assert (tournament.organiser, tournament.entry_fee, tournament.list_fee, tournament.seats) == (
        organiser,
        1500,
        200,
        40,
    )
    assert tournament.places == {"values": [20000, 16000, 14050], "kind": "amounts", "payout": "as-announced"}
    assert tournament.lost_game_tiers == [[1, 50], [4, 100], [6, 300]]
    assert tournament.best_series == [1500]
    assert tournament.tandem_prizes["values"] == [6000, 4000]
    assert list(Category.objects.values_list("name", "prizes")) == [("Damen", [3000, 1500]), ("Senioren", [2000])]
    listed = client.get(reverse("tournaments:list")).content.decode()
    assert "Preisskat im Löwen" in listed
    assert desk(tournament) in listed


def test_a_schedule_paying_out_more_than_the_pot_is_refused_next_to_the_prizes() -> None:
    response = browser(make_user("olga")).post(
        reverse("tournaments:new"), ANNOUNCED | {"seats": "10", "places": "200; 160; 140"}
    )
    assert response.status_code == 400
    assert "but the prize money left after" in error_of(response.content.decode(), "id_places")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_prize_rules_refusal_keeps_each_amount_with_its_euro_sign_and_each_share_with_its_percent(
    language: str,
) -> None:
    """A no-break space between a figure and its € or %, as the pages write every amount and share, so that a
    message beside a narrow field never ends a line with the figure and starts the next with its sign."""
    client = browser(make_user("olga"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    amounts = client.post(reverse("tournaments:new"), ANNOUNCED | {"seats": "10", "places": "200; 160; 140"})
    shares = client.post(
        reverse("tournaments:new"),
        ANNOUNCED | {"places": "60 40 50", "places_kind": "shares", "places_payout": "in-full"},
    )
    share = client.post(reverse("tournaments:new"), ANNOUNCED | {"share_kind": "fixed", "share_value": "10000"})
    refusals = [
        error_of(html.unescape(amounts.content.decode()), "id_places"),
        error_of(html.unescape(shares.content.decode()), "id_places"),
        error_of(html.unescape(share.content.decode()), "id_share_value"),
    ]
    assert [response.status_code for response in (amounts, shares, share)] == [400, 400, 400]
    thousands, decimal = (".", ",") if language == "de" else (",", ".")
    assert f"500{decimal}00{NO_BREAK}€" in refusals[0], refusals[0]
    assert f"150{NO_BREAK}%" in refusals[1], refusals[1]
    assert f"10{thousands}000{decimal}00{NO_BREAK}€" in refusals[2], refusals[2]
    for refusal in refusals:
        assert " €" not in refusal, refusal
        assert " %" not in refusal, refusal
    assert not Tournament.objects.exists()


def test_shares_adding_up_to_more_than_the_whole_pot_are_refused_next_to_their_schedule_in_either_language() -> None:
    shares = ANNOUNCED | {"places": "60 40 50", "places_kind": "shares", "places_payout": "in-full"}
    response = browser(make_user("olga")).post(reverse("tournaments:new"), shares | {"tandem_prizes": "60 40 0,5"})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert error_of(page, "id_places") == f"The shares add up to 150{NO_BREAK}%: more than the whole pot."
    assert error_of(page, "id_tandem_prizes") == f"The shares add up to 100.5{NO_BREAK}%: more than the whole pot."
    assert "<details open>" in page
    german = browser(make_user("gerda"))
    german.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = html.unescape(german.post(reverse("tournaments:new"), shares).content.decode())
    assert error_of(page, "id_places") == f"Die Anteile ergeben zusammen 150{NO_BREAK}%: mehr als der ganze Topf."
    assert not Tournament.objects.exists()


def test_an_amount_typed_wrong_is_refused_next_to_its_field_and_opens_the_second_part() -> None:
    response = browser(make_user("olga")).post(
        reverse("tournaments:new"), ANNOUNCED | {"entry_fee": "fünfzehn", "tandem_fee": "5,5,5"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Write an amount as 15, 15.50 or 15,50." in error_of(page, "id_entry_fee")
    assert "Write an amount as 15, 15.50 or 15,50." in error_of(page, "id_tandem_fee")
    assert "<details open>" in page


@pytest.mark.parametrize("typed", ["100000", "99999999999", "10.000,01", "2,500", "1000,01"])
def test_a_fee_written_well_but_too_large_is_refused_as_too_much_in_either_language(typed: str) -> None:
    """A fee is at most 1000 €: more is a slip, such as a German 2,500 meant as 2,50."""
    response = browser(make_user("olga")).post(reverse("tournaments:new"), ANNOUNCED | {"entry_fee": typed})
    assert response.status_code == 400
    assert error_of(html.unescape(response.content.decode()), "id_entry_fee") == f"At most 1,000.00{NO_BREAK}€."
    german = browser(make_user("gerda"))
    german.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = html.unescape(german.post(reverse("tournaments:new"), ANNOUNCED | {"entry_fee": typed}).content.decode())
    assert error_of(page, "id_entry_fee") == f"Höchstens 1.000,00{NO_BREAK}€."
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("kind", ["amounts", "shares"])
def test_a_prize_written_well_but_too_large_is_refused_as_too_large_not_as_written_wrong(kind: str) -> None:
    typed = ANNOUNCED | {"places": "200; 20.160; 100", "places_kind": kind, "best_series": "50 2000000"}
    response = browser(make_user("olga")).post(reverse("tournaments:new"), typed)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert error_of(page, "id_places") == "“20.160” is more than a prize can be."
    assert error_of(page, "id_best_series") == "“2000000” is more than a prize can be."
    german = browser(make_user("gerda"))
    german.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = html.unescape(german.post(reverse("tournaments:new"), typed).content.decode())
    assert error_of(page, "id_places") == "„20.160“ ist mehr, als ein Preis sein kann."
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("typed", "line", "colon"),
    [
        ("Damen 30\nJugend: 5", "Damen 30", False),
        ("Jugend: 5\nDamen 30 €", "Damen 30 €", False),
        ("Damen 30; 15", "Damen 30; 15", False),
        ("Damen 12,50", "Damen 12,50", False),
        ("Damen: 30 x", "Damen: 30 x", True),
        (": 30", ": 30", True),
    ],
)
def test_a_category_line_without_its_colon_or_unreadable_is_refused_naming_the_line(
    typed: str, line: str, colon: bool
) -> None:
    """A line without its colon that ends in a number may be prizes lost in a name, or a name that ends in a number
    ("Senioren 60"): the refusal says how to write either."""
    response = browser(make_user("olga")).post(reverse("tournaments:new"), ANNOUNCED | {"categories": typed})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    english = f"“{line}”: write the name, a colon and its prizes, e.g. Damen: 30; 15."
    if not colon:
        english += " A name that ends in a number and has no prizes ends in a colon: Senioren 60:"
    assert error_of(page, "id_categories") == english
    assert "<details open>" in page
    german = browser(make_user("gerda"))
    german.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = html.unescape(german.post(reverse("tournaments:new"), ANNOUNCED | {"categories": typed}).content.decode())
    german_text = f"„{line}“: schreibe den Namen, einen Doppelpunkt und die Preise, z. B. Damen: 30; 15."
    if not colon:
        german_text += " Ein Name, der auf eine Zahl endet und keine Preise hat, endet mit Doppelpunkt: Senioren 60:"
    assert error_of(page, "id_categories") == german_text
    assert not Tournament.objects.exists()


def test_a_category_named_with_a_number_at_its_end_and_its_colon_is_ranked_without_prizes() -> None:
    typed = "Senioren 60:\nDamen 30: 20; 10"
    response = browser(make_user("olga")).post(reverse("tournaments:new"), ANNOUNCED | {"categories": typed})
    assert response.status_code == 302, response.content.decode()
    assert list(Category.objects.order_by("order").values_list("name", "prizes")) == [
        ("Senioren 60", []),
        ("Damen 30", [2000, 1000]),
    ]


def test_a_category_named_without_prizes_is_ranked_without_prizes() -> None:
    """A name alone, or with its colon and nothing after it, is a category of its own ranking that pays no prize
    (the results rank it; the tournament's page says "—" for its prizes); a name may end in digits of its own."""
    typed = "Damen: 30; 15\nJugend\nJugend U18\nSenioren:"
    response = browser(make_user("olga")).post(reverse("tournaments:new"), ANNOUNCED | {"categories": typed})
    assert response.status_code == 302, response.content.decode()
    assert list(Category.objects.order_by("order").values_list("name", "prizes")) == [
        ("Damen", [3000, 1500]),
        ("Jugend", []),
        ("Jugend U18", []),
        ("Senioren", []),
    ]


def test_the_announcing_form_offers_the_prize_schedule_the_rules_default_to() -> None:
    """docs/rules.md: shares of the prize money (kind ``shares``), all of it paid out (``in-full``), as the engine's
    schedule has it."""
    form = TournamentForm()
    default = PrizeSchedule()
    assert (form.fields["places_kind"].initial, form.fields["places_payout"].initial) == (
        default.kind.value,
        default.payout.value,
    )
    page = browser(make_user("olga")).get(reverse("tournaments:new")).content.decode()
    assert re.search(r'<select name="places_kind"[^>]*>(?:(?!</select>).)*<option value="shares" selected>', page, re.S)
    assert re.search(
        r'<select name="places_payout"[^>]*>(?:(?!</select>).)*<option value="in-full" selected>', page, re.S
    )


def refusals_of(typed: dict[str, str], language: str) -> dict[str, list[str]]:
    """The announcing form's messages by field for ``ANNOUNCED`` with ``typed``, in ``language``."""
    with translation.override(language):
        form = TournamentForm(ANNOUNCED | typed)
        assert not form.is_valid()
        return {field: [str(message) for message in messages] for field, messages in form.errors.items()}


SHARES_IN_EUROS = (
    "These prizes are shares in percent, but “{part}” is written in euros: choose “amounts in euros” or write the "
    "shares without €.",
    "Diese Preise sind Anteile in Prozent, aber „{part}“ ist in Euro geschrieben: wähle „Beträge in Euro“ oder "
    "schreibe die Anteile ohne €.",
)
AMOUNTS_IN_PERCENT = (
    "These prizes are amounts in euros, but “{part}” is written in percent: choose “shares in percent” or write the "
    "amounts without %.",
    "Diese Preise sind Beträge in Euro, aber „{part}“ ist in Prozent geschrieben: wähle „Anteile in Prozent“ oder "
    "schreibe die Beträge ohne %.",
)


@pytest.mark.parametrize(
    ("kind", "typed", "part", "said"),
    [
        ("shares", "200 €; 160 €; 140 €", "200 €", SHARES_IN_EUROS),
        ("shares", "50 €; 30 €; 20 €", "50 €", SHARES_IN_EUROS),
        ("shares", "50; 30; €20", "€20", SHARES_IN_EUROS),
        ("shares", "50 %; 30; 20 €", "20 €", SHARES_IN_EUROS),
        ("amounts", "50 %; 30 %; 20 %", "50 %", AMOUNTS_IN_PERCENT),
        ("amounts", "200; 160; 140,50%", "140,50%", AMOUNTS_IN_PERCENT),
    ],
)
@pytest.mark.parametrize("language", ["en", "de"])
def test_prizes_by_place_written_with_the_sign_of_the_other_kind_are_refused_never_read_as_the_kind_says(
    kind: str, typed: str, part: str, said: tuple[str, str], language: str
) -> None:
    """Prizes typed "200 €" where they are shares in percent (the form's default) are not 200 %, nor "50 %" where
    they are amounts 50 €: the organiser chooses the kind or writes the numbers without the sign."""
    refusals = refusals_of({"places": typed, "places_kind": kind, "places_payout": "in-full"}, language)
    assert refusals == {"places": [said[language == "de"].format(part=part)]}


@pytest.mark.parametrize("language", ["en", "de"])
def test_tandem_and_team_prizes_written_with_the_sign_of_the_other_kind_are_refused_next_to_each(
    language: str,
) -> None:
    typed = {"tandem_prizes": "60 € 40 €", "tandem_kind": "shares", "team_prizes": "60% 40%", "team_kind": "amounts"}
    german = language == "de"
    assert refusals_of(typed, language) == {
        "tandem_prizes": [SHARES_IN_EUROS[german].format(part="60 €")],
        "team_prizes": [AMOUNTS_IN_PERCENT[german].format(part="60%")],
    }


@pytest.mark.parametrize(
    ("kind", "typed", "english", "german"),
    [
        (
            "percent",
            "10 €",
            "The share is in percent of the pot, but “10 €” is written in euros: choose “a fixed amount in euros” or "
            "write the share without €.",
            "Der Anteil ist in Prozent des Topfs, aber „10 €“ ist in Euro geschrieben: wähle „ein fester Betrag in "
            "Euro“ oder schreibe den Anteil ohne €.",
        ),
        (
            "fixed",
            "10 %",
            "The share is a fixed amount in euros, but “10 %” is written in percent: choose “percent of the pot” or "
            "write the amount without %.",
            "Der Anteil ist ein fester Betrag in Euro, aber „10 %“ ist in Prozent geschrieben: wähle „Prozent des "
            "Topfs“ oder schreibe den Betrag ohne %.",
        ),
    ],
)
def test_the_organisers_share_written_with_the_sign_of_the_other_kind_is_refused_in_either_language(
    kind: str, typed: str, english: str, german: str
) -> None:
    typed_share = {"share_kind": kind, "share_value": typed}
    assert refusals_of(typed_share, "en") == {"share_value": [english]}
    assert refusals_of(typed_share, "de") == {"share_value": [german]}


def test_best_series_and_category_prizes_in_percent_are_refused_as_they_are_amounts_in_euros() -> None:
    """The best series' prizes and a category's are amounts in euros whatever the places' kind (the engine pays them
    from the prize money before the places)."""
    typed = {
        "places": "50 30 20",
        "places_kind": "shares",
        "best_series": "30 %",
        "categories": "Jugend\nDamen: 30%; 15",
    }
    assert refusals_of(typed, "en") == {
        "best_series": [
            "These prizes are amounts in euros, but “30 %” is written in percent: write each prize in euros."
        ],
        "categories": [
            "“Damen: 30%; 15”: a category's prizes are amounts in euros, but “30%” is written in percent: write each "
            "prize in euros."
        ],
    }
    assert refusals_of(typed, "de") == {
        "best_series": [
            "Diese Preise sind Beträge in Euro, aber „30 %“ ist in Prozent geschrieben: schreibe jeden Preis in Euro."
        ],
        "categories": [
            "„Damen: 30%; 15“: die Preise einer Wertungsklasse sind Beträge in Euro, aber „30%“ ist in Prozent "
            "geschrieben: schreibe jeden Preis in Euro."
        ],
    }


def test_fees_and_the_fees_for_lost_games_written_in_percent_are_refused_never_read_as_euros() -> None:
    typed = {"entry_fee": "10 %", "tandem_fee": "5%", "lost_game_tiers": "1: 0,50; 4: 1 %"}
    tiers = "Write each tier as “lost game: euros”, separated by semicolons: 1: 0,50; 4: 1; 6: 3."
    assert refusals_of(typed, "en") == {
        "entry_fee": ["“10 %” is written in percent: write an amount in euros."],
        "tandem_fee": ["“5%” is written in percent: write an amount in euros."],
        "lost_game_tiers": [tiers],
    }
    german = "„10 %“ ist in Prozent geschrieben: schreibe einen Betrag in Euro."
    assert refusals_of(typed, "de")["entry_fee"] == [german]


@pytest.mark.parametrize("language", ["en", "de"])
def test_signs_that_agree_with_the_kind_chosen_and_no_signs_at_all_are_read_as_before(language: str) -> None:
    agreeing = {
        "places": "50 %; 30 %; 20 %",
        "places_kind": "shares",
        "share_kind": "fixed",
        "share_value": "10 €",
        "best_series": "15 €",
        "categories": "Damen: 30 €; 15",
        "tandem_prizes": "60% 40%",
        "team_prizes": "€ 200 € 100",
        "team_kind": "amounts",
    }
    bare = {key: value.replace("€", "").replace("%", "") for key, value in agreeing.items()}
    for typed in (agreeing, bare):
        with translation.override(language):
            form = TournamentForm(ANNOUNCED | typed)
            assert form.is_valid(), form.errors
        data = form.cleaned_data
        assert (data["places"], data["share_value"], data["best_series"]) == ((5000, 3000, 2000), 1000, (1500,))
        assert data["categories"] == (("Damen", (3000, 1500)),)
        assert (data["tandem_prizes"], data["team_prizes"]) == ((6000, 4000), (20000, 10000))
    amounts = refusals_of({"places": "200 €; 20.160 €", "places_kind": "shares", "share_value": "zehn %"}, "en")
    assert amounts == {
        "places": ["“20.160” is more than a prize can be."],
        "share_value": ["Write an amount as 15, 15.50 or 15,50."],
    }


def test_a_prize_written_with_the_sign_of_the_other_kind_is_refused_next_to_its_field_on_the_announcing_page() -> None:
    typed = ANNOUNCED | {
        "places": "200 €; 160 €; 140 €",
        "places_kind": "shares",
        "places_payout": "in-full",
        "tandem_prizes": "60 € 40 €",
    }
    response = browser(make_user("olga")).post(reverse("tournaments:new"), typed)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert error_of(page, "id_places") == SHARES_IN_EUROS[0].format(part="200 €")
    assert error_of(page, "id_tandem_prizes") == SHARES_IN_EUROS[0].format(part="60 €")
    assert 'value="200 €; 160 €; 140 €"' in page
    assert "<details open>" in page
    german = browser(make_user("gerda"))
    german.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    refused = german.post(reverse("tournaments:new"), typed)
    assert refused.status_code == 400
    assert error_of(html.unescape(refused.content.decode()), "id_places") == SHARES_IN_EUROS[1].format(part="200 €")
    assert not Tournament.objects.exists()


def test_a_tournament_for_a_club_is_announced_by_its_secretary_and_run_by_its_owner() -> None:
    owner, secretary = make_user("owner"), make_user("secretary")
    club = clubs.club_create(owner=owner, name="Grand Hand")
    clubs.member_set(club=club, username="secretary", role="secretary")
    response = browser(secretary).post(reverse("tournaments:new"), ANNOUNCED | {"club": str(club.public_id)})
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.club == club
    assert browser(owner).get(desk(tournament)).status_code == 200
    assert "Preisskat im Löwen" in browser(owner).get(reverse("tournaments:list")).content.decode()


def test_the_organiser_handing_the_tournament_over_to_their_own_account_is_refused_next_to_the_name() -> None:
    tournament = announce()
    organiser = tournament.organiser
    assert organiser is not None
    client = organiser_of(tournament)
    address = reverse("tournaments:hand_over", args=[tournament.public_id])
    refused = client.post(address, {"username": f" {organiser.username} "})
    assert refused.status_code == 400
    page = html.unescape(refused.content.decode())
    assert error_of(page, "id_username") == "That is your own account: name the account that takes the tournament over."
    assert "organises the tournament now" not in page
    assert Tournament.objects.get(pk=tournament.pk).version == tournament.version
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = html.unescape(client.post(address, {"username": organiser.username}).content.decode())
    assert error_of(german, "id_username") == "Das ist dein eigenes Konto: nenne das Konto, das das Turnier übernimmt."


def test_the_desk_hands_the_tournament_over_by_the_accounts_name_in_any_case_and_says_so_next_to_the_name() -> None:
    tournament = announce()
    client = organiser_of(tournament)
    address = reverse("tournaments:hand_over", args=[tournament.public_id])
    for name in ("anna", "ANNA"):
        make_user(name)
    refused = client.post(address, {"username": "Anna"})
    assert refused.status_code == 400
    page = html.unescape(refused.content.decode())
    assert error_of(page, "id_username") == (
        "Several accounts have that name in other capital letters: write it exactly as the account you mean does."
    )
    assert 'value="Anna"' in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = html.unescape(client.post(address, {"username": "Anna"}).content.decode())
    assert error_of(german, "id_username") == (
        "Mehrere Konten haben diesen Namen in anderer Groß- und Kleinschreibung: schreib ihn genau so wie das Konto, "
        "das du meinst."
    )
    assert Tournament.objects.get(pk=tournament.pk).version == tournament.version
    bert = make_user("bert")
    assert client.post(address, {"username": "Bert"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).organiser == bert


def test_a_clubs_secretary_takes_its_tournament_over_and_naming_its_organiser_again_is_refused() -> None:
    owner, secretary = make_user("owner"), make_user("secretary")
    club = clubs.club_create(owner=owner, name="Grand Hand")
    clubs.member_set(club=club, username="secretary", role="secretary")
    tournament = announce(owner)
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    address = reverse("tournaments:hand_over", args=[tournament.public_id])
    taken = browser(secretary).post(address, {"username": "secretary"})
    assert taken.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).organiser == secretary
    again = browser(owner).post(address, {"username": "secretary"})
    assert again.status_code == 400
    assert error_of(html.unescape(again.content.decode()), "id_username") == (
        "secretary organises the tournament already."
    )


def test_the_main_menu_links_the_visitors_tournaments() -> None:
    page = browser(make_user("olga")).get(reverse("home")).content.decode()
    assert f'href="{reverse("tournaments:list")}"' in page


# --- The organiser's desk ---------------------------------------------------------------------------------------------


def test_the_door_desk_enters_a_player_who_pays_at_once() -> None:
    tournament = announce()
    client = organiser_of(tournament)
    page = client.get(desk(tournament)).content.decode()
    assert 'name="door-paid" id="id_door-paid" checked' in page  # paid at once, unless the desk unticks it
    response = client.post(
        reverse("tournaments:door", args=[tournament.public_id]),
        {"door-name": "Hanna Schulz", "door-club": "SC Löwe", "door-category": "Damen", "door-paid": "on"},
    )
    # No fragment: a browser skips autofocus on a page opened at one (the browser test sees the field take the focus).
    assert response["Location"] == desk(tournament) + "?next=door"
    # The next player is typed at once: the name field has the focus.
    assert 'id="id_door-name" maxlength="100" autofocus' in client.get(response["Location"]).content.decode()
    entry = Entry.objects.get()
    assert (entry.name, entry.club, entry.category and entry.category.name, entry.channel) == (
        "Hanna Schulz",
        "SC Löwe",
        "Damen",
        "door",
    )
    assert list(Payment.objects.values_list("amount", flat=True)) == [ENTRY_FEE]
    page = client.get(desk(tournament)).content.decode()
    assert "1 entry" in page
    assert "1 paid the entry fee" in page
    assert "owes" not in page


def test_the_door_desk_tells_a_door_entrant_their_code_and_keeps_it_from_the_public_pages() -> None:
    """A door entrant finds their entry and adds it to their record with its code, as an online entrant does: the desk
    says the code on entering and lists it with the entry; the tournament's public pages never show it."""
    tournament = announce()
    client = organiser_of(tournament)
    response = client.post(
        reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Carla Roth"}, follow=True
    )
    entry = Entry.objects.get()
    assert f"Carla Roth is entered, with the confirmation code {entry.code}." in response.content.decode()
    assert tournament.organiser is not None
    german = Client(headers={"accept-language": "de"})
    german.force_login(tournament.organiser)
    answer = german.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Dora"}, follow=True)
    dora = Entry.objects.get(name="Dora")
    assert f"Dora ist gemeldet, mit dem Bestätigungscode {dora.code}." in answer.content.decode()
    found = client.get(desk(tournament), {"find": "Carla"}).content.decode()
    assert f'<span class="entry-code">code {entry.code}</span>' in found
    assert f"code {dora.code}" in client.get(desk(tournament)).content.decode()
    for name in ("detail", "results", "live", "prizes"):
        for visitor in (browser(None), browser(make_user(f"reader-{name}"))):
            page = visitor.get(reverse(f"tournaments:{name}", args=[tournament.public_id]))
            assert page.status_code == 200
            assert entry.code not in page.content.decode()
            assert dora.code not in page.content.decode()
    # The organiser sees her entry's page with its code, and is never offered to add it to their own record.
    confirmation = client.get(reverse("tournaments:entry", args=[entry.public_id])).content.decode()
    assert entry.code in confirmation
    assert "Add this entry to my record" not in confirmation
    # With the code the desk told her, Carla adds her entry to her record.
    carla = browser(make_user("carla"))
    claimed = carla.post(reverse("tournaments:claim", args=[tournament.public_id]), {"code-code": entry.code})
    assert claimed["Location"] == reverse("player_me")
    assert Person.objects.get(account__username="carla").players.filter(pk=entry.player_id).exists()


def test_the_door_desk_takes_an_entry_without_payment_when_unticked() -> None:
    tournament = announce()
    client = organiser_of(tournament)
    client.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Hanna Schulz"})
    assert not Payment.objects.exists()
    page = client.get(desk(tournament)).content.decode()
    assert f"owes 15.00{NO_BREAK}€" in page
    entry = Entry.objects.get()
    assert client.post(reverse("tournaments:entry_pay", args=[entry.public_id]), {"paid": "0"}).status_code == 302
    assert list(Payment.objects.values_list("amount", flat=True)) == [ENTRY_FEE]


def test_a_pay_pressed_twice_or_by_two_cashiers_takes_the_money_once() -> None:
    """Both presses carry what the desk showed paid (nothing): the second finds a payment recorded since and is
    refused with a message that says so, and the entrant has paid the fee once."""
    tournament = announce()
    client, other = organiser_of(tournament), organiser_of(tournament)
    client.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Hanna Schulz"})
    entry = Entry.objects.get()
    page = client.get(desk(tournament)).content.decode()
    assert '<input type="hidden" name="paid" value="0">' in page
    address = reverse("tournaments:entry_pay", args=[entry.public_id])
    client.post(address, {"paid": "0"})
    answer = other.post(address, {"paid": "0"}, follow=True)
    assert list(Payment.objects.values_list("amount", flat=True)) == [ENTRY_FEE]
    assert (
        f"Hanna Schulz has paid 15.00{NO_BREAK}€ meanwhile (the list showed 0.00{NO_BREAK}€): nothing more was taken."
        in html.unescape(answer.content.decode())
    )


def test_a_pay_meeting_a_payment_through_the_api_is_refused() -> None:
    tournament = announce()
    client = organiser_of(tournament)
    client.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Hanna Schulz"})
    entry = Entry.objects.get()
    api = APIClient()
    api.force_authenticate(tournament.organiser)
    paid = api.post(
        f"/api/v1/tournaments/{tournament.public_id}/entries/{entry.public_id}/payments/",
        {},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert paid.status_code == 201, paid.content
    client.post(reverse("tournaments:entry_pay", args=[entry.public_id]), {"paid": "0"})
    assert list(Payment.objects.values_list("amount", flat=True)) == [ENTRY_FEE]


def test_the_desk_takes_back_a_payment_taken_from_the_wrong_entrant() -> None:
    """A Pay tapped on the wrong line: the desk takes that payment back with a correction beside it, once."""
    tournament = announce()
    client = organiser_of(tournament)
    door = reverse("tournaments:door", args=[tournament.public_id])
    client.post(door, {"door-name": "Anna Berg", "door-paid": "on"})
    client.post(door, {"door-name": "Änne Berg"})
    wrong = Entry.objects.get(name="Anna Berg")
    page = html.unescape(client.get(desk(tournament)).content.decode())
    assert "<summary>Take back the payment</summary>" in page
    assert f"Take back 15.00{NO_BREAK}€ from Anna Berg" in page
    assert "from Änne Berg" not in page
    take_back = reverse("tournaments:entry_take_back", args=[wrong.public_id])
    answer = client.post(take_back, {"paid": str(ENTRY_FEE)}, follow=True)
    assert f"15.00{NO_BREAK}€ taken back from Anna Berg." in html.unescape(answer.content.decode())
    assert list(Payment.objects.filter(entry=wrong).values_list("amount", flat=True)) == [ENTRY_FEE, -ENTRY_FEE]
    assert "Take back" not in html.unescape(client.get(desk(tournament)).content.decode())
    # The same tap again (a double tap, a page shown before): nothing more is taken back.
    again = client.post(take_back, {"paid": str(ENTRY_FEE)}, follow=True)
    assert "Anna Berg has no payment to take back." in html.unescape(again.content.decode())
    assert Payment.objects.filter(entry=wrong).count() == 2


def test_a_pay_from_a_page_without_what_it_showed_takes_nothing() -> None:
    tournament = announce()
    client = organiser_of(tournament)
    client.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Hanna Schulz"})
    entry = Entry.objects.get()
    answer = client.post(reverse("tournaments:entry_pay", args=[entry.public_id]), follow=True)
    assert not Payment.objects.exists()
    assert "nothing was taken" in html.unescape(answer.content.decode())


@pytest.mark.parametrize(
    ("action", "said"),
    [
        ("tournaments:entry_pay", "The list had changed: nothing was taken. Here is what is owed now."),
        ("tournaments:entry_take_back", "The list had changed: nothing was taken back. Here is what is paid now."),
    ],
)
def test_a_pay_or_take_back_from_a_page_that_showed_a_paid_below_nought_takes_nothing(action: str, said: str) -> None:
    tournament = announce()
    client = organiser_of(tournament)
    client.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Hanna Schulz"})
    entry = Entry.objects.get()
    answer = client.post(reverse(action, args=[entry.public_id]), {"paid": "-1"}, follow=True)
    assert answer.status_code == 200
    assert not Payment.objects.exists()
    assert said in html.unescape(answer.content.decode())


def test_a_take_back_from_a_desk_shown_before_another_payment_takes_nothing_back_and_says_so() -> None:
    """The desk showed 15 € paid; a second cashier took 5 € more meanwhile: the take back refuses, in its own words."""
    tournament = announce()
    client = organiser_of(tournament)
    client.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Anna Berg", "door-paid": "on"})
    entry = Entry.objects.get()
    tournaments.entry_pay(entry=entry, amount=500)
    take_back = reverse("tournaments:entry_take_back", args=[entry.public_id])
    answer = html.unescape(client.post(take_back, {"paid": str(ENTRY_FEE)}, follow=True).content.decode())
    assert (
        f"Anna Berg has paid 20.00{NO_BREAK}€ meanwhile (the list showed 15.00{NO_BREAK}€): nothing was taken back. "
        "The list shows what is paid now."
    ) in answer
    assert list(Payment.objects.values_list("amount", flat=True)) == [ENTRY_FEE, 500]


def test_a_player_entered_twice_is_refused_next_to_the_name() -> None:
    tournament = announce()
    client = organiser_of(tournament)
    door = reverse("tournaments:door", args=[tournament.public_id])
    client.post(door, {"door-name": "Hanna Schulz", "door-club": "SC Löwe", "door-paid": "on"})
    response = client.post(door, {"door-name": "Hanna  Schulz", "door-club": "SC Löwe", "door-paid": "on"})
    assert response.status_code == 400
    assert "has entered already" in error_of(response.content.decode(), "id_door-name")
    assert Entry.objects.count() == 1


def test_an_entry_after_the_draw_is_refused_next_to_the_name() -> None:
    tournament = announce()
    enter_field(tournament, 7)
    tournaments.series_draw(tournament=tournament, number=1)
    client = organiser_of(tournament)
    assert "Entry at the door" not in client.get(desk(tournament)).content.decode()
    response = client.post(reverse("tournaments:door", args=[tournament.public_id]), {"door-name": "Spät Kommer"})
    assert response.status_code == 400
    assert "entries are closed" in error_of(response.content.decode(), "id_door-name")
    online = browser(None).post(reverse("tournaments:enter", args=[tournament.public_id]), {"name": "Spät Kommer"})
    assert online.status_code == 400
    assert "entries are closed" in error_of(online.content.decode(), "id_name")
    assert Entry.objects.count() == 7


def test_the_desk_takes_an_online_entrants_payment_by_the_code_they_show() -> None:
    tournament = announce()
    entry = tournaments.entry_register_online(
        tournament=tournament, form=tournaments.EntryForm("Ida Berg", category="Damen")
    )
    client = organiser_of(tournament)
    payment = reverse("tournaments:payment", args=[tournament.public_id])
    response = client.post(payment, {"code-code": f" {entry.code.lower()} "}, follow=True)
    assert f"Ida Berg (Damen) paid 15.00{NO_BREAK}€." in response.content.decode()
    assert list(Payment.objects.values_list("entry", "amount")) == [(entry.pk, ENTRY_FEE)]
    again = client.post(payment, {"code-code": entry.code})
    assert again.status_code == 400
    assert "has nothing to pay" in error_of(again.content.decode(), "id_code-code")
    wrong = client.post(payment, {"code-code": "ZZZZZZ"})
    assert "No entry of this tournament has that code." in error_of(wrong.content.decode(), "id_code-code")
    assert Payment.objects.count() == 1


def test_tandems_and_teams_enter_before_the_first_draw_and_a_wrong_one_is_refused_next_to_its_players() -> None:
    tournament = announce(tandem_fee=500)
    entries = enter_field(tournament, 8)
    client = organiser_of(tournament)
    sides = reverse("tournaments:sides", args=[tournament.public_id])
    pair = [str(entry.public_id) for entry in entries[:2]]
    response = client.post(sides, {"side-kind": "tandem", "side-name": "Die Zwei", "side-entries": pair})
    assert response.status_code == 302
    assert Side.objects.get().name == "Die Zwei"
    three = [str(entry.public_id) for entry in entries[2:5]]
    refused = client.post(sides, {"side-kind": "tandem", "side-name": "Die Drei", "side-entries": three})
    assert refused.status_code == 400
    assert "needs 2 different players" in error_of(refused.content.decode(), "id_side-entries")
    assert Side.objects.count() == 1
    # A tandem's fee is owed on entry: the desk shows it.
    assert f"owes 5.00{NO_BREAK}€" in client.get(desk(tournament)).content.decode()


def test_the_organiser_draws_plays_and_closes_a_series_from_the_desk() -> None:
    tournament = announce()
    enter_field(tournament, 7)
    client = organiser_of(tournament)
    page = client.get(desk(tournament)).content.decode()
    assert "Draw series 1" in page
    tournament.refresh_from_db()
    draw = reverse("tournaments:draw", args=[tournament.public_id])
    response = client.post(draw, {"series": "1", "version": str(tournament.version), "seating": "draw"})
    assert response.status_code == 302
    tables = list(Table.objects.filter(series__tournament=tournament).select_related("match").order_by("number"))
    assert [len(seated(table)) for table in tables] == [4, 3]
    page = client.get(desk(tournament)).content.decode()
    for table in tables:
        assert str(table.match.invite_token) in page  # each table's QR link, to score on a phone
        assert all(entry.name in page for entry in seated(table))
    assert page.count("<svg") >= 2
    assert "Close series 1" not in page
    assert "Series 1 closes once every table's list is complete." in page
    for table in tables:
        data: dict[str, str] = {}
        for index, _entry in enumerate(seated(table)):
            points, won, lost = paper_totals(index + 1, index % 2, 5)
            data |= {f"points_{index}": str(points), f"won_{index}": str(won), f"lost_{index}": str(lost)}
        paper = reverse("tournaments:paper", args=[tournament.public_id, 1, table.number])
        assert client.get(paper).status_code == 200
        response = client.post(paper, data)
        assert response.status_code == 302, response.content.decode()
    page = client.get(desk(tournament)).content.decode()
    assert "Close series 1" in page
    response = client.post(reverse("tournaments:close", args=[tournament.public_id, 1]))
    assert response.status_code == 302
    assert Series.objects.get(tournament=tournament).closed_at is not None
    page = client.get(desk(tournament)).content.decode()
    assert "Draw series 2" in page
    assert "by the standings" in page


def test_a_desk_that_lost_the_race_to_draw_a_series_shows_it_drawn_meanwhile() -> None:
    """Two desks open on the tournament draw series 1 at once: the first draws it; the second is told series 1 was
    drawn meanwhile and shows the desk as it stands, series 1's tables and no draw for it; so does a post of a
    series drawn already from a desk that is up to date."""
    tournament = announce()
    enter_field(tournament, 7)
    tournament.refresh_from_db()
    shown = {"series": "1", "version": str(tournament.version), "seating": "draw"}
    first, second = organiser_of(tournament), organiser_of(tournament)
    draw = reverse("tournaments:draw", args=[tournament.public_id])
    assert first.post(draw, shown).status_code == 302
    tournament.refresh_from_db()
    for sent in (shown, {**shown, "version": str(tournament.version)}):
        lost = second.post(draw, sent)
        assert lost.status_code == 409
        page = html.unescape(lost.content.decode())
        assert re.search(r'<p class="error" role="alert">Series 1 was drawn meanwhile; nothing was changed.</p>', page)
        assert "Draw series 1" not in page
        assert 'id="table-1"' in page
        assert 'id="table-2"' in page
    assert Series.objects.count() == 1
    assert Table.objects.count() == 2


def test_a_desk_older_than_the_tournament_is_refused_once_and_draws_from_the_desk_it_shows_then() -> None:
    """A player entered at the door on another desk after this one was loaded: the draw from it is refused, said in
    the draw's place, and the desk shown with the refusal lists the late player and draws with the version it
    shows, in both languages."""
    tournament = announce()
    enter_field(tournament, 7)
    tournament.refresh_from_db()
    shown = {"series": "1", "version": str(tournament.version), "seating": "draw"}
    tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Zora Zander"))
    client = organiser_of(tournament)
    draw = reverse("tournaments:draw", args=[tournament.public_id])
    refused = client.post(draw, shown)
    assert refused.status_code == 409
    page = html.unescape(refused.content.decode())
    said = "The tournament changed since this page was loaded; nothing was changed."
    assert re.search(rf'<section id="draw".*<p class="error" role="alert">{re.escape(said)}</p>', page, re.S)
    assert "Zora Zander" in page
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    assert not Series.objects.exists()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = html.unescape(client.post(draw, shown).content.decode())
    assert "Das Turnier hat sich geändert, seit diese Seite geladen wurde; nichts wurde geändert." in german
    assert client.post(draw, {**shown, "version": version[1]}).status_code == 302
    assert Table.objects.filter(seats__entry__name="Zora Zander").exists()
    again = html.unescape(client.post(draw, shown).content.decode())
    assert "Serie 1 wurde inzwischen ausgelost; nichts wurde geändert." in again


def test_a_draw_refused_for_a_payment_taken_meanwhile_keeps_the_seating_chosen() -> None:
    """The cashier takes a fee while the organiser chooses to seat series 2 by the standings: the refused desk offers
    the draw again with that choice still made, so that the next tap seats as chosen and never draws by lot."""
    tournament = announce()
    entries = enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1)
    first = Series.objects.get(tournament=tournament, number=1)
    play_series(first)
    tournaments.series_close(series=first, user=None)
    tournament.refresh_from_db()
    shown = {"series": "2", "version": str(tournament.version), "seating": "standings"}
    tournaments.entry_pay(entry=entries[0], amount=LIST_FEE, user=None)
    client = organiser_of(tournament)
    refused = client.post(reverse("tournaments:draw", args=[tournament.public_id]), shown)
    assert refused.status_code == 409
    page = refused.content.decode()
    chosen = re.search(r'<input type="radio" name="seating" value="(\w+)"[^>]*checked', page)
    assert chosen is not None
    assert chosen[1] == "standings"


def test_a_paper_list_that_no_series_can_produce_is_refused_next_to_its_numbers() -> None:
    tournament = announce()
    enter_field(tournament, 7)
    tournaments.series_draw(tournament=tournament, number=1)
    table = Table.objects.get(series__tournament=tournament, number=2)
    data = {f"{field}_{seat}": "0" for field in ("points", "won", "lost") for seat in range(3)} | {"won_0": "40"}
    response = organiser_of(tournament).post(
        reverse("tournaments:paper", args=[tournament.public_id, 1, table.number]), data
    )
    assert response.status_code == 400
    assert "The list is not entered yet" in response.content.decode()
    table.refresh_from_db()
    assert not table.paper


def test_closing_a_series_with_a_table_short_of_games_says_which() -> None:
    tournament = announce()
    enter_field(tournament, 7)
    tournaments.series_draw(tournament=tournament, number=1)
    response = organiser_of(tournament).post(reverse("tournaments:close", args=[tournament.public_id, 1]), follow=True)
    assert "Table 1 of series 1 has 0 of 16 games." in response.content.decode()
    assert Series.objects.get().closed_at is None


def test_a_player_withdraws_between_series_and_not_while_one_is_played() -> None:
    tournament = announce()
    entries = enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1)
    client = organiser_of(tournament)
    withdraw = reverse("tournaments:entry_withdraw", args=[entries[0].public_id])
    refused = client.post(withdraw, follow=True)
    assert "Series 1 is being played" in refused.content.decode()
    play_series(Series.objects.get(tournament=tournament))
    tournaments.series_close(series=Series.objects.get(tournament=tournament), user=None)
    assert client.post(withdraw).status_code == 302
    entries[0].refresh_from_db()
    assert entries[0].withdrawn_after == 1
    assert "withdrew after series 1" in client.get(desk(tournament)).content.decode()


# --- Online entry and the confirmation --------------------------------------------------------------------------------


def test_anybody_enters_online_and_sees_the_confirmation_to_show_at_the_door() -> None:
    tournament = announce()
    visitor = browser(None)
    detail = visitor.get(reverse("tournaments:detail", args=[tournament.public_id])).content.decode()
    assert "Enter online" in detail
    assert "Organiser's desk" not in detail
    shares = ("20", "16", "14", "12", "11", "10.5", "10", "6.5")
    assert " · ".join(f"{share}{NO_BREAK}%" for share in shares) in detail  # the schedule, in shares
    response = visitor.post(
        reverse("tournaments:enter", args=[tournament.public_id]),
        {"name": "Ida Berg", "club": "SC Löwe", "category": "Damen"},
    )
    entry = Entry.objects.get()
    assert response["Location"] == reverse("tournaments:entry", args=[entry.public_id])
    page = visitor.get(response["Location"]).content.decode()
    assert f'<p class="code" aria-describedby="code-title">{entry.code}</p>' in page
    assert "Ida Berg" in page
    assert "Damen" in page
    assert f"To pay: 15.00{NO_BREAK}€" in page
    assert visitor.session[LINKS_SESSION_KEY] == {str(entry.public_id): entry.code}
    # Nobody else sees it.
    assert browser(None).get(response["Location"]).status_code == 302
    assert browser(make_user("stranger")).get(response["Location"]).status_code == 404
    tournaments.entry_pay(entry=entry)
    assert "Paid" in visitor.get(response["Location"]).content.decode()


def test_a_signed_in_entrant_finds_the_entry_in_their_tournaments() -> None:
    tournament = announce()
    entrant = make_user("ida")
    client = browser(entrant)
    client.post(reverse("tournaments:enter", args=[tournament.public_id]), {"name": "Ida Berg"})
    entry = Entry.objects.get()
    assert entry.account == entrant
    listed = client.get(reverse("tournaments:list")).content.decode()
    assert reverse("tournaments:entry", args=[entry.public_id]) in listed


def _rows_read(client: Client, address: str) -> int:
    """How many rows the page's reads return: each query it makes, run again and counted."""
    assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    rows = 0
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            if query["sql"].startswith("SELECT"):
                cursor.execute(query["sql"])
                rows += len(cursor.fetchall())
    return rows


@pytest.mark.parametrize("viewer", ["entrant", "organiser"])
def test_an_entrants_confirmation_reads_their_own_rows_however_many_entered(viewer: str) -> None:
    """The page a room of phones opens at the door and between series: what one entrant owes, from their lists
    and payments alone, never the whole room's."""
    read = []
    for count in (8, 32):
        tournament = announce()
        entry, *_ = enter_field(tournament, count, online=1)
        for number in (1, 2):
            tournaments.series_draw(tournament=tournament, number=number)
            series = Series.objects.get(tournament=tournament, number=number)
            play_series(series, phones=(1,), salt=number)
            if number == 1:
                tournaments.series_close(series=series, user=None)
        client = organiser_of(tournament) if viewer == "organiser" else browser(None)
        if viewer == "entrant":
            client.post(reverse("tournaments:find", args=[tournament.public_id]), {"code-code": entry.code})
        address = reverse("tournaments:entry", args=[entry.public_id])
        line = tournament_results(tournament).cashier.lines[0]
        assert euros(line.owed, unbroken=True) in html.unescape(client.get(address).content.decode())
        read.append(_rows_read(client, address))
    assert read[1] == read[0]


@pytest.mark.parametrize(
    ("payout", "said"),
    [
        ("in-full", f"60.00{NO_BREAK}€ · 40.00{NO_BREAK}€ (all of the prize money, in these proportions)"),
        ("as-announced", f"60.00{NO_BREAK}€ · 40.00{NO_BREAK}€</dd>"),
    ],
)
def test_the_tournaments_page_says_whether_its_prizes_share_out_all_of_the_prize_money(payout: str, said: str) -> None:
    """Amounts paid out in full are proportions: a room larger than they reckoned with wins more than they say."""
    tournament = announce(places=tournaments.Schedule((6000, 4000), "amounts", payout))
    detail = browser(None).get(reverse("tournaments:detail", args=[tournament.public_id])).content.decode()
    assert said in detail


@pytest.mark.parametrize("keeps", [True, False])
@pytest.mark.parametrize(
    ("language", "fees", "share", "where"),
    [
        (
            "en",
            f"0.50{NO_BREAK}€ from lost game 1 · 1.00{NO_BREAK}€ from lost game 4 · 3.00{NO_BREAK}€ from lost game 6",
            f"10{NO_BREAK}% of the prize pot",
            {True: "kept by the organiser", False: "into the prize pot"},
        ),
        (
            "de",
            f"0,50{NO_BREAK}€ ab dem 1. Verlustspiel · 1,00{NO_BREAK}€ ab dem 4. Verlustspiel · "
            f"3,00{NO_BREAK}€ ab dem 6. Verlustspiel",
            f"10{NO_BREAK}% vom Preistopf",
            {True: "behält der Veranstalter", False: "in den Preistopf"},
        ),
    ],
)
def test_the_tournaments_page_announces_its_fees_for_lost_games_and_the_organisers_share(
    language: str, fees: str, share: str, where: dict[bool, str], keeps: bool
) -> None:
    """Entrants pay them: the announcement says both, and whether the list and lost-game fees go to the organiser
    or into the prize pot, in the facts the phone and the desktop show alike."""
    tournament = announce(share_kind="percent", share_value=1000, keeps_list_fees=keeps, keeps_lost_game_fees=keeps)
    fees = f"{fees} ({where[keeps]})"
    reader = browser(None)
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = html.unescape(reader.get(reverse("tournaments:detail", args=[tournament.public_id])).content.decode())
    facts = re.search(r'<dl class="facts">.*?</dl>', page, re.S)
    assert facts is not None
    dt = {
        "en": ("Fees for lost games", "The organiser's share"),
        "de": ("Verlustspielgeld", "Anteil des Veranstalters"),
    }
    assert f"<dt>{dt[language][0]}</dt><dd>{fees}</dd>" in facts[0]
    assert f"<dt>{dt[language][1]}</dt><dd>{share}</dd>" in facts[0]
    assert f"· {'2.00' if language == 'en' else '2,00'}{NO_BREAK}€ " in facts[0]
    assert f"€ {'a list' if language == 'en' else 'je Liste'} ({where[keeps]})</dd>" in facts[0]


def test_the_tournaments_page_announces_a_fixed_share_and_says_nothing_of_fees_or_a_share_it_has_not() -> None:
    fixed = announce(share_kind="fixed", share_value=2500)
    page = html.unescape(browser(None).get(reverse("tournaments:detail", args=[fixed.public_id])).content.decode())
    assert f"<dt>The organiser's share</dt><dd>25.00{NO_BREAK}€</dd>" in page
    none = announce(lost_game_tiers=(), share_value=0)
    page = browser(None).get(reverse("tournaments:detail", args=[none.public_id])).content.decode()
    assert "Fees for lost games" not in page
    assert "share" not in page.split('<dl class="facts">')[1].split("</dl>")[0]


def _finished(tournament: Tournament) -> None:
    """Every series of the tournament drawn, played from paper and closed."""
    for number in range(1, tournament.series + 1):
        tournaments.series_draw(tournament=tournament, number=number)
        series = Series.objects.get(tournament=tournament, number=number)
        play_series(series, salt=number)
        tournaments.series_close(series=series, user=None)


@pytest.mark.parametrize("language", ["en", "de"])
def test_once_every_series_is_closed_an_entrants_page_shows_their_place_winnings_and_balance(language: str) -> None:
    """As the cashier's list has them: what they won, and what the cashier hands them or still takes; no more the
    code to show at the door."""
    tournament = announce(series=2)
    enter_field(tournament, 24)
    _finished(tournament)
    results = tournament_results(tournament)
    words = {
        "en": ("Place {place}", "Won: {won}", "To receive: {amount}", "To pay: {amount}", "Show this code"),
        "de": ("Platz {place}", "Gewonnen: {won}", "Du bekommst: {amount}", "Zu zahlen: {amount}", "Zeige diesen Code"),
    }[language]
    lines = {line.player: line for line in results.cashier.lines}
    # The winner, and the lowest place that won nothing (the last may have won a category's prize, as the draw fell).
    empty_handed = next(place for place in reversed(results.standings) if lines[place.standing.player].won == 0)
    seen = set()
    for place in (results.standings[0], empty_handed):
        entry = results.entry(place.standing.player)
        assert entry is not None
        line = lines[place.standing.player]
        phone = browser(None)
        phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        phone.post(reverse("tournaments:find", args=[tournament.public_id]), {"code-code": entry.code})
        page = html.unescape(phone.get(reverse("tournaments:entry", args=[entry.public_id])).content.decode())
        with translation.override(language):
            assert words[0].format(place=place.place) in page
            assert words[1].format(won=euros(line.won, unbroken=True)) in page
            if line.balance > 0:
                assert words[2].format(amount=euros(line.balance, unbroken=True)) in page
            elif line.balance < 0:
                assert words[3].format(amount=euros(-line.balance, unbroken=True)) in page
        assert words[4] not in page
        seen.add((line.won > 0, (line.balance > 0) - (line.balance < 0)))
    # The winner is handed money; one who won nothing still owes their list and lost-game fees.
    assert seen == {(True, 1), (False, -1)}


def test_an_entrants_page_says_the_prizes_cannot_be_paid_as_announced_rather_than_that_the_winner_won_nothing() -> None:
    """Prizes by place beyond the prize money: the cashier's list pays none, and the entrant's page says why instead
    of "Won: 0.00 €" and a balance that leaves their prize out; what they still owe in fees stands as it would."""
    tournament = announce(
        series=2, places=tournaments.Schedule((900000, 500000), kind="amounts", payout="as-announced")
    )
    enter_field(tournament, 12)
    _finished(tournament)
    results = tournament_results(tournament)
    assert results.problems
    winner = results.entry(results.standings[0].standing.player)
    assert winner is not None
    phone = browser(None)
    phone.post(reverse("tournaments:find", args=[tournament.public_id]), {"code-code": winner.code})
    page = html.unescape(phone.get(reverse("tournaments:entry", args=[winner.public_id])).content.decode())
    assert "Place 1" in page
    assert "The prizes cannot be paid as announced" in page
    assert "The prizes by place pay out 14,000.00" in page
    assert "Won:" not in page
    assert "To receive:" not in page


def test_while_the_tournament_runs_an_entrants_page_shows_what_they_owe_and_the_code_for_the_door() -> None:
    tournament = announce(series=2)
    entry, *_ = enter_field(tournament, 12)
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament, number=1)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    phone = browser(None)
    phone.post(reverse("tournaments:find", args=[tournament.public_id]), {"code-code": entry.code})
    page = html.unescape(phone.get(reverse("tournaments:entry", args=[entry.public_id])).content.decode())
    owed = tournament_results(tournament).cashier.lines[0].owed
    assert f"To pay: {euros(owed, unbroken=True)}" in page
    assert "Show this code at the door." in page
    assert "Won:" not in page
    assert "Place " not in page


def test_an_entrant_who_withdrew_still_reads_what_they_owe_on_their_entry() -> None:
    tournament = announce()
    entry, *_ = enter_field(tournament, 8, online=1)
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    tournaments.entry_withdraw(entry=entry)
    owed = tournament_results(tournament).cashier.lines[0].owed
    assert owed > 0
    phone = browser(None)
    phone.post(reverse("tournaments:find", args=[tournament.public_id]), {"code-code": entry.code})
    page = html.unescape(phone.get(reverse("tournaments:entry", args=[entry.public_id])).content.decode())
    assert "withdrew after series 1" in page
    assert f"To pay: {euros(owed, unbroken=True)}" in page


def test_an_entry_withdrawn_before_the_first_series_is_said_so_and_not_after_series_0() -> None:
    tournament = announce()
    entry = tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Ida Berg"))
    tournaments.entry_withdraw(entry=entry)
    phone = browser(None)
    phone.post(reverse("tournaments:find", args=[tournament.public_id]), {"code-code": entry.code})
    page = phone.get(reverse("tournaments:entry", args=[entry.public_id])).content.decode()
    assert "withdrew before series 1" in page
    assert "To pay" not in page
    listed = organiser_of(tournament).get(desk(tournament)).content.decode()
    assert "withdrew before series 1" in listed
    assert "series 0" not in listed


def test_an_entrant_finds_the_confirmation_again_by_its_code() -> None:
    tournament = announce()
    entry = tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Ida Berg"))
    phone = browser(None)
    find = reverse("tournaments:find", args=[tournament.public_id])
    response = phone.post(find, {"code-code": entry.code.lower()})
    assert response["Location"] == reverse("tournaments:entry", args=[entry.public_id])
    assert phone.get(response["Location"]).status_code == 200
    # A code that finds nothing is said next to it, the code kept as typed and the part of the page open.
    wrong = browser(None).post(find, {"code-code": "zz zzzz"})
    assert wrong.status_code == 400
    text = wrong.content.decode()
    assert error_of(text, "id_code-code") == "No entry of this tournament has that code."
    assert 'value="zz zzzz"' in text
    assert '<details id="mine" open>' in text


def test_an_online_entry_with_somebody_elses_federation_number_is_refused_next_to_the_number() -> None:
    tournament = announce()
    enter = reverse("tournaments:enter", args=[tournament.public_id])
    browser(None).post(enter, {"name": "Ida Berg", "federation_number": "4711"})
    response = browser(None).post(enter, {"name": "Udo Lang", "federation_number": "4711"})
    assert response.status_code == 400
    text = response.content.decode()
    assert error_of(text, "id_federation_number") == "This federation number is entered already."
    assert "Ida Berg" not in text
    assert 'value="Udo Lang"' in text
    assert Entry.objects.count() == 1


def test_a_full_room_is_said_before_an_entrant_fills_in_the_online_entry() -> None:
    tournament = announce(seats=8)
    enter_field(tournament, 7)
    visitor = browser(None)
    detail = reverse("tournaments:detail", args=[tournament.public_id])
    enter = reverse("tournaments:enter", args=[tournament.public_id])
    assert enter in visitor.get(detail).content.decode()
    tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Zora Zander"))
    full = "The room seats 8 players: the tournament is full."
    page = visitor.get(detail).content.decode()
    assert full in page
    assert f'href="{enter}"' not in page
    form = visitor.get(enter).content.decode()
    assert full in form
    assert 'name="name"' not in form


def test_an_online_entry_without_a_name_is_refused_next_to_the_name() -> None:
    tournament = announce()
    response = browser(None).post(reverse("tournaments:enter", args=[tournament.public_id]), {"name": " "})
    assert response.status_code == 400
    assert error_of(response.content.decode(), "id_name")
    assert not Entry.objects.exists()


# --- Results ----------------------------------------------------------------------------------------------------------


def played(series: int = 1) -> Tournament:
    tournament = announce()
    enter_field(tournament, 11, online=2)
    for number in range(1, series + 1):
        tournaments.series_draw(tournament=tournament, number=number)
        drawn = Series.objects.get(tournament=tournament, number=number)
        play_series(drawn, phones=(1,), salt=number)
        tournaments.series_close(series=drawn, user=None)
    return tournament


def test_the_results_are_offered_as_files_only_once_they_hold_a_list() -> None:
    tournament = announce()
    enter_field(tournament, 11, online=2)
    address = reverse("tournaments:results", args=[tournament.public_id])
    standings = reverse("download-tournament-standings", args=[tournament.public_id, "csv"])
    assert standings.removesuffix("csv") not in browser(None).get(address).content.decode()
    tournaments.series_draw(tournament=tournament, number=1)
    played_one = Series.objects.get(tournament=tournament, number=1)
    play_series(played_one, phones=(1,), salt=1)
    page = browser(None).get(address).content.decode()
    assert standings.removesuffix("csv") in page
    assert "Download series 1" in page


def test_the_results_show_the_total_and_every_series_for_everybody() -> None:
    tournament = played(series=2)
    results = tournament_results(tournament)
    page = browser(None).get(reverse("tournaments:results", args=[tournament.public_id])).content.decode()
    leader = results.entry(results.standings[0].standing.player)
    assert leader is not None
    assert leader.name in page
    assert "Series 1" in page
    assert "Series 2" in page
    assert "<summary>Damen</summary>" in page
    assert "<summary>Best series</summary>" in page
    assert "Cashier's list" not in page


def test_the_results_mark_an_entrant_who_withdrew_in_every_ranking_they_stand_in_in_english_and_german() -> None:
    """A withdrawn entrant keeps the places their lists give them, marked with the live page's words, so that the
    official results do not read as if they had simply scored less; the mark costs no query of its own."""
    tournament = played(series=1)
    address = reverse("tournaments:results", args=[tournament.public_id])
    client = browser(None)
    client.get(address)
    with CaptureQueriesContext(connection) as before:
        client.get(address)
    gone = tournaments.entry_withdraw(entry=Entry.objects.filter(tournament=tournament).order_by("created_at")[3])
    with CaptureQueriesContext(connection) as after:
        page = client.get(address).content.decode()
    assert len(after) == len(before)
    total = page[page.index('<section id="total">') : page.index('<section id="series-1">')]
    row = re.search(rf'<td class="name">(?:<a [^>]*>)?{re.escape(gone.name)}(?:</a>)?(.*?)</td>', total, re.S)
    assert row is not None
    assert "withdrew after series 1" in row[1]
    assert total.count("withdrew after series") == 1
    series = page[page.index('<section id="series-1">') :]
    assert "withdrew after series 1" in series
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    german = client.get(address).content.decode()
    assert "nach Serie 1 zurückgetreten" in german
    assert "withdrew after series" not in german


def test_a_tandems_place_in_the_results_is_not_marked_for_an_entrant_who_has_its_name_and_withdrew() -> None:
    tournament = announce(tandem_fee=500)
    entries = enter_field(tournament, 8)
    tournaments.side_enter(tournament=tournament, kind="tandem", name=entries[0].name, entries=entries[1:3])
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    tournaments.entry_withdraw(entry=entries[0])
    page = browser(None).get(reverse("tournaments:results", args=[tournament.public_id])).content.decode()
    assert "withdrew after series 1" in page  # the entrant's own places
    tandems = page[page.index("<summary>Tandems</summary>") :]
    tandems = tandems[: tandems.index("</table>")]
    row = re.search(rf'<td class="name">{re.escape(entries[0].name)}(.*?)</td>', tandems, re.S)
    assert row is not None
    assert row[1] == ""
    assert "withdrew" not in tandems


def test_the_prize_list_is_public_and_names_each_winner() -> None:
    tournament = played()
    results = tournament_results(tournament)
    page = browser(None).get(reverse("tournaments:prizes", args=[tournament.public_id])).content.decode()
    first = results.entry(results.prizes[0].winner)
    assert first is not None
    assert first.name in page
    assert f"Place{NO_BREAK}1" in page
    assert f"Damen, place{NO_BREAK}1" in page


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_amount_and_a_share_on_a_page_keep_their_sign_on_their_line(language: str) -> None:
    """A no-break space between a figure and its € or %, as CLDR writes them: a narrow column never ends a line
    with the figure and starts the next with its sign. A file keeps a plain space (a no-break one would be an odd
    character in a spreadsheet's cell or a text)."""
    tournament = played()
    results = tournament_results(tournament)
    with translation.override(language):
        first = amount_label(results.prizes[0].amount)
        assert prize_sheet(results).printed_rows()[0][-1] == f"{first} €"
    reader = browser(None)
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    prizes = reader.get(reverse("tournaments:prizes", args=[tournament.public_id])).content.decode()
    assert f'<td class="num">{first}{NO_BREAK}€</td>' in prizes
    assert " €" not in prizes
    detail = reader.get(reverse("tournaments:detail", args=[tournament.public_id])).content.decode()
    assert f"20{NO_BREAK}% · 16{NO_BREAK}%" in detail
    assert " %" not in detail


def test_a_prizes_name_keeps_its_place_with_its_number_in_either_language() -> None:
    """On the prize list "Senioren, Platz 1" may wrap after its comma, never between "Platz" and its number."""
    tournament = played()
    reader = browser(None)
    for language, names in (
        ("en", ("Place 1", "Best series, place 1", "Damen, place 1")),
        ("de", ("Platz 1", "Beste Serie, Platz 1", "Damen, Platz 1")),
    ):
        reader.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        page = reader.get(reverse("tournaments:prizes", args=[tournament.public_id])).content.decode()
        for name in names:
            assert f'<td class="prize">{name.replace(" 1", NO_BREAK + "1")}</td>' in page


def test_the_prize_list_calls_itself_as_it_stands_until_every_series_is_closed() -> None:
    tournament = announce(series=2)
    enter_field(tournament, 8)
    address = reverse("tournaments:prizes", args=[tournament.public_id])
    for number in (1, 2):
        tournaments.series_draw(tournament=tournament, number=number)
        series = Series.objects.get(tournament=tournament, number=number)
        play_series(series, salt=number)
        page = browser(None).get(address).content.decode()
        assert "<h1>Prize list as it stands</h1>" in page
        tournaments.series_close(series=series, user=None)
    page = browser(None).get(address).content.decode()
    assert "<h1>Prize list</h1>" in page
    assert "as it stands" not in page


def test_prizes_more_than_the_pot_as_it_stands_are_said_above_the_prize_list() -> None:
    tournament = announce()
    enter_field(tournament, 4)  # 60 € in the pot, 80 € of category and best-series prizes announced
    page = browser(None).get(reverse("tournaments:prizes", args=[tournament.public_id])).content.decode()
    assert "The prizes cannot be paid as announced" in page
    assert f"The prizes pay out 80.00{NO_BREAK}€, but the prize money is 60.00{NO_BREAK}€." in page


def test_places_beyond_what_a_category_prize_leaves_are_refused_in_the_figures_of_the_cashiers_list() -> None:
    """The prizes by place come from what the categories' and best series' prizes leave of the prize money: the
    refusal quotes the prize money the cashier's list shows beside it and what was taken off it."""
    tournament = announce(
        entry_fee=1000,
        places=tournaments.Schedule((50000, 20000), kind="amounts", payout="as-announced"),
        categories=(("Jugend", (500,)),),
        best_series=(),
    )
    for name, category in (("Ida Berg", "Jugend"), ("Jan Hahn", ""), ("Eva Klein", "")):
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name, category=category))
    refusal = html.escape(
        f"The prizes by place pay out 700.00{NO_BREAK}€, but the prize money left after the categories' and best "
        f"series' prizes is 25.00{NO_BREAK}€ (30.00{NO_BREAK}€ less 5.00{NO_BREAK}€)."
    )
    client = organiser_of(tournament)
    cashier = client.get(reverse("tournaments:cashier", args=[tournament.public_id])).content.decode()
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)", cashier))
    assert facts["Prize money"].strip() == euros(3000, unbroken=True)
    assert refusal in cashier
    prizes = client.get(reverse("tournaments:prizes", args=[tournament.public_id])).content.decode()
    assert refusal in prizes


def test_the_cashiers_list_is_the_organisers_with_each_players_money_and_the_pot() -> None:
    tournament = played()
    cashier = tournament_results(tournament).cashier
    address = reverse("tournaments:cashier", args=[tournament.public_id])
    page = organiser_of(tournament).get(address).content.decode()
    assert "Kept by the organiser" in page
    # Two sums, each named for what it is: every fee due, and the pot the share and the prizes come from (the list
    # and lost-game fees the organiser keeps outright set aside).
    assert cashier.pot.kept > 0
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)", page))
    assert facts["Fees in all"].strip() == euros(cashier.pot.total, unbroken=True)
    assert facts["The prize pot"].strip() == euros(cashier.pot.total - cashier.pot.kept, unbroken=True)
    assert cashier.pot.share + cashier.pot.prize_money == cashier.pot.total - cashier.pot.kept
    assert all(entry.name in page for entry in Entry.objects.filter(tournament=tournament))
    assert browser(make_user("stranger")).get(address).status_code == 404
    assert browser(None).get(address).status_code == 302


@pytest.mark.parametrize(
    ("language", "kept", "share"),
    [("en", "Kept by the organiser", "share {}"), ("de", "Beim Veranstalter", "Anteil {}")],
)
def test_the_cashiers_page_names_all_the_organiser_keeps_as_the_printed_list_does(
    language: str, kept: str, share: str
) -> None:
    """What the organiser keeps (the fees kept, the share, the prize money not paid out) is not called their share:
    the share is the part of it said beside it."""
    tournament = announce(share_value=1000)
    enter_field(tournament, 11, online=2)
    cashier = tournament_results(tournament).cashier
    assert 0 < cashier.pot.share < cashier.organiser
    client = organiser_of(tournament)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("tournaments:cashier", args=[tournament.public_id])).content.decode()
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)", page))
    with translation.override(language):
        assert facts[kept].strip() == euros(cashier.organiser, unbroken=True)
        assert share.format(euros(cashier.pot.share, unbroken=True)) in page
    assert not {"The organiser's share", "Anteil des Veranstalters"} & facts.keys()


def test_the_desk_follows_its_tables_alone_and_keeps_a_table_number_being_typed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every 30 seconds the desk asks for its tables again: the answer reads the tables, not the whole room's money,
    and replaces how far the series is and the tables, not the field a table's number is being typed in."""
    tournament = announce()
    enter_field(tournament, 11)
    tournaments.series_draw(tournament=tournament, number=1)
    client = organiser_of(tournament)
    page = client.get(desk(tournament)).content.decode()
    follow = re.search(r'<div id="desk-follow"[^>]*>', page)
    assert follow is not None
    assert 'hx-select-oob="#tables-progress,#tables-list"' in follow[0]

    def whole_room(tournament: Tournament) -> None:
        raise AssertionError("the room's money read to follow the tables")

    monkeypatch.setattr(views, "cashier_lines_by_entry", whole_room)
    answer = client.get(desk(tournament), headers={"HX-Request": "true"})
    assert answer.status_code == 200
    text = answer.content.decode()
    for part in ('id="desk-follow"', 'id="tables-progress"', 'id="tables-list"', "0 of 3 tables complete"):
        assert part in text
    assert 'id="entries"' not in text
    assert not re.search(r'id="tables-(progress|list)"[^>]*>(?:(?!</div>).)*id="desk-table"', text, re.S)
    assert "HX-Request" in answer["Vary"]


def _desk_follows(client: Client, tournament: Tournament, etag: str = "") -> Any:
    """The desk asking for its tables again, as it does every 30 seconds (by htmx), with the ETag of what it
    shows."""
    return client.get(desk(tournament), headers={"HX-Request": "true"} | ({"If-None-Match": etag} if etag else {}))


def _desk_changed(client: Client, tournament: Tournament, etag: str) -> tuple[str, str]:
    """The desk's tables asked for after a change: shown afresh, and asked for again with their new ETag,
    nothing."""
    answer = _desk_follows(client, tournament, etag)
    assert answer.status_code == 200
    assert answer["ETag"] != etag
    assert _desk_follows(client, tournament, answer["ETag"]).status_code == 304
    return answer.content.decode(), answer["ETag"]


def test_the_desk_following_its_tables_gets_nothing_until_a_table_moves() -> None:
    tournament = announce()
    enter_field(tournament, 11)
    tournaments.series_draw(tournament=tournament, number=1)
    tables = list(Table.objects.filter(series__tournament=tournament).select_related("match").order_by("number"))
    games = tables[0].match.planned_games
    client = organiser_of(tournament)
    first = _desk_follows(client, tournament)
    assert first.status_code == 200
    assert f"0 of {games} games" in first.content.decode()
    again = _desk_follows(client, tournament, first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    # A game saved at a table.
    enter(tables[0].match, 1)
    body, etag = _desk_changed(client, tournament, first["ETag"])
    assert f"1 of {games} games" in body
    # A table's paper list entered.
    enter_paper(tables[1])
    body, etag = _desk_changed(client, tournament, etag)
    assert "1 of 3 tables complete" in body
    # Another manager of the tournament (its club's secretary) holding the organiser's ETag is answered afresh.
    assert tournament.organiser is not None
    club = clubs.club_create(owner=tournament.organiser, name="Grand Hand")
    clubs.member_set(club=club, username=make_user("secretary").username, role="secretary")
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    assert _desk_follows(client, tournament, etag).status_code == 304
    assert _desk_follows(browser(User.objects.get(username="secretary")), tournament, etag).status_code == 200


def test_the_desk_following_its_tables_for_nothing_reads_the_same_however_many_entrants() -> None:
    def unchanged(entrants: int) -> int:
        tournament = announce()
        enter_field(tournament, entrants)
        tournaments.series_draw(tournament=tournament, number=1)
        client = organiser_of(tournament)
        etag = _desk_follows(client, tournament)["ETag"]
        with CaptureQueriesContext(connection) as captured:
            assert _desk_follows(client, tournament, etag).status_code == 304
        return len(captured)

    few = unchanged(8)
    assert unchanged(40) == few
    # The session, its account, the tournament, and the desk's tables counted.
    assert few <= 5


def test_the_desk_reads_a_fixed_number_of_times_however_many_entries(
    django_assert_max_num_queries: Callable[[int], ContextManager[CaptureQueriesContext]],
) -> None:
    tournament = announce()
    enter_field(tournament, 8)
    client = organiser_of(tournament)
    with django_assert_max_num_queries(40) as few:
        client.get(desk(tournament))
    enter_field_more = [
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(f"Mehr {index}"))
        for index in range(12)
    ]
    assert len(enter_field_more) == 12
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(desk(tournament))


def test_a_tables_link_after_its_series_closed_says_the_list_is_closed_and_links_the_live_standings() -> None:
    tournament = announce()
    enter_field(tournament, 7)
    tournaments.series_draw(tournament=tournament, number=1, user=None)
    series = Series.objects.get(tournament=tournament)
    table = Table.objects.select_related("match").get(series=series, number=1)
    link = reverse("match_join", args=[table.match.invite_token])
    phone = Client()
    phone.post(link)
    play_series(series, phones=(1,))
    tournaments.series_close(series=series, user=None)
    for answer in (Client().get(link), phone.get(reverse("match_detail", args=[table.match.public_id]))):
        assert answer.status_code == 410
        page = answer.content.decode()
        assert "<h1>The table's list is closed</h1>" in page
        assert f"Table 1 of series 1 · {tournament.name}" in page
        assert f'href="{reverse("tournaments:live", args=[tournament.public_id])}"' in page


def test_a_tables_link_once_its_paper_list_is_entered_says_so_and_its_phone_is_told_too() -> None:
    tournament = announce()
    enter_field(tournament, 7)
    tournaments.series_draw(tournament=tournament, number=1, user=None)
    table = Table.objects.select_related("match").get(series__tournament=tournament, number=1)
    link = reverse("match_join", args=[table.match.invite_token])
    phone = Client()
    phone.post(link)
    enter_paper(table)
    for answer in (Client().get(link), phone.get(reverse("match_detail", args=[table.match.public_id]))):
        assert answer.status_code == 410
        page = answer.content.decode()
        assert "Its scoring link scores no more: the list was entered on paper." in page
        assert f"Table 1 of series 1 · {tournament.name}" in page


def test_a_withdrawal_is_said_in_german_as_the_entrant_stepping_back() -> None:
    tournament = announce()
    entries = enter_field(tournament, 8)
    client = organiser_of(tournament)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    listed = html.unescape(client.get(desk(tournament)).content.decode())
    assert "<summary>Zurücktreten</summary>" in listed
    assert ">Spieler 01 tritt zurück</button>" in listed
    withdraw = reverse("tournaments:entry_withdraw", args=[entries[0].public_id])
    said = html.unescape(client.post(withdraw, follow=True).content.decode())
    assert "Spieler 01 ist zurückgetreten und spielt in den noch auszulosenden Serien nicht mehr mit." in said
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    client.post(reverse("tournaments:entry_withdraw", args=[entries[1].public_id]))
    assert "nach Serie 1 zurückgetreten" in html.unescape(client.get(desk(tournament)).content.decode())


def test_a_player_of_a_tandem_cannot_withdraw_before_the_first_series_and_the_desk_stays() -> None:
    tournament = announce(tandem_fee=500, tandem_prizes=tournaments.Schedule((1000,)))
    unpaid = [
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name), paid=False)
        for name in ("Ida", "Jan")
    ]
    enter_field(tournament, 6)
    tournaments.side_enter(tournament=tournament, kind="tandem", name="Ida und Jan", entries=unpaid)
    client = organiser_of(tournament)
    refused = client.post(reverse("tournaments:entry_withdraw", args=[unpaid[0].public_id]), follow=True)
    assert "Ida plays in the tandem Ida und Jan" in refused.content.decode()
    unpaid[0].refresh_from_db()
    assert unpaid[0].withdrawn_after is None
    for page in (desk(tournament), reverse("tournaments:results", args=[tournament.public_id])):
        assert client.get(page).status_code == 200


def desk_counts(client: Client, tournament: Tournament) -> str:
    """The desk's header as read: how many entries, who paid the entry fee, what is still owed and by how many."""
    page = html.unescape(client.get(desk(tournament)).content.decode())
    header = re.search(r'<p class="desk-counts">(.*?)</p>', page, re.S)
    assert header is not None
    return re.sub(r"<[^>]+>", "", header[1])


def test_the_desk_counts_who_paid_their_entry_after_a_series_and_what_is_still_owed_by_whom() -> None:
    """After series 1 every entrant owes the list fee: the desk still counts the entry fees paid (10 of 11, not 0),
    names who has not paid theirs, and says what is owed by how many; each Pay button's name starts with its text."""
    tournament = announce()
    entries = enter_field(tournament, 10)
    late = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Zora Zander"), paid=False)
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    cashier = tournament_results(tournament).cashier
    owed = sum(line.owed for line in cashier.lines if line.owed > 0)
    client = organiser_of(tournament)
    still = f"{euros(owed, unbroken=True)} still owed by 11 entrants"
    assert desk_counts(client, tournament) == f"11 entries · 10 paid the entry fee (not yet: Zora Zander) · {still}"
    page = html.unescape(client.get(desk(tournament)).content.decode())
    line = next(line for line in cashier.lines if line.player == entries[0].player.name)
    assert f'aria-label="Pay {euros(line.owed, unbroken=True)} for {entries[0].name}">Pay</button>' in page
    assert late.name in page


def test_the_desk_counts_the_entry_fees_paid_apart_from_the_tandems_and_teams_fees_owed() -> None:
    """Nine of eleven paid the entry fee; two tandems and a team, with one of the two who have not among each
    tandem, owe 5 € a player: the desk still says nine paid the entry fee and names the two who must pay it before
    they play, and counts the side fees in what is owed and by how many, in both languages."""
    tournament = announce(
        tandem_fee=500,
        tandem_prizes=tournaments.Schedule((1000,)),
        team_fee=500,
        team_prizes=tournaments.Schedule((2000,)),
    )
    entries = enter_field(tournament, 9)
    unpaid = [
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name), paid=False)
        for name in ("Zora Zander", "Anna Abend")
    ]
    for kind, name, players in (
        ("tandem", "Die Ersten", [unpaid[0], entries[0]]),
        ("tandem", "Die Zweiten", [unpaid[1], entries[1]]),
        ("team", "Die Vier", entries[2:6]),
    ):
        tournaments.side_enter(tournament=tournament, kind=kind, name=name, entries=players)
    client = organiser_of(tournament)
    owed = 2 * ENTRY_FEE + 8 * 500
    expected = (
        f"11 entries · 9 paid the entry fee (not yet: Anna Abend, Zora Zander) · "
        f"{euros(owed, unbroken=True)} still owed by 8 entrants"
    )
    assert desk_counts(client, tournament) == expected
    # The draw adds a list fee to everybody's dues: the entry fees paid stay nine.
    tournaments.series_draw(tournament=tournament, number=1)
    assert "· 9 paid the entry fee (not yet: Anna Abend, Zora Zander) ·" in desk_counts(client, tournament)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    with translation.override("de"):
        still = f"{euros(owed + 11 * LIST_FEE, unbroken=True)} noch offen bei 11 Teilnehmern"
    assert desk_counts(client, tournament) == (
        f"11 Meldungen · 9 haben das Startgeld bezahlt (noch nicht: Anna Abend, Zora Zander) · {still}"
    )


def test_the_desk_of_a_tournament_without_an_entry_fee_counts_no_entry_fees_paid() -> None:
    tournament = announce(entry_fee=0, tandem_fee=500, tandem_prizes=tournaments.Schedule((1000,)))
    entries = enter_field(tournament, 7)
    tournaments.side_enter(tournament=tournament, kind="tandem", name="Die Zwei", entries=entries[:2])
    counts = desk_counts(organiser_of(tournament), tournament)
    assert counts == f"7 entries · {euros(1000, unbroken=True)} still owed by 2 entrants"


def test_the_desk_counts_the_entries_still_in_and_who_still_owes_among_those_who_withdrew() -> None:
    """One entrant withdraws after series 1 owing its list fee: the desk counts ten entries still in (one
    withdrew), the entry fees paid among those ten, and eleven who still owe, one of whom withdrew."""
    tournament = announce()
    entries = enter_field(tournament, 11)
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    tournaments.entry_withdraw(entry=entries[0])
    owed = sum(line.owed for line in tournament_results(tournament).cashier.lines if line.owed > 0)
    client = organiser_of(tournament)
    assert desk_counts(client, tournament) == (
        f"10 entries still in (1 withdrew) · 10 paid the entry fee · "
        f"{euros(owed, unbroken=True)} still owed by 11 entrants (1 of them withdrew)"
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    with translation.override("de"):
        still = f"{euros(owed, unbroken=True)} noch offen bei 11 Teilnehmern (davon 1 zurückgetreten)"
    assert desk_counts(client, tournament) == (
        f"10 Meldungen noch dabei (1 zurückgetreten) · 10 haben das Startgeld bezahlt · {still}"
    )


def test_the_desks_pay_button_takes_what_the_desk_says_is_owed() -> None:
    tournament = announce()
    entries = enter_field(tournament, 7)
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    line = next(line for line in tournament_results(tournament).cashier.lines if line.player == entries[0].player.name)
    assert line.owed > 0  # the list fee, and lost games' fees
    client = organiser_of(tournament)
    client.post(reverse("tournaments:entry_pay", args=[entries[0].public_id]), {"paid": str(line.paid)})
    line = next(line for line in tournament_results(tournament).cashier.lines if line.player == entries[0].player.name)
    assert line.owed == 0


def test_a_winner_who_withdrew_is_marked_on_the_prize_list_in_its_file_and_on_the_cashiers_list() -> None:
    """The pages mark the name; the prize list's file keeps the name plain and says when in a column of its own."""
    tournament = played(series=1)
    results = tournament_results(tournament)
    winner = results.entry(results.prizes[0].winner)
    assert winner is not None
    tournaments.entry_withdraw(entry=winner)
    page = browser(None).get(reverse("tournaments:prizes", args=[tournament.public_id])).content.decode()
    row = re.search(rf"<td>{re.escape(winner.name)}(.*?)</td>", page, re.S)
    assert row is not None
    assert "withdrew after series 1" in row[1]
    assert page.count("withdrew after series") == page.count(f"<td>{winner.name}")
    listed = browser(None).get(reverse("download-tournament-prizes", args=[tournament.public_id, "csv"]))
    rows = list(csv.DictReader(io.StringIO(listed.getvalue().decode().removeprefix("\ufeff"))))
    assert [row["Withdrew after series"] for row in rows if row["Winner"] == winner.name] == ["1"]
    assert "withdrew" not in listed.getvalue().decode()
    cashier = organiser_of(tournament).get(reverse("tournaments:cashier", args=[tournament.public_id])).content.decode()
    row = re.search(rf'<td class="name">{re.escape(winner.name)}(.*?)</td>', cashier, re.S)
    assert row is not None
    assert "withdrew after series 1" in row[1]
    assert cashier.count("withdrew after series") == 1
