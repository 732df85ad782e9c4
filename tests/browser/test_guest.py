"""Keeping score without signing up, then signing up: the match comes along with everything in it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .flow import PASSWORD, Entry, expect_totals, save_game, sheet_rows, start_match

SKAT_ISKO = "Skat, ISkO"
SKAT = ("Anna", "Ben", "Cleo")


@pytest.mark.django_db(transaction=True)
def test_a_guest_enters_five_games_signs_up_and_finds_the_match_in_the_account(phone: Page, live_server: Any) -> None:
    phone.goto(live_server.url)
    phone.get_by_role("link", name="New match", exact=True).click()
    match_id = start_match(phone, SKAT_ISKO, SKAT, title="Ohne Konto")
    for number in range(1, 6):
        save_game(phone, Entry("♣ Clubs", "Ben", matadors=1, outcome="won"))
        expect(sheet_rows(phone)).to_have_count(number)
    expect_totals(phone, {"Anna": 0, "Ben": 120, "Cleo": 0})

    phone.get_by_role("link", name="Scorekeeper", exact=True).click()
    expect(phone.get_by_text("These matches are kept in this browser only.", exact=False)).to_be_visible()
    phone.get_by_role("link", name="Sign up", exact=True).first.click()
    phone.get_by_label("Username", exact=True).fill("dora")
    phone.get_by_label("Password", exact=True).fill(PASSWORD)
    phone.get_by_label("Password confirmation", exact=True).fill(PASSWORD)
    phone.get_by_role("button", name="Sign up", exact=True).click()

    phone.get_by_role("link", name="Matches", exact=True).click()
    expect(phone.get_by_role("heading", name="Your matches", exact=True)).to_be_visible()
    expect(phone.get_by_text("These matches are kept in this browser only.", exact=False)).to_have_count(0)
    phone.get_by_role("link", name="Ohne Konto").click()
    expect(phone).to_have_url(f"{live_server.url}/matches/{match_id}/")
    expect(sheet_rows(phone)).to_have_count(5)
    expect_totals(phone, {"Anna": 0, "Ben": 120, "Cleo": 0})
