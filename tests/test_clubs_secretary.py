"""What a secretary corrects on a club night: a season's rules option by option and its settings later, guests
seated from a given table on, a series drawn before play dropped, a paper table turned back to its phones, a night
re-dated or removed. Each kept in the club's history, each for the club's owner and secretaries only."""

import datetime
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.formats import date_format

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night, NightLog, Season, SeasonLog
from matches.errors import Conflict, Invalid
from matches.models import Game, Match, PaperLine, Player
from matches.services import ListClosed, Submission, game_add, match_undo

from .factories import make_user

pytestmark = pytest.mark.django_db

NO_BREAK = "\N{NO-BREAK SPACE}"

MEMBERS = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus", "Hanna"]
GUESTS = ["Walter", "Xaver", "Yvonne"]


def _browser(user: User | None) -> Client:
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser


class Setup:
    """A club with an owner, a secretary, a scorer and a member; a season; a night with members and guests in."""

    def __init__(self, members: list[str] = MEMBERS, guests: list[str] = GUESTS) -> None:
        self.owner, self.secretary, self.scorer, self.member, self.stranger = (
            make_user(name) for name in ("olga", "sven", "sara", "max", "stefan")
        )
        self.club = clubs.club_create(owner=self.owner, name="Skatclub Herz Dame")
        for name, role in (("sven", "secretary"), ("sara", "scorer"), ("max", "member")):
            clubs.member_set(club=self.club, username=name, role=role)
        self.season = clubs.season_create(club=self.club, settings=clubs.SeasonSettings(name="2026"))
        self.night = clubs.night_create(season=self.season, date=datetime.date(2026, 11, 24))
        for name in members:
            clubs.check_in(night=self.night, name=name)
        for name in guests:
            clubs.check_in(night=self.night, name=name, guest=True)

    def draw(self, **options: Any) -> list[ClubTable]:
        clubs.night_draw(night=self.night, series=1, user=self.secretary, **options)
        return self.tables()

    def tables(self) -> list[ClubTable]:
        return list(ClubTable.objects.filter(night=self.night).select_related("match").order_by("series", "number"))

    def refused_to_others(self, method: str, address: str, data: dict[str, Any] | None = None) -> None:
        """The scorer and the member get a 404 like a stranger (none of them manages the club); nobody signed in is
        sent to log in; nothing changes."""
        for user in (self.scorer, self.member, self.stranger):
            browser = _browser(user)
            answer = browser.post(address, data or {}) if method == "POST" else browser.get(address)
            assert answer.status_code == 404, user.username
        anonymous = Client().post(address, data or {}) if method == "POST" else Client().get(address)
        assert anonymous.status_code == 302
        assert "/accounts/login/" in anonymous["Location"]


def _game(match: Match) -> Game:
    return game_add(
        match=match,
        user=None,
        token=uuid.uuid4(),
        submission=Submission(
            declarer=(match.first_dealer + 1) % match.players,
            entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70},
        ),
    ).game


def _seated(table: ClubTable) -> list[str]:
    return [seat.player.name for seat in table.match.seats.select_related("player").order_by("position")]


# --- a. A season's rules option by option, and its settings later ---------------------------------------------------

SEASON_FORM = {
    "name": "2027",
    "preset": "skat-isko",
    "options_shown": "True",
    "scheme": "seeger-fabian",
    "ranking": "total",
    "games_at_four": "48",
    "games_at_three": "36",
    "games_at_two": "24",
    "minimum_lists": "0",
    "best_nights": "0",
    "guests_ranked": "on",
    "rule_ramsch_jungfrau": "on",
    "rule_lost_hand": "single",
    "rule_ramsch_ties": "each-full",
    "rule_ramsch_loss": "card-points",
    "rule_ramsch_fixed_loss": "10",
}


def test_a_new_season_takes_its_rules_option_by_option_and_keeps_them_whole() -> None:
    setup = Setup()
    secretary = _browser(setup.secretary)
    page = secretary.get(reverse("season_new", args=[setup.club.public_id]) + "?preset=skat-pub")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="rule_kontra_re"' in body
    assert re.search(r'<input type="checkbox" name="rule_kontra_re"[^>]*checked', body)  # the preset's values
    answer = secretary.post(reverse("season_new", args=[setup.club.public_id]), SEASON_FORM)
    assert answer.status_code == 302
    season = Season.objects.get(name="2027")
    assert season.scheme == "seeger-fabian"
    assert season.rules["lost_hand"] == "single"
    assert season.rules["kontra_re"] is False
    assert season.rules["ramsch_jungfrau"] is True
    assert season.rules["bock_on_draw"] is False  # unticked on the page
    assert set(season.rules) >= {"bock", "ramsch", "ramsch_ties", "ramsch_fixed_loss"}  # whole: presets may change


def test_a_rule_option_out_of_its_range_is_refused_next_to_it() -> None:
    setup = Setup()
    answer = _browser(setup.owner).post(
        reverse("season_new", args=[setup.club.public_id]), SEASON_FORM | {"rule_lost_hand": "thrice"}
    )
    assert answer.status_code == 400
    assert re.search(r'id="id_rule_lost_hand_error">Select a valid choice', answer.content.decode())
    assert not Season.objects.filter(name="2027").exists()


