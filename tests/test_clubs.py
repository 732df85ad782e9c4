"""Clubs: members and roles, seasons, a night's check-in, draw, tables, paper lists, results, closing and reopening."""

import datetime
import random
import uuid
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser, User

from matches.clubs import services as clubs
from matches.clubs.models import Club, ClubTable, Night, NightLog, NightStanding, Season, SeasonStanding
from matches.clubs.permissions import club_can
from matches.clubs.selectors import night_results, screen_tops, season_table
from matches.engine.league import RankingRule
from matches.errors import Conflict, Invalid
from matches.models import Match, Player
from matches.permissions import Action, Role, Visitor, access, match_role, player_role
from matches.services import ListClosed, Submission, game_add
from matches.services.players import player_named

from .factories import make_user
from .test_queries import enter

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus", "Hanna", "Ida", "Jan", "Kai"]


@dataclass
class ClubNight:
    club: Club
    season: Season
    night: Night
    owner: User
    secretary: User
    scorer: User
    member: User


def _night(attendees: list[str] = NAMES, **settings: object) -> ClubNight:
    owner, secretary, scorer, member = (make_user(name) for name in ("olga", "sven", "sara", "max"))
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    clubs.member_set(club=club, username="sven", role="secretary")
    clubs.member_set(club=club, username="sara", role="scorer")
    clubs.member_set(club=club, username="max", role="member")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026", **settings))  # type: ignore[arg-type]
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in attendees:
        clubs.check_in(night=night, name=name)
    return ClubNight(club, season, night, owner, secretary, scorer, member)


def _visitor(user: User | None, links: dict[str, str] | None = None) -> Visitor:
    return Visitor(user or AnonymousUser(), links or {})


def _game(match: Match, declarer: int, **entry: object) -> None:
    game_add(
        match=match,
        user=None,
        token=uuid.uuid4(),
        submission=Submission(passed=False, declarer=declarer, entry=entry),
    )


def test_a_season_of_skat_is_seeger_fabian_at_tables_of_four_and_three_by_default() -> None:
    setup = _night([])
    assert (setup.season.scheme, setup.season.plan) == ("seeger-fabian", "fours")
    assert (setup.season.games_at_four, setup.season.games_at_three) == (48, 36)
    pairs = clubs.season_create(
        club=setup.club, settings=clubs.SeasonSettings(name="Officers", variant="officers-skat")
    )
    assert pairs.plan == "pairs"


def test_a_season_takes_a_presets_rules() -> None:
    setup = _night([])
    pub = clubs.season_create(club=setup.club, settings=clubs.SeasonSettings(name="Pub", preset="skat-pub"))
    assert (pub.variant, pub.scheme) == ("skat", "standard")
    assert pub.rules["kontra_re"] is True
    assert pub.rules["bock"] is True
    with pytest.raises(Invalid) as refused:
        clubs.season_create(club=setup.club, settings=clubs.SeasonSettings(name="x", preset="poker-night"))
    assert refused.value.errors[0].field == "preset"


def test_a_season_is_checked_like_a_match() -> None:
    setup = _night([])
    with pytest.raises(Invalid) as refused:
        clubs.season_create(club=setup.club, settings=clubs.SeasonSettings(name="x", variant="poker"))
    assert refused.value.errors[0].field == "variant"
    with pytest.raises(Invalid):
        clubs.season_create(club=setup.club, settings=clubs.SeasonSettings(name="x", rules={"bock": "often"}))
    with pytest.raises(Invalid) as refused:
        clubs.season_create(club=setup.club, settings=clubs.SeasonSettings(name="x", ranking="best-nights"))
    assert refused.value.errors[0].field == "best_nights"
    with pytest.raises(Invalid):
        clubs.season_create(club=setup.club, settings=clubs.SeasonSettings(name="x", plan="pairs"))


