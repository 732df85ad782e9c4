"""The lists to print are read back with pypdf and compared with the data they came from: a match's list as the
table keeps it on paper (running totals, passed deals, what doubled each game, the Seeger-Fabian footer), the blank
lists of a club night (one page per table, its players' names), and the night's and the season's tables."""

import datetime
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night
from matches.clubs.selectors import night_results, season_table
from matches.engine import GameEntry, Result, calculate, setup_match
from matches.engine.entry import RamschEntry, ramsch_doublings
from matches.engine.league import SeriesLine
from matches.engine.skat import ListMarks, list_marks
from matches.engine.values import paper_marks
from matches.exports.pdf import TableColumn, standings_pdf
from matches.game_lists import game_list
from matches.models import Match
from matches.selectors import seats_of

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db

MINUS = "\N{MINUS SIGN}"
MM = 72 / 25.4  # PDF points in a millimetre
VERA = "\u0412\u0435\u0440\u0430"  # Vera, in Cyrillic
CountQueries = Callable[[int], Any]


def pages(response: Any) -> list[str]:
    """Each page's text as a PDF reader extracts it."""
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return pdf_pages(response.content)


def pdf_pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def marked(response: Any) -> dict[int, dict[str, str]]:
    """What each row of a list's first page writes under each column title written upwards (the narrow columns, up
    to the value won), by the row's number: a cell is under the title whose column it starts in."""
    assert response.status_code == 200
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    titles: list[tuple[float, str]] = []
    cells: dict[float, list[tuple[float, str]]] = {}

    def visit(text: str, cm: list[float], tm: list[float], *_: Any) -> None:
        if not text.strip():
            return
        if cm[0] == 0:  # turned upwards: a title, written a cell's padding (1 mm) into its column
            titles.append((tm[4] - MM, text.strip()))
        else:
            cells.setdefault(round(tm[5], 1), []).append((tm[4], text.strip()))

    page.extract_text(visitor_text=visit)
    titles.sort()
    end = next(left for left, title in titles if title in ("Won", "Gewonnen"))
    rows: dict[int, dict[str, str]] = {}
    for line in cells.values():
        first = line[0][1]
        if not first.isdigit() or line[0][0] > titles[1][0]:
            continue
        row = {title: "" for left, title in titles if left < end}
        for x, text in line[1:]:
            if x < end:
                title = [title for left, title in titles if left <= x][-1]
                row[title] = f"{row[title]} {text}".strip()
        rows[int(first)] = row
    return rows


def queries(client: Client, address: str) -> int:
    """The queries one more look at ``address`` costs (the first look fills the caches every later one finds)."""
    assert client.get(address).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        assert client.get(address).status_code == 200
    return len(captured)


