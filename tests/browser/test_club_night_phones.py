"""A club night as the phones around it see it: a German secretary opens a night, the secretary's phone enters a
paper list with a mistake, a table's phone reads its table number, a closed night's QR link, and the club room's
screen on a television."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from matches.leagues import services as clubs
from matches.leagues.models import Night, Season

from ..factories import make_user

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """New browser contexts (a phone at 390 × 844 unless told otherwise), all closed after the test."""
    contexts: list[BrowserContext] = []

    def context(**options: Any) -> BrowserContext:
        made = browser.new_context(**({"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True} | options))
        contexts.append(made)
        return made

    yield context
    for made in contexts:
        made.close()


def _signed_in(context: BrowserContext, base: str, user: User) -> Page:
    """A page of ``context`` logged in as ``user`` (the session made on the server, its cookie given to the page)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def _season(owner: User) -> Season:
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    return clubs.season_create(club=club, settings=clubs.SeasonSettings(name="Saison 2026"))


@pytest.mark.django_db(transaction=True)
def test_a_german_secretary_opens_a_night_with_the_date_the_page_offers(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    olga = make_user("olga")
    season = _season(olga)
    page = _signed_in(new_context(locale="de-DE"), live_server.url, olga)
    page.goto(live_server.url + reverse("season_detail", args=[season.public_id]))
    expect(page.get_by_label("Datum", exact=True)).to_have_value(datetime.date.today().isoformat())
    page.get_by_role("button", name="Abend eröffnen", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("^Vereinsabend vom"), level=1)).to_be_visible()
    assert Night.objects.get(season=season).date == datetime.date.today()