def test_eleven_attendees_are_drawn_to_two_tables_of_four_and_one_of_three() -> None:
    setup = _night()
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    tables = list(ClubTable.objects.filter(night=setup.night).select_related("match"))
    assert [table.match.players for table in tables] == [4, 4, 3]
    assert [table.match.planned_games for table in tables] == [48, 48, 36]
    assert {table.match.keeper_id for table in tables} == {setup.club.keeper_id}
    seated = sorted(seat.player.name for table in tables for seat in table.match.seats.select_related("player"))
    assert seated == sorted(NAMES)
    # Drawing again without "again" keeps the tables; with it, the tables are drawn anew.
    matches = set(ClubTable.objects.filter(night=setup.night).values_list("match_id", flat=True))
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    assert set(ClubTable.objects.filter(night=setup.night).values_list("match_id", flat=True)) == matches
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary, again=True)
    assert ClubTable.objects.filter(night=setup.night).count() == 3
    assert not Match.objects.filter(pk__in=matches).exists()


def test_five_attendees_cannot_be_seated_and_are_told_so() -> None:
    setup = _night(NAMES[:5])
    with pytest.raises(Invalid, match="5 players cannot be seated"):
        clubs.night_draw(night=setup.night, series=1, user=setup.secretary)


def _tables(setup: ClubNight) -> list[ClubTable]:
    return list(ClubTable.objects.filter(night=setup.night).select_related("match").order_by("number"))


def test_the_night_table_sums_each_list_by_seeger_fabian() -> None:
    setup = _night(NAMES[:3])
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    (table,) = _tables(setup)
    match = table.match
    _game(match, 0, contract="clubs", matadors=1, declarer_card_points=70)  # won: 24
    _game(match, 1, contract="grand", matadors=2, declarer_card_points=40)  # lost: -144
    _game(match, 2, contract="null", won=True)  # won: 23
    results = night_results(Night.objects.get(pk=setup.night.pk))
    seats = [seat.player for seat in match.seats.select_related("player").order_by("position")]
    lists = {seat.name: results.tables[0].lists[str(seat.public_id)] for seat in seats}
    first, second, third = (lists[seat.name] for seat in seats)
    assert (first.game_points, first.won, first.lost, first.others_lost) == (24, 1, 0, 1)
    assert (second.game_points, second.won, second.lost, second.others_lost) == (-144, 0, 1, 0)
    assert (third.game_points, third.won, third.lost, third.others_lost) == (23, 1, 0, 1)
    assert [first.score, second.score, third.score] == [24 + 50 + 40, -144 - 50, 23 + 50 + 40]
    assert first.footer.total == first.score
    assert Match.objects.get(pk=match.pk).totals == [first.score, second.score, third.score]
    assert [place.standing.player for place in results.night_places] == [
        str(seats[0].public_id),
        str(seats[2].public_id),
        str(seats[1].public_id),
    ]


def test_a_table_on_paper_enters_its_totals_checked_for_plausibility() -> None:
    setup = _night(NAMES[:3], games_at_three=48)  # the worked sheet has 45 games won and lost
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    (table,) = _tables(setup)
    players = [seat.player for seat in table.match.seats.select_related("player").order_by("position")]
    with pytest.raises(Invalid) as refused:
        clubs.paper_enter(table=table, lines=[(players[0], 19, 1, 0), (players[1], 0, 0, 0), (players[2], 0, 0, 0)])
    assert refused.value.errors[0].field == "lines.0.game_points"
    with pytest.raises(Invalid):
        clubs.paper_enter(table=table, lines=[(players[0], 18, 1, 0), (players[1], 0, 0, 0)])
    clubs.paper_enter(table=table, lines=[(players[0], 455, 20, 4), (players[1], 608, 12, 0), (players[2], 486, 9, 0)])
    lists = night_results(Night.objects.get(pk=setup.night.pk)).tables[0].lists
    assert [lists[str(player.public_id)].score for player in players] == [1255, 1368, 1096]


