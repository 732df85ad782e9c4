"""A fourth kind of event, installed for the tests only (``tests/knockout``): by one registration with the core it
gets its tables with their QR links, paper lists through the core's page, following, its files in every format and
as PDF, kept API answers, its backup section, ``rescore --check``, account deletion, the persona matrix and the schema
fuzzer, and no core file names it."""

from __future__ import annotations

import ast
import io
import json
import uuid
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db.models import F, Model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from matches import kinds, permissions
from matches.models import Keeper, KeptAnswer, Match, PaperLine, Player
from matches.restore import restore

from .factories import make_user
from .knockout.backup import knockout_backup
from .knockout.models import Knockout, KnockoutStanding, KnockoutTable
from .knockout.services import knockout_hand_over
from .knockout.things import knockout_things

ROOT = Path(__file__).resolve().parents[1]
THE_APP = "tests.knockout"
PASSWORD = "a-long-enough-password-1"


@pytest.fixture
def organiser(db: None) -> User:
    return make_user("olga")


@pytest.fixture
def knockout(organiser: User) -> Knockout:
    found = knockout_things(organiser)["knockout_id"]
    assert isinstance(found, Knockout)
    return found


def signed_in(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def seated(table: KnockoutTable) -> list[Player]:
    return [seat.player for seat in table.match.seats.select_related("player").order_by("position")]


def paper_form(table: KnockoutTable) -> dict[str, str]:
    """The first player won a game of 18 (diamonds with one), the others nothing."""
    form: dict[str, str] = {"series": str(table.series)}
    for seat, _player in enumerate(seated(table)):
        form |= {f"points_{seat}": "18" if seat == 0 else "0", f"won_{seat}": str(int(seat == 0)), f"lost_{seat}": "0"}
    return form


def entered_on_paper(knockout: Knockout, organiser: User, number: int = 1) -> KnockoutTable:
    table = KnockoutTable.objects.select_related("match").get(knockout=knockout, series=1, number=number)
    address = reverse("knockout_paper", args=[knockout.public_id, 1, number])
    assert signed_in(organiser).post(address, paper_form(table)).status_code == 302
    return KnockoutTable.objects.select_related("match").get(pk=table.pk)


# --- registered once --------------------------------------------------------------------------------------------------


def test_the_knockout_is_registered_as_a_kind_of_event_of_its_own() -> None:
    names = [kind.name for kind in kinds.event_kinds()]
    assert names[-1] == "knockout"
    assert names.count("knockout") == 1
    assert "knockout" in permissions.SUBJECTS


def _names_the_app(path: Path) -> list[str]:
    named = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            named.append(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named.append(node.value)
    return [name for name in named if THE_APP in name or "knockout" in name.lower()]


def test_no_file_of_the_core_or_the_project_names_the_fourth_kind() -> None:
    files = [*sorted((ROOT / "matches").rglob("*.py")), *sorted((ROOT / "scorekeeper").rglob("*.py"))]
    templates = sorted((ROOT / "templates").rglob("*.html"))
    assert [(str(path.relative_to(ROOT)), _names_the_app(path)) for path in files if _names_the_app(path)] == []
    assert [str(path.relative_to(ROOT)) for path in templates if "knockout" in path.read_text().lower()] == []


def test_the_walk_finds_a_file_that_names_the_fourth_kind(tmp_path: Path) -> None:
    path = tmp_path / "named.py"
    path.write_text('from tests.knockout.models import Knockout\nSECTION = "knockout"\n')
    assert _names_the_app(path) == ["tests.knockout.models", "knockout"]


# --- tables, paper lists, following -----------------------------------------------------------------------------------


def test_its_tables_start_as_matches_of_its_book_with_their_qr_links_on_its_page(
    knockout: Knockout, organiser: User
) -> None:
    tables = list(KnockoutTable.objects.filter(knockout=knockout).select_related("match"))
    assert [(table.series, table.number, table.match.seats.count()) for table in tables] == [(1, 1, 4), (1, 2, 3)]
    assert {table.match.keeper_id for table in tables} == {knockout.keeper_id}
    assert tables[0].match.title == "Table 1, series 1 · K.-o.-Abend"
    assert tables[0].match.planned_games == knockout.games

    page = signed_in(organiser).get(reverse("knockout", args=[knockout.public_id])).content.decode()
    for table in tables:
        token = table.match.invite_token
        assert token is not None
        assert reverse("match_join", args=[token]) in page
    assert page.count('class="qr"') == 2
    assert reverse("knockout_paper", args=[knockout.public_id, 1, 2]) in page
    # Everybody sees its results, but only its organiser the tables' links.
    public = Client().get(reverse("knockout", args=[knockout.public_id])).content.decode()
    assert 'class="qr"' not in public
    assert str(tables[0].match.invite_token) not in public


def test_a_paper_list_is_entered_through_the_cores_page_and_its_standings_are_kept(
    knockout: Knockout, organiser: User
) -> None:
    address = reverse("knockout_paper", args=[knockout.public_id, 1, 1])
    form = signed_in(organiser).get(address)
    assert form.status_code == 200
    assert "Paper list: series 1, table 1" in form.content.decode()

    table = entered_on_paper(knockout, organiser)

    assert table.paper
    assert table.match.locked
    assert sorted(PaperLine.objects.filter(match=table.match).values_list("game_points", "won", "lost")) == [
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (18, 1, 0),
    ]
    assert sorted(KnockoutStanding.objects.filter(knockout=knockout).values_list("game_points", flat=True)) == [
        0,
        0,
        0,
        18,
    ]
    page = Client().get(reverse("knockout", args=[knockout.public_id])).content.decode()
    assert "Anna" in page
    # A list no series can produce is refused next to its numbers, and nothing changes.
    refused = signed_in(organiser).post(address, {**paper_form(table), "points_1": "7"})
    assert refused.status_code == 400


def test_a_stranger_enters_no_paper_list(knockout: Knockout) -> None:
    address = reverse("knockout_paper", args=[knockout.public_id, 1, 1])
    assert signed_in(make_user("stranger")).get(address).status_code == 404
    assert Client().get(address).status_code == 302


def test_following_its_page_answers_304_until_something_changes(knockout: Knockout, organiser: User) -> None:
    browser = signed_in(organiser)
    address = reverse("knockout", args=[knockout.public_id])
    first = browser.get(address, headers={"HX-Request": "true"})
    assert first.status_code == 200
    etag = first["ETag"]
    again = browser.get(address, headers={"HX-Request": "true", "If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""

    entered_on_paper(knockout, organiser)

    moved = browser.get(address, headers={"HX-Request": "true", "If-None-Match": etag})
    assert moved.status_code == 200
    assert moved["ETag"] != etag


# --- files ------------------------------------------------------------------------------------------------------------


def test_its_results_download_as_csv_and_as_pdf(knockout: Knockout, organiser: User) -> None:
    entered_on_paper(knockout, organiser)
    page = Client().get(reverse("knockout", args=[knockout.public_id])).content.decode()
    csv_address = reverse("download-knockout-results", args=[knockout.public_id, "csv"])
    pdf_address = reverse("download-knockout-results", args=[knockout.public_id, "pdf"])
    assert csv_address in page
    assert pdf_address in page

    csv = Client().get(csv_address)
    assert csv.status_code == 200
    text = csv.getvalue().decode()
    assert text.removeprefix("\ufeff").splitlines()[:2] == ["Place,Player,Game points", "1,Anna,18"]
    pdf = Client().get(pdf_address)
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    assert Client().get(reverse("download-knockout-results", args=[uuid.uuid4(), "csv"])).status_code in (302, 404)


# --- the API ----------------------------------------------------------------------------------------------------------


def test_a_retried_change_through_the_api_gets_its_kept_answer(knockout: Knockout, organiser: User) -> None:
    table = KnockoutTable.objects.select_related("match").get(knockout=knockout, series=1, number=2)
    players = seated(table)
    body = {
        "series": 1,
        "table": 2,
        "lines": [
            {"player": str(player.public_id), "game_points": 18 if index == 0 else 0, "won": int(index == 0), "lost": 0}
            for index, player in enumerate(players)
        ],
    }
    client = APIClient()
    client.force_authenticate(organiser)
    key = str(uuid.uuid4())
    address = reverse("api:knockout_paper", args=[knockout.public_id])
    seen = Knockout.objects.get(pk=knockout.pk).version
    if_match = f'"{seen}"'

    first = client.put(address, body, format="json", headers={"Idempotency-Key": key, "If-Match": if_match})
    retried = client.put(address, body, format="json", headers={"Idempotency-Key": key, "If-Match": if_match})
    stale = client.put(
        address, body, format="json", headers={"Idempotency-Key": str(uuid.uuid4()), "If-Match": if_match}
    )

    assert first.status_code == 200, first.content
    assert first.json()["replayed"] is False
    assert first.json()["version"] == seen + 1
    assert [one["paper"] for one in first.json()["tables"]] == [False, True]
    assert retried.status_code == 200
    assert retried.json() == {**first.json(), "replayed": True}
    assert retried["ETag"] == first["ETag"]
    assert stale.status_code == 409
    assert KeptAnswer.objects.filter(key=key).count() == 1
    assert Knockout.objects.get(pk=knockout.pk).version == seen + 1
    # The answers go with the knockout they were kept for (its GenericRelation).
    assert list(knockout.kept_answers.values_list("key", flat=True)) == [uuid.UUID(key)]


def test_a_stranger_changes_nothing_through_the_api(knockout: Knockout) -> None:
    client = APIClient()
    client.force_authenticate(make_user("stranger"))
    answer = client.put(reverse("api:knockout_paper", args=[knockout.public_id]), {}, format="json")
    assert answer.status_code == 404


# --- the commands -----------------------------------------------------------------------------------------------------


def _backed_up(name: str) -> dict[str, object]:
    out = io.StringIO()
    call_command("backup", "-", stdout=out, knockout=name)
    data: dict[str, object] = json.loads(out.getvalue())
    return data


def _wiped() -> None:
    models: tuple[type[Model], ...] = (KnockoutStanding, KnockoutTable, PaperLine, Knockout, Match, Player, Keeper)
    for model in models:
        model._default_manager.filter(pk__in=model._default_manager.values("pk")).delete()


def test_the_backup_command_writes_it_by_name_and_a_restore_gives_it_back(
    knockout: Knockout, organiser: User, tmp_path: Path
) -> None:
    entered_on_paper(knockout, organiser)
    data = _backed_up("K.-o.-Abend")
    expected = json.loads(json.dumps(knockout_backup(knockout)))
    assert {key: value for key, value in data.items() if key != "created"} == {
        key: value for key, value in expected.items() if key != "created"
    }
    file = tmp_path / "knockout.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    standings = sorted(KnockoutStanding.objects.values_list("player__public_id", "game_points"))

    _wiped()
    counts = restore(json.loads(file.read_text(encoding="utf-8")), user=organiser)

    assert counts["players"] == 7
    assert counts["matches"] == 2
    again = Knockout.objects.get(public_id=knockout.public_id)
    assert again.organiser == organiser
    assert [(one.series, one.number, one.paper) for one in again.tables.order_by("number")] == [
        (1, 1, True),
        (1, 2, False),
    ]
    assert sorted(KnockoutStanding.objects.values_list("player__public_id", "game_points")) == standings
    second = _backed_up("K.-o.-Abend")
    assert {key: value for key, value in second.items() if key != "created"} == {
        key: value for key, value in data.items() if key != "created"
    }
    with pytest.raises(CommandError, match=r"^0 knockouts named 'Nowhere'$"):
        call_command("backup", "-", stdout=io.StringIO(), knockout="Nowhere")


def test_rescore_check_reports_its_kept_standings_changed_behind_its_back(knockout: Knockout, organiser: User) -> None:
    entered_on_paper(knockout, organiser)
    out = io.StringIO()
    call_command("rescore", "--check", stdout=out, stderr=io.StringIO())
    assert out.getvalue().strip().endswith("0 differences")

    KnockoutStanding.objects.filter(knockout=knockout, game_points=18).update(game_points=F("game_points") + 1)
    browser = signed_in(organiser)
    address = reverse("knockout", args=[knockout.public_id])
    followed = {"HX-Request": "true", "If-None-Match": browser.get(address, headers={"HX-Request": "true"})["ETag"]}
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"^1 differences"):
        call_command("rescore", "--check", stdout=out, stderr=io.StringIO())
    assert f"knockout {knockout.public_id} ({knockout}): 1 players' kept game points differ" in out.getvalue()

    out = io.StringIO()
    call_command("rescore", stdout=out, stderr=io.StringIO())
    assert f"knockout {knockout.public_id} ({knockout}): 1 players' kept game points rewritten" in out.getvalue()
    assert KnockoutStanding.objects.get(knockout=knockout, game_points__gt=0).game_points == 18
    # Its page, following its version, shows them as rewritten.
    assert browser.get(address, headers=followed).status_code == 200


# --- deleting an account ----------------------------------------------------------------------------------------------


def test_its_organiser_hands_it_over_before_deleting_the_account(knockout: Knockout, organiser: User) -> None:
    browser = signed_in(organiser)
    page = browser.get(reverse("account_delete")).content.decode()
    assert "Nobody but you runs the knockout K.-o.-Abend" in page
    assert browser.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 409
    assert User.objects.filter(pk=organiser.pk).exists()

    bert = make_user("bert")
    knockout_hand_over(knockout=knockout, username="bert")

    assert browser.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 302
    assert not User.objects.filter(pk=organiser.pk).exists()
    assert Knockout.objects.get(pk=knockout.pk).organiser == bert


def test_the_main_menu_leads_to_its_pages(organiser: User) -> None:
    assert 'href="/knockouts/"' in signed_in(organiser).get("/").content.decode()
