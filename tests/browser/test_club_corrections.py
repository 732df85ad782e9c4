"""A secretary corrects a club night on a phone: drops a series drawn before play and draws it again with a late
arrival, then gives the night the date it should have had, and finds both in the night's history."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night

from .flow import sign_up

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus"]


def _sven_checks_in(phone: Page, base: str) -> Night:
    """Sven signs up on the phone, founds a club and opens a night of its season, with everybody checked in."""
    sign_up(phone, base, "sven")
    club = clubs.club_create(owner=User.objects.get(username="sven"), name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="Saison 2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in NAMES:
        clubs.check_in(night=night, name=name)
    return night


@pytest.mark.django_db(transaction=True)
def test_a_secretary_drops_a_series_draws_it_again_and_re_dates_the_night(phone: Page, live_server: Any) -> None:
    base = live_server.url
    night = _sven_checks_in(phone, base)

    phone.goto(f"{base}/nights/{night.public_id}/")
    phone.get_by_role("button", name="Draw the tables", exact=True).click()
    expect(phone.get_by_role("heading", name="Table 2", exact=True)).to_be_visible()

    # Hanna arrives late: the series has not started, so its tables are dropped and drawn again with her.
    phone.get_by_role("button", name="Drop the tables of series 1 (before the first game)", exact=True).click()
    expect(phone.get_by_text("The tables of series 1 are dropped: draw them again.", exact=True)).to_be_visible()
    expect(phone.get_by_role("heading", name="Table 1", exact=True)).to_have_count(0)
    phone.get_by_label("Walk-in guest", exact=True).fill("Hanna")
    phone.get_by_role("button", name="Check in", exact=True).click()
    expect(phone.get_by_role("heading", name="Check-in: 8 here", exact=True)).to_be_visible()
    phone.get_by_role("button", name="Draw the tables", exact=True).click()
    expect(phone.get_by_role("heading", name="Table 2", exact=True)).to_be_visible()
    assert ClubTable.objects.filter(night=night).count() == 2

    # The night was opened with yesterday's date.
    phone.get_by_role("link", name="Another date, or remove the night", exact=True).click()
    phone.get_by_label("Date", exact=True).fill("2026-11-25")
    phone.get_by_role("button", name="Change the date", exact=True).click()
    expect(phone.get_by_text("The night is dated Nov. 25, 2026 now.", exact=True)).to_be_visible()
    expect(phone.get_by_role("heading", name=re.compile("Club night of Nov. 25, 2026"), level=1)).to_be_visible()
    assert Night.objects.get(pk=night.pk).date == datetime.date(2026, 11, 25)

    phone.get_by_role("link", name="Another date, or remove the night", exact=True).click()
    history = phone.get_by_role("region", name="History", exact=True).get_by_role("listitem")
    expect(history).to_have_count(2)
    expect(history.nth(0)).to_contain_text("series dropped: series 1, drawn as:")
    expect(history.nth(1)).to_contain_text("re-dated: from Nov. 24, 2026 to Nov. 25, 2026")


@pytest.mark.django_db(transaction=True)
def test_a_secretary_closes_a_night_with_a_table_without_games_only_once_ticked(phone: Page, live_server: Any) -> None:
    base = live_server.url
    night = _sven_checks_in(phone, base)
    clubs.night_draw(night=night, series=1, user=User.objects.get(username="sven"))
    second = ClubTable.objects.select_related("match").get(night=night, number=2)
    seated = [seat.player for seat in second.match.seats.order_by("position")]
    clubs.paper_enter(table=second, lines=[(player, 0, 0, 0) for player in seated])

    phone.goto(f"{base}/nights/{night.public_id}/")
    expect(phone.get_by_text("Table 1 of series 1 has no games: its players get no list.", exact=True)).to_be_visible()
    close = phone.get_by_role("button", name="Close the night (locks every list)", exact=True)
    close.click()
    # The tick box is required: nothing was sent, and the night stays open.
    expect(phone.get_by_role("heading", name="Table 1", exact=True)).to_be_visible()
    assert Night.objects.get(pk=night.pk).closed_at is None
    phone.get_by_label("Yes, close the night with these tables' lists as they stand", exact=True).check()
    close.click()
    expect(phone.get_by_text("The night is closed: every list is locked.", exact=True)).to_be_visible()
    assert Night.objects.get(pk=night.pk).closed_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_drawn_seasons_settings_show_the_fields_that_stay_unlike_those_that_change(
    phone: Page, live_server: Any
) -> None:
    base = live_server.url
    sign_up(phone, base, "sven")
    owner = User.objects.get(username="sven")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    money = clubs.SeasonSettings(name="Saison 2026", stake=500, lost_fees=((1, 50),))
    season = clubs.season_create(club=club, settings=money)
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in NAMES:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)

    phone.goto(f"{base}/seasons/{season.public_id}/edit/")
    changes = phone.get_by_label("Name", exact=True)
    stays = [phone.get_by_label(re.compile(label)) for label in (r"^Stake per series", r"^Fee per lost game")]
    look = "(field) => { const style = getComputedStyle(field); return [style.backgroundColor, style.borderStyle]; }"
    for field in stays:
        expect(field).to_be_disabled()
        assert field.evaluate(look) != changes.evaluate(look)
    # A rule option's toggle that stays is greyed; the guests' ranking, which changes, is not.
    rule = phone.locator("input[type=checkbox]:disabled").first
    guests = phone.get_by_label("Guests are ranked", exact=True)
    expect(guests).to_be_enabled()
    shown = "(input) => getComputedStyle(input.nextElementSibling).opacity"
    assert float(rule.evaluate(shown)) < 1
    assert float(guests.evaluate(shown)) == 1