def test_a_paper_list_for_a_table_dropped_meanwhile_is_refused_as_a_conflict() -> None:
    """The list was read, then its series dropped (or drawn anew) before it was sent: a 409 naming the table, never
    a server error."""
    setup = _night(NAMES[:3], games_at_three=48)
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    (table,) = _tables(setup)
    players = [seat.player for seat in table.match.seats.select_related("player").order_by("position")]
    clubs.series_drop(night=setup.night, series=1, user=setup.secretary)
    with pytest.raises(Conflict) as refused:
        clubs.paper_enter(
            table=table, lines=[(players[0], 455, 20, 4), (players[1], 608, 12, 0), (players[2], 486, 9, 0)]
        )
    assert [(one.field, one.message.render()) for one in refused.value.errors] == [
        ("table", "This table is no longer drawn: its series was dropped or drawn anew.")
    ]


def test_closing_the_night_locks_every_list_and_kills_the_qr_links() -> None:
    setup = _night(NAMES[:7])
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    first, second = _tables(setup)
    assert first.match.invite_token is not None
    link = {str(first.match.public_id): first.match.invite_token}
    table_phone = _visitor(None, link)
    assert match_role(table_phone, first.match) is Role.LINK_SCORER
    assert match_role(table_phone, second.match) is Role.NOBODY  # the QR link writes only its own table
    clubs.night_close(night=setup.night, user=setup.secretary, unfinished=True)
    locked = Match.objects.get(pk=first.match.pk)
    assert locked.locked
    assert locked.invite_token is None
    assert match_role(table_phone, locked) is Role.NOBODY
    assert not access(_visitor(setup.scorer), locked).can_score
    with pytest.raises(ListClosed):
        _game(locked, 0, contract="clubs", matadors=1, declarer_card_points=70)
    with pytest.raises(Conflict):
        clubs.check_in(night=setup.night, name="Late Larry")
    clubs.night_reopen(night=setup.night, user=setup.owner)
    _game(Match.objects.get(pk=first.match.pk), 1, contract="clubs", matadors=1, declarer_card_points=70)
    assert list(NightLog.objects.filter(night=setup.night).values_list("action", "user__username")) == [
        ("close", "sven"),
        ("reopen", "olga"),
    ]


def test_a_night_with_a_table_short_of_its_games_closes_only_once_that_is_confirmed() -> None:
    # Seven players at a table of four of three games and one of three of two.
    setup = _night(NAMES[:7], games_at_four=3, games_at_three=2)
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    four, three = sorted(_tables(setup), key=lambda table: -table.match.players)
    enter(four.match, 1)

    def refusal() -> list[tuple[str, str]]:
        with pytest.raises(Invalid) as refused:
            clubs.night_close(night=setup.night, user=setup.secretary)
        assert Night.objects.get(pk=setup.night.pk).closed_at is None
        return [(error.field, str(error.message)) for error in refused.value.errors]

    assert refusal() == sorted(
        [
            ("unfinished", f"Table {four.number} of series 1 has 1 of its 3 games on the list."),
            ("unfinished", f"Table {three.number} of series 1 has no games: its players get no list."),
        ],
        key=lambda problem: problem[1],
    )
    enter(four.match, 2)
    assert refusal() == [("unfinished", f"Table {three.number} of series 1 has no games: its players get no list.")]
    assert not NightLog.objects.filter(night=setup.night).exists()
    clubs.night_close(night=setup.night, user=setup.secretary, unfinished=True)
    assert Night.objects.get(pk=setup.night.pk).closed_at is not None
    assert Match.objects.get(pk=three.match.pk).locked


