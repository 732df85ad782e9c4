"""The tournament app's services and selectors: what each stores, the results read back from the stored rows, and
every refusal naming what is wrong with nothing stored halfway."""

from __future__ import annotations

import threading
from itertools import combinations
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.clubs import services as clubs
from matches.engine import setup_match
from matches.engine.tournaments import PrizeKind, series_seed
from matches.errors import Conflict, Invalid, ServiceError
from matches.labels import NO_BREAK_SPACE
from matches.models import Keeper, Match, PaperLine, Player
from matches.papers import paper_list
from matches.registry import TablePlace, table_place
from matches.services import ListClosed
from matches.tournaments import services as tournaments
from matches.tournaments.models import (
    Category,
    Entry,
    Payment,
    Series,
    SeriesList,
    Side,
    Table,
    Tournament,
)
from matches.tournaments.selectors import entry_by_code, tournament_results

from .factories import make_user
from .tournaments_setup import (
    ENTRY_FEE,
    LIST_FEE,
    SETTINGS,
    announce,
    enter_field,
    enter_paper,
    paper_totals,
    play_by_phone,
    play_series,
    seated,
)

pytestmark = pytest.mark.django_db


def _texts(error: ServiceError) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for one in error.errors:
        found.setdefault(one.field, []).append(one.message.render())
    return found


def _tables(series: Series) -> list[Table]:
    return list(Table.objects.filter(series=series).select_related("match").order_by("number"))


def _pairs(series: Series) -> set[frozenset[int]]:
    return {frozenset((one.pk, other.pk)) for table in _tables(series) for one, other in combinations(seated(table), 2)}


def _drawn(tournament: Tournament, number: int, **options: object) -> Series:
    tournaments.series_draw(tournament=tournament, number=number, **options)  # type: ignore[arg-type]
    return Series.objects.get(tournament=tournament, number=number)


def _nothing_stored_for(tournament: Tournament) -> None:
    assert not Series.objects.filter(tournament=tournament).exists()
    assert not Match.objects.filter(keeper=tournament.keeper).exists()


# --- Announcing -------------------------------------------------------------------------------------------------------


def test_a_tournament_plays_skat_by_seeger_fabian_with_its_settings_stored_as_entered() -> None:
    organiser = make_user("organiser")
    tournament = announce(organiser)
    assert (tournament.variant, tournament.scheme, tournament.series) == ("skat", "seeger-fabian", 3)
    assert tournament.rules == setup_match("skat", scheme="seeger-fabian", rules={}, players=4).stored_rules()
    assert (tournament.entry_fee, tournament.list_fee) == (ENTRY_FEE, LIST_FEE)
    assert tournament.lost_game_tiers == [[1, 50], [4, 100], [6, 300]]
    assert tournament.places == {"values": list(SETTINGS.places.values), "kind": "shares", "payout": "in-full"}
    assert list(Category.objects.filter(tournament=tournament).values_list("name", "prizes")) == [
        ("Damen", [3000, 1500]),
        ("Senioren", [2000]),
    ]
    assert tournament.organiser == organiser
    assert tournament.keeper.user is None


def test_a_clubs_tournament_is_announced_for_the_club() -> None:
    organiser = make_user("organiser")
    club = clubs.club_create(owner=organiser, name="Grand Hand")
    tournament = tournaments.tournament_announce(organiser=organiser, settings=SETTINGS, club=club)
    assert tournament.club == club


