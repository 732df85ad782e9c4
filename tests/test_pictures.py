"""The results as a picture for a group chat: what is drawn is decided first (and tested here against the data: the
places, the names cut to fit, the places left out, first names only where asked), then painted into a PNG that opens,
has the size decided and is not blank; it answers whoever may see its page, and a browser asks again by its ETag."""

import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from PIL import Image

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night
from matches.clubs.pictures import night_picture
from matches.clubs.selectors import night_results
from matches.exports.picture import (
    CHART_HEIGHT,
    MAX_ROWS,
    ROW_MAX,
    ROW_MIN,
    TITLE_SIZES,
    WIDTH,
    Row,
    font,
    layout,
    match_picture,
    row_fonts,
)
from matches.models import Match, Player

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

MINUS = "\N{MINUS SIGN}"


@pytest.fixture
def owner() -> User:
    return make_user("olga")


@pytest.fixture
def match(owner: User) -> Match:
    """Ben won a clubs game with one matador (+24), then Cleo lost one (−48): Ben, Anna, Cleo."""
    match = make_match(owner, names=("Anna", "Ben", "Cleo"), title="Donnerstag")
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    add(match, declarer=2, contract="clubs", matadors=1, declarer_card_points=40)
    return Match.objects.get(pk=match.pk)


def _night(owner: User, names: tuple[str, ...]) -> Night:
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        declarer = (table.match.first_dealer + 1) % table.match.players
        add(table.match, declarer=declarer, contract="grand", matadors=1, declarer_card_points=70)
    return night


def _rows(count: int) -> list[Row]:
    return [Row(place, f"Player {place}", str(1000 - place)) for place in range(1, count + 1)]


def _png(response: object) -> Image.Image:
    assert getattr(response, "status_code", None) == 200
    assert response["Content-Type"] == "image/png"  # type: ignore[index]
    image = Image.open(io.BytesIO(response.content))  # type: ignore[attr-defined]
    image.load()
    return image


def test_a_match_picture_ranks_the_totals_best_first_with_its_facts_and_chart(match: Match) -> None:
    picture = match_picture(match)
    assert [(row.place, row.name, row.points, row.seat) for row in picture.rows] == [
        (1, "Ben", "24", 1),
        (2, "Anna", "0", 0),
        (3, "Cleo", f"{MINUS}48", 2),
    ]
    assert picture.title == "Donnerstag"
    assert picture.lines[0] == "Skat · Standard"
    assert picture.lines[1].endswith(" · 2 games")
    assert picture.chart is not None
    assert [line.last for line in picture.chart.lines] == [0, 24, -48]
    assert picture.more == 0
    assert picture.name == "Donnerstag"