def test_club_roles_grant_what_they_say_and_nothing_to_other_clubs() -> None:
    setup = _night(NAMES[:3])
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    (table,) = _tables(setup)
    other_owner = make_user("otto")
    other = clubs.club_create(owner=other_owner, name="Grand Hand")
    stranger = make_user("stan")
    expected = {
        setup.owner: (True, True, True, True, True, Role.OWNER),
        setup.secretary: (True, True, False, False, False, Role.OWNER),
        setup.scorer: (True, False, False, False, False, Role.CO_SCORER),
        setup.member: (True, False, False, False, False, Role.SPECTATOR),
        other_owner: (False, False, False, False, False, Role.NOBODY),
        stranger: (False, False, False, False, False, Role.NOBODY),
    }
    for user, (view, manage, reopen, back_up, roles, at_table) in expected.items():
        visitor = _visitor(user)
        assert club_can(visitor, Action.VIEW, setup.club) is view, user
        assert club_can(visitor, Action.MANAGE, setup.club) is manage, user
        assert club_can(visitor, Action.REOPEN, setup.club) is reopen, user
        assert club_can(visitor, Action.BACKUP, setup.club) is back_up, user
        assert club_can(visitor, Action.ROLES, setup.club) is roles, user
        assert match_role(visitor, table.match) is at_table, user
    assert club_can(_visitor(other_owner), Action.MANAGE, other)
    player = Player.objects.filter(keeper=setup.club.keeper).first()
    assert player is not None
    assert player_role(_visitor(setup.member), player) is Role.SPECTATOR
    assert player_role(_visitor(stranger), player) is Role.NOBODY


def test_a_club_keeps_an_owner() -> None:
    setup = _night([])
    with pytest.raises(Conflict):
        clubs.member_set(club=setup.club, username="olga", role="member")
    with pytest.raises(Conflict):
        clubs.member_remove(club=setup.club, user=setup.owner)
    clubs.member_set(club=setup.club, username="sven", role="owner")
    clubs.member_remove(club=setup.club, user=setup.owner)
    assert not club_can(_visitor(setup.owner), Action.VIEW, setup.club)
    with pytest.raises(Invalid):
        clubs.member_set(club=setup.club, username="nobody-here", role="member")
    with pytest.raises(Invalid):
        clubs.member_set(club=setup.club, username="max", role="king")


def test_checking_in_twice_is_checking_in_once_and_guests_join_the_clubs_players() -> None:
    setup = _night(["Anna"])
    clubs.check_in(night=setup.night, name="anna")
    guest = clubs.check_in(night=setup.night, name="Walter Walk-in", guest=True)
    assert setup.night.attendances.count() == 2
    assert guest.player.keeper_id == setup.club.keeper_id
    assert guest.player.roster.guest
    clubs.check_out(night=setup.night, player=guest.player)
    assert setup.night.attendances.count() == 1


def test_seats_can_be_swapped_before_play_and_not_after() -> None:
    setup = _night(NAMES[:7])
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    first, second = _tables(setup)
    one = first.match.seats.select_related("player").first()
    other = second.match.seats.select_related("player").first()
    assert one is not None
    assert other is not None
    clubs.seats_swap(night=setup.night, series=1, first=one.player, second=other.player, user=setup.secretary)
    assert first.match.seats.filter(player=other.player).exists()
    assert second.match.seats.filter(player=one.player).exists()
    for table, gone, came in ((first, one, other), (second, other, one)):
        change = table.match.events.get()
        assert (change.action, change.user, change.game) == ("reseat", setup.secretary, None)
        assert str(gone.player.public_id) in (change.before or {})["seats"]
        assert str(came.player.public_id) in (change.after or {})["seats"]
    _game(first.match, 1, contract="clubs", matadors=1, declarer_card_points=70)
    with pytest.raises(Conflict):
        clubs.seats_swap(night=setup.night, series=1, first=one.player, second=other.player, user=setup.secretary)


def test_the_season_table_ranks_by_the_seasons_rule() -> None:
    setup = _night(NAMES[:3], ranking=RankingRule.AVERAGE.value, minimum_lists=2)
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    (table,) = _tables(setup)
    _game(table.match, 0, contract="clubs", matadors=1, declarer_card_points=70)
    standings = season_table(setup.season)
    assert [place.standing.score for place in standings.places] == [(24 + 50) / 2, 0, 0]
    assert standings.places[1].by_lot