def number(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


@pytest.fixture
def owner() -> User:
    return make_user("olga")


@pytest.fixture
def signed_in(owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def four(owner: User) -> Match:
    """A Seeger-Fabian list at four: a won grand, a passed deal, a lost clubs game, a won null (seat 0 deals first
    and sits out the first deal)."""
    match = make_match(owner, names=("Anna", "Łukasz", "Şule", VERA), scheme="seeger-fabian")
    add(match, declarer=1, contract="grand", matadors=2, declarer_card_points=80)
    add(match, passed=True)
    add(match, declarer=0, contract="clubs", matadors=-1, declarer_card_points=40, hand=True)
    add(match, declarer=1, contract="null", won=True)
    return Match.objects.get(pk=match.pk)


def test_a_match_list_prints_its_games_running_totals_and_passed_deals(signed_in: Client, four: Match) -> None:
    (text,) = pages(signed_in.get(reverse("match_print", args=[four.public_id])))
    for name in ("Anna", "Łukasz", "Şule", VERA):
        assert name in text
    assert "passed" in text
    listed = game_list(four, seats_of(four))
    assert [row.passed for row in listed.rows] == [False, True, False, False]
    # Game points as the ISkO writes them: grand with 2, game 3 × 24 = 72; clubs without 1, game 2, hand 3 × 12 = 36,
    # lost: twice that; a null 23.
    assert [row.totals for row in listed.rows] == [(0, 72, 0, 0), (0, 72, 0, 0), (-72, 72, 0, 0), (-72, 95, 0, 0)]
    lines = text.splitlines()
    for row in listed.rows:
        running = " ".join(number(total) for total in row.totals)
        assert any(line.startswith(f"{row.number} ") and line.endswith(running) for line in lines), running


def test_the_list_ticks_every_level_a_game_counted() -> None:
    reached = Result(won=True, game_value=48, scores=(48, 0, 0), schneider=True)
    assert list_marks(GameEntry("clubs", matadors=-2, declarer_card_points=95), reached) == ListMarks(
        base=12, matadors=-2, schneider=True
    )
    # Ouvert announces Schwarz, and Schwarz announced includes Schneider announced (ISkO 5.2.6).
    ouvert = Result(won=True, game_value=264, scores=(264, 0, 0))
    assert list_marks(GameEntry("grand", matadors=4, hand=True, ouvert=True, outcome="won-schwarz"), ouvert) == (
        ListMarks(24, 4, True, True, True, True, True, True)
    )
    null = Result(won=False, game_value=59, scores=(-118, 0, 0))
    assert list_marks(GameEntry("null", hand=True, ouvert=True, won=False), null) == ListMarks(
        base=59, hand=True, ouvert=True
    )


def _marks_of(variant: str, game: GameEntry, scheme: str = "standard", **rules: object) -> ListMarks:
    setup = setup_match(variant, scheme=scheme, rules=rules)
    result = calculate(variant, game, scheme=scheme, rules=rules)
    return paper_marks(setup.spec, setup.scheme, setup.rules, game, result)


def test_an_officers_game_is_marked_by_what_its_scheme_counted() -> None:
    lost = GameEntry("spades", matadors=2, declarer_card_points=20)  # the declarer Schneider himself: he pays ×2
    assert _marks_of("officers-skat", lost) == ListMarks(base=11, matadors=2, schneider=True)
    # Admirals' Skat at the seed's levels notes hand and the announcement as not counted, and a null is worth 23.
    hand = GameEntry(
        "clubs", matadors=1, declarer_card_points=120, schwarz="opponents", hand=True, announced="schneider"
    )
    assert _marks_of("admirals-skat", hand, levels="doubling") == ListMarks(base=12, matadors=1, schwarz=True)
    null = GameEntry("null", hand=True, won=True)
    assert _marks_of("admirals-skat", null, levels="doubling") == ListMarks(base=23)
    assert _marks_of("admirals-skat", null) == ListMarks(base=35, hand=True)
    # The base-value scheme doubles a Schwarz loser as Schneider; the matadors count nowhere but under standard.
    schwarz = GameEntry("grand", matadors=-1, declarer_card_points=120)
    assert _marks_of("officers-skat", schwarz, "base-value") == ListMarks(base=24, schneider=True)
    assert _marks_of("officers-skat", schwarz, "simple") == ListMarks(schwarz=True)
    assert _marks_of("officers-skat", schwarz, "card-points") == ListMarks()


def test_a_lieutenant_or_schafkopf_game_is_marked_by_what_its_value_counted() -> None:
    # Lieutenant Skat: 3 to the winner when the loser is Schneider, 4 in its place at 120 card points, 2 otherwise.
    assert _marks_of("lieutenant-skat", GameEntry("hearts", declarer_card_points=95)) == ListMarks(schneider=True)
    assert _marks_of("lieutenant-skat", GameEntry("grand", declarer_card_points=0)) == ListMarks(schwarz=True)
    assert _marks_of("lieutenant-skat", GameEntry("grand", declarer_card_points=75)) == ListMarks()
    # Officers' Schafkopf: a unit on the simple win for Schneider and one more for Schwarz, and with the tariff's
    # Laufende each of them from three in a solo (with or without), none below.
    schwarz = GameEntry("wenz", declarer_card_points=120, schwarz="opponents")
    assert _marks_of("officers-schafkopf", schwarz) == ListMarks(schneider=True, schwarz=True)
    run = GameEntry("clubs", matadors=-3, declarer_card_points=40)
    assert _marks_of("officers-schafkopf", run, laufende=True) == ListMarks(laufende=3)
    assert _marks_of("officers-schafkopf", run) == ListMarks()
    short = GameEntry("clubs", matadors=2, declarer_card_points=25)
    assert _marks_of("officers-schafkopf", short, laufende=True) == ListMarks(schneider=True)


def test_a_list_marks_kontra_re_and_the_bock_factor_of_every_game(signed_in: Client, owner: User) -> None:
    match = make_match(owner, rules={"kontra_re": True, "bock": True})
    # Spades with 1, game 2 × 11 = 22, Kontra 44; its Kontra starts a Bock round (deals 2 to 4).
    add(match, declarer=1, contract="spades", matadors=1, declarer_card_points=70, kontra=True)
    # Diamonds with 1, game 2 × 9 = 18, Kontra 36, Re 72, Bock 144, lost: −288; a second Bock round (deals 3 to 5).
    add(match, declarer=2, contract="diamonds", matadors=1, declarer_card_points=50, kontra=True, re=True)
    add(match, declarer=0, contract="grand", matadors=1, declarer_card_points=70)  # 48 in a Doppelbock: 192
    add(match, passed=True)  # a deal of both rounds, passed
    add(match, declarer=2, contract="null", won=True)  # 23 in the second round: 46
    add(match, declarer=0, contract="hearts", matadors=2, declarer_card_points=61, hand=True)  # 40, no Bock left
    address = reverse("match_print", args=[match.public_id])
    rows = marked(signed_in.get(address))
    doubled = [(row["Base value"], row["Kontra"], row["Re"], row["Bock"]) for row in rows.values()]
    assert doubled == [
        ("11", "×", "", ""),
        ("9", "×", "×", "×2"),
        ("24", "", "", "×4"),
        ("", "", "", "×4"),
        ("23", "", "", "×2"),
        ("10", "", "", ""),
    ]
    assert rows[1]["with"] == "1"
    assert rows[6]["Hand"] == "×"
    (text,) = pages(signed_in.get(address))
    lines = text.splitlines()
    assert "1 11 1 × 44 0 44 0" in lines
    assert f"2 9 1 × × ×2 {MINUS}288 0 44 {MINUS}288" in lines
    assert f"4 passed ×4 192 44 {MINUS}288" in lines
    titles = lines[lines.index("Ouvert") : lines.index("Won")]
    assert titles == ["Ouvert", "Kontra", "Re", "Bock"]
    signed_in.cookies["django_language"] = "de"
    lines = pages(signed_in.get(address))[0].splitlines()
    assert lines[lines.index("Ouvert") : lines.index("Gewonnen")] == ["Ouvert", "Kontra", "Re", "Bock"]
    assert f"4 eingepasst ×4 192 44 {MINUS}288" in lines


def test_a_list_has_columns_for_kontra_re_and_bock_only_where_the_rules_play_them(
    signed_in: Client, owner: User, four: Match
) -> None:
    (text,) = pages(signed_in.get(reverse("match_print", args=[four.public_id])))
    for title in ("Kontra", "Re", "Bock"):
        assert title not in text.splitlines()
    bock = make_match(owner, rules={"bock": True})
    add(bock, declarer=1, contract="grand", matadors=1, declarer_card_points=70, hand=True)
    add(bock, declarer=2, contract="clubs", matadors=1, declarer_card_points=70)
    rows = marked(signed_in.get(reverse("match_print", args=[bock.public_id])))
    assert [row["Bock"] for row in rows.values()] == ["", "×2"]
    assert "Kontra" not in rows[1]
    assert "Re" not in rows[1]


def test_a_ramsch_row_says_what_doubled_it_and_its_bock(signed_in: Client, owner: User) -> None:
    rules = {"kontra_re": True, "bock": True, "ramsch": True, "ramsch_schieben": True}
    match = make_match(owner, rules=rules)
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70, hand=True)  # a Bock round follows
    # Anna's 72 card points, doubled for Cleo's Jungfrau, for one push and for the Bock: −576.
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [72, 48, 0], "jungfrau": [2], "pushes": 1})
    address = reverse("match_print", args=[match.public_id])
    (text,) = pages(signed_in.get(address))
    assert f"2 Ramsch · card points 72/48/0 · Jungfrau · pushed 1× ×2 {MINUS}576 {MINUS}576 72 0" in text.splitlines()
    assert marked(signed_in.get(address))[2]["Bock"] == "×2"
    signed_in.cookies["django_language"] = "de"
    (text,) = pages(signed_in.get(address))
    assert f"2 Ramsch · Augen 72/48/0 · Jungfrau · 1× geschoben ×2 {MINUS}576 {MINUS}576 72 0" in text.splitlines()