def test_a_seasons_settings_change_until_its_first_draw_and_the_change_is_kept() -> None:
    setup = Setup()
    before = dict(setup.season.rules)
    edit = reverse("season_edit", args=[setup.season.public_id])
    form = _browser(setup.secretary).get(edit)
    assert form.status_code == 200
    answer = _browser(setup.secretary).post(
        edit, SEASON_FORM | {"name": "Saison 2026", "rule_lost_hand": "single", "stake": "1"}
    )
    assert answer.status_code == 302
    season = Season.objects.get(pk=setup.season.pk)
    assert (season.name, season.rules["lost_hand"], season.stake) == ("Saison 2026", "single", 100)
    (entry,) = SeasonLog.objects.filter(season=season)
    assert (entry.action, entry.user) == ("edit", setup.secretary)
    assert entry.details["before"]["name"] == "2026"
    assert entry.details["before"]["rules"] == before
    assert "Saison 2026" not in str(entry.details)  # what it was, not what it became


@pytest.mark.parametrize(("typed", "cents"), [("2,00", 200), ("2.50", 250), ("1,5", 150), ("12", 1200), ("0,50 €", 50)])
def test_a_seasons_money_is_read_as_people_type_it_with_a_comma_or_a_point(typed: str, cents: int) -> None:
    setup = Setup()
    edit = reverse("season_edit", args=[setup.season.public_id])
    page = _browser(setup.secretary).get(edit).content.decode()
    # Text with the decimal keyboard: a browser's number field drops a German comma, and "2,00" became 200 €.
    for name in ("stake", "list_fee"):
        field = re.search(rf'<input type="(\w+)" name="{name}"[^>]*>', page)
        assert field is not None
        assert field[1] == "text"
        assert 'inputmode="decimal"' in field[0]
    answer = _browser(setup.secretary).post(edit, SEASON_FORM | {"stake": typed, "list_fee": typed})
    assert answer.status_code == 302
    season = Season.objects.get(pk=setup.season.pk)
    assert (season.stake, season.list_fee) == (cents, cents)
    # Shown again as it was typed, in the page's language.
    page = _browser(setup.secretary).get(edit).content.decode()
    assert re.search(r'name="stake" value="([^"]*)"', page)[1] == AS_SHOWN[cents]  # type: ignore[index]


AS_SHOWN = {200: "2", 250: "2.50", 150: "1.50", 1200: "12", 50: "0.50"}


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("abc", "Write an amount as 15, 15.50 or 15,50."),
        ("-1", "Write an amount as 15, 15.50 or 15,50."),
        ("2,5,0", "Write an amount as 15, 15.50 or 15,50."),
        ("1000,01", "At most 1,000.00 €."),
        ("100000", "At most 1,000.00 €."),
        ("99999999999", "At most 1,000.00 €."),
        ("10 %", "“10 %” is written in percent: write an amount in euros."),
    ],
)
def test_a_seasons_money_that_is_no_amount_or_too_much_is_refused_next_to_its_field(typed: str, message: str) -> None:
    setup = Setup()
    edit = reverse("season_edit", args=[setup.season.public_id])
    answer = _browser(setup.secretary).post(edit, SEASON_FORM | {"stake": typed})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert re.search(r'<p class="error"[^>]*id="id_stake_error">([^<]*)</p>', page)[1] == message.replace(  # type: ignore[index]
        " €", "\xa0€"
    )
    assert Season.objects.get(pk=setup.season.pk).stake == 0


def test_once_a_table_is_drawn_what_is_played_and_paid_stays_but_the_ranking_can_change() -> None:
    setup = Setup()
    setup.draw()
    rules = dict(setup.season.rules)
    with pytest.raises(Invalid) as refused:
        clubs.season_update(
            season=setup.season,
            settings=clubs.SeasonSettings(name="2026", rules={**rules, "lost_hand": "single"}, stake=100),
            user=setup.secretary,
        )
    assert sorted(error.field for error in refused.value.errors) == ["rules.lost_hand", "stake"]
    assert "what is played and paid stays as it was" in str(refused.value)
    assert Season.objects.get(pk=setup.season.pk).rules == rules
    # The page shows those fields but does not send them: a post changes the rest.
    edit = reverse("season_edit", args=[setup.season.public_id])
    page = _browser(setup.secretary).get(edit).content.decode()
    assert re.search(r'<input type="checkbox" name="rule_ramsch_jungfrau"[^>]*disabled', page)
    posted = SEASON_FORM | {"name": "2026", "ranking": "average", "minimum_lists": "3", "rule_lost_hand": "single"}
    assert _browser(setup.secretary).post(edit, posted).status_code == 302
    season = Season.objects.get(pk=setup.season.pk)
    assert (season.ranking, season.minimum_lists, season.rules, season.scheme) == ("average", 3, rules, "seeger-fabian")


def test_only_the_owner_and_secretaries_change_a_seasons_settings() -> None:
    setup = Setup()
    edit = reverse("season_edit", args=[setup.season.public_id])
    setup.refused_to_others("GET", edit)
    setup.refused_to_others("POST", edit, SEASON_FORM)
    assert Season.objects.get(pk=setup.season.pk).name == "2026"
    assert not SeasonLog.objects.exists()


# --- b. Guests from a given table on --------------------------------------------------------------------------------


def test_the_secretary_seats_the_guests_from_the_last_table_on() -> None:
    setup = Setup()  # 8 members, 3 guests: tables of 4, 4 and 3
    tables = setup.draw(guests_from=3)
    assert sorted(_seated(tables[2])) == sorted(GUESTS)
    assert {table.guests_from for table in tables} == {3}
    # Drawn again, the guests keep their table.
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary, again=True, guests_from=3)
    assert sorted(_seated(setup.tables()[2])) == sorted(GUESTS)