def _scores(season: Season) -> dict[str, tuple[object, int, int, int]]:
    table = season_table(Season.objects.get(pk=season.pk))
    return {
        place.standing.player: (place.standing.score, place.standing.won, place.standing.lost, place.standing.lists)
        for place in table.places
    }


@pytest.mark.parametrize("ranking", [RankingRule.TOTAL.value, RankingRule.AVERAGE.value, RankingRule.BEST_NIGHTS.value])
def test_a_closed_night_counts_with_the_sums_it_closed_with(ranking: str) -> None:
    setup = _night(NAMES[:7], ranking=ranking, best_nights=1, minimum_lists=2)
    second = clubs.night_create(season=setup.season, date=datetime.date(2026, 12, 1))
    for name in NAMES[:7]:
        clubs.check_in(night=second, name=name)
    for night in (setup.night, second):
        clubs.night_draw(night=night, series=1, user=setup.secretary)
        for number, table in enumerate(ClubTable.objects.filter(night=night).select_related("match")):
            declarer = (table.match.first_dealer + 1) % table.match.players
            _game(table.match, declarer, contract="grand", matadors=1, declarer_card_points=40 + 30 * (number % 2))
    live = _scores(setup.season)
    clubs.night_close(night=setup.night, user=setup.secretary, unfinished=True)
    assert _scores(setup.season) == live
    clubs.night_close(night=second, user=setup.secretary, unfinished=True)
    assert _scores(setup.season) == live
    stored = SeasonStanding.objects.filter(season=setup.season)
    assert {row.nights for row in stored} == {2}
    clubs.night_reopen(night=setup.night, user=setup.owner)
    assert _scores(setup.season) == live
    assert not NightStanding.objects.filter(night=setup.night).exists()
    assert {row.nights for row in SeasonStanding.objects.filter(season=setup.season)} == {1}


@pytest.mark.parametrize("ranking", [RankingRule.TOTAL.value, RankingRule.AVERAGE.value, RankingRule.BEST_NIGHTS.value])
def test_the_first_places_of_a_season_are_its_tables_however_many_it_ranks_after_them(ranking: str) -> None:
    setup = _night([], ranking=ranking, best_nights=2, minimum_lists=3, guests_ranked=False)
    played = random.Random(ranking)
    # Three closed nights of most of the club's players and two guests, then one under way of three of them and a
    # guest; a player may lose a game, win one or play none, and tie with others.
    nights = [
        (setup.night, 8, ("Walter Walk-in", "Gina Gast")),
        *(
            (clubs.night_create(season=setup.season, date=datetime.date(2026, 12, day)), players, guests)
            for day, players, guests in ((1, 8, ("Gina Gast",)), (8, 7, ("Gina Gast",)), (15, 3, ("Walter Walk-in",)))
        ),
    ]
    for night, players, guests in nights:
        for name in played.sample(NAMES, players):
            clubs.check_in(night=night, name=name)
        for guest in guests:
            clubs.check_in(night=night, name=guest, guest=True)
        clubs.night_draw(night=night, series=1, user=setup.secretary)
        for table in ClubTable.objects.filter(night=night).select_related("match"):
            match = table.match
            for _ in range(played.randrange(1, 4)):
                match.refresh_from_db()
                # Anybody but the dealer, who sits out at a table of four.
                declarer = (match.first_dealer + match.deals + played.randrange(1, match.players)) % match.players
                _game(match, declarer, contract="grand", matadors=1, declarer_card_points=played.choice([40, 70]))
        if players > 3:
            clubs.night_close(night=night, user=setup.secretary, unfinished=True)
    whole = season_table(Season.objects.get(pk=setup.season.pk))
    assert 8 < len(whole.places) < len(NAMES) + 2
    for count in range(len(whole.places) + 2):
        tops = screen_tops(Season.objects.get(pk=setup.season.pk), None, count)
        assert tops.season.places == whole.places[:count]
        assert tops.season.ranked == len(whole.places)
        assert tops.night is None
        assert {key: player.name for key, player in tops.players.items()} == {
            place.standing.player: whole.players[place.standing.player].name for place in tops.season.places
        }