def test_a_ramsch_row_gives_each_players_card_points_by_seat(signed_in: Client, owner: User) -> None:
    """The most card points lose them: the row says every seat's, a dash for the dealer who sat out, so that who lost
    and how much can be checked against the entry."""
    match = make_match(owner, names=("Anna", "Ben", "Cleo", "Dora"), rules={"ramsch": True})
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [0, 30, 72, 18]})  # Anna deals, sits out
    (text,) = pages(signed_in.get(reverse("match_print", args=[match.public_id])))
    assert f"1 Ramsch · card points –/30/72/18 {MINUS}72 0 0 {MINUS}72 0" in text.splitlines()


def test_a_ramschs_value_stands_in_the_won_or_lost_column_as_its_player_writes_it(
    signed_in: Client, owner: User
) -> None:
    """Nobody declares a Ramsch: the most card points lose them, so the loss stands under Lost as the loser writes
    it (each tied player's, shared or whole), a Durchmarsch's gain under Won."""
    match = make_match(owner, rules={"ramsch": True, "ramsch_ties": "shared"})
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [72, 48, 0]})
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [0, 120, 0], "durchmarsch": 1})
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [45, 30, 45]})  # 45 shared: 23 each
    listed = game_list(match, seats_of(match))
    assert [(row.won_value, row.lost_value) for row in listed.rows] == [(None, -72), (120, None), (None, -23)]
    lines = pages(signed_in.get(reverse("match_print", args=[match.public_id])))[0].splitlines()
    assert f"1 Ramsch · card points 72/48/0 {MINUS}72 {MINUS}72 0 0" in lines
    assert f"2 Ramsch · card points 0/120/0 120 {MINUS}72 120 0" in lines
    assert f"3 Ramsch · card points 45/30/45 {MINUS}23 {MINUS}95 120 {MINUS}23" in lines