def test_guests_from_a_table_that_cannot_be_kept_are_refused_next_to_the_field() -> None:
    setup = Setup()
    draw = reverse("night_draw", args=[setup.night.public_id])
    answer = _browser(setup.secretary).post(draw, {"series": "1", "seating": "draw", "guests_from": "4"})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert re.search(
        r'id="guests-from-1_error">There are 3 tables: guests can sit from table 3 at the latest.', body
    ), body
    assert not ClubTable.objects.exists()
    zero = _browser(setup.secretary).post(draw, {"series": "1", "seating": "draw", "guests_from": "0"})
    assert zero.status_code == 400
    assert 'id="guests-from-1_error"' in zero.content.decode()


def test_guests_from_a_table_seat_by_ranking_too() -> None:
    setup = Setup()
    tables = setup.draw(seating=clubs.Seating.RANKING, guests_from=3)
    assert sorted(_seated(tables[2])) == sorted(GUESTS)


# --- c. Dropping a series drawn before play -------------------------------------------------------------------------


def test_a_series_drawn_before_play_is_dropped_and_drawn_again() -> None:
    setup = Setup()
    tables = setup.draw()
    seated = [_seated(table) for table in tables]
    clubs.series_drop(night=setup.night, series=1, user=setup.secretary)
    assert not ClubTable.objects.exists()
    assert not Match.objects.filter(pk__in=[table.match_id for table in tables]).exists()
    (entry,) = NightLog.objects.filter(night=setup.night)
    assert (entry.action, entry.details["series"], entry.details["tables"]) == ("drop", 1, seated)
    assert len(setup.draw()) == 3


@pytest.mark.parametrize("entered", ["a game", "a game undone", "a paper list"])
def test_a_series_where_a_table_entered_something_is_not_dropped(entered: str) -> None:
    setup = Setup()
    tables = setup.draw()
    if entered == "a paper list":
        players = [seat.player for seat in tables[2].match.seats.order_by("position")]
        clubs.paper_enter(table=tables[2], lines=[(player, 0, 0, 0) for player in players])
    else:
        _game(tables[2].match)
        if entered == "a game undone":
            match_undo(match=tables[2].match, user=setup.secretary, token=uuid.uuid4())
    with pytest.raises(Conflict) as refused:
        clubs.series_drop(night=setup.night, series=1, user=setup.secretary)
    assert "Table 3 of series 1 has entered its list: the series stays as drawn." in str(refused.value)
    assert len(setup.tables()) == 3
    assert not NightLog.objects.exists()


def test_dropping_a_series_on_the_page_is_for_the_secretary_and_says_why_it_is_refused() -> None:
    setup = Setup()
    tables = setup.draw()
    drop = reverse("night_series_drop", args=[setup.night.public_id])
    setup.refused_to_others("POST", drop, {"series": "1"})
    assert len(setup.tables()) == 3
    _game(tables[0].match)
    answer = _browser(setup.secretary).post(drop, {"series": "1"}, follow=True)
    assert "Table 1 of series 1 has entered its list: the series stays as drawn." in answer.content.decode()
    assert len(setup.tables()) == 3
    missing = _browser(setup.secretary).post(drop, {"series": "2"}, follow=True)
    assert "Series 2 has no tables drawn." in missing.content.decode()


# --- d. A paper table back to its phones -----------------------------------------------------------------------------


def _on_paper(setup: Setup) -> ClubTable:
    table = setup.draw()[2]
    players = [seat.player for seat in table.match.seats.order_by("position")]
    clubs.paper_enter(table=table, lines=[(players[0], 455, 20, 4), (players[1], 360, 10, 0), (players[2], 0, 0, 0)])
    return ClubTable.objects.select_related("match", "night").get(pk=table.pk)


def test_a_paper_table_scores_on_its_phones_again_and_its_totals_stay_in_the_history() -> None:
    setup = Setup()
    table = _on_paper(setup)
    with pytest.raises(ListClosed):
        _game(table.match)
    names = _seated(table)
    clubs.paper_to_phones(table=table, user=setup.secretary)
    table.refresh_from_db()
    assert not table.paper
    assert not PaperLine.objects.filter(match=table.match).exists()
    (entry,) = NightLog.objects.filter(night=setup.night)
    assert entry.action == "phones"
    assert [(line["name"], line["game_points"], line["won"], line["lost"]) for line in entry.details["lines"]] == [
        (names[0], 455, 20, 4),
        (names[1], 360, 10, 0),
        (names[2], 0, 0, 0),
    ]
    _game(Match.objects.get(pk=table.match_id))
    assert Game.objects.filter(match_id=table.match_id).count() == 1


def test_a_paper_table_of_a_reopened_night_gets_a_scoring_link_again() -> None:
    setup = Setup()
    table = _on_paper(setup)
    clubs.night_close(night=setup.night, user=setup.owner, unfinished=True)
    clubs.night_reopen(night=setup.night, user=setup.owner)
    assert Match.objects.get(pk=table.match_id).invite_token is None
    clubs.paper_to_phones(table=ClubTable.objects.get(pk=table.pk), user=setup.secretary)
    match = Match.objects.get(pk=table.match_id)
    assert match.invite_token
    assert not match.locked


def test_turning_a_table_back_to_phones_is_the_secretarys_and_not_on_a_closed_night() -> None:
    setup = Setup()
    table = _on_paper(setup)
    phones = reverse("night_table_phones", args=[setup.night.public_id, table.number])
    setup.refused_to_others("POST", phones, {"series": "1"})
    assert ClubTable.objects.get(pk=table.pk).paper
    assert _browser(setup.secretary).post(phones, {"series": "2"}).status_code == 404
    clubs.night_close(night=setup.night, user=setup.owner, unfinished=True)
    answer = _browser(setup.secretary).post(phones, {"series": "1"}, follow=True)
    assert "This night is closed; nothing was changed." in answer.content.decode()
    assert ClubTable.objects.get(pk=table.pk).paper
    page = _browser(setup.secretary).get(reverse("night_detail", args=[setup.night.public_id])).content.decode()
    assert "Score on phones again" not in page


