"""Changes to a match itself go through the core's services like a game's: each moves the version on and is kept in
the match's history (naming no game), shown on the history page, in the API and in a backup."""

import datetime
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from matches.backup import VERSION, account_backup
from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.errors import Invalid
from matches.models import Game, Match, MatchEvent
from matches.restore import restore
from matches.services import (
    SeatsKept,
    Submission,
    game_add,
    match_delete,
    match_hand_over,
    match_link_renew,
    match_lock,
    match_rescore,
    match_reseat,
    match_retitle,
    match_scorer_join,
    match_scorer_remove,
    match_unlock,
    player_named,
)

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


def _changes(match: Match) -> list[tuple[str, int, str | None]]:
    """The match's changes to itself, oldest first: action, version and author."""
    events = MatchEvent.objects.filter(match=match, game__isnull=True).order_by("version")
    return [(event.action, event.version, event.user.username if event.user else None) for event in events]


def test_closing_reopening_reseating_and_co_scorers_are_each_one_change_in_the_history() -> None:
    anna, bert = make_user("anna"), make_user("bert")
    match = make_match(anna)
    erik = player_named(match.keeper, "Erik")
    seated = [seat.player for seat in match.seats.order_by("position")]
    match_reseat(match=match, players=[erik, *seated[1:]], user=anna)
    match_scorer_join(match=match, user=bert)
    match_scorer_join(match=match, user=bert)  # a second time: nothing more
    match_scorer_remove(match=match, scorer=bert, user=anna)
    match_lock(match=match, user=anna)
    match_lock(match=match, user=anna)  # closed already: nothing more
    match_unlock(match=match, user=None)
    assert _changes(match) == [
        ("reseat", 1, "anna"),
        ("join", 2, "bert"),
        ("leave", 3, "anna"),
        ("lock", 4, "anna"),
        ("unlock", 5, None),
    ]
    assert Match.objects.get(pk=match.pk).version == 5
    reseat = match.events.get(action="reseat")
    assert reseat.before == {"seats": [str(player.public_id) for player in seated]}
    assert reseat.after == {"seats": [str(player.public_id) for player in [erik, *seated[1:]]]}
    assert [seat.player for seat in match.seats.order_by("position")] == [erik, *seated[1:]]


def test_seats_stay_once_a_game_was_saved_and_a_reseat_takes_players_of_the_book_only() -> None:
    anna = make_user("anna")
    match = make_match(anna)
    seated = [seat.player for seat in match.seats.order_by("position")]
    stranger = player_named(make_match(make_user("cleo")).keeper, "Sepp")
    with pytest.raises(Invalid, match="book"):
        match_reseat(match=match, players=[stranger, *seated[1:]], user=anna)
    with pytest.raises(Invalid, match="one player of its own"):
        match_reseat(match=match, players=[seated[0], seated[0], seated[2]], user=anna)
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)
    with pytest.raises(SeatsKept):
        match_reseat(match=match, players=list(reversed(seated)), user=anna)
    assert [seat.player for seat in match.seats.order_by("position")] == seated
    assert _changes(match) == []


def test_a_scoring_afresh_that_rewrote_something_is_kept_in_the_history() -> None:
    match = make_match(make_user("anna"))
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)
    assert match_rescore(match).changed == 0
    assert _changes(match) == []
    Match.objects.filter(pk=match.pk).update(totals=[0, 0, 0])
    report = match_rescore(match)
    assert report.changed == 1
    assert _changes(match) == [("rescore", 2, None)]
    assert (match.events.get(action="rescore").after or {})["changed"] == 1


def test_a_match_handed_over_says_so_in_its_history() -> None:
    anna, bert = make_user("anna"), make_user("bert")
    match = make_match(anna)
    match_scorer_join(match=match, user=bert)
    match_hand_over(match=match, to=bert)
    assert _changes(match) == [("join", 1, "bert"), ("handover", 2, "bert")]
    assert Match.objects.get(pk=match.pk).keeper.user == bert