def test_a_two_player_ramsch_under_simple_writes_the_winners_two_as_won(owner: User) -> None:
    match = make_match(owner, variant="officers-skat", names=("Anna", "Dora"), scheme="simple", rules={"ramsch": True})
    add(match, declarer=None, contract="ramsch", ramsch={"card_points": [70, 50]})  # the fewer card points score 2
    (row,) = game_list(match, seats_of(match)).rows
    assert (row.won_value, row.lost_value, row.totals) == (2, None, (0, 2))


def test_a_list_of_two_ticks_kontra_and_re_beside_the_game(signed_in: Client, owner: User) -> None:
    match = make_match(owner, variant="officers-skat", names=("Anna", "Dora"))
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70, kontra=True, re=True)
    add(match, declarer=0, contract="clubs", matadors=1, declarer_card_points=70)
    rows = marked(signed_in.get(reverse("match_print", args=[match.public_id])))
    assert [(row["Kontra"], row["Re"]) for row in rows.values()] == [("×", "×"), ("", "")]
    assert "Bock" not in rows[1]


def test_an_officers_list_marks_what_each_games_value_counts(signed_in: Client, owner: User) -> None:
    """Officers' Skat by its seed: (matadors + 1) × base value, doubled when the loser is Schneider, four times when
    Schwarz; a Schwarz game is marked Schwarz alone, since Schneider does not double it again."""
    match = make_match(owner, variant="officers-skat", names=("Anna", "Dora"))
    add(match, declarer=1, contract="clubs", matadors=2, declarer_card_points=95)  # 3 × 12 = 36, Schneider: 72
    add(match, declarer=0, contract="grand", matadors=-1, declarer_card_points=120)  # 2 × 24 = 48, Schwarz: 192
    add(match, declarer=1, contract="hearts", matadors=1, declarer_card_points=50)  # 2 × 10 = 20, lost: −40
    address = reverse("match_print", args=[match.public_id])
    rows = marked(signed_in.get(address))
    marks = [
        (row["Base value"], row["with"], row["without"], row["Schneider"], row["Schwarz"]) for row in rows.values()
    ]
    assert marks == [("12", "2", "", "×", ""), ("24", "", "1", "", "×"), ("10", "1", "", "", "")]
    assert "Hand" not in rows[1]  # no bidding: no hand games, announcements or ouvert
    assert "Ouvert" not in rows[1]
    (text,) = pages(signed_in.get(address))
    assert "1 ♣ Clubs Dora 12 2 × 72 0 72" in text.splitlines()
    signed_in.cookies["django_language"] = "de"
    rows = marked(signed_in.get(address))
    assert [(row["Grundwert"], row["mit"], row["ohne"]) for row in rows.values()] == [
        ("12", "2", ""),
        ("24", "", "1"),
        ("10", "1", ""),
    ]