def test_equal_totals_share_a_place(owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo"))
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    rows = match_picture(Match.objects.get(pk=match.pk)).rows
    assert [(row.place, row.name) for row in rows] == [(1, "Ben"), (2, "Anna"), (2, "Cleo")]


def test_a_match_without_games_has_no_chart_and_everybody_first(owner: User) -> None:
    picture = match_picture(make_match(owner, names=("Anna", "Ben", "Cleo")))
    assert picture.chart is None
    assert [(row.place, row.points) for row in picture.rows] == [(1, "0"), (1, "0"), (1, "0")]
    assert picture.lines[0] == "Standard"  # without a title the variant is the title
    assert picture.title == "Skat"


def test_names_print_as_entered_and_long_ones_are_cut_to_their_column() -> None:
    entered = ["Jürgen Müller", "Łukasz Wąsowski", "Şükrü Öztürk", "Дмитрий Шостакович", "Siobhán " * 12]
    picture = layout("Dienstag", [], [Row(1, name, "12") for name in entered], None, "Dienstag")
    names = [row.name for row in picture.rows]
    assert names[:4] == entered[:4]
    cut = names[4]
    assert cut.endswith("…")
    assert entered[4].startswith(cut[:-1])
    face = row_fonts(picture.row_height).name
    assert face.getlength(cut) < face.getlength(entered[4])
    assert face.getlength(cut) <= WIDTH - 2 * 64


def test_a_cut_name_fits_beside_the_widest_points() -> None:
    long_name = "Wolfgang Amadeus Theophilus Mozart-Schikaneder von Salzburg"
    picture = layout("Dienstag", [], [Row(1, long_name, f"{MINUS}12345"), Row(2, "Ben", "7")], None, "x")
    face = row_fonts(picture.row_height)
    name_room = WIDTH - 2 * 64 - face.points.getlength(f"{MINUS}12345") - face.place.getlength("00.")
    assert picture.rows[0].name.endswith("…")
    assert face.name.getlength(picture.rows[0].name) < name_room


def test_a_rows_mark_is_kept_whole_under_a_name_cut_to_its_column() -> None:
    long_name = "Wolfgang Amadeus Theophilus Mozart-Schikaneder von Salzburg"
    mark = "nach Serie 2 zurückgetreten"
    unmarked = [Row(1, long_name, "180,00 €"), Row(2, "Ben", "90,00 €")]
    picture = layout("Preisskat", [], [Row(1, long_name, "180,00 €", mark=mark), unmarked[1]], None, "x")
    assert [row.mark for row in picture.rows] == [mark, ""]
    # The mark takes a line of its own: the name is cut as far as it would be without it, no further.
    assert picture.rows[0].name.endswith("…")
    assert picture.rows[0].name == layout("Preisskat", [], unmarked, None, "x").rows[0].name
    faces = row_fonts(picture.row_height)
    assert faces.mark.getlength(mark) < faces.name.getlength(picture.rows[0].name)


def test_a_long_title_takes_a_smaller_size_then_an_ellipsis() -> None:
    short = layout("Donnerstag", [], _rows(3), None, "x")
    assert (short.title, short.title_size) == ("Donnerstag", TITLE_SIZES[0])
    longer = layout("Skat zu viert im Vereinsheim", [], _rows(3), None, "x")
    assert longer.title == "Skat zu viert im Vereinsheim"
    assert longer.title_size < TITLE_SIZES[0]
    endless = layout("Der große Preisskat " * 5, [], _rows(3), None, "x")
    assert endless.title.endswith("…")
    assert endless.title_size == TITLE_SIZES[-1]
    assert font(endless.title_size, bold=True).getlength(endless.title) <= WIDTH - 2 * 64


def test_few_rows_are_large_and_many_are_small() -> None:
    assert layout("x", [], _rows(2), None, "x").row_height == ROW_MAX
    assert layout("x", [], _rows(MAX_ROWS), None, "x").row_height == ROW_MIN


def test_forty_players_show_the_first_places_and_a_line_for_the_rest() -> None:
    every = layout("x", [], _rows(MAX_ROWS), None, "x")
    assert (len(every.rows), every.more) == (MAX_ROWS, 0)
    picture = layout("x", [], _rows(40), None, "x")
    assert [row.place for row in picture.rows] == list(range(1, MAX_ROWS))
    assert picture.more == 40 - (MAX_ROWS - 1)
    assert picture.more_text == f"… and {40 - (MAX_ROWS - 1)} more"
    assert picture.height <= 1920
    assert picture.height == every.height  # the line for the rest takes the last row's place


def test_a_file_name_keeps_no_path_separators() -> None:
    assert layout("x", [], _rows(1), None, "Skat · 11/24/2026").name == "Skat · 11-24-2026"
    assert layout("x", [], _rows(1), None, " / ").name == "results"


def test_a_night_picture_ranks_the_night_with_first_names_only_where_asked(owner: User) -> None:
    night = _night(owner, ("Anna Schmidt", "Ben Meier", "Cleo Wagner"))
    club = night.season.club
    ben = Player.objects.get(keeper=club.keeper, name="Ben Meier")
    clubs.roster_set(club=club, player=ben, guest=True, first_name_only=True, categories=[])
    picture = night_picture(night)
    assert sorted(row.name for row in picture.rows) == ["Anna Schmidt", "Ben", "Cleo Wagner"]
    results = night_results(night)
    assert [(row.place, row.name.split()[0], row.points) for row in picture.rows] == [
        (place.place, results.players[place.standing.player].name.split()[0], str(place.standing.score))
        for place in results.night_places
    ]
    assert picture.title == "Club night of Nov. 24, 2026"
    assert picture.lines == ("Skatclub Herz Dame", "2026 · Seeger-Fabian")
    assert all(row.seat is None for row in picture.rows)
    assert picture.chart is None


def test_a_match_picture_is_a_png_of_the_size_decided_and_not_blank(owner: User, match: Match) -> None:
    client = Client()
    client.force_login(owner)
    image = _png(client.get(reverse("match_picture", args=[match.public_id])))
    picture = match_picture(match)
    assert image.format == "PNG"
    assert image.size == (WIDTH, picture.height)
    assert 1000 <= picture.height <= 1100  # three players and the chart: about square
    colours = image.getcolors(maxcolors=WIDTH * picture.height)
    assert colours is not None
    assert len(colours) > 50  # text is antialiased: a blank or one-colour picture has a handful
    assert image.getpixel((10, 10)) == (0x1D, 0x6B, 0x3A)  # the header in the app's accent colour
    chart_bottom = picture.chart_top + CHART_HEIGHT
    chart_colours = image.crop((64, picture.chart_top, WIDTH - 64, chart_bottom)).getcolors(maxcolors=WIDTH * WIDTH)
    assert chart_colours is not None
    assert len(chart_colours) > 3  # the card, the zero line and the players' lines


def test_a_night_picture_is_a_png_too(owner: User) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus"))
    client = Client()
    client.force_login(owner)
    image = _png(client.get(reverse("night_picture", args=[night.public_id])))
    assert image.size == (WIDTH, night_picture(night).height)
    colours = image.getcolors(maxcolors=WIDTH * image.height)
    assert colours is not None
    assert len(colours) > 50


def test_the_picture_answers_whoever_may_see_the_page(owner: User, match: Match) -> None:
    address = reverse("match_picture", args=[match.public_id])
    stranger = Client()
    stranger.force_login(make_user("stefan"))
    assert stranger.get(address).status_code == 404
    anonymous = Client().get(address)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    player = make_user("ben")
    ben = Player.objects.get(keeper=match.keeper, name="Ben")
    ben.account = player
    ben.save()
    seated = Client()
    seated.force_login(player)
    assert seated.get(address).status_code == 200


def test_a_nights_picture_answers_the_clubs_members_only(owner: User) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo"))
    address = reverse("night_picture", args=[night.public_id])
    member = make_user("mia")
    clubs.member_set(club=night.season.club, username="mia", role="member")
    browser = Client()
    browser.force_login(member)
    assert browser.get(address).status_code == 200
    browser.force_login(make_user("stefan"))
    assert browser.get(address).status_code == 404


def test_the_pages_offer_the_picture_by_a_download_link(owner: User, match: Match) -> None:
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("match_share", args=[match.public_id])).content.decode()
    assert f'href="{reverse("match_picture", args=[match.public_id])}" download' in page
    assert "Share the results as a picture" in page
    night = _night(owner, ("Anna", "Ben", "Cleo"))
    page = client.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert f'href="{reverse("night_picture", args=[night.public_id])}" download' in page