def test_the_night_page_offers_the_secretary_to_turn_a_paper_table_back() -> None:
    setup = Setup()
    table = _on_paper(setup)
    night_page = reverse("night_detail", args=[setup.night.public_id])
    assert "Score on phones again" in _browser(setup.secretary).get(night_page).content.decode()
    assert "Score on phones again" not in _browser(setup.scorer).get(night_page).content.decode()
    phones = reverse("night_table_phones", args=[setup.night.public_id, table.number])
    answer = _browser(setup.secretary).post(phones, {"series": "1"}, follow=True)
    assert "Table 3 scores on its phones again" in answer.content.decode()
    history = _browser(setup.secretary).get(reverse("night_edit", args=[setup.night.public_id])).content.decode()
    assert "455 game points, 20 won, 4 lost" in history


# --- e. Another date, or the night removed ---------------------------------------------------------------------------


def test_a_night_gets_another_date_and_its_lists_are_named_by_it() -> None:
    setup = Setup()
    tables = setup.draw()
    versions = [table.match.version for table in tables]
    clubs.night_redate(night=setup.night, date=datetime.date(2026, 11, 25), user=setup.secretary)
    assert Night.objects.get(pk=setup.night.pk).date == datetime.date(2026, 11, 25)
    matches = [Match.objects.get(pk=table.match_id) for table in tables]
    new_date = date_format(datetime.date(2026, 11, 25), "SHORT_DATE_FORMAT")
    assert all(match.title.endswith(new_date) for match in matches)
    assert [match.version for match in matches] == [version + 1 for version in versions]
    (entry,) = NightLog.objects.filter(night=setup.night)
    assert (entry.action, entry.details) == ("redate", {"from": "2026-11-24", "to": "2026-11-25"})


def test_a_night_is_re_dated_on_its_page_and_a_wrong_date_is_said_next_to_the_field() -> None:
    setup = Setup()
    edit = reverse("night_edit", args=[setup.night.public_id])
    setup.refused_to_others("GET", edit)
    setup.refused_to_others("POST", edit, {"date": "2026-11-25"})
    wrong = _browser(setup.secretary).post(edit, {"date": "the 25th"})
    assert wrong.status_code == 400
    assert 'id="id_date_error">Enter a valid date.' in wrong.content.decode()
    assert _browser(setup.secretary).post(edit, {"date": "2026-11-25"}).status_code == 302
    assert Night.objects.get(pk=setup.night.pk).date == datetime.date(2026, 11, 25)


@pytest.mark.parametrize(
    ("language", "dated", "history"),
    [
        ("en", "The night is dated Nov. 10, 2026 now.", "from Nov. 24, 2026 to Nov. 10, 2026"),
        (
            "de",
            "Der Abend ist jetzt auf den 10. November 2026 datiert.",
            "vom 24. November 2026 auf den 10. November 2026",
        ),
    ],
)
def test_a_re_dated_night_is_said_by_its_new_date_and_its_history_by_both_in_the_readers_words(
    language: str, dated: str, history: str
) -> None:
    setup = Setup()
    secretary = Client(headers={"accept-language": language})
    secretary.force_login(setup.secretary)
    answer = secretary.post(reverse("night_edit", args=[setup.night.public_id]), {"date": "2026-11-10"}, follow=True)
    assert dated in answer.content.decode()
    page = secretary.get(reverse("night_edit", args=[setup.night.public_id])).content.decode()
    assert f"</strong>: {history}</li>" in page


@pytest.mark.parametrize(
    ("language", "removed", "history"),
    [
        ("en", "The night of Nov. 24, 2026 is removed.", "the night of Nov. 24, 2026"),
        ("de", "Der Abend vom 24. November 2026 ist entfernt.", "der Abend vom 24. November 2026"),
    ],
)
def test_a_removed_night_is_said_and_kept_in_the_seasons_history_by_its_date_in_the_readers_words(
    language: str, removed: str, history: str
) -> None:
    setup = Setup()
    owner = Client(headers={"accept-language": language})
    owner.force_login(setup.owner)
    answer = owner.post(reverse("night_remove", args=[setup.night.public_id]), {"confirm": "on"}, follow=True)
    assert removed in answer.content.decode()
    page = owner.get(reverse("season_edit", args=[setup.season.public_id])).content.decode()
    assert f"</strong>: {history}</li>" in page


def test_a_closed_night_keeps_its_date() -> None:
    setup = Setup()
    setup.draw()
    clubs.night_close(night=setup.night, user=setup.owner, unfinished=True)
    with pytest.raises(Conflict):
        clubs.night_redate(night=setup.night, date=datetime.date(2026, 11, 25), user=setup.owner)
    assert Night.objects.get(pk=setup.night.pk).date == datetime.date(2026, 11, 24)


def test_a_night_opened_by_mistake_is_removed_with_its_drawn_tables_and_the_season_remembers_it() -> None:
    setup = Setup()
    tables = setup.draw()
    remove = reverse("night_remove", args=[setup.night.public_id])
    setup.refused_to_others("POST", remove, {"confirm": "on"})
    unconfirmed = _browser(setup.secretary).post(remove, {})
    assert unconfirmed.status_code == 400
    assert 'id="id_confirm_error">This field is required.' in unconfirmed.content.decode()
    assert Night.objects.filter(pk=setup.night.pk).exists()
    answer = _browser(setup.secretary).post(remove, {"confirm": "on"})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("season_detail", args=[setup.season.public_id])
    assert not Night.objects.filter(pk=setup.night.pk).exists()
    assert not Match.objects.filter(pk__in=[table.match_id for table in tables]).exists()
    assert Player.objects.filter(name="Walter").exists()  # the club's players stay
    (entry,) = SeasonLog.objects.filter(season=setup.season)
    assert (entry.action, entry.details["date"], len(entry.details["attendees"])) == ("remove-night", "2026-11-24", 11)


