"""Deleting an account, for every kind of event: whoever alone runs a league or a tournament hands it over first, as
a club's last owner does; the page says what the deletion ends and what must be handed over, and the event's page
hands it over."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.errors import Conflict
from matches.interclub import services as leagues
from matches.interclub.models import League, LeagueManager, LeagueRole
from matches.tournaments import services as tournaments
from matches.tournaments.models import Tournament

from .factories import make_user
from .tournaments_setup import SETTINGS, announce

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-password-1"


def signed_in(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def delete_account(browser: Client) -> Any:
    return browser.post(reverse("account_delete"), {"password": PASSWORD})


def a_league(owner: User) -> League:
    return leagues.league_create(owner=owner, settings=leagues.LeagueSettings(name="Verbandsliga Nord"))


def test_a_leagues_last_owner_hands_it_on_on_the_leagues_page_before_deleting_the_account() -> None:
    olga, bert = make_user("olga"), make_user("bert")
    league = a_league(olga)
    browser = signed_in(olga)

    page = browser.get(reverse("account_delete")).content.decode()
    refused = delete_account(browser)

    said = "You are the last owner of the league Verbandsliga Nord: make somebody else its owner on the league&#x27;s"
    assert said in page
    assert 'name="password"' not in page
    assert refused.status_code == 409
    assert "You are the last owner of the league Verbandsliga Nord" in refused.content.decode()
    assert User.objects.filter(username="olga").exists()

    league_page = browser.get(reverse("interclub_league", args=[league.public_id])).content.decode()
    assert "Who runs the league" in league_page
    given = browser.post(
        reverse("interclub_manager_new", args=[league.public_id]),
        {"manager-username": "bert", "manager-role": LeagueRole.OWNER},
    )
    assert given.status_code == 302
    assert delete_account(browser).status_code == 302
    assert not User.objects.filter(username="olga").exists()
    assert list(LeagueManager.objects.filter(league=league).values_list("user", "role")) == [
        (bert.pk, LeagueRole.OWNER)
    ]


def test_a_league_manager_who_is_not_its_last_owner_deletes_the_account_and_the_role_ends() -> None:
    olga, mia = make_user("olga"), make_user("mia")
    league = a_league(olga)
    leagues.league_manager_set(league=league, user=mia)
    browser = signed_in(mia)

    page = browser.get(reverse("account_delete")).content.decode()

    assert "You no longer run the leagues Verbandsliga Nord." in page
    assert delete_account(browser).status_code == 302
    assert list(LeagueManager.objects.filter(league=league).values_list("user__username", flat=True)) == ["olga"]


def test_a_leagues_last_owner_is_not_made_a_manager_and_an_unknown_account_gets_no_role() -> None:
    olga = make_user("olga")
    league = a_league(olga)
    browser = signed_in(olga)
    address = reverse("interclub_manager_new", args=[league.public_id])

    demoted = browser.post(address, {"manager-username": "olga", "manager-role": LeagueRole.MANAGER})
    unknown = browser.post(address, {"manager-username": "nobody", "manager-role": LeagueRole.MANAGER})

    assert demoted.status_code == 400
    assert "A league needs an owner: make somebody else owner first." in demoted.content.decode()
    assert unknown.status_code == 400
    assert "There is no account of that name." in unknown.content.decode()
    assert list(LeagueManager.objects.values_list("user__username", "role")) == [("olga", LeagueRole.OWNER)]
    with pytest.raises(Conflict):
        leagues.league_manager_set(league=league, user=olga, role=LeagueRole.MANAGER)


def test_only_a_leagues_owner_gives_roles() -> None:
    olga, mia = make_user("olga"), make_user("mia")
    league = a_league(olga)
    leagues.league_manager_set(league=league, user=mia)
    browser = signed_in(mia)

    page = browser.get(reverse("interclub_league", args=[league.public_id])).content.decode()
    asked = browser.post(
        reverse("interclub_manager_new", args=[league.public_id]),
        {"manager-username": "mia", "manager-role": LeagueRole.OWNER},
    )

    assert "Who runs the league" in page
    assert "Give the role" not in page
    assert asked.status_code in (403, 404)
    assert LeagueManager.objects.get(user=mia).role == LeagueRole.MANAGER


def test_the_organiser_of_a_tournament_nobody_else_runs_hands_it_over_on_the_desk_before_deleting_the_account() -> None:
    olga, bert = make_user("olga"), make_user("bert")
    tournament = announce(olga)
    browser = signed_in(olga)

    page = browser.get(reverse("account_delete")).content.decode()
    assert "Nobody but you runs the tournament " + tournament.name in page
    assert delete_account(browser).status_code == 409

    desk = browser.get(reverse("tournaments:desk", args=[tournament.public_id])).content.decode()
    assert "Hand the tournament over" in desk
    address = reverse("tournaments:hand_over", args=[tournament.public_id])
    unknown = browser.post(address, {"username": "nobody"})
    assert unknown.status_code == 400
    assert "There is no account of that name." in unknown.content.decode()
    handed = browser.post(address, {"username": "bert"})
    assert handed.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).organiser == bert
    # Olga runs it no more: her desk is gone, Bert's is there.
    assert browser.get(reverse("tournaments:desk", args=[tournament.public_id])).status_code in (403, 404)
    assert signed_in(bert).get(reverse("tournaments:desk", args=[tournament.public_id])).status_code == 200
    assert delete_account(browser).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).organiser == bert


def test_the_organiser_of_a_clubs_tournament_deletes_the_account_and_the_club_runs_it_on() -> None:
    olga, carl = make_user("olga"), make_user("carl")
    club = clubs.club_create(owner=carl, name="Grand Hand")
    clubs.member_set(club=club, username="olga", role="secretary")
    tournament = tournaments.tournament_announce(organiser=olga, settings=SETTINGS, club=club)
    # Olga stays in the club as a member only: the club's owner runs the tournament with her.
    clubs.member_set(club=club, username="olga", role="member")
    browser = signed_in(olga)

    page = browser.get(reverse("account_delete")).content.decode()

    assert "You no longer organise the tournaments " + tournament.name in page
    assert delete_account(browser).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).organiser is None
    assert signed_in(carl).get(reverse("tournaments:desk", args=[tournament.public_id])).status_code == 200