def test_the_spectators_page_offers_no_sharing(match: Match) -> None:
    """Spectators see the match's title and totals but get no share button (text or picture), so no picture address
    of their own either."""
    response = Client().get(reverse("match_spectate", args=[match.share_token]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<strong>Donnerstag</strong>" in page
    assert '<span class="name">Ben</span> <span class="total">24</span>' in page
    assert f'<span class="name">Cleo</span> <span class="total">{MINUS}48</span>' in page
    assert "Share the results as" not in page
    assert "data-share-picture" not in page
    assert "results.png" not in page
    assert Client().get(f"/watch/{match.share_token}/results.png").status_code == 404


def test_the_browser_keeps_the_picture_for_itself_and_asks_again_by_its_etag(owner: User, match: Match) -> None:
    client = Client()
    client.force_login(owner)
    address = reverse("match_picture", args=[match.public_id])
    first = client.get(address)
    assert "private" in first["Cache-Control"]
    assert "no-cache" in first["Cache-Control"]
    assert first["Content-Disposition"] == 'inline; filename="Donnerstag.png"'
    etag = first["ETag"]
    again = client.get(address, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)
    changed = client.get(address, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    ben = Player.objects.get(keeper=match.keeper, name="Ben")
    ben.name = "Benjamin"
    ben.save()
    renamed = client.get(address, headers={"If-None-Match": changed["ETag"]})
    assert renamed.status_code == 200


@pytest.mark.parametrize("day", [datetime.date(2026, 11, 24), datetime.date(2026, 9, 30)])
def test_a_german_night_pictures_title_shows_its_whole_date(owner: User, day: datetime.date) -> None:
    night = _night(owner, ("Anna Schmidt", "Ben Meier", "Cleo Wagner"))
    night.date = day
    with translation.override("de"):
        picture = night_picture(night)
        assert picture.title == f"Vereinsabend vom {date_format(day)}"
    assert font(picture.title_size, bold=True).getlength(picture.title) <= WIDTH - 2 * 64
