"""Player names are one thing everywhere; players and matches belong to a keeper, survive their creator, link to the
person's account and merge; an account named to give it a role is found by its name in any case."""

import threading
import uuid
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client

from matches.errors import Conflict, Invalid
from matches.models import Game, Keeper, Match, Player, Seat
from matches.names import BadName, name_key, normalize_name
from matches.services import (
    Added,
    Submission,
    game_add,
    keeper_for,
    match_create,
    player_claim,
    player_link,
    player_link_invite,
    player_merge,
)
from matches.services.events import account_named
from matches.stats import player_stats

from .factories import add, make_match, make_user

CLUBS_70: dict[str, Any] = {"contract": "clubs", "matadors": 1, "declarer_card_points": 70}


@pytest.mark.parametrize(
    ("first", "second"),
    [("Ärger", "ärger"), ("Strauß", "STRAUẞ"), ("Σίσυφος", "σίσυφοσ"), ("Kai", "\N{KELVIN SIGN}ai"), ("Ben ", " ben")],
)
def test_names_that_differ_only_in_case_or_form_are_one_name(first: str, second: str) -> None:
    assert name_key(normalize_name(first)) == name_key(normalize_name(second))


def test_a_name_is_stored_composed_and_with_single_spaces() -> None:
    assert normalize_name("  Jo\u0308rg   Mu\u0308ller ") == "Jörg Müller"


@pytest.mark.parametrize("name", ["", "   ", "Ben\u200b", "Ben\u202e", "Ben\x07", "x" * 61])
def test_invisible_control_or_too_many_characters_are_refused(name: str) -> None:
    with pytest.raises(BadName):
        normalize_name(name)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "names", [("σ", "ς", "Ben"), ("ß", "ẞ", "Ben"), ("k", "\N{KELVIN SIGN}", "Ben"), ("Ärger", "ärger", "Ben")]
)
def test_one_person_twice_at_a_table_is_refused_with_a_message_on_every_database(names: tuple[str, ...]) -> None:
    owner = make_user()
    with pytest.raises(Invalid) as refused:
        make_match(owner, names=names)
    assert [problem.field for problem in refused.value.errors] == ["players"]
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_the_same_name_in_another_form_finds_the_same_player() -> None:
    owner = make_user()
    make_match(owner, names=("Ärger", "Ben", "Cleo"))
    make_match(owner, names=("ärger", "ben", "\N{KELVIN SIGN}ai"))
    assert sorted(Player.objects.filter(keeper__user=owner).values_list("name", flat=True)) == [
        "Ben",
        "Cleo",
        "Kai",
        "Ärger",
    ]


