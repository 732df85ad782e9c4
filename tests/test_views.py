import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches.engine import VARIANTS, Variant
from matches.engine.cards import CARD_POINTS_TOTAL
from matches.models import Game, GameScore, Match, MatchEvent, Player
from matches.services import match_rescore

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> User:
    return make_user("owner")


@pytest.fixture
def stranger() -> User:
    return make_user("stranger")


@pytest.fixture
def client_of(client: Client) -> Any:
    def log_in(user: User) -> Client:
        client.force_login(user)
        return client

    return log_in


def game_data(**fields: Any) -> dict[str, Any]:
    return {"token": str(uuid.uuid4()), "matadors": "1", **fields}


def test_pages_need_a_login(client: Client, owner: User) -> None:
    match = make_match(owner)
    response = client.get(f"/matches/{match.public_id}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_stranger_never_sees_someone_elses_match(client_of: Any, owner: User, stranger: User) -> None:
    match = make_match(owner)
    game = add(match, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(stranger)
    assert client.get(f"/matches/{match.public_id}/").status_code == 404
    assert client.post(f"/matches/{match.public_id}/games/", game_data(contract="clubs")).status_code == 404
    assert client.get(f"/matches/{match.public_id}/games/{game.public_id}/edit/").status_code == 404
    assert client.post(f"/matches/{match.public_id}/undo/", {"token": str(uuid.uuid4())}).status_code == 404
    assert client.get(f"/matches/{match.public_id}/history/").status_code == 404


def test_signing_up_logs_in_and_leads_to_a_new_match(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "dora", "email": "", "password1": "a-long-enough-secret-7", "password2": "a-long-enough-secret-7"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/matches/new/"
    assert client.get("/matches/new/").status_code == 200


def test_the_password_reset_mails_a_link(client: Client, mailoutbox: list[Any]) -> None:
    User.objects.create_user("erna", email="erna@example.org", password="x-long-enough-secret-1")
    response = client.post("/accounts/password_reset/", {"email": "erna@example.org"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    assert "/accounts/reset/" in mailoutbox[0].body


def test_starting_a_match_from_a_preset_stores_its_rules_and_seats(client_of: Any, owner: User) -> None:
    client = client_of(owner)
    assert "Skat, pub rules" in client.get("/matches/new/").content.decode()
    page = client.get("/matches/new/?preset=skat-pub")
    assert page.status_code == 200
    data = {
        "preset": "skat-pub",
        "scheme": "standard",
        "player_0": "Anna",
        "player_1": "Ben",
        "player_2": "Cleo",
        "player_3": "",
        "first_dealer": "1",
        "rule_kontra_re": "on",
        "rule_ramsch": "on",
        "rule_bock": "on",
        "rule_bock_on_draw": "on",
        "rule_ramsch_loss": "card-points",
        "rule_ramsch_fixed_loss": "10",
        "rule_lost_hand": "double",
    }
    response = client.post("/matches/new/", data)
    assert response.status_code == 302
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.public_id}/"
    assert match.rules["kontra_re"] is True
    assert match.rules["bock_on_kontra"] is False
    assert match.first_dealer == 1
    assert [seat.player.name for seat in match.seats.all()] == ["Anna", "Ben", "Cleo"]


def test_a_tournament_preset_fixes_the_series_length(client_of: Any, owner: User) -> None:
    client = client_of(owner)
    data = {
        "preset": "skat-tournament",
        "scheme": "seeger-fabian",
        "player_0": "A",
        "player_1": "B",
        "player_2": "C",
        "player_3": "D",
        "first_dealer": "0",
        "rule_ramsch_loss": "card-points",
        "rule_ramsch_fixed_loss": "10",
        "rule_lost_hand": "double",
    }
    assert client.post("/matches/new/", data).status_code == 302
    assert Match.objects.get().planned_games == 48


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Anna", "anna", "Ben"], "Each player can sit at the table only once."),
        (["Anna", "", ""], "This field is required."),
    ],
)
def test_a_bad_table_is_refused_with_a_message(client_of: Any, owner: User, names: list[str], message: str) -> None:
    client = client_of(owner)
    data = {"preset": "skat-isko", "scheme": "standard", "first_dealer": "0", "rule_ramsch_loss": "card-points"}
    data |= {"rule_ramsch_fixed_loss": "10", "rule_lost_hand": "double"}
    data |= {f"player_{seat}": name for seat, name in enumerate(names)}
    response = client.post("/matches/new/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_entering_a_game_without_script_redirects_to_the_list(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    response = client.post(
        f"/matches/{match.public_id}/games/",
        game_data(contract="clubs", declarer="1", declarer_card_points="70", matadors="2"),
    )
    assert response.status_code == 302
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert "Ben · ♣ Clubs · 36" in page
    assert "Game 2: Ben deals, Cleo leads." in page


def test_entering_a_game_with_htmx_returns_the_new_list(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    response = client.post(
        f"/matches/{match.public_id}/games/",
        game_data(contract="grand", declarer="2", declarer_card_points="40"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert '<div class="status" id="status" hx-swap-oob="true">' in html
    assert "Cleo · Grand · 48" in html
    assert "<small>−96</small>" in html
    # The next deal takes the same fields: they stay on the phone, and only the next token, number and version come.
    assert 'name="contract"' not in html
    assert '<div id="entry-next" hx-swap-oob="true" hidden data-token="' in html
    assert 'data-number="2" data-version="1"' in html


def test_a_game_entered_with_its_outcome_needs_no_card_points(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    data = {"token": str(uuid.uuid4()), "contract": "clubs", "declarer": "1", "matadors": "-2", "outcome": "won"}
    response = client.post(f"/matches/{match.public_id}/games/", data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    game = Game.objects.get(match=match)
    assert game.entry == {"contract": "clubs", "matadors": -2, "outcome": "won"}
    assert game.points == [0, 36, 0]
    html = response.content.decode()
    assert "Game 1 saved:" in html
    assert "<strong>Ben +36</strong>" in html
    assert ">Undo game 1</button>" in html


def test_more_matadors_than_the_chips_are_counted_in_their_own_field(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    url = f"/matches/{match.public_id}/games/"
    data = {"token": str(uuid.uuid4()), "contract": "clubs", "declarer": "0", "matadors": "+", "outcome": "won"}
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert 'id="id_matadors_count_error"' in refused.content.decode()
    assert "How many?" in refused.content.decode()
    assert client.post(url, {**data, "matadors_count": "6"}).status_code == 302
    game = Game.objects.get(match=match)
    assert game.entry == {"contract": "clubs", "matadors": 6, "outcome": "won"}
    edit = client.get(f"/matches/{match.public_id}/games/{game.public_id}/edit/").content.decode()
    assert 'value="+" id="id_matadors_' in edit
    assert 'value="6"' in edit


def test_card_points_that_contradict_the_outcome_are_shown_at_the_outcome(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    data = game_data(contract="clubs", declarer="0", declarer_card_points="95", outcome="won")
    response = client.post(f"/matches/{match.public_id}/games/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_outcome_error"' in html
    assert "With 95 card points the declarer has won Schneider, not won." in html
    assert not Game.objects.exists()


def test_the_last_games_contract_is_preselected_and_said_to_be(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="hearts", matadors=1, declarer_card_points=70)
    html = client_of(owner).get(f"/matches/{match.public_id}/").content.decode()
    assert "♥ Hearts as last game; the score shows here." in html
    assert 'class="field contracts preselected"' in html
    assert 'value="hearts" id="id_contract_1" checked' in html


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_game_form_says_how_many_card_points_its_variant_has(client_of: Any, owner: User, variant: Variant) -> None:
    """The form's script reckons the opponents' card points and a Ramsch's last player's from the page's total."""
    names = ("Anna", "Ben", "Cleo", "Dora")[: min(VARIANTS[variant].players)]
    match = make_match(owner, variant=variant, names=names)
    page = client_of(owner).get(f"/matches/{match.public_id}/").content.decode()
    assert f'data-card-points="{CARD_POINTS_TOTAL}"' in page


def test_the_form_fixing_a_game_says_how_many_card_points_there_are(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    game = add(match, contract="clubs", matadors=1, declarer_card_points=70)
    page = client_of(owner).get(f"/matches/{match.public_id}/games/{game.public_id}/edit/").content.decode()
    assert f'data-card-points="{CARD_POINTS_TOTAL}"' in page


def test_the_form_script_takes_the_card_points_from_the_page() -> None:
    script = (Path(__file__).parent.parent / "static" / "js" / "entry.js").read_text()
    assert "cardPoints" in script
    assert not re.search(rf"\b{CARD_POINTS_TOTAL}\b", script)


def test_a_table_of_four_gets_the_next_deals_form_as_the_seat_out_changes(client_of: Any, owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo", "Dora"))
    client = client_of(owner)
    data = {"token": str(uuid.uuid4()), "contract": "clubs", "declarer": "1", "matadors": "1", "outcome": "won"}
    response = client.post(f"/matches/{match.public_id}/games/", data, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert '<form method="post" class="entry" id="entry" novalidate hx-swap-oob="true"' in html
    assert 'name="number" value="2"' in html
    # One masked CSRF token for all the answer's forms, the entry drawn through its template among them.
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert len(tokens) >= 2
    assert len(set(tokens)) == 1


def test_bad_input_is_shown_next_to_the_field_and_kept(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    response = client.post(
        f"/matches/{match.public_id}/games/",
        game_data(contract="clubs", declarer="1", declarer_card_points="130", matadors="12"),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_declarer_card_points_error"' in html
    assert "Ensure this value is less than or equal to 120." in html
    assert 'value="130"' in html
    assert not Game.objects.exists()


def test_an_engine_refusal_lands_on_its_field(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    response = client.post(
        f"/matches/{match.public_id}/games/",
        game_data(contract="clubs", declarer="1", declarer_card_points="70", announced="schneider"),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_announced_error">Schneider and Schwarz can be announced in hand games only.' in html


def test_a_retried_post_creates_one_game(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    data = game_data(contract="hearts", declarer="0", declarer_card_points="61")
    client.post(f"/matches/{match.public_id}/games/", data)
    client.post(f"/matches/{match.public_id}/games/", data)
    assert Game.objects.filter(match=match).count() == 1


def test_the_preview_scores_before_saving(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    response = client.post(
        f"/matches/{match.public_id}/preview/",
        game_data(contract="clubs", declarer="1", declarer_card_points="70", matadors="2", hand="on"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ben +48" in html
    assert "with 2 · game 3 · hand 4" in html
    assert not Game.objects.exists()


def test_a_passed_deal_is_one_tap_and_moves_the_dealer(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    assert client.post(f"/matches/{match.public_id}/pass/", {"token": str(uuid.uuid4())}).status_code == 302
    assert "Game 2: Ben deals, Cleo leads." in client.get(f"/matches/{match.public_id}/").content.decode()


def test_fixing_a_game_rescores_and_keeps_history(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    page = client.get(f"/matches/{match.public_id}/games/{game.public_id}/edit/").content.decode()
    assert 'value="70"' in page
    response = client.post(
        f"/matches/{match.public_id}/games/{game.public_id}/edit/",
        game_data(contract="clubs", declarer="0", declarer_card_points="50"),
    )
    assert response.status_code == 302
    assert GameScore.objects.get(game=game, seat=0).points == -48
    history = client.get(f"/matches/{match.public_id}/history/").content.decode()
    assert "Anna: ♣ Clubs, with 1, 70 card points" in history
    assert "Anna: ♣ Clubs, with 1, 50 card points" in history


def test_deleting_asks_first_and_undo_brings_it_back(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    assert "Delete game 1?" in client.get(f"/matches/{match.public_id}/games/{game.public_id}/delete/").content.decode()
    client.post(f"/matches/{match.public_id}/games/{game.public_id}/delete/", {"token": str(uuid.uuid4())})
    assert Game.objects.get(pk=game.pk).deleted
    client.post(f"/matches/{match.public_id}/undo/", {"token": str(uuid.uuid4())})
    assert not Game.objects.get(pk=game.pk).deleted


def test_a_spectator_reads_but_cannot_change_anything(client: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    page = client.get(f"/watch/{match.share_token}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Anna · ♣ Clubs · 24" in html
    assert "Save game" not in html
    assert "/edit/" not in html
    assert client.post(f"/matches/{match.public_id}/games/", game_data(contract="clubs")).status_code == 302
    assert Game.objects.count() == 1


def test_the_spectator_poll_answers_204_until_something_changes(client: Client, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    version = MatchEvent.objects.get(game=game).version
    url = f"/watch/{match.share_token}/?version={version}"
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 204
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    fresh = client.get(url, headers={"HX-Request": "true"})
    assert fresh.status_code == 200
    assert "Ben · ♣ Clubs · 24" in fresh.content.decode()


def test_an_invited_co_scorer_can_enter_games(client_of: Any, owner: User, stranger: User) -> None:
    match = make_match(owner)
    client = client_of(stranger)
    assert client.get(f"/join/{match.invite_token}/").status_code == 200
    client.post(f"/join/{match.invite_token}/")
    response = client.post(
        f"/matches/{match.public_id}/games/", game_data(contract="spades", declarer="2", declarer_card_points="90")
    )
    assert response.status_code == 302
    assert Game.objects.get().created_by == stranger


def test_the_player_page_sums_up_a_lifetime(client_of: Any, owner: User) -> None:
    first = make_match(owner)
    add(first, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    add(first, declarer=0, contract="clubs", matadors=1, declarer_card_points=40)
    second = make_match(owner, variant="officers-skat", names=("Anna", "Ben"))
    add(second, declarer=0, contract="diamonds", matadors=3, declarer_card_points=95)
    anna = Player.objects.get(keeper__user=owner, name="Anna")
    ben = Player.objects.get(keeper__user=owner, name="Ben")
    client = client_of(owner)
    html = client.get(f"/players/{anna.public_id}/").content.decode()
    assert "Officers&#x27; Skat · Standard" in html
    assert '<td class="num">−24</td><td class="num">2</td>' in html
    versus = client.get(f"/players/{anna.public_id}/vs/{ben.public_id}/").content.decode()
    # Never added up across variants or schemes. Skat: +24 and −48; Officers' Skat: (3 + 1) × 9 = 36, Schneider ×2.
    assert "<h2>Skat · Standard</h2>" in versus
    assert "<h2>Officers&#x27; Skat · Standard</h2>" in versus
    assert versus.count("1 match together") == 2
    assert '<span class="name">Anna</span> <span class="total">−24</span>' in versus
    assert '<span class="name">Anna</span> <span class="total">72</span>' in versus
    assert '<span class="name">Anna</span> <span class="total">48</span>' not in versus


def test_another_users_player_is_not_found(client_of: Any, owner: User, stranger: User) -> None:
    make_match(owner)
    anna = Player.objects.get(keeper__user=owner, name="Anna")
    assert client_of(stranger).get(f"/players/{anna.public_id}/").status_code == 404


def test_what_if_shows_the_match_under_another_scheme(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=50)
    html = client_of(owner).get(f"/matches/{match.public_id}/?scheme=seeger-fabian").content.decode()
    assert "Scored as Seeger-Fabian" in html
    assert "−98" in html


def _bulk_games(match: Match, count: int) -> None:
    """``count`` games entered at once, their scores derived by a rescore."""
    Game.objects.bulk_create(
        Game(
            match=match,
            position=position,
            declarer=0,
            entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70},
        )
        for position in range(1, count + 1)
    )
    match_rescore(match)


def _count_entry_queries(client: Client, match: Match) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/matches/{match.public_id}/games/",
            game_data(contract="hearts", declarer="1", declarer_card_points="80"),
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200
    return len(queries)


def test_entering_a_game_costs_the_same_queries_at_game_ten_and_at_game_a_thousand(
    client_of: Any, owner: User, django_assert_num_queries: Any
) -> None:
    client = client_of(owner)
    short, long = make_match(owner, rules={"bock": True}), make_match(owner, rules={"bock": True})
    _bulk_games(short, 9)
    _bulk_games(long, 999)
    at_ten = _count_entry_queries(client, short)
    with django_assert_num_queries(at_ten):
        response = client.post(
            f"/matches/{long.public_id}/games/",
            game_data(contract="hearts", declarer="1", declarer_card_points="80"),
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200
    assert Game.objects.filter(match=long).count() == 1000


def test_the_deck_choice_renames_the_suits(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    client.post("/deck/", {"deck": "german", "next": f"/matches/{match.public_id}/"})
    html = client.get(f"/matches/{match.public_id}/").content.decode()
    assert "Anna · Acorns · 24" in html
    assert "2 × 12 (acorns) = 24" in html


def test_language_and_cards_are_chosen_on_their_own_page_and_lead_back(client: Client, owner: User) -> None:
    match = make_match(owner)
    address = f"/matches/{match.public_id}/?scheme=base-value"
    client.force_login(owner)
    page = client.get(address).content.decode()
    link = f'href="/preferences/?next=/matches/{match.public_id}/%3Fscheme%3Dbase-value"'
    assert link in page
    assert 'name="language"' not in page  # the footer only links to the choices
    choices = client.get("/preferences/", {"next": address}).content.decode()
    assert choices.count(f'<input name="next" type="hidden" value="{address}">') == 2
    assert 'name="language"' in choices
    assert 'name="deck"' in choices
    assert client.post("/deck/", {"deck": "german", "next": address})["Location"] == address
    elsewhere = client.get("/preferences/", {"next": "https://elsewhere.example/"}).content.decode()
    assert elsewhere.count('<input name="next" type="hidden" value="/">') == 2
    assert '<p><a href="/">Back</a></p>' in elsewhere


def test_a_spectator_can_choose_the_deck_too(client: Client, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="diamonds", matadors=1, declarer_card_points=70)
    response = client.post("/deck/", {"deck": "german", "next": "https://elsewhere.example/"})
    assert response["Location"] == "/"
    assert "Anna · Bells · 18" in client.get(f"/watch/{match.share_token}/").content.decode()


def test_a_retried_save_at_four_goes_through_although_the_deal_moved_on(client_of: Any, owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo", "Dora"))
    client = client_of(owner)
    # Game 1: Anna deals and sits out, Ben (forehand) declares; in game 2 Ben deals and sits out.
    data = game_data(contract="clubs", declarer="1", declarer_card_points="70")
    first = client.post(f"/matches/{match.public_id}/games/", data, headers={"HX-Request": "true"})
    again = client.post(f"/matches/{match.public_id}/games/", data, headers={"HX-Request": "true"})
    assert first.status_code == again.status_code == 200
    assert "not one of the available choices" not in again.content.decode()
    assert data["token"] not in again.content.decode()
    assert Game.objects.filter(match=match).count() == 1


def test_a_form_from_before_another_phones_save_is_stopped(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    stale = game_data(contract="clubs", declarer="1", declarer_card_points="70", number="1")
    client.post(
        f"/matches/{match.public_id}/games/", game_data(contract="hearts", declarer="1", declarer_card_points="70")
    )
    response = client.post(f"/matches/{match.public_id}/games/", stale)
    assert response.status_code == 409
    assert "Game 1 was just entered from another phone" in response.content.decode()
    assert Game.objects.filter(match=match).count() == 1


def test_a_form_for_a_game_past_the_next_after_an_undo_says_which_game_is_next(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    for declarer in (0, 1, 2):
        add(match, declarer=declarer, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    client.post(f"/matches/{match.public_id}/undo/", {"token": str(uuid.uuid4())})

    response = client.post(
        f"/matches/{match.public_id}/games/",
        game_data(contract="clubs", declarer="0", declarer_card_points="70", number="4"),
    )

    assert response.status_code == 409
    page = response.content.decode()
    assert "The next game is 3, not game 4" in page
    assert "another phone" not in page
    assert Game.objects.filter(match=match, deleted=False).count() == 2


def test_a_form_naming_a_game_out_of_range_is_a_400_not_a_500(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    response = client.post(
        f"/matches/{match.public_id}/games/",
        game_data(contract="clubs", declarer="0", declarer_card_points="70", number=str(10**30)),
    )
    assert response.status_code == 400
    assert "another phone" not in response.content.decode()
    assert "This page is out of date or was changed on the way" in response.content.decode()
    assert not Game.objects.filter(match=match).exists()


def test_a_retried_delete_is_not_a_404(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    token = str(uuid.uuid4())
    assert (
        client.post(f"/matches/{match.public_id}/games/{game.public_id}/delete/", {"token": token}).status_code == 302
    )
    assert (
        client.post(f"/matches/{match.public_id}/games/{game.public_id}/delete/", {"token": token}).status_code == 302
    )
    assert Game.objects.get(pk=game.pk).deleted


def test_a_game_can_be_fixed_into_a_passed_deal(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    response = client.post(
        f"/matches/{match.public_id}/games/{game.public_id}/edit/", {"passed": "1", "token": str(uuid.uuid4())}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.passed
    assert "Game 2: Ben deals, Cleo leads." in client.get(f"/matches/{match.public_id}/").content.decode()


def test_undo_stays_at_hand_when_the_series_is_complete(client_of: Any, owner: User) -> None:
    match = make_match(owner, planned_games=1)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    html = client.get(f"/matches/{match.public_id}/").content.decode()
    assert "The series is complete." in html
    assert "Save game" not in html
    assert "Undo game 1" in html
    client.post(f"/matches/{match.public_id}/undo/", {"token": str(uuid.uuid4())})
    html = client.get(f"/matches/{match.public_id}/").content.decode()
    assert "Game 1 undone (no longer on the list): Anna: ♣ Clubs, with 1, 70 card points" in html


def test_what_if_shows_the_rescored_value(client_of: Any, owner: User) -> None:
    match = make_match(owner, variant="officers-skat", names=("Anna", "Ben"))
    add(match, declarer=1, contract="hearts", matadors=1, declarer_card_points=70)
    html = client_of(owner).get(f"/matches/{match.public_id}/?scheme=card-points").content.decode()
    assert "Ben · ♥ Hearts · 70" in html


def test_a_scorers_page_follows_changes_made_elsewhere(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    url = f"/matches/{match.public_id}/follow/"
    version = Match.objects.get(pk=match.pk).version
    assert client.get(url, {"version": version}, headers={"HX-Request": "true"}).status_code == 204
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    changed = client.get(url, {"version": version}, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    html = changed.content.decode()
    assert f'?version={version + 1}"' in html
    assert '<div class="status" id="status" hx-swap-oob="true">' in html
    assert "Ben · ♣ Clubs · 24" in html
    assert 'name="contract"' not in html


def test_home_shows_each_match_with_its_scheme_players_standings_games_and_last_play(
    client_of: Any, owner: User
) -> None:
    match = make_match(owner, rules={"bock": True})
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    html = client_of(owner).get("/").content.decode()
    assert "Skat · Standard · 1 game · last played" in html
    assert "Anna 0 · Ben 24 · Cleo 0" in html


def test_the_match_page_shows_the_rules_in_force(client_of: Any, owner: User) -> None:
    """At the foot of the match page, loaded when it is scrolled to (or on a page of their own, without a script)."""
    match = make_match(owner, rules={"bock": True})
    client = client_of(owner)
    tools = f"/matches/{match.public_id}/share/"
    assert f'hx-get="{tools}" hx-trigger="revealed"' in client.get(f"/matches/{match.public_id}/").content.decode()
    fragment = client.get(tools, headers={"HX-Request": "true"}).content.decode()
    for html in (fragment, client.get(tools).content.decode()):
        assert "Rules: Skat, Standard" in html
        assert "<dt>Bock rounds</dt><dd>yes</dd>" in html


def test_a_schafkopf_match_words_its_rules_in_stoss(client_of: Any, owner: User) -> None:
    """Officers' Schafkopf doubles by Stoß: its rules in force, and the form that starts it, say so."""
    match = make_match(owner, variant="officers-schafkopf", names=("Anna", "Ben"))
    client = client_of(owner)
    tools = f"/matches/{match.public_id}/share/"
    assert "<dt>Stoß and Re</dt><dd>yes</dd>" in client.get(tools).content.decode()
    form = client.get("/matches/new/?preset=officers-schafkopf").content.decode()
    assert "Stoß and Re" in form
    assert "The opponents may double the game (Stoß, ×2)" in form
    assert "Kontra" not in form
    client.cookies["django_language"] = "de"
    assert "<dt>Stoß und Re</dt><dd>ja</dd>" in client.get(tools).content.decode()
    form = client.get("/matches/new/?preset=officers-schafkopf").content.decode()
    assert "Stoß und Re" in form
    assert "Kontra" not in form
    assert "Kontra und Re" in client.get("/matches/new/?preset=skat-pub").content.decode()


def test_what_if_is_asked_at_the_foot_of_the_match_page_and_shown_on_it(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    tools = client.get(f"/matches/{match.public_id}/share/?scheme=seeger-fabian", headers={"HX-Request": "true"})
    html = tools.content.decode()
    assert f'<form method="get" action="/matches/{match.public_id}/" class="inline-form">' in html
    assert '<option value="seeger-fabian" selected>Seeger-Fabian</option>' in html
    page = client.get(f"/matches/{match.public_id}/?scheme=seeger-fabian").content.decode()
    assert f'hx-get="/matches/{match.public_id}/share/?scheme=seeger-fabian"' in page
    # The what-if sheet on the page and the choice at its foot have ids of their own: the label names the choice.
    assert '<section class="sheet" id="what-if"' in page
    assert '<label for="what-if-scheme">' in html
    assert '<select id="what-if-scheme" name="scheme">' in html


def test_the_fix_page_previews_the_game_at_its_place(client_of: Any, owner: User) -> None:
    match = make_match(owner, rules={"bock": True})
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    second = add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=2, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    page = client.get(f"/matches/{match.public_id}/games/{second.public_id}/edit/").content.decode()
    url = f"/matches/{match.public_id}/games/{second.public_id}/preview/"
    assert f'hx-post="{url}"' in page
    data = {"token": str(uuid.uuid4()), "contract": "clubs", "declarer": "1", "matadors": "2", "outcome": "won"}
    html = client.post(url, data, headers={"HX-Request": "true"}).content.decode()
    # Game 2 is in the Bock round the grand hand started: 12 × 3 = 36, doubled: 72.
    assert "Ben +72" in html


def test_a_script_whose_visitor_may_not_save_gets_401_not_the_log_in_page(client: Client, owner: User) -> None:
    match = make_match(owner)
    data = game_data(contract="clubs", declarer="1", declarer_card_points="70")
    response = client.post(f"/matches/{match.public_id}/games/", data, headers={"HX-Request": "true"})
    assert response.status_code == 401
    assert client.post(f"/matches/{match.public_id}/games/", data).status_code == 302


def test_an_htmx_refusal_says_so_in_its_status(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    client = client_of(owner)
    url = f"/matches/{match.public_id}/games/"
    bad = game_data(contract="clubs", declarer="1", declarer_card_points="119")
    assert client.post(url, bad, headers={"HX-Request": "true"}).status_code == 400
    first = game_data(contract="clubs", declarer="1", declarer_card_points="70", number="1")
    assert client.post(url, first, headers={"HX-Request": "true"}).status_code == 200
    again = game_data(contract="hearts", declarer="1", declarer_card_points="70", number="1")
    assert client.post(url, again, headers={"HX-Request": "true"}).status_code == 409


def _step(client: Client, match: Match, step: str) -> str:
    client.post(f"/matches/{match.public_id}/{step}/", {"token": str(uuid.uuid4())})
    return client.get(f"/matches/{match.public_id}/").content.decode()


def test_undoing_a_deletion_says_the_game_is_restored(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    client.post(f"/matches/{match.public_id}/games/{game.public_id}/delete/", {"token": str(uuid.uuid4())})
    assert not Game.objects.filter(pk=game.pk, deleted=False).exists()
    html = _step(client, match, "undo")
    assert "Game 1 restored: Anna: ♣ Clubs, with 1, 70 card points" in html
    assert "(deleted)" not in html
    assert "Game 1 deleted again (redo): Anna: ♣ Clubs, with 1, 70 card points" in _step(client, match, "redo")


def test_undoing_an_edit_says_the_game_is_back_as_it_was(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    game = add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    fixed = game_data(declarer="0", contract="spades", matadors="1", declarer_card_points="70")
    client.post(f"/matches/{match.public_id}/games/{game.public_id}/edit/", fixed)
    html = _step(client, match, "undo")
    assert "Game 1 undone (back as before the change): Anna: ♣ Clubs, with 1, 70 card points" in html
    html = _step(client, match, "redo")
    assert "Game 1 changed again (redo): Anna: ♠ Spades, with 1, 70 card points" in html


def test_undo_and_redo_say_what_they_did_in_german(client_of: Any, owner: User) -> None:
    match = make_match(owner)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    client = client_of(owner)
    client.post(f"/matches/{match.public_id}/undo/", {"token": str(uuid.uuid4())}, headers={"Accept-Language": "de"})
    html = client.get(f"/matches/{match.public_id}/", headers={"Accept-Language": "de"}).content.decode()
    assert "Spiel 1 rückgängig gemacht (nicht mehr auf der Liste): Anna: ♣ Kreuz" in html
    client.post(f"/matches/{match.public_id}/redo/", {"token": str(uuid.uuid4())}, headers={"Accept-Language": "de"})
    html = client.get(f"/matches/{match.public_id}/", headers={"Accept-Language": "de"}).content.decode()
    assert "Spiel 1 wieder eingetragen (Wiederherstellen): Anna: ♣ Kreuz" in html


def test_bock_shows_the_multiplier_it_applies_and_the_games_after_this_one(client_of: Any, owner: User) -> None:
    match = make_match(owner, rules={"bock": True})
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    client = client_of(owner)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert "Bock ×2 on this game." in page
    assert "2 more Bock games after it." in page
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert '<span class="badge">Bock ×2</span>' in page  # game 2: one round in force, its value doubled
    assert "Bock ×4 on this game." in page  # game 3: the two rounds overlap, Doppelbock
    assert "2 more Bock games after it." in page
    add(match, declarer=2, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert '<span class="badge">Bock ×4</span>' in page
    assert "Bock ×2 on this game." in page
    assert "The last Bock game for now." in page


def test_a_durchmarsch_beside_a_player_who_took_a_trick_is_refused_next_to_the_field(
    client_of: Any, owner: User
) -> None:
    match = make_match(owner, rules={"ramsch": True})
    data = {"token": str(uuid.uuid4()), "contract": "ramsch", "ramsch_0": "120", "ramsch_1": "0", "ramsch_2": "0"}
    response = client_of(owner).post(f"/matches/{match.public_id}/games/", data | {"jungfrau": "1", "durchmarsch": "0"})
    assert response.status_code == 400
    assert (
        '<p class="error" role="alert" id="id_durchmarsch_error">A Durchmarsch means no other player took a trick: '
        "name every other player as Jungfrau, or none.</p>"
    ) in response.content.decode()
    assert not Game.objects.filter(match=match).exists()


def test_a_sheet_row_writes_a_players_name_as_text_never_as_markup(client_of: Any, owner: User) -> None:
    hostile = '<img src=x onerror="alert(1)">&'
    match = make_match(owner, names=(hostile, "Ben", "Cleo"))
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)
    page = client_of(owner).get(f"/matches/{match.public_id}/").content.decode()
    row = re.search(r'<tr id="game-.*?</tr>', page, re.DOTALL)
    assert row is not None
    assert "<img" not in row[0]
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp; · " in row[0]