@pytest.mark.parametrize("minimum_lists", [0, 3])
def test_the_first_places_by_average_divide_as_the_table_does_by_the_lists_played_or_the_minimum(
    minimum_lists: int,
) -> None:
    """Kept sums chosen so that the minimum turns the order around: one list of 90 is the best average without a
    minimum, and with one of three it ranks below three lists of 150."""
    setup = _night([], ranking=RankingRule.AVERAGE.value, minimum_lists=minimum_lists)
    season = Season.objects.get(pk=setup.season.pk)
    kept = {"Anna": (90, 1), "Ben": (150, 3), "Cleo": (120, 3), "Dora": (60, 1), "Emil": (150, 3), "Fred": (40, 2)}
    for name, (score, lists) in kept.items():
        player = player_named(setup.club.keeper, name)
        SeasonStanding.objects.create(season=season, player=player, score=score, lists=lists, nights=lists)
    whole = season_table(season)
    leader = whole.players[whole.places[0].standing.player].name
    # Ben and Emil rank alike, and the lot orders them.
    assert leader in ({"Anna"} if minimum_lists == 0 else {"Ben", "Emil"})
    for count in range(len(kept) + 2):
        top = screen_tops(season, None, count).season
        assert top.places == whole.places[:count]
        assert top.ranked == len(kept)


def _seated(night: Night, series: int) -> list[set[str]]:
    tables = ClubTable.objects.filter(night=night, series=series).order_by("number").select_related("match")
    return [{seat.player.name for seat in table.match.seats.select_related("player")} for table in tables]


def _play(night: Night, series: int) -> set[str]:
    """Each table's first game, won by the player after the dealer (grand with 1, 70 card points): the winners."""
    winners = set()
    for table in ClubTable.objects.filter(night=night, series=series).select_related("match"):
        declarer = (table.match.first_dealer + 1) % table.match.players
        _game(table.match, declarer, contract="grand", matadors=1, declarer_card_points=70)
        winners.add(table.match.seats.get(position=declarer).player.name)
    return winners


def test_a_second_series_can_be_seated_by_the_first() -> None:
    setup = _night(NAMES[:8], games_at_four=1)
    night = Night.objects.get(pk=setup.night.pk)
    Night.objects.filter(pk=night.pk).update(series=2)
    night.refresh_from_db()
    clubs.night_draw(night=night, series=1, user=setup.secretary)
    winners = _play(night, 1)
    clubs.night_draw(night=night, series=2, user=setup.secretary, seating=clubs.Seating.SERIES)
    top, _ = _seated(night, 2)
    assert winners <= top  # the two who won a game sit together at table 1
    fresh = clubs.night_create(season=setup.season, date=datetime.date(2026, 12, 1))
    for name in NAMES[:3]:
        clubs.check_in(night=fresh, name=name)
    with pytest.raises(Invalid, match="no series before it"):
        clubs.night_draw(night=fresh, series=1, user=setup.secretary, seating=clubs.Seating.SERIES)