def test_a_tournament_is_announced_for_a_club_only_by_those_who_run_it() -> None:
    club = clubs.club_create(owner=make_user("owner"), name="Grand Hand")
    member = make_user("member")
    clubs.member_set(club=club, username=member.username, role="member")
    for outsider in (member, make_user("stranger")):
        with pytest.raises(Invalid) as refused:
            tournaments.tournament_announce(organiser=outsider, settings=SETTINGS, club=club)
        assert _texts(refused.value) == {
            "club": ["Only the owners and secretaries of Grand Hand announce a tournament for it."]
        }
    assert not Tournament.objects.exists()
    assert not Keeper.objects.filter(tournament__isnull=False).exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"series": 5}, "series"),
        ({"series": 1}, "series"),
        ({"games_at_four": 0}, "games_at_four"),
        ({"entry_fee": -100}, "entry_fee"),
        ({"share_kind": "half"}, "share_kind"),
        ({"share_value": 10_001}, "share_value"),
        ({"lost_game_tiers": ((4, 100), (1, 50))}, "lost_game_tiers"),
        ({"places": tournaments.Schedule((5000, -1))}, "places"),
        ({"places": tournaments.Schedule((6000, 5000), payout="as-announced")}, "places"),
        ({"places": tournaments.Schedule((100,), kind="euros")}, "places.kind"),
        ({"doubles": "all"}, "doubles"),
        ({"categories": (("Damen", (100,)), ("damen", (50,)))}, "categories.1"),
        ({"name": "  "}, "name"),
    ],
)
def test_a_tournament_with_a_bad_setting_is_refused_and_not_stored(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(Invalid) as refused:
        announce(**changes)
    assert field in _texts(refused.value)
    assert not Tournament.objects.exists()
    assert not Keeper.objects.exists()


def test_a_schedule_that_pays_out_more_than_the_pot_of_a_full_room_is_refused() -> None:
    # 40 seats at 15 €: a pot of 600 €, of which the category and best-series prizes take 80 €.
    schedule = tournaments.Schedule((30000, 20000, 5000), kind="amounts", payout="as-announced")
    with pytest.raises(Invalid) as refused:
        announce(seats=40, places=schedule)
    assert _texts(refused.value) == {
        "places": [
            f"The prizes by place pay out 550.00{NO_BREAK_SPACE}€, but the prize money left after the categories' and "
            f"best series' prizes is 520.00{NO_BREAK_SPACE}€ (600.00{NO_BREAK_SPACE}€ less 80.00{NO_BREAK_SPACE}€)."
        ]
    }
    assert not Tournament.objects.exists()
    assert announce(seats=40, places=tournaments.Schedule((30000, 20000, 2000), kind="amounts", payout="as-announced"))


@pytest.mark.parametrize("payout", ["in-full", "as-announced"])
@pytest.mark.parametrize("seats", [0, 40])
def test_shares_adding_up_to_more_than_the_whole_pot_are_refused_however_they_are_paid_out(
    payout: str, seats: int
) -> None:
    """Shares are percent of the prize money: 60 %, 40 % and 50 % add up to more than there is, even where the
    prize money is split in the schedule's proportions."""
    too_much = tournaments.Schedule((6000, 4000, 5000), payout=payout)
    with pytest.raises(Invalid) as refused:
        announce(seats=seats, places=too_much)
    assert _texts(refused.value) == {"places": [f"The shares add up to 150{NO_BREAK_SPACE}%: more than the whole pot."]}
    assert not Tournament.objects.exists()
    assert announce(seats=seats, places=tournaments.Schedule((6000, 3000, 1000), payout=payout))


def test_tandem_and_team_shares_adding_up_to_more_than_the_whole_pot_are_refused_each_at_its_schedule() -> None:
    with pytest.raises(Invalid) as refused:
        announce(
            tandem_fee=500,
            tandem_prizes=tournaments.Schedule((6000, 4000, 50)),
            team_fee=500,
            team_prizes=tournaments.Schedule((10_001,)),
        )
    assert _texts(refused.value) == {
        "tandem_prizes": [f"The shares add up to 100.5{NO_BREAK_SPACE}%: more than the whole pot."],
        "team_prizes": [f"The shares add up to 100.01{NO_BREAK_SPACE}%: more than the whole pot."],
    }
    assert not Tournament.objects.exists()
    # Amounts are weights of the side's own pot, however much they add up to.
    assert announce(tandem_fee=500, tandem_prizes=tournaments.Schedule((6000, 5000), kind="amounts"))


def test_category_prizes_that_pay_out_more_than_the_pot_of_a_full_room_are_refused() -> None:
    with pytest.raises(Invalid) as refused:
        announce(seats=4, categories=(("Damen", (5000, 2000)),))
    assert _texts(refused.value) == {
        "categories": [f"The prizes pay out 85.00{NO_BREAK_SPACE}€, but the prize money is 60.00{NO_BREAK_SPACE}€."]
    }


def test_a_tournament_is_handed_over_to_another_account_and_never_to_its_organiser_again() -> None:
    tournament = announce()
    organiser, bert = tournament.organiser, make_user("bert")
    assert organiser is not None
    with pytest.raises(Invalid) as own:
        tournaments.tournament_hand_over(tournament=tournament, username=organiser.username, user=organiser)
    assert _texts(own.value) == {
        "username": ["That is your own account: name the account that takes the tournament over."]
    }
    assert Tournament.objects.get(pk=tournament.pk).version == tournament.version
    handed = tournaments.tournament_hand_over(tournament=tournament, username="bert", user=organiser)
    assert handed.organiser == bert
    with pytest.raises(Invalid) as already:
        tournaments.tournament_hand_over(tournament=tournament, username="bert", user=organiser)
    assert _texts(already.value) == {"username": ["bert organises the tournament already."]}


def test_a_tournament_is_handed_over_to_the_account_its_name_finds_in_any_case() -> None:
    """ "Anna" finds the account "anna"; where accounts differ only in case, the name as one of them is written finds
    it, and any other spelling is refused rather than handed to one of them by chance."""
    tournament = announce()
    organiser = tournament.organiser
    assert organiser is not None
    anna = make_user("anna")
    handed = tournaments.tournament_hand_over(tournament=tournament, username=" Anna ", user=organiser)
    assert handed.organiser == anna
    big, capital = make_user("ANNA"), make_user("Anna")
    with pytest.raises(Invalid) as unclear:
        tournaments.tournament_hand_over(tournament=tournament, username="aNNa", user=anna)
    assert _texts(unclear.value) == {
        "username": [
            "Several accounts have that name in other capital letters: write it exactly as the account you mean does."
        ]
    }
    assert Tournament.objects.get(pk=tournament.pk).organiser == anna
    assert tournaments.tournament_hand_over(tournament=tournament, username="ANNA", user=anna).organiser == big
    assert tournaments.tournament_hand_over(tournament=tournament, username="Anna", user=big).organiser == capital


# --- Entries ----------------------------------------------------------------------------------------------------------


def test_an_online_entry_gets_a_code_to_show_at_the_door() -> None:
    tournament = announce()
    account = make_user("entrant")
    entry = tournaments.entry_register_online(
        tournament=tournament,
        form=tournaments.EntryForm(" Hanna  Berg ", club="SC Herz", category="damen", federation_number="12 345"),
        account=account,
    )
    assert (entry.name, entry.club, entry.category, entry.federation_number) == (
        "Hanna Berg",
        "SC Herz",
        Category.objects.get(name="Damen"),
        "12345",
    )
    assert (entry.channel, entry.account, entry.withdrawn_after) == ("online", account, None)
    assert len(entry.code) == 6
    assert entry_by_code(tournament, entry.code.lower()[:3] + " " + entry.code.lower()[3:]) == entry
    assert not Payment.objects.exists()


def test_an_entry_at_the_door_takes_a_name_and_the_entry_fee() -> None:
    organiser = make_user("organiser")
    tournament = announce(organiser)
    entry = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt"), user=organiser)
    assert entry.channel == "door"
    assert list(Payment.objects.values_list("entry", "amount", "taken_by")) == [(entry.pk, ENTRY_FEE, organiser.pk)]


def test_an_entry_at_the_door_of_a_free_tournament_pays_nothing() -> None:
    tournament = announce(entry_fee=0, categories=(), best_series=())
    entry = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt"))
    assert entry.channel == "door"
    assert not Payment.objects.exists()


def test_two_entrants_of_one_name_are_two_players_in_the_tournaments_book() -> None:
    tournament = announce()
    one = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt Meier", club="SC Herz"))
    two = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt Meier", club="SC Pik"))
    three = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt Meier", club="SC Kreuz"))
    assert [entry.player.name for entry in (one, two, three)] == [
        "Kurt Meier",
        "Kurt Meier (SC Pik)",
        "Kurt Meier (SC Kreuz)",
    ]
    assert [entry.name for entry in (one, two, three)] == ["Kurt Meier"] * 3


def test_two_entrants_of_one_long_name_get_book_names_that_fit() -> None:
    tournament = announce()
    name = "Maximilian " + "x" * 49
    entries = [
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name, club=f"Skatfreunde {club}"))
        for club in ("Oberneuland von 1952", "Unterneuland von 1953", "Unterneuland von 1953 e. V.")
    ]
    names = [entry.player.name for entry in entries]
    assert names[0] == name
    assert len(set(names)) == 3
    assert all(len(one) <= 60 for one in names)
    assert "(Skatfreunde Unterneuland" in names[1]
    assert names[2].endswith(" (2)")