@pytest.mark.parametrize(
    ("scheme", "marks"),
    [
        # Base value × 2 for a Schneider loser, a Schwarz one too, whatever the matadors.
        ("base-value", {"Base value": ["12", "24"], "Schneider": ["×", "×"]}),
        # The winner's card points: nothing else counts.
        ("card-points", {}),
        # 2, 3 with Schneider, 4 with Schwarz.
        ("simple", {"Schneider": ["×", ""], "Schwarz": ["", "×"]}),
    ],
)
def test_an_officers_list_marks_only_what_its_scheme_counts(
    signed_in: Client, owner: User, scheme: str, marks: dict[str, list[str]]
) -> None:
    match = make_match(owner, variant="officers-skat", names=("Anna", "Dora"), scheme=scheme)
    add(match, declarer=1, contract="clubs", matadors=2, declarer_card_points=95)
    add(match, declarer=0, contract="grand", matadors=-1, declarer_card_points=120)
    rows = marked(signed_in.get(reverse("match_print", args=[match.public_id])))
    columns = [title for title in rows[1] if title not in ("No.", "Kontra", "Re")]
    assert {title: [row[title] for row in rows.values()] for title in columns} == marks


def test_an_officers_list_at_the_isko_levels_marks_them_as_skat_does(signed_in: Client, owner: User) -> None:
    """Admirals' Skat bids as Skat does: hand and the announcements count, and Schwarz is a level on Schneider."""
    match = make_match(owner, variant="admirals-skat", names=("Anna", "Dora"))
    add(match, declarer=1, contract="spades", matadors=1, outcome="won-schwarz", hand=True)  # 11 × 5 = 55
    (row,) = marked(signed_in.get(reverse("match_print", args=[match.public_id]))).values()
    assert [row[title] for title in ("Base value", "with", "Hand", "Schneider", "Schwarz", "Ouvert")] == [
        "11",
        "1",
        "×",
        "×",
        "×",
        "",
    ]


def test_a_schafkopf_list_calls_its_doubling_stoss(signed_in: Client, owner: User) -> None:
    match = make_match(owner, variant="officers-schafkopf", names=("Anna", "Dora"))
    add(match, declarer=1, contract="clubs", declarer_card_points=70, kontra=True, re=True)  # 1 unit, ×4
    address = reverse("match_print", args=[match.public_id])
    rows = marked(signed_in.get(address))
    assert [(row["Stoß"], row["Re"]) for row in rows.values()] == [("×", "×")]
    assert "Kontra" not in pages(signed_in.get(address))[0].splitlines()
    signed_in.cookies["django_language"] = "de"
    assert [(row["Stoß"], row["Re"]) for row in marked(signed_in.get(address)).values()] == [("×", "×")]


def test_a_lieutenant_list_marks_schneider_and_schwarz(signed_in: Client, owner: User) -> None:
    """Lieutenant Skat's table: 2 to the winner, 3 when the loser is Schneider, 4 at 120 card points in its place."""
    match = make_match(owner, variant="lieutenant-skat", names=("Anna", "Dora"))
    add(match, declarer=1, contract="clubs", declarer_card_points=95)  # Dora 3
    add(match, declarer=0, contract="grand", declarer_card_points=0)  # Dora takes all 120: 4
    add(match, declarer=1, contract="hearts", declarer_card_points=70)  # Dora 2
    address = reverse("match_print", args=[match.public_id])
    rows = marked(signed_in.get(address))
    assert [(row["Schneider"], row["Schwarz"]) for row in rows.values()] == [("×", ""), ("", "×"), ("", "")]
    assert "Base value" not in rows[1]  # no matadors, no base value: the card points alone
    lines = pages(signed_in.get(address))[0].splitlines()
    assert "1 ♣ Clubs Dora × 3 0 3" in lines
    signed_in.cookies["django_language"] = "de"
    rows = marked(signed_in.get(address))
    assert [(row["Schneider"], row["Schwarz"]) for row in rows.values()] == [("×", ""), ("", "×"), ("", "")]