def test_a_series_is_seated_by_the_one_before_only_once_each_of_its_tables_has_played_its_games() -> None:
    # Two series, six players at two tables of three, of two games each.
    setup = _night(NAMES[:6], games_at_three=2)
    night = setup.night
    Night.objects.filter(pk=night.pk).update(series=2)
    night.refresh_from_db()

    def refusal() -> list[tuple[str, str]]:
        with pytest.raises(Conflict) as refused:
            clubs.night_draw(night=night, series=2, user=setup.secretary, seating=clubs.Seating.SERIES)
        assert not ClubTable.objects.filter(night=night, series=2).exists()
        return [(error.field, str(error.message)) for error in refused.value.errors]

    assert refusal() == [
        (
            "seating",
            "Series 1 is not drawn yet: it has no result to seat by. Draw this series or seat it by the season's "
            "ranking.",
        )
    ]
    clubs.night_draw(night=night, series=1, user=setup.secretary)
    first, second = ClubTable.objects.filter(night=night, series=1).select_related("match").order_by("number")
    winner = (first.match.first_dealer + 1) % 3
    _game(first.match, winner, contract="grand", matadors=1, declarer_card_points=70)
    assert refusal() == [
        (
            "seating",
            "Series 1 has no result yet: tables 1, 2 have not played all their games. Draw this series or seat it by "
            "the season's ranking, or wait until those tables have finished.",
        ),
        ("unfinished", "Table 1 of series 1 has 1 of its 2 games on the list."),
        ("unfinished", "Table 2 of series 1 has no games: its players get no list."),
    ]
    _game(first.match, winner, contract="grand", matadors=1, declarer_card_points=70)
    assert refusal() == [
        (
            "seating",
            "Series 1 has no result yet: table 2 has not played all its games. Draw this series or seat it by the "
            "season's ranking, or wait until that table has finished.",
        ),
        ("unfinished", "Table 2 of series 1 has no games: its players get no list."),
    ]
    # A table that kept its list on paper has its result: the series is seated by it, the winner at table 1.
    clubs.paper_enter(table=second, lines=[(seat.player, 0, 0, 0) for seat in second.match.seats.all()])
    clubs.night_draw(night=night, series=2, user=setup.secretary, seating=clubs.Seating.SERIES)
    top, _ = _seated(night, 2)
    assert first.match.seats.get(position=winner).player.name in top


def test_a_series_whose_table_stopped_early_is_seated_by_it_once_the_secretary_says_so_as_the_night_closes() -> None:
    # Series 1 at two tables of four: table 1 stops after one of its 48 games (its players leave), table 2 plays none.
    setup = _night(NAMES[:8])
    night = setup.night
    Night.objects.filter(pk=night.pk).update(series=2)
    night.refresh_from_db()
    clubs.night_draw(night=night, series=1, user=setup.secretary)
    first, _ = ClubTable.objects.filter(night=night, series=1).select_related("match").order_by("number")
    winner = (first.match.first_dealer + 1) % 4
    _game(first.match, winner, contract="grand", matadors=1, declarer_card_points=70)
    short = [
        ("unfinished", "Table 1 of series 1 has 1 of its 48 games on the list."),
        ("unfinished", "Table 2 of series 1 has no games: its players get no list."),
    ]
    with pytest.raises(Conflict) as refused:
        clubs.night_draw(night=night, series=2, user=setup.secretary, seating=clubs.Seating.SERIES)
    said = [(error.field, str(error.message)) for error in refused.value.errors]
    assert said[1:] == short
    assert not ClubTable.objects.filter(night=night, series=2).exists()
    # Closing names the same tables in the same words; seating by the series before takes them as they stand once
    # the secretary says so, as closing does: the one who won the game sits at table 1.
    with pytest.raises(Invalid) as closing:
        clubs.night_close(night=night, user=setup.secretary)
    assert [(error.field, str(error.message)) for error in closing.value.errors] == short
    clubs.night_draw(night=night, series=2, user=setup.secretary, seating=clubs.Seating.SERIES, unfinished=True)
    top, _ = _seated(night, 2)
    assert first.match.seats.get(position=winner).player.name in top


def test_a_night_can_be_seated_by_the_seasons_ranking_as_it_stood_before() -> None:
    setup = _night(NAMES[:8])
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    winners = _play(setup.night, 1)
    clubs.night_close(night=setup.night, user=setup.secretary, unfinished=True)
    later = clubs.night_create(season=setup.season, date=datetime.date(2026, 12, 1))
    for name in NAMES[:8]:
        clubs.check_in(night=later, name=name)
    clubs.night_draw(night=later, series=1, user=setup.secretary, seating=clubs.Seating.RANKING)
    top, _ = _seated(later, 1)
    assert winners <= top