@pytest.mark.parametrize(
    ("form", "field"),
    [
        (tournaments.EntryForm(""), "name"),
        (tournaments.EntryForm("Kurt", category="Jugend"), "category"),
        (tournaments.EntryForm("Kurt", federation_number="12;34"), "federation_number"),
        (tournaments.EntryForm("Kurt", club="x" * 101), "club"),
    ],
)
def test_a_bad_entry_is_refused_and_nothing_is_stored(form: tournaments.EntryForm, field: str) -> None:
    tournament = announce()
    with pytest.raises(Invalid) as refused:
        tournaments.entry_at_door(tournament=tournament, form=form)
    assert field in _texts(refused.value)
    assert not Entry.objects.exists()
    assert not Player.objects.exists()
    assert not Payment.objects.exists()


def test_a_player_entered_already_is_refused_by_name_and_club_or_federation_number() -> None:
    tournament = announce()
    tournaments.entry_register_online(
        tournament=tournament, form=tournaments.EntryForm("Kurt", club="SC Herz", federation_number="4711")
    )
    for form in (
        tournaments.EntryForm("kurt", club="SC  Herz"),
        tournaments.EntryForm("Kurt", federation_number="4711"),
    ):
        with pytest.raises(Invalid) as refused:
            tournaments.entry_at_door(tournament=tournament, form=form)
        assert _texts(refused.value) == {"name": [f"{form.name} has entered already."]}
    # Another name with the number is a number typed wrong, or somebody else's: said of the number, naming nobody.
    with pytest.raises(Invalid) as refused:
        tournaments.entry_register_online(
            tournament=tournament, form=tournaments.EntryForm("K. M.", federation_number="47 11")
        )
    assert _texts(refused.value) == {"federation_number": ["This federation number is entered already."]}
    assert Entry.objects.count() == 1
    assert not Payment.objects.exists()


