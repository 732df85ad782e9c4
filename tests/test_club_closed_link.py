"""A table's QR link, once its night is closed, opens a page of the site in the phone's language: the night is
closed, and here is its table (410: the link is gone for good); once the table's list was entered on paper, it says
so, with the way to the night, and the night's page hands the link out no more. A link nobody made stays a plain
404."""

import datetime
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night
from matches.clubs.selectors import night_results
from matches.models import Game, Match

from .factories import make_user
from .test_queries import enter

pytestmark = pytest.mark.django_db


def _closed_night() -> tuple[Night, str]:
    night, table = _drawn_night()
    enter(table.match, 3)
    token = table.match.invite_token
    assert token is not None
    clubs.night_close(night=night, user=night.season.club.memberships.get().user, unfinished=True)
    return night, token


def _drawn_night() -> tuple[Night, ClubTable]:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 26))
    for name in ("Anna Albers", "Ben", "Cleo"):
        clubs.check_in(night=night, name=name)
    anna = season.club.keeper.players.get(name="Anna Albers")
    clubs.roster_set(club=club, player=anna, guest=False, first_name_only=True, categories=[])
    clubs.night_draw(night=night, series=1, user=owner)
    return night, ClubTable.objects.select_related("match").get(night=night)


def test_a_closed_nights_table_link_says_the_night_is_closed_with_its_results_in_german() -> None:
    night, token = _closed_night()
    answer = Client(headers={"accept-language": "de"}).get(reverse("match_join", args=[token]))
    assert answer.status_code == 410
    page = answer.content.decode()
    assert '<html lang="de">' in page
    assert "Der Abend ist geschlossen" in page
    assert "Skatclub Herz Dame" in page
    results = night_results(night)
    assert results.night_places
    for place in results.night_places:
        assert f"<td>{place.place}" in page
    assert "Anna" in page
    assert "Albers" not in page  # a public page: first names only where asked


def test_a_reopened_nights_old_link_and_an_unknown_link_open_nothing() -> None:
    night, token = _closed_night()
    assert Client().get(reverse("match_join", args=["not-a-link-anybody-made"])).status_code == 404
    clubs.night_reopen(night=night, user=night.season.club.memberships.get().user)
    assert Client().get(reverse("match_join", args=[token])).status_code == 404


def _table_phone(table: ClubTable, language: str = "en") -> Client:
    """A phone at the table without an account, scoring by the table's QR link."""
    phone = Client(headers={"accept-language": language})
    assert table.match.invite_token is not None
    phone.post(reverse("match_join", args=[table.match.invite_token]))
    return phone


def _game(table: ClubTable) -> dict[str, str]:
    declarer = (table.match.first_dealer + 1) % table.match.players
    return {
        "token": str(uuid.uuid4()),
        "number": "1",
        "contract": "clubs",
        "matadors": "1",
        "declarer": str(declarer),
        "declarer_card_points": "70",
    }


def test_a_link_scorers_save_and_page_after_the_close_say_the_night_is_closed_in_the_phones_language() -> None:
    night, table = _drawn_night()
    phone = _table_phone(table, "de")
    clubs.night_close(night=night, user=night.season.club.memberships.get().user, unfinished=True)
    address = reverse("game_create", args=[table.match.public_id])
    for headers in ({"HX-Request": "true"}, {}):
        answer = phone.post(address, _game(table), headers=headers)
        assert answer.status_code == 410
        assert "Der Abend ist geschlossen" in answer.content.decode()
    page = phone.get(reverse("match_detail", args=[table.match.public_id]))
    assert page.status_code == 410
    assert "Der Abend ist geschlossen" in page.content.decode()
    assert not Game.objects.filter(match=table.match).exists()


def test_a_game_saved_before_the_close_and_sent_again_after_it_is_answered_as_stored() -> None:
    night, table = _drawn_night()
    phone = _table_phone(table)
    game = _game(table)
    address = reverse("game_create", args=[table.match.public_id])
    assert phone.post(address, game, headers={"HX-Request": "true"}).status_code == 200
    clubs.night_close(night=night, user=night.season.club.memberships.get().user, unfinished=True)
    again = phone.post(address, game, headers={"HX-Request": "true"})
    assert again.status_code == 200
    stored = Game.objects.get(match=table.match)
    assert f'id="game-{stored.public_id}"' in again.content.decode()
    stranger = Client().post(address, game, headers={"HX-Request": "true"})
    assert stranger.status_code == 200
    other = phone.post(address, _game(table), headers={"HX-Request": "true"})
    assert other.status_code == 410
    assert Game.objects.filter(match=table.match).count() == 1


def test_the_closed_nights_page_and_its_fragment_tell_a_cache_they_differ_by_htmx() -> None:
    night, table = _drawn_night()
    phone = _table_phone(table)
    clubs.night_close(night=night, user=night.season.club.memberships.get().user, unfinished=True)
    address = reverse("match_detail", args=[table.match.public_id])
    page = phone.get(address)
    fragment = phone.get(address, headers={"HX-Request": "true"})
    assert page.status_code == fragment.status_code == 410
    assert page.content.decode().startswith("<!doctype html>")
    assert not fragment.content.decode().lstrip().startswith("<!doctype html>")
    assert "HX-Request" in page["Vary"]
    assert "HX-Request" in fragment["Vary"]


