"""A club player's page, head to head and merge: they pair a club's players with the club's players only, for the
club's roles as the one permission policy says (every role sees, the owner and the secretaries merge), and a pair
from two books is nobody's."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.models import Player

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

ROLES = ("owner", "secretary", "scorer", "member")
NAMES = ("olga", "sven", "sara", "max", "stefan")


class Club:
    """A club with a user in each role and a stranger, each of whom also keeps players of their own; Anna, Ben and
    Cleo played a game at one of the club's nights, Emil is on the club's roster and never played."""

    def __init__(self) -> None:
        self.users = {role: make_user(name) for role, name in zip((*ROLES, "stranger"), NAMES, strict=True)}
        self.club = clubs.club_create(owner=self.users["owner"], name="Skatclub Herz Dame")
        for role in ("secretary", "scorer", "member"):
            clubs.member_set(club=self.club, username=self.users[role].username, role=role)
        for user in self.users.values():
            make_match(user, names=(f"{user.username} Paul", f"{user.username} Quinn", f"{user.username} Rosa"))
        season = clubs.season_create(club=self.club, settings=clubs.SeasonSettings(name="2026"))
        night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
        for name in ("Anna", "Ben", "Cleo"):
            clubs.check_in(night=night, name=name)
        clubs.night_draw(night=night, series=1, user=self.users["owner"])
        add(ClubTable.objects.get(night=night).match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
        self.emil = clubs.club_player_add(club=self.club, name="Emil")

    def player(self, name: str) -> Player:
        return Player.objects.get(keeper=self.club.keeper, name=name)

    def own_player(self, role: str) -> Player:
        return Player.objects.get(keeper__user=self.users[role], name=f"{self.users[role].username} Paul")

    def browser(self, role: str | None) -> Client:
        browser = Client()
        if role is not None:
            browser.force_login(self.users[role])
        return browser


def _versus_names(body: str, player: Player) -> set[str]:
    """The players the page offers to compare with ``player``, by their head-to-head links."""
    prefix = f"/players/{player.public_id}/vs/"
    return set(re.findall(re.escape(prefix) + r"[0-9a-f-]+/\">[^<]*– ([^<]+)</a>", body))


def _merge_names(body: str) -> set[str]:
    found = re.search(r'<select id="merge-other" name="other">(.*?)</select>', body, re.DOTALL)
    return set(re.findall(r">([^<]+)</option>", found[1])) if found else set()


@pytest.mark.parametrize("role", ROLES)
def test_a_club_players_page_offers_the_clubs_players_only_and_merge_to_the_managers(role: str) -> None:
    setup = Club()
    anna = setup.player("Anna")
    answer = setup.browser(role).get(reverse("player_detail", args=[anna.public_id]))
    assert answer.status_code == 200
    body = answer.content.decode()
    assert _versus_names(body, anna) == {"Ben", "Cleo", "Emil"}
    assert setup.own_player(role).name not in body
    assert _merge_names(body) == ({"Ben", "Cleo", "Emil"} if role in {"owner", "secretary"} else set())


@pytest.mark.parametrize("role", ROLES)
def test_two_club_players_head_to_head_answers_every_role_of_the_club(role: str) -> None:
    setup = Club()
    anna, ben = setup.player("Anna"), setup.player("Ben")
    answer = setup.browser(role).get(reverse("player_versus", args=[anna.public_id, ben.public_id]))
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "<h1>Anna – Ben</h1>" in body
    assert "1 match together" in body


def test_two_club_players_head_to_head_is_nobody_elses() -> None:
    setup = Club()
    address = reverse("player_versus", args=[setup.player("Anna").public_id, setup.player("Ben").public_id])
    assert setup.browser("stranger").get(address).status_code == 404
    anonymous = setup.browser(None).get(address)
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]


@pytest.mark.parametrize("role", ["owner", "secretary"])
def test_a_pair_from_the_clubs_book_and_ones_own_is_not_found(role: str) -> None:
    """The owner and a secretary see both players, but a club's player never sat at a table of a personal book."""
    setup = Club()
    anna, own = setup.player("Anna"), setup.own_player(role)
    browser = setup.browser(role)
    assert browser.get(reverse("player_versus", args=[anna.public_id, own.public_id])).status_code == 404
    assert browser.get(reverse("player_versus", args=[own.public_id, anna.public_id])).status_code == 404


@pytest.mark.parametrize("role", ["owner", "secretary"])
def test_the_clubs_managers_merge_two_of_its_players(role: str) -> None:
    setup = Club()
    anna = setup.player("Anna")
    answer = setup.browser(role).post(reverse("player_merge", args=[anna.public_id]), {"other": setup.emil.public_id})
    assert answer.status_code == 302
    assert not Player.objects.filter(pk=setup.emil.pk).exists()


@pytest.mark.parametrize("role", ["scorer", "member", "stranger"])
def test_nobody_but_the_clubs_managers_merges_its_players(role: str) -> None:
    setup = Club()
    anna = setup.player("Anna")
    answer = setup.browser(role).post(reverse("player_merge", args=[anna.public_id]), {"other": setup.emil.public_id})
    assert answer.status_code == 404
    assert Player.objects.filter(pk=setup.emil.pk).exists()


def test_merging_a_club_player_with_ones_own_is_refused_next_to_the_choice() -> None:
    setup = Club()
    anna, own = setup.player("Anna"), setup.own_player("secretary")
    answer = setup.browser("secretary").post(reverse("player_merge", args=[anna.public_id]), {"other": own.public_id})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert re.search(r'id="merge-other_error"[^>]*>Choose another player of the same book\.', body)
    assert 'aria-describedby="merge-other_error"' in body
    assert Player.objects.filter(pk=own.pk).exists()
    assert Player.objects.filter(pk=anna.pk).exists()


def test_merging_two_club_players_who_sat_together_is_refused_next_to_the_choice() -> None:
    setup = Club()
    anna, ben = setup.player("Anna"), setup.player("Ben")
    answer = setup.browser("owner").post(reverse("player_merge", args=[anna.public_id]), {"other": ben.public_id})
    assert answer.status_code == 409
    assert "These two sat at one table: they are two people." in answer.content.decode()
    assert Player.objects.filter(pk=ben.pk).exists()


def test_two_club_players_who_played_a_night_are_not_merged_and_the_page_says_why(client: Client) -> None:
    """Merging deletes the player merged away, which the night's attendance holds on to: a refusal on the player's
    page, both players as they were, and no server error."""
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Anna B.", "Cleo"):
        clubs.check_in(night=night, name=name)
    anna, other = Player.objects.get(name="Anna"), Player.objects.get(name="Anna B.")
    client.force_login(owner)

    answer = client.post(reverse("player_merge", args=[anna.public_id]), {"other": str(other.public_id)})

    assert answer.status_code == 409
    assert "Anna B. plays in an event&#x27;s lists: the two stay apart." in answer.content.decode()
    assert Player.objects.filter(pk__in=[anna.pk, other.pk]).count() == 2