def test_an_entry_after_the_first_draw_is_refused_and_nothing_is_stored() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1)
    players = Player.objects.count()
    for enter in (tournaments.entry_at_door, tournaments.entry_register_online):
        with pytest.raises(Invalid) as refused:
            enter(tournament=tournament, form=tournaments.EntryForm("Spät"))
        assert _texts(refused.value) == {"name": ["Series 1 is drawn: entries are closed."]}
    assert Entry.objects.count() == 8
    assert Player.objects.count() == players


def test_a_tournament_without_late_entries_takes_entries_online_only() -> None:
    tournament = announce(late_entries=False)
    with pytest.raises(Conflict) as refused:
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt"))
    assert _texts(refused.value) == {"name": ["This tournament takes entries online only."]}
    assert tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Kurt"))


def test_a_full_room_takes_no_more_entries() -> None:
    tournament = announce(seats=40, places=tournaments.Schedule((1,)))
    Tournament.objects.filter(pk=tournament.pk).update(seats=3)
    enter_field(tournament, 3)
    with pytest.raises(Conflict) as refused:
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt"))
    assert _texts(refused.value) == {"name": ["The room seats 3 players: the tournament is full."]}
    assert Entry.objects.count() == 3


# --- Payments and withdrawals -----------------------------------------------------------------------------------------


def test_a_payment_is_kept_and_a_correction_is_a_payment_beside_it() -> None:
    tournament = announce()
    entry = tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Kurt"))
    tournaments.entry_pay(entry=entry)
    with pytest.raises(Invalid) as refused:
        tournaments.entry_pay(entry=entry)
    assert _texts(refused.value) == {"amount": ["Kurt has nothing to pay."]}
    with pytest.raises(Invalid):
        tournaments.entry_pay(entry=entry, amount=-ENTRY_FEE - 1)
    tournaments.entry_pay(entry=entry, amount=-500)
    assert list(Payment.objects.values_list("amount", flat=True)) == [ENTRY_FEE, -500]


def test_an_entrant_who_paid_more_than_is_due_has_nothing_more_to_pay() -> None:
    tournament = announce()
    entry = tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Kurt"))
    tournaments.entry_pay(entry=entry, amount=2000)
    with pytest.raises(Invalid) as refused:
        tournaments.entry_pay(entry=entry)
    assert _texts(refused.value) == {"amount": ["Kurt has nothing to pay."]}
    assert list(Payment.objects.values_list("amount", flat=True)) == [2000]


def test_an_entrant_withdraws_between_series_and_is_not_drawn_again() -> None:
    tournament = announce()
    entries = enter_field(tournament, 9)
    first = _drawn(tournament, 1)
    leaving = entries[0]
    with pytest.raises(Conflict) as refused:
        tournaments.entry_withdraw(entry=leaving)
    assert _texts(refused.value) == {"entry": ["Series 1 is being played: Spieler 01 withdraws once it is closed."]}
    play_series(first)
    tournaments.series_close(series=first, user=None)
    assert tournaments.entry_withdraw(entry=leaving).withdrawn_after == 1
    with pytest.raises(Conflict) as again:
        tournaments.entry_withdraw(entry=leaving)
    assert _texts(again.value) == {"entry": ["Spieler 01 withdrew after series 1."]}
    second = _drawn(tournament, 2)
    assert [len(seated(table)) for table in _tables(second)] == [4, 4]
    assert leaving not in {entry for table in _tables(second) for entry in seated(table)}
    results = tournament_results(tournament)
    assert results.cashier.lines[0].dues.lists == LIST_FEE


def test_an_entry_withdrawn_before_the_first_draw_is_refused_again_as_withdrawn_before_series_1() -> None:
    tournament = announce()
    entry = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Ida Berg"))
    tournaments.entry_withdraw(entry=entry)
    with pytest.raises(Conflict) as again:
        tournaments.entry_withdraw(entry=entry)
    assert _texts(again.value) == {"entry": ["Ida Berg withdrew before series 1."]}


