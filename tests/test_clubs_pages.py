"""The club pages as a secretary, a table's phone and the club room's screen use them."""

import contextlib
import datetime
import html
import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, models
from django.db.models.signals import post_init
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from matches.clubs import services as clubs
from matches.clubs.models import Club, ClubTable, Membership, Night, NightStanding, Roster, Season, SeasonStanding
from matches.clubs.selectors import Top, night_results, public_names, screen_tops, season_table
from matches.clubs.standings import standing_rows
from matches.clubs.views import ScreenBoard
from matches.models import Game, GameScore, Match, PaperLine, Player, Seat

from .factories import make_user
from .test_queries import enter

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus", "Hanna", "Ida", "Jan"]
SEASON_FORM = {
    "name": "2026",
    "preset": "skat-tournament",
    "ranking": "total",
    "games_at_four": "48",
    "games_at_three": "36",
    "games_at_two": "24",
    "minimum_lists": "0",
    "best_nights": "0",
    "guests_ranked": "on",
    "stake": "5",
    "list_fee": "2",
    "lost_fees": "1: 0.50, 4: 1",
}


def _client(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _created(response: Any, pattern: str) -> str:
    assert response.status_code == 302, getattr(response, "content", b"")[:500]
    found = re.search(pattern, response["Location"])
    assert found is not None, response["Location"]
    return found[1]


def _club_with_season(owner: Client) -> tuple[Club, Season]:
    club_id = _created(owner.post(reverse("club_list"), {"name": "Skatclub Herz Dame"}), r"/clubs/([0-9a-f-]+)/")
    club = Club.objects.get(public_id=club_id)
    season_id = _created(
        owner.post(reverse("season_new", args=[club.public_id]), SEASON_FORM), r"/seasons/([0-9a-f-]+)/"
    )
    return club, Season.objects.get(public_id=season_id)


def _labels(page: str) -> dict[str, str]:
    """Each label of the page by the field it names, its words without their markup."""
    return {
        found[1]: re.sub(r"<[^>]+>", "", found[2]).strip()
        for found in re.finditer(r'<label for="([^"]+)"[^>]*>(.*?)</label>', page, re.DOTALL)
    }


@pytest.mark.parametrize(
    ("language", "scoring", "ranking"), [("en", "Scoring", "Ranking"), ("de", "Wertung", "Tabellenwertung")]
)
def test_each_field_of_a_new_season_has_a_label_of_its_own(language: str, scoring: str, ranking: str) -> None:
    owner = Client(headers={"accept-language": language})
    owner.force_login(make_user("olga"))
    club_id = _created(owner.post(reverse("club_list"), {"name": "Skatclub Herz Dame"}), r"/clubs/([0-9a-f-]+)/")
    labels = _labels(owner.get(reverse("season_new", args=[club_id])).content.decode())
    assert (labels["id_scheme"], labels["id_ranking"]) == (scoring, ranking)
    assert len(set(labels.values())) == len(labels)


@pytest.mark.parametrize(("language", "words"), [("en", "Stoß and Re"), ("de", "Stoß und Re")])
def test_a_schafkopf_seasons_options_say_stoss_where_they_name_its_kontra(language: str, words: str) -> None:
    owner = Client(headers={"accept-language": language})
    owner.force_login(make_user("olga"))
    club_id = _created(owner.post(reverse("club_list"), {"name": "Skatclub Herz Dame"}), r"/clubs/([0-9a-f-]+)/")
    page = owner.get(reverse("season_new", args=[club_id]), {"preset": "officers-schafkopf"}).content.decode()
    assert words in page
    assert words.replace("Stoß", "Kontra") not in page


def test_a_secretary_runs_a_club_night_through_the_pages() -> None:
    olga, sven = make_user("olga"), make_user("sven")
    owner = _client(olga)
    club, season = _club_with_season(owner)
    assert (season.scheme, season.stake, season.list_fee, season.lost_fees) == (
        "seeger-fabian",
        500,
        200,
        [[1, 50], [4, 100]],
    )
    owner.post(reverse("club_member", args=[club.public_id]), {"username": "sven", "role": "secretary"})
    secretary = _client(sven)
    for name in NAMES:
        assert secretary.post(reverse("club_player", args=[club.public_id]), {"name": name}).status_code == 302
    night_id = _created(
        secretary.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    night = Night.objects.get(public_id=night_id)
    check_in = reverse("night_check_in", args=[night.public_id])
    for player in Player.objects.filter(keeper=club.keeper):
        secretary.post(check_in, {"player": str(player.public_id)})
    secretary.post(check_in, {"name": "Walter Walk-in"})
    assert night.attendances.count() == 11
    assert Roster.objects.get(player__name="Walter Walk-in").guest

    secretary.post(reverse("night_draw", args=[night.public_id]), {"series": "1", "seating": "draw"})
    tables = list(ClubTable.objects.filter(night=night).select_related("match"))
    assert [table.match.players for table in tables] == [4, 4, 3]
    page = secretary.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert page.count("<svg") == 3  # a QR code for each table, drawn by the server
    for table in tables:
        assert reverse("match_join", args=[table.match.invite_token]) in page

    # A table's phone, without an account, scores its own table from the QR link, and no other.
    phone = _client()
    first, second, third = tables
    phone.post(reverse("match_join", args=[first.match.invite_token]))
    seated = first.match.seats.order_by("position")
    declarer = (first.match.first_dealer + 1) % 4
    game = {"token": str(uuid.uuid4()), "contract": "clubs", "matadors": "1", "declarer": str(declarer)}
    saved = phone.post(reverse("game_create", args=[first.match.public_id]), game | {"declarer_card_points": "70"})
    assert saved.status_code == 302
    assert Game.objects.filter(match=first.match).count() == 1
    elsewhere = phone.post(reverse("game_create", args=[second.match.public_id]), game | {"token": str(uuid.uuid4())})
    assert elsewhere.status_code == 302
    assert "/accounts/login/" in elsewhere["Location"]
    assert not Game.objects.filter(match=second.match).exists()
    assert seated.count() == 4

    # The third table kept its list on paper: a total no series can reach is refused next to its field.
    paper = reverse("night_paper", args=[night.public_id, third.number]) + "?series=1"
    refused = secretary.post(paper, {"points_0": "19", "won_0": "1", "lost_0": "0"} | _zeros(1, 3))
    assert refused.status_code == 400
    assert "No 1 won and 0 lost games add up to 19 game points." in refused.content.decode()
    entered = secretary.post(paper, {"points_0": "18", "won_0": "1", "lost_0": "0"} | _zeros(1, 3))
    assert entered.status_code == 302
    assert PaperLine.objects.filter(match=third.match).count() == 3

    # Closing locks every list: the phone's link dies; the secretary cannot reopen, the owner can. The first table
    # played one of its games and the second none, so the close waits until the secretary confirms closing them.
    close = reverse("night_close", args=[night.public_id])
    secretary.post(close)
    assert not Match.objects.filter(club_table__night=night, club_table__number=1, locked=True).exists()
    secretary.post(close, {"confirm": "on"})
    assert Match.objects.filter(club_table__night=night, locked=True).count() == 3
    late = phone.post(reverse("game_create", args=[first.match.public_id]), game | {"token": str(uuid.uuid4())})
    assert late.status_code == 410
    assert "The night is closed" in late.content.decode()
    assert secretary.post(reverse("night_reopen", args=[night.public_id])).status_code == 404
    scorer = make_user("sara")
    owner.post(reverse("club_member", args=[club.public_id]), {"username": "sara", "role": "scorer"})
    assert _client(scorer).post(reverse("night_close", args=[night.public_id])).status_code == 404
    assert owner.post(reverse("night_reopen", args=[night.public_id])).status_code == 302
    # Reopened, the tables take games again, but the one entered from paper keeps its list as entered.
    assert list(Match.objects.filter(club_table__night=night, locked=True)) == [third.match]

    walter = Player.objects.get(name="Walter Walk-in")
    owner.post(reverse("night_pot", args=[night.public_id]), {"player": str(walter.public_id), "in_pot": "0"})
    assert not night.attendances.get(player=walter).in_pot
    results = owner.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert "Cashier" in results
    season_page = owner.get(reverse("season_detail", args=[season.public_id])).content.decode()
    for seat in third.match.seats.select_related("player"):
        assert seat.player.name in season_page  # a list entered from paper counts like one entered game by game


def _zeros(first: int, last: int) -> dict[str, str]:
    return {f"{field}_{seat}": "0" for seat in range(first, last) for field in ("points", "won", "lost")}


def test_a_season_form_with_a_mistake_says_where() -> None:
    owner = _client(make_user("olga"))
    club_id = _created(owner.post(reverse("club_list"), {"name": "Grand Hand"}), r"/clubs/([0-9a-f-]+)/")
    answer = owner.post(
        reverse("season_new", args=[club_id]), SEASON_FORM | {"ranking": "best-nights", "lost_fees": "four"}
    )
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "Write each tier as" in body
    answer = owner.post(reverse("season_new", args=[club_id]), SEASON_FORM | {"ranking": "best-nights"})
    assert "Say how many nights count." in answer.content.decode()
    assert not Season.objects.exists()


def test_the_public_screen_shows_the_standings_by_first_name_where_asked() -> None:
    owner = _client(make_user("olga"))
    club, season = _club_with_season(owner)
    night_id = _created(
        owner.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    for name in ("Anna Schmidt", "Ben Meier", "Cleo Weber"):
        owner.post(reverse("night_check_in", args=[night_id]), {"name": name})
    ben = Player.objects.get(name="Ben Meier")
    saved = owner.post(
        reverse("club_roster", args=[club.public_id]),
        {"prefix": "x", "x-player": str(ben.public_id), "x-first_name_only": "on", "x-categories": "seniors, women"},
    )
    assert saved.status_code == 302
    assert Roster.objects.filter(player=ben, first_name_only=True, categories=["seniors", "women"]).exists()
    assert "Ben Meier" in owner.get(reverse("club_roster", args=[club.public_id])).content.decode()
    owner.post(reverse("night_draw", args=[night_id]), {"series": "1", "seating": "draw"})
    enter(ClubTable.objects.get(night__public_id=night_id).match, 1)
    screen = _client().get(reverse("club_screen", args=[club.screen_token]))
    body = screen.content.decode()
    assert screen.status_code == 200
    assert "Anna Schmidt" in body
    assert "Ben Meier" not in body
    assert "Ben" in body
    assert 'hx-trigger="every 30s"' in body
    assert _client().get(reverse("club_screen", args=["not-the-token"])).status_code == 404


def _screen_night(names: tuple[str, ...], date: datetime.date | None = None) -> tuple[User, Club, Night]:
    """A club, its owner, and the night its screen shows (tonight's, unless ``date``) with ``names`` at its table
    and a game saved there."""
    olga = make_user("olga")
    club = clubs.club_create(owner=olga, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    return olga, club, _night_played(season, date or timezone.localdate(), names, olga)


def _night_played(season: Season, date: datetime.date, names: tuple[str, ...], user: User) -> Night:
    night = clubs.night_create(season=season, date=date)
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=user)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        enter(table.match, 1)
    return night


def _screen_asks(address: str, etag: str = "") -> Any:
    """The screen asking again as it does every 30 seconds (``hx-get`` of its path, by htmx), with the ETag of what
    it shows."""
    return _client().get(address, headers={"HX-Request": "true"} | ({"If-None-Match": etag} if etag else {}))


def _screen_changed(address: str, etag: str) -> tuple[str, str]:
    """The screen asked again after a change: shown afresh (its page and its new ETag), and asked again with that
    ETag, nothing."""
    answer = _screen_asks(address, etag)
    assert answer.status_code == 200
    assert answer["ETag"] != etag
    assert _screen_asks(address, answer["ETag"]).status_code == 304
    return answer.content.decode(), answer["ETag"]


def test_the_public_screen_asking_again_gets_nothing_until_something_it_shows_changed() -> None:
    olga, club, night = _screen_night(("Anna Schmidt", "Ben Meier", "Cleo Weber"))
    owner = _client(olga)
    address = reverse("club_screen", args=[club.screen_token])
    assert f'hx-get="{address}"' in _client().get(address).content.decode()
    first = _screen_asks(address)
    assert first.status_code == 200
    assert "Ben Meier" in first.content.decode()
    again = _screen_asks(address, first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    # A game saved at tonight's table.
    enter(ClubTable.objects.get(night=night).match, 1)
    _, etag = _screen_changed(address, first["ETag"])
    # Ben asks to be shown by his first name only: the next ask no longer shows his full name.
    ben = Player.objects.get(name="Ben Meier")
    saved = owner.post(
        reverse("club_roster", args=[club.public_id]),
        {"prefix": "x", "x-player": str(ben.public_id), "x-first_name_only": "on"},
    )
    assert saved.status_code == 302
    body, etag = _screen_changed(address, etag)
    assert "Ben Meier" not in body
    assert ">Ben<" in body
    # Ben asks to be shown in full again.
    saved = owner.post(reverse("club_roster", args=[club.public_id]), {"prefix": "x", "x-player": str(ben.public_id)})
    assert saved.status_code == 302
    body, etag = _screen_changed(address, etag)
    assert "Ben Meier" in body
    # The season's settings changed: ranked by the average per list.
    clubs.season_update(season=night.season, settings=clubs.SeasonSettings(name="2026", ranking="average"), user=olga)
    _, etag = _screen_changed(address, etag)
    # The night closed.
    assert owner.post(reverse("night_close", args=[night.public_id]), {"confirm": "on"}).status_code == 302
    _screen_changed(address, etag)


def test_the_public_screen_asking_again_the_next_day_shows_the_night_of_that_day(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    last_week = timezone.localdate() - datetime.timedelta(days=7)
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    _, club, night = _screen_night(("Anna", "Ben", "Cleo"), last_week)
    clubs.check_in(night=clubs.night_create(season=night.season, date=tomorrow), name="Dora")
    address = reverse("club_screen", args=[club.screen_token])
    today = _screen_asks(address)
    assert date_format(last_week) in today.content.decode()
    assert _screen_asks(address, today["ETag"]).status_code == 304
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: tomorrow)
    body, _ = _screen_changed(address, today["ETag"])
    assert date_format(tomorrow) in body


def test_the_public_screen_asking_again_for_nothing_reads_the_same_however_long_the_season() -> None:
    olga, club, night = _screen_night(("Anna", "Ben", "Cleo"))
    address = reverse("club_screen", args=[club.screen_token])

    def unchanged() -> int:
        etag = _screen_asks(address)["ETag"]
        with CaptureQueriesContext(connection) as captured:
            assert _screen_asks(address, etag).status_code == 304
        return len(captured)

    few = unchanged()
    for days in (21, 14, 7):
        played = _night_played(night.season, night.date - datetime.timedelta(days=days), tuple(NAMES[:7]), olga)
        clubs.night_close(night=played, user=olga, unfinished=True)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        enter(table.match, 12)
    assert unchanged() == few
    # The token's club, the night on the screen, the season's nights and their tables.
    assert few <= 4


def _book_grows(club: Club, players: int) -> None:
    """The club's book gains ``players`` who never played a night of it, every other one shown by first name only."""
    added = Player.objects.bulk_create(
        Player(keeper=club.keeper, name=f"Extra Player {number}", name_key=f"extra player {number}")
        for number in range(players)
    )
    Roster.objects.bulk_create(
        Roster(player=player, first_name_only=bool(number % 2)) for number, player in enumerate(added)
    )


@contextlib.contextmanager
def _made() -> Iterator[list[str]]:
    """The club's players and their rosters made as objects meanwhile (each row read as one), by model."""
    made: list[str] = []

    def one(sender: type[models.Model], **kwargs: Any) -> None:
        made.append(sender.__name__)

    for model in (Player, Roster):
        post_init.connect(one, sender=model)
    try:
        yield made
    finally:
        for model in (Player, Roster):
            post_init.disconnect(one, sender=model)


def test_the_public_screen_asking_again_for_nothing_reads_no_player_however_large_the_clubs_book() -> None:
    _, club, _ = _screen_night(("Anna", "Ben", "Cleo"))
    address = reverse("club_screen", args=[club.screen_token])

    def unchanged() -> list[str]:
        etag = _screen_asks(address)["ETag"]
        with CaptureQueriesContext(connection) as captured:
            assert _screen_asks(address, etag).status_code == 304
        return [query["sql"] for query in captured]

    few = unchanged()
    _book_grows(club, 300)
    many = unchanged()
    assert many == few
    # Not a row of the book: what the screen shows of its players moves the season's version instead.
    books = (Player._meta.db_table, Roster._meta.db_table)
    assert not [sql for sql in many if any(f'"{table}"' in sql for table in books)]


def _screen_drawn(address: str) -> tuple[int, str, list[str]]:
    """The room's screen drawn afresh (asked by htmx): its queries, its answer and the models it made."""
    with CaptureQueriesContext(connection) as captured, _made() as made:
        answer = _screen_asks(address)
    assert answer.status_code == 200
    return len(captured), answer.content.decode(), made


def test_the_public_screen_drawn_afresh_reads_the_players_it_ranks_and_not_the_rest_of_the_clubs_book() -> None:
    _, club, _ = _screen_night(("Anna", "Ben", "Cleo"))
    address = reverse("club_screen", args=[club.screen_token])

    queries, few, read = _screen_drawn(address)
    _book_grows(club, 300)
    assert _screen_drawn(address) == (queries, few, read)
    assert read.count("Roster") <= 3
    # Asked by htmx, the answer is the part that follows, not the page around it.
    assert few.lstrip().startswith('<div id="screen"')
    assert "<html" not in few


def _season_ranks(season: Season, scores: list[int]) -> None:
    """The season ranks a player more for each of ``scores``: the sums of one list of theirs kept from a closed night
    of the season, as closing it keeps them, every other player shown by first name only."""
    night = clubs.night_create(season=season, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=len(scores)))
    Night.objects.filter(pk=night.pk).update(closed_at=timezone.now())
    start = Player.objects.filter(keeper=season.club.keeper).count()
    added = Player.objects.bulk_create(
        Player(keeper=season.club.keeper, name=f"Ranked Player {number}", name_key=f"ranked player {number}")
        for number in range(start, start + len(scores))
    )
    Roster.objects.bulk_create(
        Roster(player=player, first_name_only=bool(number % 2)) for number, player in enumerate(added)
    )
    sums = {
        player.pk: {"score": score, "game_points": score, "won": 1, "lost": 0, "lists": 1}
        for player, score in zip(added, scores, strict=True)
    }
    NightStanding.objects.bulk_create(NightStanding(night=night, player_id=pk, **one) for pk, one in sums.items())
    SeasonStanding.objects.bulk_create(
        SeasonStanding(season=season, player_id=pk, nights=1, **one) for pk, one in sums.items()
    )


@pytest.mark.parametrize("ranking", ["total", "average", "best-nights"])
def test_the_public_screen_drawn_afresh_reads_the_players_it_shows_however_many_the_season_ranks(ranking: str) -> None:
    olga, club, night = _screen_night(("Anna", "Ben", "Cleo"))
    settings = clubs.SeasonSettings(name="2026", ranking=ranking, best_nights=2 if ranking == "best-nights" else 0)
    clubs.season_update(season=night.season, settings=settings, user=olga)
    # Seventeen players besides tonight's three (at -98, 40 and 40), two of them tied at the places 18 and 19.
    _season_ranks(night.season, [900, 800, 700, 600, 500, 400, 300, 200, 100, 90, 80, 70, 60, 50, 30, 20, 20])
    address = reverse("club_screen", args=[club.screen_token])

    queries, few, read = _screen_drawn(address)
    assert "The first 18 of 20 players" in few
    assert "tied: decided by lot" in few
    # 180 players more, every one of them below the places shown.
    _season_ranks(night.season, list(range(-1000, -1180, -1)))
    more, many, read_more = _screen_drawn(address)
    assert (more, read_more) == (queries, read)
    assert many == few.replace("The first 18 of 20 players", "The first 18 of 200 players")
    # The players shown, and tonight's (its board ranks them all).
    assert read.count("Player") <= 18 + 3


@contextlib.contextmanager
def _players_made() -> Iterator[list[str]]:
    """The names of the players made as objects meanwhile (each row read as one)."""
    made: list[str] = []

    def one(sender: type[models.Model], instance: Player, **kwargs: Any) -> None:
        made.append(instance.name)

    post_init.connect(one, sender=Player)
    try:
        yield made
    finally:
        post_init.disconnect(one, sender=Player)


def _night_of(players: int) -> tuple[User, Club, Night]:
    """A club, its owner, and tonight's night on its screen with ``players`` at its tables: the first table's list
    entered from paper, the others' games on the phones, a few more at some tables (many players tie)."""
    olga = make_user("olga")
    club = clubs.club_create(owner=olga, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=timezone.localdate())
    for number in range(1, players + 1):
        clubs.check_in(night=night, name=f"Spieler {number:02}")
    clubs.night_draw(night=night, series=1, user=olga)
    first, *others = ClubTable.objects.filter(night=night).select_related("match").order_by("number")
    seated = [seat.player for seat in first.match.seats.order_by("position")]
    paper = [(48, 1, 0), (-96, 0, 1), (0, 0, 0), (0, 0, 0)]
    clubs.paper_enter(table=first, lines=[(player, *line) for player, line in zip(seated, paper, strict=False)])
    for number, table in enumerate(others):
        enter(table.match, 1 + number % 3)
    return olga, club, night


def test_the_public_screen_drawn_afresh_reads_the_players_its_boards_show_however_many_play_tonight() -> None:
    _, club, _ = _night_of(48)
    address = reverse("club_screen", args=[club.screen_token])

    with _players_made() as made:
        _, body, _ = _screen_drawn(address)
    assert body.count("The first 18 of 48 players") == 2
    # The players of the places the two boards show (most of them on both), none of tonight's others.
    assert made
    assert [name for name in made if name not in body] == []
    assert len(made) <= 2 * 18


def test_the_screens_boards_of_a_night_closed_while_it_was_read_open_rank_its_lists_all_the_same() -> None:
    """The screen reads tonight's night open; the secretary closes it before the boards are summed: the night's board
    still ranks its lists (as they were closed), never an empty night."""
    olga, _, night = _night_of(7)
    read_open = Night.objects.select_related("season").get(pk=night.pk)
    clubs.night_close(night=night, user=olga, unfinished=True)
    tops = screen_tops(read_open.season, read_open, 18)
    assert tops.night is not None
    ranked = night_results(Night.objects.get(pk=night.pk)).night_places
    assert (tops.night.ranked, [place.standing.player for place in tops.night.places]) == (
        7,
        [place.standing.player for place in ranked],
    )


@pytest.mark.parametrize(("players", "closed"), [(3, False), (7, True), (48, False), (48, True)])
def test_the_public_screens_night_board_shows_the_first_lines_of_the_nights_table(players: int, closed: bool) -> None:
    olga, club, night = _night_of(players)
    if closed:
        clubs.night_close(night=night, user=olga, unfinished=True)
    address = reverse("club_screen", args=[club.screen_token])

    answer = _screen_asks(address)
    # The night's table and the season's as their own pages rank and name them.
    results = night_results(Night.objects.select_related("season").get(pk=night.pk))
    lines = standing_rows(results.night_places, public_names(results.players))
    table = season_table(results.night.season)
    season_lines = standing_rows(table.places, public_names(table.players))
    shown = 18 if players > 12 else 12
    assert answer.context["night_board"] == ScreenBoard(lines[:shown], players)
    assert answer.context["season_board"] == ScreenBoard(season_lines[:shown], players)
    if players > shown:
        # The last place shown is tied with the first one left out, and the lot ordered them.
        last, first_out = lines[shown - 1], lines[shown]
        assert (last.score, last.won, last.lost) == (first_out.score, first_out.won, first_out.lost)
        assert last.by_lot
    for count in (0, 1, 12, 18, players, players + 1):
        tops = screen_tops(results.night.season, results.night, count)
        assert tops.night == Top(results.night_places[:count], players)


@pytest.mark.parametrize("closed", [False, True])
def test_the_public_screen_drawn_afresh_sums_the_lists_of_the_night_once(closed: bool) -> None:
    olga, club, night = _night_of(7)
    address = reverse("club_screen", args=[club.screen_token])
    etag = _screen_asks(address)["ETag"]
    # What changed: a game saved at tonight's table on the phones, or the night closed.
    if closed:
        clubs.night_close(night=night, user=olga, unfinished=True)
    else:
        enter(ClubTable.objects.get(night=night, paper=False).match, 1)

    with CaptureQueriesContext(connection) as captured:
        answer = _screen_asks(address, etag)
    assert answer.status_code == 200
    read = [query["sql"] for query in captured]
    # Who sits where, the games' sums and the paper lists' totals, each read once for both boards.
    for model in (Seat, GameScore, PaperLine):
        assert len([sql for sql in read if f'"{model._meta.db_table}"' in sql]) == 1, model.__name__
    # The token's club, the night on the screen, the state it shows (its season's nights and their tables); the
    # tables, who sits there and their sums; the season's kept sums (its players', the first of the others' and
    # how many); the players shown and which of them are shown by first name only.
    assert len(read) <= 13


def test_a_nights_results_read_each_of_its_players_once_however_many_series_they_sit() -> None:
    olga = make_user("olga")
    club = clubs.club_create(owner=olga, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=timezone.localdate(), series=2)
    for name in NAMES[:7]:
        clubs.check_in(night=night, name=name)
    for series in (1, 2):
        clubs.night_draw(night=night, series=series, user=olga)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        enter(table.match, 2)
    # Checked in once both series were drawn: at no table.
    clubs.check_in(night=night, name="Walter Walk-in")

    with CaptureQueriesContext(connection) as captured, _made() as made:
        results = night_results(Night.objects.select_related("season").get(pk=night.pk))
    # Each of the eight players once: the seven at a table of each series, the walk-in at none.
    assert made == ["Player"] * 8
    assert sorted(player.name for player in results.players.values()) == sorted([*NAMES[:7], "Walter Walk-in"])
    assert {attendance.player.name for attendance in results.attendances} == {*NAMES[:7], "Walter Walk-in"}
    assert sorted(seat.player.name for view in results.tables for seat in view.seats) == sorted(NAMES[:7] * 2)
    # The check-ins, the tables, their seats and players, and the lists: who sits where, the games' sums and the
    # paper lists' totals.
    assert len(captured) <= 7


def _queries(client: Client, address: str) -> int:
    assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    return len(captured)


@pytest.mark.parametrize("page", ["night_detail", "night_picture", "season_detail", "club_screen"])
def test_the_club_pages_cost_the_same_for_a_few_games_or_many(
    page: str, django_assert_num_queries: Callable[[int], Any]
) -> None:
    olga = make_user("olga")
    owner = _client(olga)
    club, season = _club_with_season(owner)
    night_id = _created(
        owner.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    for name in NAMES[:7]:
        owner.post(reverse("night_check_in", args=[night_id]), {"name": name})
    owner.post(reverse("night_draw", args=[night_id]), {"series": "1", "seating": "draw"})
    args: dict[str, list[Any]] = {
        "night_detail": [night_id],
        "night_picture": [night_id],
        "season_detail": [season.public_id],
        "club_screen": [club.screen_token],
    }
    address = reverse(page, args=args[page])
    tables = list(ClubTable.objects.filter(night__public_id=night_id).select_related("match"))
    for table in tables:
        enter(table.match, 1)
    few = _queries(owner, address)
    for table in tables:
        enter(Match.objects.get(pk=table.match_id), 12)
    with django_assert_num_queries(few):
        assert owner.get(address).status_code == 200


def test_a_players_season_lists_every_night_with_its_sums() -> None:
    olga = make_user("olga")
    owner = _client(olga)
    club, season = _club_with_season(owner)
    sums = []
    for date in ("2026-11-17", "2026-11-24"):
        night_id = _created(
            owner.post(reverse("night_new", args=[season.public_id]), {"date": date, "series": "1"}),
            r"/nights/([0-9a-f-]+)/",
        )
        for name in ("Anna", "Ben", "Cleo"):
            owner.post(reverse("night_check_in", args=[night_id]), {"name": name})
        owner.post(reverse("night_draw", args=[night_id]), {"series": "1", "seating": "draw"})
        table = ClubTable.objects.get(night__public_id=night_id)
        enter(table.match, 3)
        anna_seat = table.match.seats.get(player__name="Anna").position
        sums.append(Match.objects.get(pk=table.match_id).totals[anna_seat])
        if date == "2026-11-17":
            owner.post(reverse("night_close", args=[night_id]), {"confirm": "on"})
    anna = Player.objects.get(keeper=club.keeper, name="Anna")
    page = owner.get(reverse("season_player", args=[season.public_id, anna.public_id]))
    assert page.status_code == 200
    rows = re.findall(r"<tr>\s*<td><a href=\"/nights/", page.content.decode())
    assert len(rows) == 2  # the closed night as it closed, tonight as it stands
    total = sum(sums)
    shown = f"\N{MINUS SIGN}{-total}" if total < 0 else str(total)
    assert f"<dt>Points</dt><dd>{shown}</dd>" in page.content.decode()
    assert (
        reverse("season_player", args=[season.public_id, anna.public_id])
        in owner.get(reverse("season_detail", args=[season.public_id])).content.decode()
    )
    stranger = _client(make_user("stan"))
    assert stranger.get(reverse("season_player", args=[season.public_id, anna.public_id])).status_code == 404


def test_a_secretary_adds_members_and_scorers_but_only_the_owner_makes_or_unmakes_managers() -> None:
    olga, sven, max_ = make_user("olga"), make_user("sven"), make_user("max")
    make_user("sara")
    owner = _client(olga)
    club, _ = _club_with_season(owner)
    members = reverse("club_member", args=[club.public_id])
    owner.post(members, {"username": "sven", "role": "secretary"})
    owner.post(members, {"username": "max", "role": "owner"})
    secretary = _client(sven)
    secretary.post(members, {"username": "sara", "role": "scorer"})
    for refused in (
        {"username": "max", "role": "member"},  # an owner's role
        {"username": "sara", "role": "secretary"},
        {"username": "sara", "role": "member", "remove": "1"},
    ):
        secretary.post(members, refused)
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"olga": "owner", "sven": "secretary", "max": "owner", "sara": "scorer"}
    assert max_.memberships.get().role == "owner"
    take_off = "Take off the club"
    assert take_off in owner.get(reverse("club_detail", args=[club.public_id])).content.decode()
    assert take_off not in secretary.get(reverse("club_detail", args=[club.public_id])).content.decode()


def test_season_form_values_out_of_range_are_refused_by_field_not_with_a_500() -> None:
    owner = _client(make_user("olga"))
    club_id = _created(owner.post(reverse("club_list"), {"name": "Grand Hand"}), r"/clubs/([0-9a-f-]+)/")
    for wrong in (
        {"lost_fees": "1: Infinity"},
        {"lost_fees": "1: 1e5000"},
        {"lost_fees": "0: 1"},
        {"minimum_lists": "99999999999999999999"},
        {"best_nights": "40000"},
        {"games_at_four": "1000"},
    ):
        answer = owner.post(reverse("season_new", args=[club_id]), SEASON_FORM | wrong)
        assert answer.status_code == 400, wrong
    assert not Season.objects.exists()


def test_a_category_too_long_is_a_message_not_a_500() -> None:
    owner = _client(make_user("olga"))
    club, _ = _club_with_season(owner)
    owner.post(reverse("club_player", args=[club.public_id]), {"name": "Anna"})
    anna = Player.objects.get(keeper=club.keeper, name="Anna")
    answer = owner.post(
        reverse("club_roster", args=[club.public_id]),
        {"prefix": "a", "a-player": str(anna.public_id), "a-categories": "x" * 150},
        follow=True,
    )
    assert answer.status_code == 200
    assert "At most 100 characters." in answer.content.decode()


def test_the_public_screen_gets_a_new_address_or_none() -> None:
    owner = _client(make_user("olga"))
    club, _ = _club_with_season(owner)
    old = club.screen_token
    assert old is not None
    owner.post(reverse("club_screen_link", args=[club.public_id]), {"action": "renew"})
    club.refresh_from_db()
    assert club.screen_token not in {None, old}
    assert _client().get(reverse("club_screen", args=[old])).status_code == 404
    assert club.screen_token is not None
    assert _client().get(reverse("club_screen", args=[club.screen_token])).status_code == 200
    owner.post(reverse("club_screen_link", args=[club.public_id]), {"action": "revoke"})
    club.refresh_from_db()
    assert club.screen_token is None


def test_a_nights_results_can_be_shared_as_text() -> None:
    owner = _client(make_user("olga"))
    _, season = _club_with_season(owner)
    night_id = _created(
        owner.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    for name in ("Anna Albers", "Ben", "Cleo"):
        owner.post(reverse("night_check_in", args=[night_id]), {"name": name})
    anna = Player.objects.get(name="Anna Albers")
    clubs.roster_set(club=season.club, player=anna, guest=False, first_name_only=True, categories=[])
    owner.post(reverse("night_draw", args=[night_id]), {"series": "1", "seating": "draw"})
    enter(ClubTable.objects.get(night__public_id=night_id).match, 1)
    page = owner.get(reverse("night_detail", args=[night_id])).content.decode()
    found = re.search(r'data-share-text="([^"]*)"', page)
    assert found is not None
    title, *lines = found[1].split("\n")
    assert title == "Skatclub Herz Dame, club night of Nov. 24, 2026"
    assert sorted(line.split(" ")[1] for line in lines) == ["Anna", "Ben", "Cleo"]
    assert "Albers" not in found[1]
    assert "Anna Albers" in page
    assert lines[0].startswith("1. ")
    assert "Share the results as text" in page


def test_a_walk_in_guests_name_too_long_is_refused_next_to_its_field_and_kept_as_typed() -> None:
    owner = _client(make_user("olga"))
    owner.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    _club, season = _club_with_season(owner)
    night_id = _created(
        owner.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    typed = "Walter " + "W" * 60
    answer = owner.post(reverse("night_check_in", args=[night_id]), {"name": typed})
    assert answer.status_code == 400
    page = answer.content.decode()
    field = re.search(r'<div class="field invalid">.*?</div>', page, re.S)
    assert field is not None
    assert 'id="id_name"' in field[0]
    assert f'value="{typed}"' in field[0]
    assert f"Bis zu 60 Zeichen: dieser Name hat {len(typed)}." in field[0]
    assert "Nenne den Gast." not in page
    assert not Night.objects.get(public_id=night_id).attendances.exists()

    empty = owner.post(reverse("night_check_in", args=[night_id]), {"name": "   "})
    assert empty.status_code == 400
    assert "Nenne den Gast." in empty.content.decode()
    walter = owner.post(reverse("night_check_in", args=[night_id]), {"name": typed[:60]})
    assert walter.status_code == 302
    assert Night.objects.get(public_id=night_id).attendances.get().player.name == typed[:60].strip()


@pytest.mark.parametrize(
    ("language", "typed", "shown"),
    [
        ("de", "1: 0,50; 4: 1,00", "1: 0,50; 4: 1,00"),
        ("de", "1: 0,50, 4: 1 €", "1: 0,50; 4: 1,00"),
        ("en", "1: 0.50, 4: 1", "1: 0.50; 4: 1.00"),
        ("en", "1: 0.50; 4: 1.00", "1: 0.50; 4: 1.00"),
    ],
)
def test_a_tiered_fee_per_lost_game_is_taken_and_shown_as_the_secretarys_language_writes_it(
    language: str, typed: str, shown: str
) -> None:
    owner = _client(make_user("olga"))
    owner.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    club_id = _created(owner.post(reverse("club_list"), {"name": "Grand Hand"}), r"/clubs/([0-9a-f-]+)/")
    answer = owner.post(reverse("season_new", args=[club_id]), SEASON_FORM | {"lost_fees": typed})
    season_id = _created(answer, r"/seasons/([0-9a-f-]+)/")
    assert Season.objects.get(public_id=season_id).lost_fees == [[1, 50], [4, 100]]
    settings = owner.get(reverse("season_edit", args=[season_id])).content.decode()
    assert f'name="lost_fees" value="{shown}"' in settings


def test_a_player_added_on_the_clubs_page_is_said_and_a_name_refused_is_said_next_to_its_field() -> None:
    owner = _client(make_user("olga"))
    club_id = _created(owner.post(reverse("club_list"), {"name": "Grand Hand"}), r"/clubs/([0-9a-f-]+)/")
    add = reverse("club_player", args=[club_id])
    # Said at the form, where the page opens: the players, page by page, may not show them.
    answer = owner.post(add, {"name": "Zygmunt"})
    assert answer["Location"].endswith("#players")
    page = owner.get(answer["Location"]).content.decode()
    form = page[page.index('id="players"') :]
    assert re.search(r'<p role="status">Zygmunt is one of the club.s players.</p>', form), form
    # Typed again in other letters, the player is the one the club has.
    page = owner.post(add, {"name": "zygmunt"}, follow=True).content.decode()
    assert "Zygmunt is one of the club's players." in page
    assert Player.objects.filter(name__iexact="zygmunt").count() == 1
    for name in ("x" * 61, "   "):
        answer = owner.post(add, {"name": name})
        assert answer.status_code == 400
        body = answer.content.decode()
        assert re.search(r'<input type="text" name="name" value="[^"]*"[^>]*aria-invalid="true"', body), body
        assert re.search(r'id="id_name_error"', body), body


def test_a_member_refused_on_the_clubs_page_is_said_at_the_members_form() -> None:
    olga, sven = make_user("olga"), make_user("sven")
    owner = _client(olga)
    club_id = _created(owner.post(reverse("club_list"), {"name": "Grand Hand"}), r"/clubs/([0-9a-f-]+)/")
    member = reverse("club_member", args=[club_id])
    answer = owner.post(member, {"username": "nobody", "role": "member"})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert re.search(r'id="id_username_error"[^>]*>There is no account of that name.', body), body
    assert re.search(r'<input type="text" name="username" value="nobody"', body), body
    owner.post(member, {"username": "sven", "role": "secretary"})
    answer = _client(sven).post(member, {"username": "olga", "role": "member"})
    assert answer.status_code == 403
    form = answer.content.decode().split('id="members"')[1]
    assert '<p class="error" role="alert">Only the club&#x27;s owner gives and takes' in form, form


def test_a_member_is_found_by_the_accounts_name_in_any_case_and_an_owner_so_named_stays_the_owners_to_change() -> None:
    olga, sven, mia = make_user("olga"), make_user("sven"), make_user("mia")
    owner = _client(olga)
    club_id = _created(owner.post(reverse("club_list"), {"name": "Grand Hand"}), r"/clubs/([0-9a-f-]+)/")
    member = reverse("club_member", args=[club_id])
    assert owner.post(member, {"username": " Sven ", "role": "secretary"}).status_code == 302
    assert Membership.objects.get(user=sven).role == "secretary"
    # The secretary names the owner in other capital letters: still the owner's role, still the owner's to change.
    answer = _client(sven).post(member, {"username": "OLGA", "role": "member"})
    assert answer.status_code == 403
    assert Membership.objects.get(user=olga).role == "owner"
    assert _client(sven).post(member, {"username": "MIA", "role": "member"}).status_code == 302
    assert Membership.objects.get(user=mia).role == "member"
    # Of two accounts alike but for case, the one written as named; another spelling is refused next to the name.
    make_user("Mia")
    assert _client(sven).post(member, {"username": "Mia", "role": "scorer"}).status_code == 302
    assert Membership.objects.get(user__username="Mia").role == "scorer"
    answer = _client(sven).post(member, {"username": "MIA", "role": "scorer"})
    assert answer.status_code == 400
    assert re.search(r'id="id_username_error"[^>]*>Several accounts have that name', answer.content.decode())


def test_a_players_season_says_their_place_and_what_the_seasons_table_ranks_them_by() -> None:
    owner = _client(make_user("olga"))
    club, season = _club_with_season(owner)
    settings = SEASON_FORM | {"ranking": "average", "minimum_lists": "4"}
    owner.post(reverse("season_edit", args=[season.public_id]), settings)
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Ben", "Cleo"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=club.memberships.get().user)
    table = ClubTable.objects.get(night=night)
    enter(table.match, 3)
    # Each row of the season's table: its place (a star where it was decided by lot), the player's name and the
    # figure it ranks them by.
    place = r"<tr>\s*<td>(\d+)[^<]*(?:<abbr[^>]*>\*</abbr>)?</td>\s*"
    row = place + r"<td class=\"name\"><a [^>]*>([^<]+)</a></td>\s*<td class=\"num\">([^<]+)</td>"
    standings = owner.get(reverse("season_detail", args=[season.public_id])).content.decode()
    rows = {found[1]: found for found in re.findall(row, standings)}
    assert len(rows) == 3
    for name, (place, _, ranked) in rows.items():
        player = Player.objects.get(keeper=club.keeper, name=name)
        page = owner.get(reverse("season_player", args=[season.public_id, player.public_id])).content.decode()
        # The season's table counts an average over at least four lists: one list played is a quarter of it.
        assert f"<dt>Place in the season's table</dt><dd>{place}" in page, page
        assert f"<dt>Ranked by the average per list (at least 4 lists count)</dt><dd>{ranked}</dd>" in page, page


def test_a_nights_lists_are_offered_as_files_only_once_they_hold_something() -> None:
    owner = _client(make_user("olga"))
    _, season = _club_with_season(owner)
    night_id = _created(
        owner.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    night_table = reverse("download-night-table", args=[night_id, "csv"]).removesuffix("csv")
    picture = reverse("night_picture", args=[night_id])
    blank_lists = reverse("night_lists", args=[night_id])

    def offered() -> set[str]:
        page = owner.get(reverse("night_detail", args=[night_id])).content.decode()
        found = set()
        if night_table in page:
            found.add("night's table")
        if picture in page or "Share the results" in page:
            found.add("picture")
        if blank_lists in page:
            found.add("blank lists")
        if "Print the night's table (PDF)" in page:
            found.add("printed table")
        return found

    assert offered() == set()
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        owner.post(reverse("night_check_in", args=[night_id]), {"name": name})
    assert offered() == set()
    owner.post(reverse("night_draw", args=[night_id]), {"series": "1", "seating": "draw"})
    assert offered() == {"blank lists"}
    enter(ClubTable.objects.get(night__public_id=night_id).match, 1)
    assert offered() == {"night's table", "picture", "blank lists", "printed table"}


def test_a_seasons_table_is_offered_as_a_file_only_once_it_holds_somebody() -> None:
    owner = _client(make_user("olga"))
    _, season = _club_with_season(owner)
    season_table = reverse("download-season-table", args=[season.public_id, "csv"]).removesuffix("csv")

    def offered() -> bool:
        page = owner.get(reverse("season_detail", args=[season.public_id])).content.decode()
        return season_table in page or "Print the season table (PDF)" in page

    assert not offered()
    night_id = _created(
        owner.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    for name in ("Anna", "Ben", "Cleo"):
        owner.post(reverse("night_check_in", args=[night_id]), {"name": name})
    owner.post(reverse("night_draw", args=[night_id]), {"series": "1", "seating": "draw"})
    enter(ClubTable.objects.get(night__public_id=night_id).match, 1)
    owner.post(reverse("night_close", args=[night_id]), {"confirm": "on"})
    assert offered()


def _night_to_check_in(language: str) -> tuple[Client, Season, str, str]:
    """A secretary's client in ``language``, the season, a night opened in it and its check-in's address."""
    owner = _client(make_user("olga"))
    owner.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    _, season = _club_with_season(owner)
    night_id = _created(
        owner.post(reverse("night_new", args=[season.public_id]), {"date": "2026-11-24", "series": "1"}),
        r"/nights/([0-9a-f-]+)/",
    )
    return owner, season, night_id, reverse("night_check_in", args=[night_id])


@pytest.mark.parametrize(
    ("language", "typed", "said"),
    [("en", "Anna", "Anna is checked in already."), ("de", " anna ", "Anna ist schon angemeldet.")],
)
def test_a_walk_in_guest_with_the_name_of_a_player_checked_in_is_said_next_to_the_name(
    language: str, typed: str, said: str
) -> None:
    owner, season, night_id, check_in = _night_to_check_in(language)
    anna = clubs.club_player_add(club=season.club, name="Anna")
    assert owner.post(check_in, {"player": str(anna.public_id)}).status_code == 302
    answer = owner.post(check_in, {"name": typed})
    assert answer.status_code == 400
    page = answer.content.decode()
    field = re.search(r'<div class="field invalid">.*?</div>', page, re.S)
    assert field is not None, page
    assert 'id="id_name"' in field[0]
    assert f'value="{typed}"' in field[0]
    assert said in field[0]
    night = Night.objects.get(public_id=night_id)
    assert [attendance.player for attendance in night.attendances.all()] == [anna]
    # A guest of another name is checked in beside her.
    assert owner.post(check_in, {"name": "Walter"}).status_code == 302
    assert night.attendances.count() == 2


@pytest.mark.parametrize(
    ("language", "member", "guest"),
    [
        ("en", "Anna Weber is checked in: a player of the club has that name.", "Zoe is checked in."),
        ("de", "Anna Weber ist eingecheckt: so heißt ein Spieler des Vereins.", "Zoe ist eingecheckt."),
    ],
)
def test_a_walk_in_named_as_a_player_of_the_club_is_checked_in_as_them_and_the_page_says_so_by_the_name(
    language: str, member: str, guest: str
) -> None:
    owner, season, night_id, check_in = _night_to_check_in(language)
    anna = clubs.club_player_add(club=season.club, name="Anna Weber")

    def said(typed: str) -> str:
        answer = owner.post(check_in, {"name": typed}, follow=True)
        page = answer.content.decode()
        section = page.split('id="check-in"', 1)[1].split("</section>", 1)[0]
        status = re.search(r'<p class="help" role="status">(.*?)</p>', section, re.S)
        assert status is not None, section
        return " ".join(html.unescape(status[1]).split())

    assert said("anna weber").startswith(member)
    night = Night.objects.get(public_id=night_id)
    assert [attendance.player for attendance in night.attendances.all()] == [anna]
    assert said("Zoe") == guest
    assert night.attendances.count() == 2


def test_the_last_owner_taking_their_own_role_is_told_next_to_their_name() -> None:
    owner = _client(make_user("olga"))
    club, _ = _club_with_season(owner)
    page = owner.post(reverse("club_member", args=[club.public_id]), {"username": "olga", "role": "member"})
    assert page.status_code == 409
    text = page.content.decode()
    assert 'id="id_username_error"' in text
    assert "A club needs an owner: make somebody else owner first." in text.split('id="id_username_error"', 1)[1][:200]
    assert Membership.objects.get(club=club).role == "owner"