def test_a_paper_table_takes_no_games_afterwards_even_after_a_reopen() -> None:
    setup = _night(NAMES[:3])
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    (table,) = _tables(setup)
    players = [seat.player for seat in table.match.seats.select_related("player").order_by("position")]
    clubs.paper_enter(table=table, lines=[(players[0], 18, 1, 0), (players[1], 0, 0, 0), (players[2], 0, 0, 0)])
    with pytest.raises(ListClosed):
        _game(Match.objects.get(pk=table.match_id), 1, contract="clubs", matadors=1, declarer_card_points=70)
    clubs.night_close(night=setup.night, user=setup.secretary)
    clubs.night_reopen(night=setup.night, user=setup.owner)
    assert Match.objects.get(pk=table.match_id).locked


def test_an_account_that_joined_a_table_by_its_qr_code_scores_no_more_once_the_night_closes() -> None:
    setup = _night(NAMES[:3])
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    (table,) = _tables(setup)
    visitor = make_user("walk-in")
    table.match.scorers.add(visitor)  # what joining from the QR code with an account does
    assert match_role(_visitor(visitor), table.match) is Role.CO_SCORER
    clubs.night_close(night=setup.night, user=setup.secretary, unfinished=True)
    clubs.night_reopen(night=setup.night, user=setup.owner)
    assert match_role(_visitor(visitor), Match.objects.get(pk=table.match_id)) is Role.NOBODY
    assert match_role(_visitor(setup.scorer), Match.objects.get(pk=table.match_id)) is Role.CO_SCORER


def test_drawing_a_series_again_records_its_new_seed_and_keeps_the_nights() -> None:
    setup = _night(NAMES[:7])
    night_seed = setup.night.seed
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    first = {table.seed for table in _tables(setup)}
    assert first == {f"{night_seed}/1"}
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary, again=True)
    again = {table.seed for table in _tables(setup)}
    assert len(again) == 1
    assert again != first
    assert Night.objects.get(pk=setup.night.pk).seed == night_seed  # the lots of every series stay as they were


def test_a_table_that_entered_nothing_has_no_lists() -> None:
    setup = _night(NAMES[:7], stake=500, list_fee=100)
    clubs.night_draw(night=setup.night, series=1, user=setup.secretary)
    first, _ = _tables(setup)
    declarer = (first.match.first_dealer + 1) % first.match.players
    _game(first.match, declarer, contract="grand", matadors=1, declarer_card_points=70)
    results = night_results(Night.objects.get(pk=setup.night.pk))
    assert len(results.night_places) == first.match.players
    assert {account.list_fees for account in results.accounts} == {100}
    assert len(results.accounts) == first.match.players
    assert not results.tables_of(1)[1].lists


def test_a_two_player_club_plays_in_pairs_under_its_own_scheme() -> None:
    setup = _night([])
    season = clubs.season_create(
        club=setup.club, settings=clubs.SeasonSettings(name="Offiziere", preset="officers-skat-simple")
    )
    assert (season.plan, season.scheme) == ("pairs", "simple")
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in NAMES[:4]:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=setup.secretary)
    tables = list(ClubTable.objects.filter(night=night).select_related("match"))
    assert [(table.match.players, table.match.planned_games, table.match.scheme) for table in tables] == [
        (2, 24, "simple"),
        (2, 24, "simple"),
    ]
    match = tables[0].match
    forehand = (match.first_dealer + 1) % 2
    _game(match, forehand, contract="clubs", declarer_card_points=70)
    results = night_results(Night.objects.get(pk=night.pk))
    lists = results.tables_of(1)[0].lists
    assert sorted(one.score for one in lists.values()) == sorted(Match.objects.get(pk=match.pk).totals)
    odd = clubs.night_create(season=season, date=datetime.date(2026, 12, 1))
    for name in NAMES[:5]:
        clubs.check_in(night=odd, name=name)
    with pytest.raises(Invalid, match="even number"):
        clubs.night_draw(night=odd, series=1, user=setup.secretary)