def test_an_entry_withdrawn_before_the_first_draw_counts_only_if_it_paid() -> None:
    tournament = announce()
    unpaid = tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Nie da"))
    paid = tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Bezahlt"))
    tournaments.entry_pay(entry=paid)
    enter_field(tournament, 8)
    tournaments.entry_withdraw(entry=unpaid)
    tournaments.entry_withdraw(entry=paid)
    first = _drawn(tournament, 1)
    assert sum(len(seated(table)) for table in _tables(first)) == 8
    players = [line.player for line in tournament_results(tournament).cashier.lines]
    assert paid.player.name in players
    assert unpaid.player.name not in players


# --- Tandems and teams ------------------------------------------------------------------------------------------------


def test_a_tandem_and_a_team_are_entered_and_pay_their_fees() -> None:
    tournament = announce(tandem_fee=500, team_fee=1000)
    entries = enter_field(tournament, 8, online=8)
    tournaments.side_enter(tournament=tournament, kind="tandem", name="Herz-Duo", entries=entries[:2])
    tournaments.side_enter(tournament=tournament, kind="team", name="Die Buben", entries=entries[:4])
    payment = tournaments.entry_pay(entry=entries[0])
    assert payment.amount == 500 + 1000


def test_a_side_with_an_entrant_of_another_tournament_is_refused() -> None:
    tournament, other = announce(), announce()
    entries = enter_field(tournament, 2)
    namesake = enter_field(other, 2)[1]
    with pytest.raises(Invalid) as refused:
        tournaments.side_enter(tournament=tournament, kind="tandem", name="Zweier", entries=[entries[0], namesake])
    assert _texts(refused.value) == {"entries": ["Spieler 02 has not entered the tournament."]}
    assert not Side.objects.exists()


@pytest.mark.parametrize(
    ("kind", "members", "message"),
    [
        ("tandem", [0, 1, 2], "Zweier needs 2 different players."),
        ("tandem", [0, 0], "Zweier needs 2 different players."),
        ("tandem", [2, 3], "Spieler 03 plays in two tandems."),
        ("team", [0, 1, 4], "Zweier needs 4 different players."),
    ],
)
def test_a_bad_side_is_refused_and_nothing_is_stored(kind: str, members: list[int], message: str) -> None:
    tournament = announce()
    entries = enter_field(tournament, 8)
    tournaments.side_enter(tournament=tournament, kind="tandem", name="Erste", entries=entries[2:4])
    with pytest.raises(Invalid) as refused:
        tournaments.side_enter(
            tournament=tournament, kind=kind, name="Zweier", entries=[entries[index] for index in members]
        )
    assert message in [text for texts in _texts(refused.value).values() for text in texts]
    assert Side.objects.count() == 1


# --- Draws ------------------------------------------------------------------------------------------------------------


def test_the_first_series_is_drawn_from_the_recorded_seed_in_tables_of_four_then_three() -> None:
    organiser = make_user("organiser")
    tournament = announce(organiser)
    enter_field(tournament, 11)
    tables = tournaments.series_draw(tournament=tournament, number=1, user=organiser)
    series = Series.objects.get(tournament=tournament)
    assert (series.number, series.seating, series.seed) == (1, "draw", series_seed(tournament.seed, 1))
    assert series.drawn_by == organiser
    assert [table.match.players for table in tables] == [4, 4, 3]
    assert [table.match.planned_games for table in tables] == [16, 16, 12]
    assert tables[0].match.keeper == tournament.keeper
    assert tables[0].match.title == "Table 1, series 1 · Preisskat im Goldenen Löwen"
    assert tables[0].match.invite_token


def test_a_series_drawn_twice_at_once_is_drawn_once_and_the_second_is_refused() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    seen = Tournament.objects.get(pk=tournament.pk).version
    tournaments.series_draw(tournament=tournament, number=1, version=seen)
    with pytest.raises(Conflict) as stale:
        tournaments.series_draw(tournament=tournament, number=1, version=seen)
    assert _texts(stale.value) == {
        "version": ["The tournament changed since this page was loaded; nothing was changed."]
    }
    with pytest.raises(Conflict) as twice:
        tournaments.series_draw(tournament=tournament, number=1)
    assert _texts(twice.value) == {"series": ["Series 1 is drawn already."]}
    assert Table.objects.count() == 2
    assert Match.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_series_drawn_from_two_phones_at_the_same_moment_is_drawn_once() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    barrier = threading.Barrier(2)
    drawn: list[list[Table]] = []
    refused: list[ServiceError] = []
    failures: list[BaseException] = []

    def draw() -> None:
        try:
            barrier.wait(timeout=10)
            drawn.append(tournaments.series_draw(tournament=tournament, number=1))
        except ServiceError as error:
            refused.append(error)
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=draw) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failures == []
    assert len(drawn) == 1
    assert [_texts(error) for error in refused] == [{"series": ["Series 1 is drawn already."]}]
    assert Table.objects.count() == Match.objects.count() == 2