def _club_table(names: list[str]) -> tuple[User, ClubTable]:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    return owner, ClubTable.objects.select_related("match", "night").get(night=night)


def test_a_club_nights_close_and_reopen_and_a_paper_list_are_changes_of_each_tables_list() -> None:
    owner, table = _club_table(["Anna", "Ben", "Cleo"])
    guest = make_user("gast")
    match_scorer_join(match=table.match, user=guest)
    clubs.night_close(night=table.night, user=owner, unfinished=True)
    match = Match.objects.get(pk=table.match_id)
    assert (match.locked, match.invite_token, match.scorers.exists()) == (True, None, False)
    close = match.events.get(action="lock")
    assert (close.before, close.after) == ({"locked": False, "link": True}, {"locked": True, "link": False})
    clubs.night_reopen(night=table.night, user=owner)
    assert _changes(match)[-2:] == [("lock", 2, "olga"), ("unlock", 3, "olga")]
    seated = [seat.player for seat in match.seats.order_by("position")]
    clubs.paper_enter(table=table, lines=[(player, 0, 0, 0) for player in seated], user=owner)
    clubs.paper_to_phones(table=ClubTable.objects.get(pk=table.pk), user=owner)
    assert [action for action, _, _ in _changes(match)] == [
        "join",
        "lock",
        "unlock",
        "paper",
        "lock",
        "paper",
        "unlock",
        "link",
    ]


def test_a_paper_list_entered_anew_or_taken_back_keeps_the_totals_it_replaced_in_the_history() -> None:
    owner, table = _club_table(["Anna", "Ben", "Cleo"])
    match = table.match
    seated = {seat.player.name: seat.player for seat in match.seats.select_related("player")}
    anna, ben, cleo = seated["Anna"], seated["Ben"], seated["Cleo"]
    first = [(anna, 72, 1, 0), (ben, -48, 0, 1), (cleo, 0, 0, 0)]
    clubs.paper_enter(table=table, lines=first, user=owner)
    clubs.paper_enter(table=table, lines=list(reversed(first)), user=owner)  # the same list again: no change
    clubs.paper_enter(table=table, lines=[(anna, 72, 1, 0), (ben, 0, 0, 0), (cleo, -48, 0, 1)], user=owner)
    clubs.paper_to_phones(table=ClubTable.objects.get(pk=table.pk), user=owner)
    changes = list(match.events.filter(action="paper").order_by("version"))
    anna_72 = {"player": str(anna.public_id), "game_points": 72, "won": 1, "lost": 0}
    ben_48 = {"player": str(ben.public_id), "game_points": -48, "won": 0, "lost": 1}
    cleo_0 = {"player": str(cleo.public_id), "game_points": 0, "won": 0, "lost": 0}
    ben_0 = {**cleo_0, "player": str(ben.public_id)}
    cleo_48 = {**ben_48, "player": str(cleo.public_id)}
    assert [(change.before, change.after, change.user) for change in changes] == [
        ({"paper": []}, {"paper": [anna_72, ben_48, cleo_0]}, owner),
        ({"paper": [anna_72, ben_48, cleo_0]}, {"paper": [anna_72, ben_0, cleo_48]}, owner),
        ({"paper": [anna_72, ben_0, cleo_48]}, {"paper": []}, owner),
    ]
    browser = Client()
    browser.force_login(owner)
    page = browser.get(reverse("match_history", args=[match.public_id])).content.decode()
    assert page.count("Paper list changed") == 3
    assert "Anna 72 (1 won, 0 lost); Ben \N{MINUS SIGN}48 (0 won, 1 lost); Cleo 0 (0 won, 0 lost)" in page
    assert "Anna 72 (1 won, 0 lost); Ben 0 (0 won, 0 lost); Cleo \N{MINUS SIGN}48 (0 won, 1 lost)" in page
    assert page.count("no paper list") == 2
    browser.cookies["django_language"] = "de"
    german = browser.get(reverse("match_history", args=[match.public_id]), headers={"accept-language": "de"})
    assert "Papierliste geändert" in german.content.decode()
    assert "Ben 0 (0 gewonnen, 0 verloren)" in german.content.decode()


