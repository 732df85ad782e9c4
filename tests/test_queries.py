"""Every page that lists things reads them in a fixed number of queries: counted on a small table, then again once
the lists have grown (more matches, players, games and changes), the count must be the same."""

import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.models import Game, Match, Player
from matches.paging import place_token
from matches.services import game_delete, match_redo, match_undo, player_link

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

CountQueries = Callable[[int], Any]


def enter(match: Match, count: int) -> None:
    """``count`` more games as a table enters them: won and lost, declared by the seat after the dealer's (at four,
    the dealer sits out), with a passed deal now and then."""
    for number in range(count):
        if number % 7 == 6:
            add(match, passed=True)
            continue
        declarer = (match.first_dealer + match.deals + 1) % match.players
        points = 70 if number % 3 else 40
        add(match, declarer=declarer, contract="clubs", matadors=1, declarer_card_points=points)


def change(match: Match, user: User) -> None:
    """Four more changes in the history: a deletion, its undo, the redo of that undo, and an undo again."""
    game = Game.objects.filter(match=match, deleted=False).order_by("-position").first()
    assert game is not None
    game_delete(game=game, user=user, token=uuid.uuid4())
    match_undo(match=match, user=user, token=uuid.uuid4())
    match_redo(match=match, user=user, token=uuid.uuid4())
    match_undo(match=match, user=user, token=uuid.uuid4())


def queries(client: Client, address: str) -> int:
    """The queries one more look at ``address`` costs (the first look fills the caches every later one finds)."""
    assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    return len(captured)


def costs_the_same(client: Client, address: str, grow: Callable[[], object], counted: CountQueries) -> None:
    few = queries(client, address)
    grow()
    with counted(few):
        assert client.get(address).status_code == 200


@pytest.fixture
def owner() -> User:
    return make_user("olga")


@pytest.fixture
def signed_in(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


def other_peoples_matches(owner: User, count: int) -> None:
    """Matches kept by others that the owner sees: some scored with them, some played with a linked player."""
    for number in range(count):
        keeper = make_user(f"keeper-{uuid.uuid4().hex[:8]}")
        match = make_match(keeper, names=("Olga", f"Paul {number}", "Rita"), title=f"Club night {number}")
        enter(match, 2)
        if number % 2:
            match.scorers.add(owner)
        else:
            player_link(player=Player.objects.get(keeper__user=keeper, name="Olga"), account=owner)


def test_the_list_of_matches_costs_the_same_for_two_or_twenty(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    enter(make_match(owner), 2)
    other_peoples_matches(owner, 1)

    def grow() -> None:
        for number in range(12):
            enter(make_match(owner, names=("Anna", "Ben", "Cleo", f"Dora {number}")), 3)
        other_peoples_matches(owner, 6)

    costs_the_same(signed_in, reverse("home"), grow, django_assert_num_queries)


def test_the_list_of_players_costs_the_same_for_three_or_thirty(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    make_match(owner)
    other_peoples_matches(owner, 2)

    def grow() -> None:
        for number in range(9):
            make_match(owner, names=(f"Anna {number}", f"Ben {number}", f"Cleo {number}"))
        other_peoples_matches(owner, 6)

    costs_the_same(signed_in, reverse("player_list"), grow, django_assert_num_queries)


def test_a_players_page_costs_the_same_after_one_match_or_fifteen(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    enter(make_match(owner), 3)
    anna = Player.objects.get(keeper__user=owner, name="Anna")
    player_link(player=anna, account=owner)

    def grow() -> None:
        for number in range(14):
            variant = "officers-skat" if number % 2 else "skat"
            names = ("Anna", f"Ben {number}") if number % 2 else ("Anna", f"Ben {number}", f"Cleo {number}")
            enter(make_match(owner, variant=variant, names=names), 4)

    costs_the_same(signed_in, reverse("player_detail", args=[anna.public_id]), grow, django_assert_num_queries)


def test_your_own_statistics_cost_the_same_for_one_linked_player_or_many(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    other_peoples_matches(owner, 2)
    costs_the_same(signed_in, reverse("player_me"), lambda: other_peoples_matches(owner, 10), django_assert_num_queries)


def test_the_history_costs_the_same_for_a_few_changes_or_a_hundred(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    match = make_match(owner)
    enter(match, 3)
    change(match, owner)

    def grow() -> None:
        enter(match, 60)
        for _ in range(5):
            change(match, owner)

    costs_the_same(signed_in, reverse("match_history", args=[match.public_id]), grow, django_assert_num_queries)


@pytest.mark.parametrize("view", ["match_detail", "match_games"])
def test_the_score_sheet_costs_the_same_at_game_five_and_at_game_a_hundred_and_twenty(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries, view: str
) -> None:
    match = make_match(owner, rules={"bock": True})
    enter(match, 5)
    change(match, owner)

    def grow() -> None:
        enter(match, 115)
        change(match, owner)

    costs_the_same(signed_in, reverse(view, args=[match.public_id]), grow, django_assert_num_queries)


def test_the_results_picture_costs_the_same_at_game_five_and_at_game_a_hundred_and_twenty(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    match = make_match(owner, rules={"bock": True})
    enter(match, 5)
    address = reverse("match_picture", args=[match.public_id])
    costs_the_same(signed_in, address, lambda: enter(match, 115), django_assert_num_queries)


def test_a_page_further_back_costs_the_same_however_many_games_came_after(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    match = make_match(owner, rules={"bock": True})
    enter(match, 70)
    sixty_one = match.games.get(number=61, deleted=False)
    address = reverse("match_games", args=[match.public_id]) + "?" + urlencode({"after": place_token(61, sixty_one.pk)})
    costs_the_same(signed_in, address, lambda: enter(match, 60), django_assert_num_queries)


def test_the_spectators_page_costs_the_same_at_game_five_and_at_game_a_hundred_and_twenty(
    client: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    match = make_match(owner, rules={"bock": True})
    enter(match, 5)
    address = reverse("match_spectate", args=[match.share_token])
    costs_the_same(client, address, lambda: enter(match, 115), django_assert_num_queries)


def test_a_scorers_follow_up_costs_the_same_however_long_the_match(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    """Every scorer's page asks every few seconds: "nothing new" (204) and "here is what changed" each cost the
    same at game 5 as at game 120."""
    match = make_match(owner, rules={"bock": True})
    enter(match, 5)
    address = reverse("match_follow", args=[match.public_id])

    def asked(version: int, status: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert signed_in.get(address, {"version": version}, headers={"HX-Request": "true"}).status_code == status
        return len(captured)

    current = Match.objects.get(pk=match.pk).version
    unchanged, changed = asked(current, 204), asked(current - 1, 200)
    enter(match, 115)
    change(match, owner)
    current = Match.objects.get(pk=match.pk).version
    assert asked(current, 204) == unchanged
    assert asked(current - 1, 200) == changed