def test_a_series_is_drawn_in_turn_once_the_one_before_is_closed() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    with pytest.raises(Invalid) as skipped:
        tournaments.series_draw(tournament=tournament, number=2)
    assert _texts(skipped.value) == {"series": ["Series 1 is drawn next."]}
    with pytest.raises(Invalid) as beyond:
        tournaments.series_draw(tournament=tournament, number=4)
    assert _texts(beyond.value) == {"series": ["The tournament has 3 series, not more."]}
    _drawn(tournament, 1)
    with pytest.raises(Conflict) as playing:
        tournaments.series_draw(tournament=tournament, number=2)
    assert _texts(playing.value) == {"series": ["Series 1 is being played: it is closed before the next is drawn."]}
    assert Series.objects.count() == 1


def test_the_first_series_is_not_seated_by_standings_there_are_not_yet() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    with pytest.raises(Invalid) as refused:
        tournaments.series_draw(tournament=tournament, number=1, seating="standings")
    assert _texts(refused.value) == {"seating": ["Series 1 has no standings to seat by: it is drawn or planned."]}
    _nothing_stored_for(tournament)


def test_a_plan_that_seats_a_player_twice_is_refused_and_nothing_is_stored() -> None:
    tournament = announce()
    entries = enter_field(tournament, 8)
    plan = [entries[:4], [entries[4], entries[5], entries[6], entries[0]]]
    with pytest.raises(Invalid) as refused:
        tournaments.series_draw(tournament=tournament, number=1, seating="plan", plan=plan)
    texts = _texts(refused.value)
    assert texts["tables.1"] == ["Spieler 01 has two seats: at table 1 and at table 2."]
    assert texts["tables"] == ["Spieler 08 has no seat."]
    _nothing_stored_for(tournament)


def test_a_plan_seating_an_entrant_of_another_tournament_is_refused() -> None:
    tournament, other = announce(), announce()
    entries = enter_field(tournament, 7)
    namesake = enter_field(other, 1)[0]
    plan = [[namesake, *entries[1:4]], entries[4:]]
    with pytest.raises(Invalid) as refused:
        tournaments.series_draw(tournament=tournament, number=1, seating="plan", plan=plan)
    assert _texts(refused.value) == {"tables.0": ["Spieler 01 does not play this series."]}
    _nothing_stored_for(tournament)


def test_a_fixed_plan_seats_the_tables_as_given() -> None:
    tournament = announce()
    entries = enter_field(tournament, 7)
    plan = [entries[3:], entries[:3]]
    tables = tournaments.series_draw(tournament=tournament, number=1, seating="plan", plan=plan)
    assert [seated(table) for table in tables] == plan
    assert Series.objects.get().seed == ""


def test_a_field_too_small_to_seat_is_refused_and_nothing_is_stored() -> None:
    tournament = announce()
    enter_field(tournament, 5)
    with pytest.raises(Invalid):
        tournaments.series_draw(tournament=tournament, number=1)
    _nothing_stored_for(tournament)


# --- Paper lists and closing ------------------------------------------------------------------------------------------


def test_a_paper_list_is_stored_as_entered_and_locks_the_table() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    table = tournaments.series_draw(tournament=tournament, number=1)[0]
    lines = enter_paper(table)
    assert list(PaperLine.objects.order_by("id").values_list("player", "game_points", "won", "lost")) == [
        (entry.player_id, points, won, lost) for entry, points, won, lost in lines
    ]
    with pytest.raises(ListClosed):
        play_by_phone(Table.objects.get(pk=table.pk))


@pytest.mark.parametrize("bad", ["missing", "stranger", "impossible", "too_many_games"])
def test_a_bad_paper_list_is_refused_and_nothing_is_stored(bad: str) -> None:
    tournament = announce()
    entries = enter_field(tournament, 8)
    table = tournaments.series_draw(tournament=tournament, number=1)[0]
    lines = [(entry, *paper_totals(1, 0, 0)) for entry in seated(table)]
    if bad == "missing":
        lines = lines[:3]
    elif bad == "stranger":
        outsider = next(entry for entry in entries if entry not in seated(table))
        lines[0] = (outsider, *lines[0][1:])
    elif bad == "impossible":
        lines[0] = (lines[0][0], 17, 1, 0)
    else:
        lines = [(entry, *paper_totals(3, 2, 0)) for entry in seated(table)]
    with pytest.raises(Invalid):
        tournaments.table_paper_enter(table=table, lines=lines, user=None)
    assert not PaperLine.objects.exists()
    assert not Table.objects.get(pk=table.pk).paper
    assert not Match.objects.get(pk=table.match_id).locked