def test_the_history_page_and_the_api_show_a_change_to_the_match_itself() -> None:
    anna = make_user("anna")
    match = make_match(anna, names=("Anna", "Ben", "Cleo"))
    erik = player_named(match.keeper, "Erik")
    seated = [seat.player for seat in match.seats.order_by("position")]
    match_reseat(match=match, players=[seated[0], seated[1], erik], user=anna)
    match_lock(match=match, user=anna)
    browser = Client()
    browser.force_login(anna)
    page = browser.get(reverse("match_history", args=[match.public_id])).content.decode()
    assert "Seats changed" in page
    assert "Anna, Ben, Cleo" in page
    assert "Anna, Ben, Erik" in page
    assert "List closed" in page
    assert "open, co-scorers&#x27; link on" in page
    assert "closed, co-scorers&#x27; link on" in page
    api = APIClient()
    api.force_authenticate(anna)
    changes = api.get(f"/api/v1/matches/{match.public_id}/changes/").json()["results"]
    assert [(change["action"], change["game"]) for change in changes] == [("lock", None), ("reseat", None)]


def test_a_backup_keeps_the_changes_to_a_match_itself_and_a_restore_checks_them() -> None:
    anna = make_user("anna")
    match = make_match(anna)
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)
    match_lock(match=match, user=anna)
    data = account_backup(anna)
    assert data["version"] == VERSION >= 3
    history = data["matches"][0]["history"]
    assert [(entry["action"], entry["game"]) for entry in history][-1] == ("lock", None)
    match_delete(match=match)
    assert restore(data, user=anna)["matches"] == 1
    restored = Match.objects.get(keeper__user=anna)
    assert [(event.action, event.game_id is None) for event in restored.events.order_by("version")] == [
        ("add", False),
        ("lock", True),
    ]
    for wrong in ({"game": history[0]["game"]}, {"undo_of": history[0]["id"]}, {"before": [1, 2]}):
        damaged = {**data, "matches": [{**data["matches"][0], "id": str(uuid.uuid4())}]}
        damaged["matches"][0]["history"] = [history[0], {**history[-1], **wrong, "id": str(uuid.uuid4())}]
        with pytest.raises(Invalid, match="damaged"):
            restore(damaged, user=anna)


def test_a_new_title_and_a_renewed_or_revoked_link_are_kept_without_the_links_address() -> None:
    anna = make_user("anna")
    match = make_match(anna)
    old_invite = match.invite_token
    match_retitle(match=match, title="Dienstag")
    match_link_renew(match=match, link="invite", user=anna)
    match_link_renew(match=match, link="share", revoke=True, user=anna)
    assert _changes(match) == [("retitle", 1, None), ("link", 2, "anna"), ("link", 3, "anna")]
    kept = [(event.before, event.after) for event in match.events.order_by("version")]
    assert kept == [
        ({"title": ""}, {"title": "Dienstag"}),
        ({"invite": True}, {"invite": True}),
        ({"share": True}, {"share": False}),
    ]
    assert old_invite is not None
    assert old_invite not in str(kept)
    assert Match.objects.get(pk=match.pk).version == 3


def test_a_game_is_scored_by_the_match_as_stored_under_the_lock_not_as_the_caller_read_it() -> None:
    """The add reads the match's rules and table again under its lock, whatever the caller's copy says."""
    owner = make_user("olga")
    match = make_match(owner)
    stale = Match.objects.get(pk=match.pk)
    Match.objects.filter(pk=match.pk).update(scheme="seeger-fabian")
    added = game_add(
        match=stale,
        user=owner,
        token=uuid.uuid4(),
        submission=Submission(declarer=1, entry={"contract": "clubs", "matadors": 2, "declarer_card_points": 75}),
    )
    assert stale.scheme == "seeger-fabian"
    assert added.game.points == Game.objects.get(pk=added.game.pk).points
    assert added.game.points[1] == 36 + 50  # Seeger-Fabian adds 50 to a game won