def _on_paper(table: ClubTable) -> None:
    seated = [seat.player for seat in table.match.seats.order_by("position")]
    clubs.paper_enter(table=table, lines=[(player, 0, 0, 0) for player in seated])


def _secretary(night: Night) -> Client:
    browser = Client()
    browser.force_login(night.season.club.memberships.get().user)
    return browser


def test_a_paper_tables_link_says_its_list_was_entered_on_paper_with_the_way_to_the_night() -> None:
    night, table = _drawn_night()
    token = table.match.invite_token
    assert token is not None
    address = reverse("match_join", args=[token])
    page = _secretary(night).get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert address in page
    _on_paper(table)
    page = _secretary(night).get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert address not in page
    assert "<svg" not in page
    assert "Scoring link (no account needed)" not in page
    for language, said in (
        ("en", "Table 1 of series 1 entered its list on paper: its scoring link scores no more."),
        ("de", "Tisch 1 der Serie 1 hat seine Liste auf Papier geführt: sein Link zum Schreiben gilt nicht mehr."),
    ):
        answer = Client(headers={"accept-language": language}).get(address)
        assert answer.status_code == 410
        assert said in answer.content.decode()
        assert f'href="{reverse("night_detail", args=[night.public_id])}"' in answer.content.decode()


def test_a_phone_that_scored_a_table_entered_on_paper_meanwhile_is_told_so_on_saving_and_on_its_page() -> None:
    _, table = _drawn_night()
    phone = _table_phone(table)
    _on_paper(table)
    address = reverse("game_create", args=[table.match.public_id])
    for headers in ({"HX-Request": "true"}, {}):
        answer = phone.post(address, _game(table), headers=headers)
        assert answer.status_code == 410
        assert "Table 1 of series 1 entered its list on paper" in answer.content.decode()
    page = phone.get(reverse("match_detail", args=[table.match.public_id]))
    assert page.status_code == 410
    assert "Table 1 of series 1 entered its list on paper" in page.content.decode()
    assert not Game.objects.filter(match=table.match).exists()


def test_a_paper_list_turns_the_tables_link_off_in_its_history_and_a_closed_night_still_says_it_is_closed() -> None:
    night, table = _drawn_night()
    token = table.match.invite_token
    _on_paper(table)
    match = Match.objects.get(pk=table.match_id)
    assert (match.locked, match.invite_token, match.ended_link) == (True, None, token)
    lock = match.events.get(action="lock")
    assert (lock.before, lock.after) == ({"locked": False, "link": True}, {"locked": True, "link": False})
    clubs.night_close(night=night, user=night.season.club.memberships.get().user)
    answer = Client().get(reverse("match_join", args=[token]))
    assert answer.status_code == 410
    assert "The night is closed" in answer.content.decode()


def test_a_paper_table_back_on_its_phones_keeps_its_qr_link_and_its_phones_score_again() -> None:
    night, table = _drawn_night()
    token = table.match.invite_token
    assert token is not None
    phone = _table_phone(table)
    _on_paper(table)
    secretary = _secretary(night)
    answer = secretary.post(reverse("night_table_phones", args=[night.public_id, table.number]), {"series": "1"})
    assert answer.status_code == 302
    assert Match.objects.get(pk=table.match_id).invite_token == token
    page = secretary.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert reverse("match_join", args=[token]) in page
    saved = phone.post(
        reverse("game_create", args=[table.match.public_id]), _game(table), headers={"HX-Request": "true"}
    )
    assert saved.status_code == 200
    assert Game.objects.filter(match=table.match).count() == 1
    assert Client().get(reverse("match_join", args=[token])).status_code == 200


def test_a_paper_table_of_a_night_closed_and_reopened_goes_back_to_its_phones_with_a_new_link() -> None:
    """The night's closing turned every table's link off; reopened, its links stay off until renewed: the paper
    table's old QR card does not score again when the table goes back to its phones, as no other table's does."""
    night, table = _drawn_night()
    token = table.match.invite_token
    assert token is not None
    phone = _table_phone(table)
    _on_paper(table)
    owner = night.season.club.memberships.get().user
    clubs.night_close(night=night, user=owner)
    clubs.night_reopen(night=Night.objects.get(pk=night.pk), user=owner)
    clubs.paper_to_phones(table=ClubTable.objects.get(pk=table.pk), user=owner)
    renewed = Match.objects.get(pk=table.match_id).invite_token
    assert renewed is not None
    assert renewed != token
    assert Client().get(reverse("match_join", args=[token])).status_code == 404
    saved = phone.post(
        reverse("game_create", args=[table.match.public_id]), _game(table), headers={"HX-Request": "true"}
    )
    assert saved.status_code == 401
    assert not Game.objects.filter(match=table.match).exists()
    assert Client().get(reverse("match_join", args=[renewed])).status_code == 200