def test_a_series_closes_once_every_table_is_complete_and_keeps_each_players_list() -> None:
    tournament = announce()
    enter_field(tournament, 7)
    series = _drawn(tournament, 1)
    first, second = _tables(series)
    enter_paper(second)
    with pytest.raises(Conflict) as refused:
        tournaments.series_close(series=series, user=None)
    assert _texts(refused.value) == {"tables": ["Table 1 of series 1 has 0 of 16 games."]}
    assert not SeriesList.objects.exists()
    play_by_phone(first)
    closed = tournaments.series_close(series=series, user=None)
    assert closed.closed_at is not None
    assert SeriesList.objects.filter(series=series).count() == 7
    assert all(table.match.locked and table.match.invite_token is None for table in _tables(series))
    with pytest.raises(Conflict):
        enter_paper(second)


def test_the_core_learns_a_tables_place_and_its_paper_footer_from_the_tournament_app() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    table = tournaments.series_draw(tournament=tournament, number=1)[1]
    live = reverse("tournaments:live", args=[tournament.public_id])
    assert table_place(table.match) == TablePlace("Preisskat im Goldenen Löwen", tournament.date, 1, 2, live)
    assert paper_list(Match.objects.get(pk=table.match_id)) is None
    lines = enter_paper(table)
    footer = paper_list(Match.objects.get(pk=table.match_id))
    assert footer is not None
    assert footer.seeger_fabian
    assert [(line.player, line.game_points, line.won, line.lost) for line in footer.lines] == [
        (str(entry.player_id), points, won, lost) for entry, points, won, lost in lines
    ]


# --- Golden cases of the clubs digest ---------------------------------------------------------------------------------


def test_the_lost_game_fees_are_tiered_as_the_clubs_digest_says() -> None:
    # 0.50 € for the 1st to 3rd lost game of a list, 1 € for the 4th and 5th, 3 € from the 6th: six lost, 6.50 €.
    tournament = announce()
    enter_field(tournament, 8)
    series = _drawn(tournament, 1)
    table = _tables(series)[0]
    players = seated(table)
    lines = [(players[0], *paper_totals(0, 6, 0)), *((entry, *paper_totals(2, 0, 0)) for entry in players[1:])]
    tournaments.table_paper_enter(table=table, lines=lines, user=None)
    line = next(one for one in tournament_results(tournament).cashier.lines if one.player == players[0].player.name)
    assert (line.dues.entry, line.dues.lists, line.dues.lost_games) == (1500, 200, 650)


def test_the_seventh_place_gets_half_of_the_firsts_prize() -> None:
    tournament = announce()
    enter_field(tournament, 27)
    series = _drawn(tournament, 1)
    play_series(series)
    places = [prize for prize in tournament_results(tournament).prizes if prize.kind is PrizeKind.PLACE]
    # 27 × 15 € = 405 €, less 80 € of category and best-series prizes: 325 € by the schedule.
    assert [prize.amount for prize in places] == [6500, 5200, 4550, 3900, 3575, 3413, 3250, 2112]
    assert sum(prize.amount for prize in places) == 32500


def test_ties_go_to_more_won_then_fewer_lost() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    first, second = _tables(_drawn(tournament, 1))
    a, b, d, x = seated(first)
    c, *rest = seated(second)
    # 138 with one game won (88 + 50) and with two (38 + 100); 136 with two won and none lost (36 + 100) and with
    # two won and one lost (86 + 100 − 50), the loss at the other table, so that its bonus goes to others.
    tournaments.table_paper_enter(
        table=first, lines=[(a, 88, 1, 0), (b, 38, 2, 0), (d, 36, 2, 0), (x, 0, 0, 0)], user=None
    )
    tournaments.table_paper_enter(table=second, lines=[(c, 86, 2, 1), *((one, 0, 0, 0) for one in rest)], user=None)
    standings = {place.standing.player: place for place in tournament_results(tournament).standings}
    place = {entry: standings[entry.player.name] for entry in (a, b, c, d)}
    assert [place[one].standing.score for one in (a, b, c, d)] == [138, 138, 136, 136]
    assert place[b].place < place[a].place
    assert place[d].place < place[c].place
    assert not any(place[one].by_lot for one in (a, b, c, d))