def test_a_schafkopf_list_marks_schneider_schwarz_and_the_laufende_it_counted(signed_in: Client, owner: User) -> None:
    """A unit for the win, one for Schneider, one more for Schwarz, and with the tariff's Laufende one each from three
    in a solo: the list ticks the levels and writes how many Laufende counted."""
    match = make_match(owner, variant="officers-schafkopf", names=("Anna", "Dora"), rules={"laufende": True})
    add(match, declarer=1, contract="clubs", matadors=3, declarer_card_points=95)  # 1 + Schneider + 3 Laufende: 5
    add(match, declarer=0, contract="wenz", declarer_card_points=120, schwarz="opponents")  # 1 + 1 + 1: 3
    add(match, declarer=1, contract="hearts", matadors=2, declarer_card_points=50)  # lost 1: two count nothing
    address = reverse("match_print", args=[match.public_id])
    rows = marked(signed_in.get(address))
    marks = [(row["Schneider"], row["Schwarz"], row["Laufende"]) for row in rows.values()]
    assert marks == [("×", "", "3"), ("×", "×", ""), ("", "", "")]
    lines = pages(signed_in.get(address))[0].splitlines()
    assert f"1 ♣ Clubs Dora × 3 5 {MINUS}5 5" in lines  # zero-sum: what Dora wins, Anna pays
    plain = make_match(owner, variant="officers-schafkopf", names=("Anna", "Dora"))
    add(plain, declarer=1, contract="clubs", matadors=3, declarer_card_points=95)  # 1 + Schneider: 2
    rows = marked(signed_in.get(reverse("match_print", args=[plain.public_id])))
    assert [(title, mark) for title, mark in rows[1].items() if title != "No."] == [
        ("Schneider", "×"),
        ("Schwarz", ""),
        ("Stoß", ""),
        ("Re", ""),
    ]


def test_a_ramsch_is_marked_with_what_doubled_it_as_its_steps_say() -> None:
    rules = {"ramsch": True, "ramsch_schieben": True, "bock": True}
    lost = GameEntry("ramsch", ramsch=RamschEntry((72, 48, 0), jungfrau=(2,), pushes=2))
    result = calculate("skat", lost, rules=rules, bock=1)
    assert result.scores == (-72 * 2 * 2 * 2 * 2, 0, 0)
    assert [str(word) for word in ramsch_doublings(result.breakdown)] == ["Jungfrau", "pushed 2×"]
    # A Durchmarsch doubles for its push and its Bock, never for the players it names as Jungfrau.
    clean = GameEntry("ramsch", ramsch=RamschEntry((120, 0, 0), jungfrau=(1, 2), pushes=1, durchmarsch=0))
    result = calculate("skat", clean, rules=rules, bock=1)
    assert result.scores == (120 * 2 * 2, 0, 0)
    assert [str(word) for word in ramsch_doublings(result.breakdown)] == ["pushed 1×"]
    declared = calculate(
        "skat", GameEntry("grand", matadors=1, declarer_card_points=70, kontra=True), rules={"kontra_re": True}
    )
    assert ramsch_doublings(declared.breakdown) == ()


def test_a_seeger_fabian_list_sums_its_footer_to_the_match_totals(signed_in: Client, four: Match) -> None:
    (text,) = pages(signed_in.get(reverse("match_print", args=[four.public_id])))
    footers = game_list(four, seats_of(four)).footers
    assert footers == [
        SeriesLine("Anna", 4, -72, 0, 1, 0),
        SeriesLine("Łukasz", 4, 95, 2, 0, 1),
        SeriesLine("Şule", 4, 0, 0, 0, 1),
        SeriesLine(VERA, 4, 0, 0, 0, 1),
    ]
    assert [line.total for line in footers] == four.totals == [-122, 225, 30, 30]
    assert "Total " + " ".join(number(total) for total in four.totals) in text
    assert "+ 30 × games the others lost 0 30 30 30" in text
    assert "Game points " + " ".join(number(line.game_points) for line in footers) in text
    assert text.count("Signatures") == 1