def test_a_night_with_a_game_saved_is_not_removed_and_says_so() -> None:
    setup = Setup()
    tables = setup.draw()
    _game(tables[1].match)
    answer = _browser(setup.owner).post(reverse("night_remove", args=[setup.night.public_id]), {"confirm": "on"})
    assert answer.status_code == 409
    assert "Games or a paper list were entered at this night&#x27;s tables" in answer.content.decode()
    assert Night.objects.filter(pk=setup.night.pk).exists()
    assert Match.objects.filter(pk=tables[1].match_id).exists()
    assert not SeasonLog.objects.exists()


def test_a_club_is_not_reached_through_another_clubs_night() -> None:
    setup = Setup()
    clubs.club_create(owner=setup.stranger, name="Grand Hand")  # the owner of a club, but of another one
    for name, data in (("night_edit", {"date": "2026-11-25"}), ("night_remove", {"confirm": "on"})):
        assert _browser(setup.stranger).post(reverse(name, args=[setup.night.public_id]), data).status_code == 404
    assert Night.objects.get(pk=setup.night.pk).date == datetime.date(2026, 11, 24)


def test_a_draw_refused_is_said_at_the_draw_form_and_its_first_series_offers_no_series_before() -> None:
    setup = Setup(members=MEMBERS[:3], guests=GUESTS[:2])
    draw = reverse("night_draw", args=[setup.night.public_id])
    page = _browser(setup.secretary).get(reverse("night_detail", args=[setup.night.public_id])).content.decode()
    seats = re.search(r'<select id="seating-1" name="seating"[^>]*>(.*?)</select>', page, re.S)
    assert seats is not None
    assert 'value="ranking"' in seats[1]
    assert 'value="series"' not in seats[1]
    # Five players fit no tables of three and four: said above the form, the choices kept, nothing drawn.
    answer = _browser(setup.secretary).post(draw, {"series": "1", "seating": "ranking"})
    assert answer.status_code == 400
    body = answer.content.decode()
    form = body[body.index('<select id="seating-1"') - 1500 : body.index('<select id="seating-1"')]
    assert re.search(r'<p class="error" role="alert" id="draw-1_error">5 players cannot be seated', form), form
    assert re.search(r'<option value="ranking" selected>', body)
    # A seating the first series cannot have is said next to its field.
    answer = _browser(setup.secretary).post(draw, {"series": "1", "seating": "series"})
    assert answer.status_code == 400
    assert re.search(r'id="seating-1_error">The first series has no series before it.', answer.content.decode()), (
        answer.content.decode()
    )
    assert not ClubTable.objects.exists()


def test_a_series_seated_by_the_one_before_while_that_one_has_no_result_is_refused_next_to_the_choice() -> None:
    # As a tester met it on a phone, in German: two series, six players, series 2 seated by series 1 undrawn.
    setup = Setup(members=MEMBERS[:6], guests=[])
    Night.objects.filter(pk=setup.night.pk).update(series=2)
    draw = reverse("night_draw", args=[setup.night.public_id])
    browser = _browser(setup.secretary)
    browser.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    answer = browser.post(draw, {"series": "2", "seating": "series"})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert re.search(
        r'<select id="seating-2" name="seating" aria-invalid="true" aria-describedby="seating-2_error">.*'
        r'<option value="series" selected>nach der vorigen Serie</option></select>\s*'
        r'<p class="error" role="alert" id="seating-2_error">Serie 1 ist noch nicht ausgelost und hat daher kein '
        r"Ergebnis, nach dem du setzen kannst. Lose diese Serie aus oder setze sie nach der Saisonwertung.</p>",
        body,
    ), body
    assert not ClubTable.objects.exists()
    # Drawn but not played, series 1 has no result either: the page names its tables.
    setup.draw()
    browser.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    answer = browser.post(draw, {"series": "2", "seating": "series"})
    assert answer.status_code == 400
    assert re.search(
        r'<p class="error" role="alert" id="seating-2_error">Series 1 has no result yet: tables 1, 2 have not played '
        r"all their games. Draw this series or seat it by the season&#x27;s ranking, or wait until those tables have "
        r"finished.</p>",
        answer.content.decode(),
    ), answer.content.decode()
    assert not ClubTable.objects.filter(series=2).exists()