def test_prizes_announced_beyond_the_pot_are_named_and_the_rankings_and_dues_still_stand() -> None:
    tournament = announce(places=tournaments.Schedule((50000,), kind="amounts", payout="as-announced"))
    enter_field(tournament, 8)
    play_series(_drawn(tournament, 1))
    results = tournament_results(tournament)
    assert [error.message.render() for error in results.problems] == [
        f"The prizes by place pay out 500.00{NO_BREAK_SPACE}€, but the prize money left after the categories' and best "
        f"series' prizes is 40.00{NO_BREAK_SPACE}€ (120.00{NO_BREAK_SPACE}€ less 80.00{NO_BREAK_SPACE}€)."
    ]
    assert results.prizes == ()
    assert len(results.standings) == 8
    assert results.cashier.paid_in == 8 * ENTRY_FEE
    assert results.cashier.paid_out == 0


def test_an_organisers_share_beyond_the_pot_is_named_and_the_rankings_still_stand() -> None:
    tournament = announce(
        share_kind="fixed", share_value=100_000, categories=(("Damen", ()), ("Senioren", ())), best_series=()
    )
    enter_field(tournament, 8)
    results = tournament_results(tournament)
    assert [error.message.render() for error in results.problems] == [
        f"The organiser's share of 1,000.00{NO_BREAK_SPACE}€ is more than the pot of 120.00{NO_BREAK_SPACE}€."
    ]
    assert (results.prizes, results.cashier.pot.share) == ((), 0)


# --- A whole tournament -----------------------------------------------------------------------------------------------


def test_a_tournament_of_27_players_over_three_series_with_re_seating_balances_to_the_cent() -> None:
    organiser = make_user("organiser")
    tournament = announce(organiser)
    entries = enter_field(tournament, 27, online=10)
    assert [entry.channel for entry in entries].count("online") == 10

    first = _drawn(tournament, 1, user=organiser)
    assert [len(seated(table)) for table in _tables(first)] == [4, 4, 4, 4, 4, 4, 3]
    play_series(first, phones=(1,))
    tournaments.series_close(series=first, user=organiser)

    leaders = [place.standing.player for place in tournament_results(tournament).standings[:4]]
    second = _drawn(tournament, 2, seating="standings", user=organiser)
    assert [entry.player.name for entry in seated(_tables(second)[0])] == leaders
    play_series(second, phones=(2,), salt=1)
    tournaments.series_close(series=second, user=organiser)

    third = _drawn(tournament, 3, user=organiser)
    assert [len(seated(table)) for table in _tables(third)] == [4, 4, 4, 4, 4, 4, 3]
    assert not _pairs(third) & (_pairs(first) | _pairs(second))
    play_series(third, phones=(7,), salt=2)
    tournaments.series_close(series=third, user=organiser)

    results = tournament_results(tournament)
    assert [len(places) for places in results.rankings.series] == [27, 27, 27]
    assert len(results.standings) == 27
    for place in results.standings:
        assert place.standing.lists == 3
        assert place.standing.score == sum(
            next(one.standing.score for one in series if one.standing.player == place.standing.player)
            for series in results.rankings.series
        )
    cashier = results.cashier
    assert cashier.pot.entries == 27 * ENTRY_FEE
    assert cashier.pot.list_fees == 27 * 3 * LIST_FEE
    assert cashier.paid_in == 27 * ENTRY_FEE
    assert cashier.owed == cashier.pot.list_fees + cashier.pot.lost_game_fees
    assert cashier.paid_in + cashier.owed == cashier.paid_out + cashier.organiser
    assert sum(prize.amount for prize in results.prizes if prize.winner) == cashier.paid_out
    # The entry fees are the prize money. A category's prize goes to nobody when each of its players won a better
    # prize already (one prize a player), which the random draw makes happen now and then: that money is not paid out.
    unwon = sum(prize.amount for prize in results.prizes if prize.winner is None)
    assert cashier.paid_out + unwon == 27 * ENTRY_FEE
    assert cashier.not_paid_out == unwon
    winners = [prize.winner for prize in results.prizes if prize.kind is not PrizeKind.TANDEM]
    assert len(winners) == len(set(winners))
    assert all(results.entry(winner) in entries for winner in winners)
    assert SeriesList.objects.filter(series__tournament=tournament).count() == 81


# --- Reading ----------------------------------------------------------------------------------------------------------


def _results_queries(players: int, *, close: bool) -> int:
    tournament = announce()
    enter_field(tournament, players)
    series = _drawn(tournament, 1)
    play_series(series)
    if close:
        tournaments.series_close(series=series, user=None)
    with CaptureQueriesContext(connection) as queries:
        tournament_results(tournament)
    return len(queries)


@pytest.mark.parametrize("close", [False, True])
def test_the_results_cost_as_many_queries_for_tables_of_four_as_of_three(close: bool) -> None:
    assert _results_queries(9, close=close) == _results_queries(12, close=close) == _results_queries(27, close=close)