def test_a_three_player_list_counts_40_for_the_others_lost_games(signed_in: Client, owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo"), scheme="seeger-fabian")
    add(match, declarer=1, contract="spades", matadors=1, declarer_card_points=50)
    (text,) = pages(signed_in.get(reverse("match_print", args=[match.public_id])))
    assert "+ 40 × games the others lost 40 0 40" in text
    assert "Total 40 " + number(-94) + " 40" in text


def test_a_list_of_two_has_no_seeger_fabian_footer(signed_in: Client, owner: User) -> None:
    match = make_match(owner, variant="officers-skat", names=("Anna", "Dora"))
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70)
    (text,) = pages(signed_in.get(reverse("match_print", args=[match.public_id])))
    totals = Match.objects.get(pk=match.pk).totals
    assert "Total " + " ".join(number(total) for total in totals) in text
    assert "Games won 0 1" in text
    assert "× games won" not in text
    assert "Dora" in text


def test_a_name_too_long_for_its_column_is_cut_visibly(signed_in: Client, owner: User) -> None:
    long_name = "Maximiliane Wilhelmine von Hohenzollern"
    match = make_match(owner, names=(long_name, "Ben", "Cleo", "Dora"))
    (text,) = pages(signed_in.get(reverse("match_print", args=[match.public_id])))
    assert long_name in text  # in full at the head
    (titles,) = [line for line in text.splitlines() if line.endswith(" Ben Cleo Dora")]
    assert titles.startswith("Maximiliane")
    assert titles.split(" Ben ")[0].endswith("…")


def test_a_club_tables_list_names_its_club_night_series_and_table(signed_in: Client, owner: User) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus"))
    table = ClubTable.objects.filter(night=night).select_related("match").first()
    assert table is not None
    (text,) = pages(signed_in.get(reverse("match_print", args=[table.match.public_id])))
    assert "Skatclub Herz Dame · 2026" in text
    assert f"Series: {table.series}" in text
    assert f"Table: {table.number}" in text


def test_a_nights_blank_lists_have_a_page_per_table_with_its_players(signed_in: Client, owner: User) -> None:
    names = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus")
    night = _night(owner, names)
    found = pages(signed_in.get(reverse("night_lists", args=[night.public_id])))
    tables = list(ClubTable.objects.filter(night=night).order_by("series", "number"))
    assert len(found) == len(tables) == 2
    for table, text in zip(tables, found, strict=True):
        seated = [seat.player.name for seat in seats_of(table.match)]
        lines = text.splitlines()
        heads = [f"{seat}. {name}" for seat, name in enumerate(seated, start=1)]
        assert [" ".join(heads[:2]), " ".join(heads[2:])] == lines[2:4]  # the players by seat, two to a line
        assert f"Table: {table.number}" in text
        games = 48 if len(seated) == 4 else 36
        assert str(games) in lines
        assert str(games + 1) not in lines
        assert "Total" in text
        assert "Signatures" in text


def test_blank_lists_have_columns_for_what_the_seasons_rules_double_by(signed_in: Client, owner: User) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo"), rules={"kontra_re": True, "bock": True})
    (text,) = pages(signed_in.get(reverse("night_lists", args=[night.public_id])))
    lines = text.splitlines()
    assert lines[lines.index("Ouvert") : lines.index("Won")] == ["Ouvert", "Kontra", "Re", "Bock"]
    plain = _night(owner, ("Anna", "Ben", "Cleo"), club_name="Grand Hand")
    (text,) = pages(signed_in.get(reverse("night_lists", args=[plain.public_id])))
    lines = text.splitlines()
    assert lines[lines.index("Ouvert") + 1] == "Won"


def test_the_nights_and_the_seasons_tables_print_on_one_page_each(signed_in: Client, owner: User) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus"))
    results = night_results(night)
    (text,) = pages(signed_in.get(reverse("download-night-table", args=[night.public_id, "pdf"])))
    for place in results.night_places:
        name = results.players[place.standing.player].name
        lot = "*" if place.by_lot else ""
        row = f"{place.place}{lot} {name} {number(int(place.standing.score))} {number(place.standing.game_points)}"
        assert any(line.startswith(row + " ") for line in text.splitlines())
    season = night.season
    table = season_table(season)
    (text,) = pages(signed_in.get(reverse("download-season-table", args=[season.public_id, "pdf"])))
    for place in table.places:
        assert table.players[place.standing.player].name in text