def test_a_series_whose_table_stopped_early_is_seated_by_it_on_the_page_once_the_box_is_ticked() -> None:
    # Two series, six players at two tables of three: table 1 stops after one game, table 2 enters its paper list.
    setup = Setup(members=MEMBERS[:6], guests=[])
    Night.objects.filter(pk=setup.night.pk).update(series=2)
    first, second = setup.draw()
    _game(first.match)
    clubs.paper_enter(table=second, lines=[(seat.player, 0, 0, 0) for seat in second.match.seats.all()])
    draw = reverse("night_draw", args=[setup.night.public_id])
    browser = _browser(setup.secretary)
    answer = browser.post(draw, {"series": "2", "seating": "series"})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert re.search(
        r'<p class="error" role="alert" id="seating-2_error">Series 1 has no result yet: table 1 has not played all '
        r"its games\.",
        body,
    ), body
    assert re.search(
        r'<label class="toggle"><input type="checkbox" name="unfinished" id="unfinished-2" aria-invalid="true" '
        r'aria-describedby="unfinished-2_error"> <span>Yes, seat by these tables&#x27; lists as they stand</span>'
        r'</label>\s*<p class="error" role="alert" id="unfinished-2_error">Table 1 of series 1 has 1 of its 36 games '
        r"on the list\.</p>",
        body,
    ), body
    assert not ClubTable.objects.filter(series=2).exists()
    german = _browser(setup.secretary)
    german.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    body = german.post(draw, {"series": "2", "seating": "series"}).content.decode()
    assert "<span>Ja, nach den Listen dieser Tische setzen, wie sie stehen</span>" in body
    assert 'id="unfinished-2_error">Tisch 1 der Serie 1 hat 1 von 36 Spielen auf der Liste.</p>' in body
    seated = browser.post(draw, {"series": "2", "seating": "series", "unfinished": "on"})
    assert seated.status_code == 302
    assert len(ClubTable.objects.filter(night=setup.night, series=2)) == 2
    # The one who won the game at table 1 sits at table 1 of series 2.
    winner = first.match.seats.get(position=(first.match.first_dealer + 1) % 3).player
    assert ClubTable.objects.get(night=setup.night, series=2, number=1).match.seats.filter(player=winner).exists()


def test_a_player_checked_in_after_the_draw_is_named_as_seated_at_no_table_of_the_series() -> None:
    setup = Setup(members=MEMBERS[:6], guests=[])
    setup.draw()
    clubs.check_in(night=setup.night, name="Walter", guest=True)
    page = reverse("night_detail", args=[setup.night.public_id])
    body = _browser(setup.secretary).get(page).content.decode()
    assert re.search(r"Checked in, at no table of this series: Walter\. Draw again to seat them\.", body), body
    # Once the series is played, drawing again is past: the note says who sits out.
    _game(setup.tables()[0].match)
    body = _browser(setup.secretary).get(page).content.decode()
    assert re.search(r"Checked in, at no table of this series: Walter\.</p>", body), body
    # Nobody else is named while everyone sits.
    clubs.check_out(night=setup.night, player=Player.objects.get(name="Walter"))
    assert "at no table of this series" not in _browser(setup.secretary).get(page).content.decode()


def _again_form(body: str, series: int) -> str:
    """The form that draws ``series`` again, as the night's page offers it."""
    start = body.index(f'<input type="hidden" name="series" value="{series}"><input type="hidden" name="again"')
    return body[start : body.index("</form>", start)]


def test_drawing_a_series_again_offers_how_it_is_seated_and_a_late_player_is_seated_by_the_series_before() -> None:
    # Two series, six players at two tables of three; series 1 is drawn by lot.
    setup = Setup(members=MEMBERS[:6], guests=[])
    Night.objects.filter(pk=setup.night.pk).update(series=2)
    page = reverse("night_detail", args=[setup.night.public_id])
    browser = _browser(setup.secretary)
    first, second = setup.draw()
    again = _again_form(browser.get(page).content.decode(), 1)
    assert re.search(r'<select id="again-seating-1" name="seating" required><option value="draw" selected>', again), (
        again
    )
    assert 'value="series"' not in again  # the first series has no series before it
    # Series 1 is in from paper, one game won at table 1; series 2 is seated by it: the winner at table 1.
    winner, *others = (seat.player for seat in first.match.seats.order_by("position"))
    clubs.paper_enter(table=first, lines=[(winner, 18, 1, 0), *((player, 0, 0, 0) for player in others)])
    clubs.paper_enter(table=second, lines=[(seat.player, 0, 0, 0) for seat in second.match.seats.all()])
    clubs.night_draw(night=setup.night, series=2, user=setup.secretary, seating=clubs.Seating.SERIES)
    # Walter comes late. The page offers to draw series 2 again; how it was seated is not taken for a draw by lot:
    # the secretary chooses (it was seated by a ranking, the season's or the series before's).
    clubs.check_in(night=setup.night, name="Walter", guest=True)
    body = browser.get(page).content.decode()
    assert "Checked in, at no table of this series: Walter. Draw again to seat them." in body
    again = _again_form(body, 2)
    assert re.search(
        r'<select id="again-seating-2" name="seating" required><option value="">choose how</option>'
        r'<option value="draw">.*<option value="ranking">.*<option value="series">by the series before</option>',
        again,
    ), again
    assert 'name="seating" value="draw"' not in again
    draw = reverse("night_draw", args=[setup.night.public_id])
    assert browser.post(draw, {"series": "2", "again": "1", "seating": "series"}).status_code == 302
    top, rest = (
        {seat.player.name for seat in table.match.seats.select_related("player")}
        for table in ClubTable.objects.filter(night=setup.night, series=2).select_related("match").order_by("number")
    )
    assert winner.name in top
    assert "Walter" in top | rest