@pytest.mark.django_db
def test_starting_a_match_checks_everything_a_page_would() -> None:
    owner = make_user()
    with pytest.raises(Invalid) as refused:
        match_create(
            owner=owner,
            variant="whist",
            scheme="standard",
            rules={},
            player_names=["Anna", "Ben\u200b"],
            first_dealer=5,
            title="x" * 101,
            preset="nonsense",
        )
    assert {problem.field for problem in refused.value.errors} == {"variant", "players.1", "title", "preset"}
    with pytest.raises(Invalid) as refused:
        match_create(
            owner=owner,
            variant="skat",
            scheme="simple",
            rules={"bock": "yes"},
            player_names=["Anna", "Ben"],
            planned_games=0,
        )
    assert {problem.field for problem in refused.value.errors} == {"scheme", "rules.bock", "players", "planned_games"}
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_a_retried_start_makes_one_match() -> None:
    owner = make_user()
    token = uuid.uuid4()
    first = make_match(owner, token=token)
    again = make_match(owner, token=token)
    assert first.pk == again.pk
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_matches_started_at_once_naming_the_same_new_player_both_succeed() -> None:
    owner = make_user()
    keeper = keeper_for(owner)
    barrier = threading.Barrier(2)
    started: list[Match] = []
    failures: list[BaseException] = []

    def start(names: tuple[str, ...]) -> None:
        try:
            barrier.wait(timeout=10)
            started.append(make_match(owner, names=names, keeper=keeper))
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=start, args=(("Zoë", "Anna", "Ben"),)),
        threading.Thread(target=start, args=(("ZOË", "Cleo", "Dora"),)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failures == []
    assert len(started) == 2
    assert Player.objects.filter(keeper=keeper, name_key=name_key("Zoë")).count() == 1


@pytest.mark.django_db
def test_a_match_survives_the_account_that_created_it() -> None:
    owner, helper = make_user("owner"), make_user("helper")
    match = make_match(owner)
    match.scorers.add(helper)
    add(match, **CLUBS_70)
    owner.delete()
    match.refresh_from_db()
    assert match.keeper.user is None
    assert Game.objects.filter(match=match).count() == 1
    assert Player.objects.filter(keeper=match.keeper).count() == 3
    client = Client()
    client.force_login(helper)
    assert client.get(f"/matches/{match.public_id}/").status_code == 200


@pytest.mark.django_db
def test_a_linked_player_sees_their_statistics_across_every_keeper() -> None:
    anna, ben = make_user("anna"), make_user("ben")
    first = make_match(anna, names=("Anna", "Ben", "Cleo"))
    add(first, declarer=1, **CLUBS_70)
    second = make_match(make_user("cleo"), names=("Ben B.", "Dora", "Emil"))
    add(second, declarer=0, **CLUBS_70)
    ben_at_anna = Player.objects.get(keeper__user=anna, name="Ben")
    player_claim(token=player_link_invite(player=ben_at_anna), account=ben)
    player_link(player=Player.objects.get(name="Ben B."), account=ben)
    stats = player_stats(list(Player.objects.filter(account=ben)))
    assert [(row.variant, row.total, row.games) for row in stats] == [("skat", 48, 2)]
    client = Client()
    client.force_login(ben)
    page = client.get("/players/me/").content.decode()
    assert '<td class="num">48</td><td class="num">2</td>' in page
    assert client.get(f"/matches/{first.public_id}/").status_code == 200
    assert "Save game" not in client.get(f"/matches/{first.public_id}/").content.decode()


@pytest.mark.django_db
def test_an_account_links_to_one_player_of_a_book() -> None:
    owner, ben = make_user("owner"), make_user("ben")
    make_match(owner, names=("Anna", "Ben", "Benjamin"))
    player_link(player=Player.objects.get(name="Ben"), account=ben)
    with pytest.raises(Conflict):
        player_link(player=Player.objects.get(name="Benjamin"), account=ben)


@pytest.mark.django_db
def test_a_player_linked_to_one_account_is_never_moved_to_another() -> None:
    owner, ben, mallory = make_user("owner"), make_user("ben"), make_user("mallory")
    make_match(owner, names=("Anna", "Ben", "Cleo"))
    player = Player.objects.get(name="Ben")
    player_link(player=player, account=ben)
    # An invitation such a player may still hold from before: following it takes nothing from Ben.
    Player.objects.filter(pk=player.pk).update(link_token="left-over")
    for take in (
        lambda: player_link(player=Player.objects.get(pk=player.pk), account=owner),
        lambda: player_claim(token="left-over", account=mallory),
        lambda: player_link_invite(player=Player.objects.get(pk=player.pk)),
    ):
        with pytest.raises(Conflict, match="linked to an account already"):
            take()
    player.refresh_from_db()
    assert player.person is not None
    assert (player.account, player.link_token, player.person.account) == (ben, "left-over", ben)
    # Ben following it himself is linked as he was, and the invitation is used up.
    player_claim(token="left-over", account=ben)
    player.refresh_from_db()
    assert (player.account, player.link_token) == (ben, None)
    client = Client()
    client.force_login(owner)
    answer = client.post(f"/players/{player.public_id}/link/", {"action": "me"}, follow=True)
    assert "linked to an account already" in answer.content.decode()
    assert Player.objects.get(pk=player.pk).account == ben


@pytest.mark.django_db
def test_an_account_is_found_by_its_name_with_any_letter_in_any_case_on_every_database() -> None:
    """ "JÖRG" and "jörg" find the account "Jörg" (SQLite's own comparison folds the case of A to Z alone); of
    accounts that differ only in case, the one written as named is taken and any other spelling is refused; what is
    typed is a name, never a pattern."""
    jorg = make_user("Jörg")
    assert account_named("JÖRG") == jorg
    assert account_named(" jörg ") == jorg
    big = make_user("JÖRG")
    assert (account_named("JÖRG"), account_named("Jörg")) == (big, jorg)
    with pytest.raises(Invalid) as unclear:
        account_named("jörg", field="captain")
    assert [(problem.field, problem.message.render()) for problem in unclear.value.errors] == [
        (
            "captain",
            "Several accounts have that name in other capital letters: write it exactly as the account you mean does.",
        )
    ]
    # Typed with the umlaut as a letter and its two dots apart, as some keyboards and pasted text write it, the name
    # is the one Django keeps (it normalises usernames as they are made).
    assert account_named("Jo\u0308rg") == jorg
    dotted = make_user("ärger.b")
    assert account_named("ÄRGER.B") == dotted
    make_user("Ölxb")
    for name in ("öl.B", "Öl", "xölxb", "Öl(", "ÖLXB+"):
        with pytest.raises(Invalid) as missing:
            account_named(name)
        assert [(problem.field, problem.message.render()) for problem in missing.value.errors] == [
            ("username", "There is no account of that name.")
        ]


@pytest.mark.django_db
def test_two_players_linked_to_two_accounts_are_never_merged() -> None:
    owner, anna, ben = make_user("owner"), make_user("anna"), make_user("ben")
    make_match(owner, names=("Anna", "Ben", "Cleo"))
    make_match(owner, names=("Anna B.", "Dora", "Emil"))
    first, second = Player.objects.get(name="Anna"), Player.objects.get(name="Anna B.")
    player_link(player=first, account=anna)
    player_link(player=second, account=ben)
    with pytest.raises(Conflict, match="linked to two accounts"):
        player_merge(into=first, other=second)
    assert Player.objects.get(pk=second.pk).account == ben
    assert Seat.objects.filter(player=second).count() == 1


@pytest.mark.django_db
def test_two_entries_of_one_person_merge_with_their_history() -> None:
    owner = make_user()
    first = make_match(owner, names=("Anna", "Ben", "Cleo"))
    add(first, declarer=1, **CLUBS_70)
    second = make_match(owner, names=("Anna", "Benny", "Cleo"))
    add(second, declarer=1, **CLUBS_70)
    ben, benny = Player.objects.get(name="Ben"), Player.objects.get(name="Benny")
    player_merge(into=ben, other=benny)
    assert not Player.objects.filter(pk=benny.pk).exists()
    assert Seat.objects.filter(player=ben).count() == 2
    assert [(row.total, row.games) for row in player_stats(ben)] == [(48, 2)]
    with pytest.raises(Conflict):
        player_merge(into=ben, other=Player.objects.get(name="Anna"))


@pytest.mark.django_db
def test_players_of_another_keeper_cannot_be_merged() -> None:
    make_match(make_user("one"), names=("Anna", "Ben", "Cleo"))
    make_match(make_user("two"), names=("Anna", "Ben", "Cleo"))
    first, second = Player.objects.filter(name="Anna")
    with pytest.raises(Invalid):
        player_merge(into=first, other=second)
    assert Keeper.objects.count() == 2


def _wait_until_another_waits_for_a_lock() -> None:
    """Hold on until another connection is waiting for a lock this transaction holds. PostgreSQL says so; SQLite's
    writers queue for the whole database, so a moment's pause lets the other reach the queue."""
    if connection.vendor != "postgresql":
        threading.Event().wait(0.3)
        return
    with connection.cursor() as cursor:
        for _ in range(200):
            # The activity view is read once per transaction unless its snapshot is dropped.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return
            threading.Event().wait(0.05)
    raise AssertionError("the retry never waited for the match's lock")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("number", [None, 1])
def test_a_retry_racing_its_first_post_gets_the_first_answer(number: int | None) -> None:
    owner = make_user()
    match = make_match(owner)
    token = uuid.uuid4()
    submission = Submission(declarer=0, entry=CLUBS_70, number=number)
    answers: dict[str, object] = {}
    first_saved = threading.Event()

    def first() -> None:
        try:
            with transaction.atomic():
                answers["first"] = game_add(match=match, user=owner, token=token, submission=submission)
                first_saved.set()
                _wait_until_another_waits_for_a_lock()
        finally:
            connection.close()

    def retry() -> None:
        first_saved.wait(timeout=10)
        try:
            answers["retry"] = game_add(match=match, user=owner, token=token, submission=submission)
        except Exception as error:  # the test reports whatever the retry met
            answers["retry"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=retry)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    saved, again = answers["first"], answers["retry"]
    assert isinstance(saved, Added)
    assert isinstance(again, Added), again
    assert again.game.pk == saved.game.pk
    assert again.replayed
    assert not saved.replayed
    assert Game.objects.filter(match=match).count() == 1


def test_a_name_whose_key_would_not_fit_is_refused() -> None:
    with pytest.raises(BadName):
        normalize_name("\N{ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM}" * 60)