def test_the_printed_tables_column_titles_are_whole_in_german(signed_in: Client, owner: User) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo"))
    signed_in.cookies["django_language"] = "de"
    for address in (
        reverse("download-night-table", args=[night.public_id, "pdf"]),
        reverse("download-season-table", args=[night.season.public_id, "pdf"]),
    ):
        (text,) = pages(signed_in.get(address))
        titles = next(line for line in text.splitlines() if line.startswith("Platz"))
        assert titles.split() == ["Platz", "Spieler", "Punkte", "Spielpunkte", "Gewonnen", "Verloren", "Listen"]


def test_the_notes_under_a_printed_table_are_printed_whole_each_on_a_line_of_its_own() -> None:
    """A note longer than the page is wide goes on over the next line, never cut (nor an amount parted from its €),
    and where the table filled the page, on the next page; each note starts a line of its own."""
    columns = [TableColumn("Place", 20), TableColumn("Player", 170, text=True)]
    rows = [[str(place), f"Player {place}"] for place in range(1, 47)]
    # Notes of a few lengths, so that some line of them would end before an amount's €.
    long = tuple(
        f"{'a' * (length + 1)} " + " ".join(f"total{index}: {index},50 €" for index in range(1, 31))
        for length in range(8)
    )
    printed = pdf_pages(standings_pdf("Table", "Night", columns, rows, ("* tied: decided by lot", *long)))
    assert len(printed) == 2
    assert "Player 46" in printed[0]
    lines = printed[1].splitlines()
    assert lines[0] == "* tied: decided by lot"
    assert lines[1].startswith("a total1: 1,50 €")
    assert len(lines) > 1 + len(long)
    assert " ".join(lines[1:]) == " ".join(long)
    assert not any(line.startswith("€") for line in lines)
    assert "…" not in printed[1]


def test_a_stranger_gets_no_list(owner: User, four: Match) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo"))
    stranger = Client()
    stranger.force_login(make_user("stefan"))
    addresses = [
        reverse("match_print", args=[four.public_id]),
        reverse("night_lists", args=[night.public_id]),
        reverse("download-night-table", args=[night.public_id, "pdf"]),
        reverse("download-season-table", args=[night.season.public_id, "pdf"]),
    ]
    for address in addresses:
        assert stranger.get(address).status_code == 404
        assert Client().get(address).status_code == 302  # to log in


def test_a_lists_queries_do_not_grow_with_its_games(
    signed_in: Client, four: Match, django_assert_num_queries: CountQueries
) -> None:
    address = reverse("match_print", args=[four.public_id])
    few = queries(signed_in, address)
    for _ in range(20):
        declarer = (four.first_dealer + four.deals + 1) % four.players
        add(four, declarer=declarer, contract="hearts", matadors=1, declarer_card_points=70)
        four.refresh_from_db()
    with django_assert_num_queries(few):
        assert signed_in.get(address).status_code == 200


def test_blank_lists_queries_do_not_grow_with_the_tables(
    signed_in: Client, owner: User, django_assert_num_queries: CountQueries
) -> None:
    night = _night(owner, ("Anna", "Ben", "Cleo"))
    few = queries(signed_in, reverse("night_lists", args=[night.public_id]))
    other = _night(owner, tuple(f"P{index}" for index in range(12)), club_name="Grand Hand")
    address = reverse("night_lists", args=[other.public_id])
    signed_in.get(address)
    with django_assert_num_queries(few):
        assert signed_in.get(address).status_code == 200


def _night(
    owner: User, names: tuple[str, ...], club_name: str = "Skatclub Herz Dame", rules: dict[str, Any] | None = None
) -> Night:
    club = clubs.club_create(owner=owner, name=club_name)
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026", rules=rules))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    for table in ClubTable.objects.filter(night=night).select_related("match"):
        declarer = (table.match.first_dealer + 1) % table.match.players
        add(table.match, declarer=declarer, contract="grand", matadors=1, declarer_card_points=40)
    return night