def test_a_late_player_is_seated_again_by_the_series_before_whose_table_stopped_early_once_the_box_is_ticked() -> None:
    # Two series, six players at two tables of three: table 1 of series 1 stops after one game, table 2 enters its
    # paper list; series 2 is seated by it as it stands.
    setup = Setup(members=MEMBERS[:6], guests=[])
    Night.objects.filter(pk=setup.night.pk).update(series=2)
    first, second = setup.draw()
    _game(first.match)
    clubs.paper_enter(table=second, lines=[(seat.player, 0, 0, 0) for seat in second.match.seats.all()])
    clubs.night_draw(night=setup.night, series=2, user=setup.secretary, seating=clubs.Seating.SERIES, unfinished=True)
    # Walter comes late: drawing series 2 again by the series before is refused at the form that draws it again,
    # which now offers the box that takes table 1 as it stands.
    clubs.check_in(night=setup.night, name="Walter", guest=True)
    draw = reverse("night_draw", args=[setup.night.public_id])
    browser = _browser(setup.secretary)
    again = {"series": "2", "again": "1", "seating": "series"}
    answer = browser.post(draw, again)
    assert answer.status_code == 400
    body = answer.content.decode()
    form = _again_form(body, 2)
    assert re.search(
        r'<select id="again-seating-2" name="seating" required aria-invalid="true" '
        r'aria-describedby="again-seating-2_error">.*<option value="series" selected>by the series before</option>'
        r'</select>\s*<p class="error" role="alert" id="again-seating-2_error">Series 1 has no result yet: table 1 '
        r"has not played all its games\.",
        form,
    ), form
    assert re.search(
        r'<label class="toggle"><input type="checkbox" name="unfinished" id="again-unfinished-2" aria-invalid="true" '
        r'aria-describedby="again-unfinished-2_error"> <span>Yes, seat by these tables&#x27; lists as they stand'
        r'</span></label>\s*<p class="error" role="alert" id="again-unfinished-2_error">Table 1 of series 1 has 1 of '
        r"its 36 games on the list\.</p>",
        form,
    ), form
    assert '<ul class="messages"' not in body  # said at the form, not above the page as well
    assert all("Walter" not in _seated(table) for table in setup.tables())
    german = _browser(setup.secretary)
    german.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    form = _again_form(german.post(draw, again).content.decode(), 2)
    assert "<span>Ja, nach den Listen dieser Tische setzen, wie sie stehen</span>" in form
    assert 'id="again-unfinished-2_error">Tisch 1 der Serie 1 hat 1 von 36 Spielen auf der Liste.</p>' in form
    # Ticked and sent again, series 2 is seated by series 1 as it stands, Walter among them; the one who won the
    # game at table 1 sits at table 1.
    assert browser.post(draw, again | {"unfinished": "on"}).status_code == 302
    seated = {table.number: _seated(table) for table in setup.tables() if table.series == 2}
    assert "Walter" in seated[1] + seated[2]
    winner = first.match.seats.get(position=(first.match.first_dealer + 1) % 3).player
    assert winner.name in seated[1]


@pytest.mark.parametrize("seating", [None, "", "by-age"], ids=["none sent", "none chosen", "an unknown one"])
def test_drawing_again_without_how_the_seats_are_taken_is_refused_next_to_its_choice(seating: str | None) -> None:
    setup = Setup(members=MEMBERS[:6], guests=[])
    Night.objects.filter(pk=setup.night.pk).update(series=2)
    setup.draw()
    clubs.night_draw(night=setup.night, series=2, user=setup.secretary, seating=clubs.Seating.RANKING)
    drawn = [table.pk for table in setup.tables()]
    draw = reverse("night_draw", args=[setup.night.public_id])
    again = {"series": "2", "again": "1"} | ({} if seating is None else {"seating": seating})
    answer = _browser(setup.secretary).post(draw, again)
    assert answer.status_code == 400
    form = _again_form(answer.content.decode(), 2)
    assert re.search(
        r'<select id="again-seating-2" name="seating" required aria-invalid="true" '
        r'aria-describedby="again-seating-2_error"><option value="">choose how</option>.*</select>\s*'
        r'<p class="error" role="alert" id="again-seating-2_error">Choose how the seats are taken\.</p>',
        form,
    ), form
    german = _browser(setup.secretary)
    german.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    form = _again_form(german.post(draw, again).content.decode(), 2)
    assert 'id="again-seating-2_error">Wähle, wie die Plätze vergeben werden.</p>' in form
    assert [table.pk for table in setup.tables()] == drawn


def _swap_form(body: str) -> str:
    return body[body.index('id="swap-1"') : body.index("Swap seats</button>")]


def test_a_swap_of_seats_refused_is_said_at_its_form_with_the_players_chosen() -> None:
    setup = Setup(members=MEMBERS[:6], guests=[])
    setup.draw()
    clubs.check_in(night=setup.night, name="Walter", guest=True)
    swap = reverse("night_swap", args=[setup.night.public_id])
    anna, walter = (str(Player.objects.get(name=name).public_id) for name in ("Anna", "Walter"))
    answer = _browser(setup.secretary).post(swap, {"series": "1", "first": anna, "second": walter})
    assert answer.status_code == 400
    form = _swap_form(answer.content.decode())
    assert re.search(r'<p class="error" role="alert" id="swap-1_error">Both players must sit at a table', form), form
    assert re.search(rf'<select id="swap-first-1"[^>]*>.*<option value="{anna}" selected>', form, re.S), form
    # Once the series is played, the page has no swap form: the refusal is said above the page.
    _game(setup.tables()[0].match)
    browser = _browser(setup.secretary)
    ben = str(Player.objects.get(name="Ben").public_id)
    answer = browser.post(swap, {"series": "1", "first": anna, "second": ben}, follow=True)
    assert "Series 1 is being played; its tables stay." in answer.content.decode()


