"""The club app's admin is for looking, as the core's: a club, its members, a season's settings and a night change only
through the services (the pages and the API), which keep the versions, the kept sums and the last owner right."""

import datetime
import html
from dataclasses import replace

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from matches import admin as matches_admin
from matches.accounts import account_deletion
from matches.clubs import services as clubs
from matches.clubs.models import Membership, Night, Season

from .factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> Night:
    club = clubs.club_create(owner=make_user("owner"), name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    return clubs.night_create(season=season, date=datetime.date(2026, 3, 3))


@pytest.mark.parametrize("model", ["club", "season", "night"])
def test_every_club_list_and_page_opens_for_staff_but_takes_no_change(staff: Client, night: Night, model: str) -> None:
    kept = {"club": night.season.club, "season": night.season, "night": night}[model]
    assert staff.get(f"/admin/leagues/{model}/").status_code == 200
    page = staff.get(f"/admin/leagues/{model}/{kept.pk}/change/")
    assert page.status_code == 200
    assert 'name="name"' not in page.content.decode()
    assert 'name="date"' not in page.content.decode()
    assert staff.post(f"/admin/leagues/{model}/{kept.pk}/change/", {"name": "Umbenannt"}).status_code == 403
    assert staff.get(f"/admin/leagues/{model}/add/").status_code == 403
    assert staff.post(f"/admin/leagues/{model}/{kept.pk}/delete/", {"post": "yes"}).status_code == 403


def test_a_seasons_ranking_and_a_clubs_owners_stay_out_of_the_admins_reach(staff: Client, night: Night) -> None:
    """Its ranking rule changed beside the service would leave the season's kept sums ranked by the old one, and its
    last owner removed would leave the club with nobody to run it."""
    season = night.season
    page = staff.get(f"/admin/leagues/season/{season.pk}/change/").content.decode()
    assert 'name="ranking"' not in page
    assert 'name="best_nights"' not in page
    club_page = staff.get(f"/admin/leagues/club/{season.club.pk}/change/").content.decode()
    assert 'name="memberships-0-role"' not in club_page
    assert 'name="memberships-0-DELETE"' not in club_page
    assert not admin.site.get_model_admin(Season).has_change_permission(RequestFactory().get("/"))


def test_staff_cannot_delete_the_account_that_alone_owns_a_club_and_are_told_why(staff: Client, night: Night) -> None:
    owner = User.objects.get(username="owner")
    answer = staff.post(f"/admin/auth/user/{owner.pk}/delete/", {"post": "yes"}, follow=True)
    assert answer.status_code == 200
    assert "Skatclub Herz Dame" in html.unescape(answer.content.decode())
    assert User.objects.filter(pk=owner.pk).exists()
    assert Membership.objects.filter(user=owner).exists()


def test_an_account_made_a_clubs_sole_owner_while_staff_delete_it_is_refused_not_a_server_error(
    staff: Client, night: Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The admin's page found nothing to hand over; the service, under its lock, finds the club: it refuses, and the
    admin says why."""
    owner = User.objects.get(username="owner")
    monkeypatch.setattr(matches_admin, "account_deletion", lambda user: replace(account_deletion(user), groups_kept=[]))
    answer = staff.post(f"/admin/auth/user/{owner.pk}/delete/", {"post": "yes"}, follow=True)
    assert answer.status_code == 200
    assert "Skatclub Herz Dame" in html.unescape(answer.content.decode())
    assert User.objects.filter(pk=owner.pk).exists()