def test_the_swap_of_seats_starts_with_nobody_chosen_and_a_swap_with_oneself_is_said_next_to_the_field() -> None:
    setup = Setup(members=MEMBERS[:6], guests=[])
    setup.draw()
    seats = {table.pk: list(table.match.seats.values_list("player_id", flat=True)) for table in setup.tables()}
    browser = _browser(setup.secretary)
    form = _swap_form(browser.get(reverse("night_detail", args=[setup.night.public_id])).content.decode())
    # Both lists start at a choice to make, and a choice each is required: a tap on the button alone swaps nobody.
    for which in ("first", "second"):
        select = re.search(rf'<select id="swap-{which}-1"([^>]*)>(.*?)</select>', form, re.S)
        assert select is not None, form
        assert "required" in select[1]
        assert re.match(r'<option value="">', select[2]), select[2]
        assert " selected" not in select[2]
    swap = reverse("night_swap", args=[setup.night.public_id])
    anna = str(Player.objects.get(name="Anna").public_id)
    # Anna with Anna is refused next to the second list, with both choices kept.
    answer = browser.post(swap, {"series": "1", "first": anna, "second": anna})
    assert answer.status_code == 400
    form = _swap_form(answer.content.decode())
    assert re.search(
        r'<select id="swap-second-1" name="second" required aria-invalid="true" aria-describedby="swap-second-1_error">'
        rf'<option value="">[^<]*</option>.*<option value="{anna}" selected>.*</select>\s*'
        r'<p class="error" role="alert" id="swap-second-1_error">Choose a player other than Anna to swap with.</p>',
        form,
        re.S,
    ), form
    assert 'id="swap-1_error"' not in form
    # A list left at its choice (the form sent without the browser's check) is said next to it.
    answer = browser.post(swap, {"series": "1", "first": "", "second": anna})
    assert answer.status_code == 400
    form = _swap_form(answer.content.decode())
    assert re.search(
        r'aria-describedby="swap-first-1_error">.*</select>\s*'
        r'<p class="error" role="alert" id="swap-first-1_error">Choose the player who swaps seats.</p>',
        form,
        re.S,
    ), form
    assert {table.pk: list(table.match.seats.values_list("player_id", flat=True)) for table in setup.tables()} == seats
    # In German too.
    browser.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    answer = browser.post(swap, {"series": "1", "first": anna, "second": anna})
    assert "Wähle zum Tauschen einen anderen Spieler als Anna." in answer.content.decode()


def test_a_swap_of_a_player_with_themself_is_refused_by_the_service() -> None:
    setup = Setup(members=MEMBERS[:6], guests=[])
    setup.draw()
    anna = Player.objects.get(name="Anna")
    with pytest.raises(Invalid) as refused:
        clubs.seats_swap(night=setup.night, series=1, first=anna, second=anna, user=setup.secretary)
    assert [problem.field for problem in refused.value.errors] == ["second"]


def test_a_tap_refused_on_a_nights_page_opens_the_page_at_its_top_where_the_refusal_is_said() -> None:
    setup = Setup(members=MEMBERS[:6], guests=[])
    setup.draw()
    night = reverse("night_detail", args=[setup.night.public_id])
    anna = str(Player.objects.get(name="Anna").public_id)
    check_in = reverse("night_check_in", args=[setup.night.public_id])
    browser = _browser(setup.secretary)
    # Anna sits at a table: she is not checked out, and the page says so where it opens.
    answer = browser.post(check_in, {"player": anna, "out": "1"})
    assert answer["Location"] == night
    assert "Anna sits at a table already." in browser.get(night).content.decode()
    # A tap that is made opens the page where it was made.
    walter = str(clubs.check_in(night=setup.night, name="Walter", guest=True).player.public_id)
    assert browser.post(check_in, {"player": walter, "out": "1"})["Location"] == night + "#check-in"
    drop = reverse("night_series_drop", args=[setup.night.public_id])
    _game(setup.tables()[0].match)
    assert browser.post(drop, {"series": "1"})["Location"] == night
    again = {"series": "1", "again": "1", "seating": "draw"}
    assert browser.post(reverse("night_draw", args=[setup.night.public_id]), again)["Location"] == night
    assert "Series 1 is being played; its tables stay." in browser.get(night).content.decode()


def test_opening_a_night_twice_on_one_date_opens_the_one_night() -> None:
    setup = Setup()
    browser = _browser(setup.secretary)
    new = reverse("night_new", args=[setup.season.public_id])
    # A second tap on "Open the night" while the first is on its way, or a back and a tap again.
    first = browser.post(new, {"date": "2026-11-25", "series": "1"})
    second = browser.post(new, {"date": "2026-11-25", "series": "1"})
    assert first["Location"] == second["Location"]
    assert Night.objects.filter(season=setup.season, date=datetime.date(2026, 11, 25)).count() == 1
    # A night closed that day leaves room for another.
    clubs.night_close(night=setup.night, user=setup.secretary)
    again = browser.post(new, {"date": "2026-11-24", "series": "1"})
    assert again["Location"] != reverse("night_detail", args=[setup.night.public_id])
    assert Night.objects.filter(season=setup.season, date=datetime.date(2026, 11, 24)).count() == 2


def test_a_seasons_history_says_what_each_setting_it_changed_was_before() -> None:
    setup = Setup()
    edit = reverse("season_edit", args=[setup.season.public_id])
    posted = SEASON_FORM | {"ranking": "average", "minimum_lists": "3", "stake": "5", "lost_fees": "1: 0,50"}
    assert _browser(setup.secretary).post(edit, posted).status_code == 302
    browser = _browser(setup.secretary)
    page = browser.get(edit).content.decode()
    assert "Name (was 2026)" in page
    assert "Ranking (was total of all lists)" in page
    assert "Minimum number of lists for the average (missing ones count 0) (was 0)" in page
    assert f"Stake per series (€), paid out by placing (was 0.00{NO_BREAK}€)" in page
    assert "(was none)" in page  # the fee per lost game had no tiers
    browser.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    assert "Tabellenwertung (vorher: Summe aller Listen)" in browser.get(edit).content.decode()
