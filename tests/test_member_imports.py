"""Member numbers in bulk: a club's member list read from CSV, XLSX and ODS, each row matched to the club's players by
name, every doubt decided by the secretary with a tap, the players joined at once or (a row changed since the
preview) not at all, and the whole import undone (``docs/rules.md``, "Member numbers in bulk")."""

from __future__ import annotations

import datetime
import html
import importlib
import io
import re
import zipfile
from collections.abc import Sequence
from typing import Any

import pytest
import tablib
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from matches.clubs import services as clubs
from matches.clubs.models import Club
from matches.errors import Conflict, Gone, Invalid
from matches.models import Join, Keeper, MemberImport, Person, Player
from matches.names import name_key
from matches.services import member_imports, player_link
from matches.services.member_imports import (
    MAX_ROWS,
    SKIP,
    UNAPPLIED_KEPT,
    Kind,
    Preview,
    member_import_apply,
    member_import_discard,
    member_import_preview,
    member_import_undo,
    member_rows_read,
)
from matches.services.people import join_number, join_roster
from matches.tasks import forget_expired

from .factories import make_user

pytestmark = pytest.mark.django_db

HEADINGS = ("Vorname", "Nachname", "Mitglieds-Nr.")
MEMBERS = [("Jörg", "Schmidt", "4711"), ("Eva", "Neu", "DSKV 0815")]
READ = [{"row": 2, "name": "Jörg Schmidt", "number": "4711"}, {"row": 3, "name": "Eva Neu", "number": "DSKV 0815"}]


def text_of(page: Any) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())).split())


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def csv_file(rows: Sequence[Sequence[str]], delimiter: str = ";", encoding: str = "utf-8") -> bytes:
    return "\r\n".join(delimiter.join(row) for row in rows).encode(encoding)


def spreadsheet(rows: list[tuple[Any, ...]], kind: str) -> bytes:
    data = tablib.Dataset(*rows[1:], headers=list(rows[0]))
    made = data.export(kind)
    assert isinstance(made, bytes)
    return made


@pytest.fixture
def club() -> Club:
    """A club of Olga's (its owner), Sina its secretary, Ben a member, and four players: Jörg Schmidt, Karl Klein,
    and two of one name written two ways (Hans Müller, "Müller, Hans")."""
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    make_user("sina"), make_user("ben")
    clubs.member_set(club=club, username="sina", role="secretary")
    clubs.member_set(club=club, username="ben", role="member")
    for name in ("Jörg Schmidt", "Karl Klein", "Hans Müller", "Müller, Hans"):
        clubs.club_player_add(club=club, name=name)
    return club


def player(club: Club, name: str) -> Player:
    return Player.objects.get(keeper=club.keeper, name=name)


def imported(book: Keeper, content: bytes, by: User | None = None) -> MemberImport:
    return MemberImport.objects.create(
        keeper=book, uploaded_by=by, file_name="mitglieder.csv", rows=member_rows_read(content)
    )


def applied(member_import: MemberImport, by: User | None = None, **decisions: str) -> MemberImport:
    """The import applied as the preview shows it now, each doubt (``r<row>``) as given."""
    plan = member_import_preview(member_import).plan
    chosen = {int(key.removeprefix("r")): value for key, value in decisions.items()}
    return member_import_apply(member_import=member_import, by=by, plan=plan, decisions=chosen)


def elsewhere(name: str, number: str) -> Player:
    """A player of another book (a league's, say) joined to ``number``."""
    other = Keeper.objects.create()
    found = Player.objects.create(keeper=other, name=name, name_key=name.casefold())
    join_number(player=found, number=number)
    return found


# Reading the file


@pytest.mark.parametrize(
    ("delimiter", "encoding"),
    [(";", "utf-8"), (",", "utf-8"), (";", "utf-8-sig"), (",", "utf-8-sig"), (";", "cp1252")],
    ids=["semicolons", "commas", "semicolons with BOM", "commas with BOM", "Windows"],
)
def test_a_csv_reads_with_semicolons_or_commas_in_utf8_with_or_without_bom_or_in_cp1252(
    delimiter: str, encoding: str
) -> None:
    assert member_rows_read(csv_file([HEADINGS, *MEMBERS], delimiter, encoding)) == READ


def test_a_csv_keeps_its_row_numbers_and_reads_a_name_column_and_a_title_above_the_headings() -> None:
    content = csv_file(
        [
            ("Mitgliederliste 2026",),
            ("",),
            ("Name", "DSkV-Nr.", "Ort"),
            ("Schmidt, Jörg", "4711", "Kiel"),
            ("",),
            ("Eva Neu", "0815", ""),
        ]
    )
    assert member_rows_read(content) == [
        {"row": 4, "name": "Schmidt, Jörg", "number": "4711"},
        {"row": 6, "name": "Eva Neu", "number": "0815"},
    ]


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_spreadsheet_reads_its_first_sheet_with_numbers_kept_as_numbers(kind: str) -> None:
    rows = [("Name", "Vorname", "Member number"), ("Schmidt", "Jörg", 4711), ("Neu", "Eva", "DSKV 0815")]
    assert member_rows_read(spreadsheet(rows, kind)) == READ


def test_an_ods_file_with_empty_cells_written_as_one_keeps_its_columns_and_rows() -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    sheet = Table(name="Mitglieder")
    for cells in (["Name", None, "Mitgliedsnummer"], None, ["Jörg Schmidt", None, "4711"]):
        row = TableRow()
        if cells is None:
            row = TableRow(numberrowsrepeated=2)
            row.addElement(TableCell(numbercolumnsrepeated=3))
        else:
            for value in cells:
                # Two empty cells, as a spreadsheet writes them: one cell, repeated.
                cell = TableCell(numbercolumnsrepeated=2) if value is None else TableCell(valuetype="string")
                if value is not None:
                    cell.addElement(P(text=value))
                row.addElement(cell)
        sheet.addElement(row)
    document.spreadsheet.addElement(sheet)
    written = io.BytesIO()
    document.write(written)
    assert member_rows_read(written.getvalue()) == [{"row": 4, "name": "Jörg Schmidt", "number": "4711"}]


def test_a_small_spreadsheet_that_claims_to_be_huge_is_read_as_large_as_a_member_list_can_be() -> None:
    """An XLSX file of a few KB may say its sheet is a million rows by 16,384 columns wide, and an ODS cell may say
    it holds two billion spaces: read as they stand, they would take the server's memory."""
    rows = [("Name", "Mitgliedsnummer"), ("Jörg Schmidt", "4711")]
    packed = zipfile.ZipFile(io.BytesIO(spreadsheet(rows, "xlsx")))
    claimed = io.BytesIO()
    with zipfile.ZipFile(claimed, "w") as repacked:
        for part in packed.infolist():
            data = packed.read(part.filename)
            if part.filename.startswith("xl/worksheets/"):
                data = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', data)
                assert b"XFD1048576" in data
            repacked.writestr(part, data)
    assert member_rows_read(claimed.getvalue()) == [{"row": 2, "name": "Jörg Schmidt", "number": "4711"}]

    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P, S

    document = OpenDocumentSpreadsheet()
    sheet = Table(name="Mitglieder")
    for name, number in (("Name", "Mitgliedsnummer"), ("Jörg", "4711")):
        row = TableRow()
        named = TableCell(valuetype="string")
        paragraph = P(text=name)
        if name == "Jörg":
            paragraph.addElement(S(c=2_000_000_000))
            paragraph.addText("Schmidt")
        named.addElement(paragraph)
        row.addElement(named)
        numbered = TableCell(valuetype="string")
        numbered.addElement(P(text=number))
        row.addElement(numbered)
        sheet.addElement(row)
    document.spreadsheet.addElement(sheet)
    written = io.BytesIO()
    document.write(written)
    assert member_rows_read(written.getvalue()) == [{"row": 2, "name": "Jörg Schmidt", "number": "4711"}]


@pytest.mark.parametrize(
    ("content", "refusal"),
    [
        (b"", "The file is empty."),
        (b"Name;Ort\nJ\xc3\xb6rg;Kiel\n", "No columns of names and member numbers found"),
        (b"Name;Mitgliedsnummer\n", "The file has no rows below its headings."),
        (b"Name;Mitgliedsnummer;ISPA-Nr.\nJ;1;2\n", "Two columns could be read as one (Mitgliedsnummer, ISPA-Nr.)"),
        (b"PK\x03\x04 not a spreadsheet", "This file could not be read"),
        (b"\xd0\xcf\x11\xe0 an old Excel file", "An old Excel file (.xls)"),
        (b"Name;Mitgliedsnummer\n" + b"A;1\n" * 5001, "A member list has at most 5000 rows."),
        (b"x" * (2 * 2**20 + 1), "A member list is at most 2 MB."),
    ],
    ids=[
        "empty",
        "no number column",
        "no rows",
        "two number columns",
        "broken zip",
        "xls",
        "too many rows",
        "too large",
    ],
)
def test_a_file_that_cannot_be_a_member_list_is_refused(content: bytes, refusal: str) -> None:
    with pytest.raises(Invalid) as refused:
        member_rows_read(content)
    assert refused.value.errors[0].field == "file"
    assert refusal in str(refused.value.errors[0].message)


# The preview


def kinds(preview: Preview) -> dict[int, Kind]:
    return {row.row: row.kind for row in preview.rows}


def test_each_row_is_matched_by_name_added_doubted_or_refused_with_its_row_number(club: Club) -> None:
    elsewhere("Karla Groß", "777")
    join_number(player=player(club, "Jörg Schmidt"), number="4711")
    content = csv_file(
        [
            ("Name", "Mitgliedsnummer"),
            ("Schmidt, Jörg", "4711"),  # 2: has it already
            ("Karl Klein", "777"),  # 3: the number is Karla Groß's
            ("Hans Müller", "1001"),  # 4: two players of that name
            ("Eva Neu", "1002"),  # 5: new
            ("Otto Bad", "10_02"),  # 6: not a number
            ("Ida Zwei", "2000"),  # 7 and 8: one number twice
            ("Ina Zwei", "2000"),
            ("Pia Pfau", ""),  # 9: no number at all
        ]
    )
    preview = member_import_preview(imported(club.keeper, content))
    assert kinds(preview) == {
        2: Kind.DONE,
        3: Kind.DOUBT,
        4: Kind.DOUBT,
        5: Kind.NEW,
        6: Kind.REFUSED,
        7: Kind.REFUSED,
        8: Kind.REFUSED,
        9: Kind.REFUSED,
    }
    rows = {row.row: row for row in preview.rows}
    assert str(rows[3].problem) == "The number 777 is joined to somebody of another name already."  # not whom
    assert [choice.code for choice in rows[3].choices] == ["skip", str(player(club, "Karl Klein").public_id)]
    assert str(rows[4].problem) == "2 players of this book are called Hans Müller: which one is it?"
    assert [choice.player.name if choice.player else choice.code for choice in rows[4].choices] == [
        "skip",
        "Hans Müller",
        "Müller, Hans",
    ]
    assert str(rows[6].problem) == "A federation number has up to 20 letters and digits."
    assert str(rows[7].problem) == "The number 2000 is in rows 7, 8: which is it?"
    assert str(rows[9].problem) == "No member number."


def test_a_name_spelt_otherwise_than_a_players_of_the_book_is_a_doubt_not_a_second_player_unseen(club: Club) -> None:
    join_number(player=player(club, "Karl Klein"), number="555")
    content = csv_file(
        [
            ("Name", "Mitgliedsnummer"),
            ("Joerg Schmidt", "4711"),  # 2: Jörg Schmidt, spelt out
            ("Hans Mueller", "1001"),  # 3: two players spelt alike
            ("Karl Klein", "556"),  # 4: the name itself: no doubt about who, refused as before
            ("Kärl Klein", "555"),  # 5: spelt alike and holding the number already
            ("Eva Neu", "1002"),  # 6: nobody alike: new
        ]
    )
    member_import = imported(club.keeper, content)
    preview = member_import_preview(member_import)
    assert kinds(preview) == {2: Kind.DOUBT, 3: Kind.DOUBT, 4: Kind.REFUSED, 5: Kind.DONE, 6: Kind.NEW}
    rows = {row.row: row for row in preview.rows}
    assert str(rows[2].problem) == (
        "Nobody of this book is called Joerg Schmidt, but spelt alike: Jörg Schmidt. The same, or a new player?"
    )
    assert [choice.player.name if choice.player else choice.code for choice in rows[2].choices] == [
        "skip",
        "Jörg Schmidt",
        "new",
    ]
    assert "but spelt alike: Hans Müller / Müller, Hans." in str(rows[3].problem)
    assert [choice.player.name if choice.player else choice.code for choice in rows[3].choices] == [
        "skip",
        "Hans Müller",
        "Müller, Hans",
        "new",
    ]
    assert rows[5].player == player(club, "Karl Klein")
    applied(member_import, r2=str(player(club, "Jörg Schmidt").public_id), r3="new")
    numbers = dict(Player.objects.filter(keeper=club.keeper).values_list("name", "person__federation_number"))
    assert (numbers["Jörg Schmidt"], numbers["Hans Mueller"], numbers["Eva Neu"]) == ("4711", "1001", "1002")
    assert numbers["Hans Müller"] is None


def test_a_name_whose_first_or_last_name_alone_is_a_players_of_the_book_is_a_doubt_not_a_second_player_unseen(
    club: Club,
) -> None:
    # Players entered at a table by their first or last name alone: the member list names them in full.
    for name in ("Aisha", "Anna", "Ömer", "Schmidt"):
        clubs.club_player_add(club=club, name=name)
    content = csv_file(
        [
            ("Name", "Mitgliedsnummer"),
            ("Aisha Demir", "4711"),  # 2: Aisha, in full
            ("Anna Schmidt", "1001"),  # 3: Anna, Schmidt, or another Anna Schmidt
            ("Müller, Anna", "1002"),  # 4: the same Anna, or a third
            ("OEMER Yilmaz", "1003"),  # 5: Ömer, in capitals and written out
            ("Jörg Weber", "1004"),  # 6: nobody of the book by the first name alone (Jörg Schmidt is no Jörg)
            ("Hans Mueller", "1005"),  # 7: spelt alike (two players) and nobody by the first name alone
            ("Eva Schmidt", "1006"),  # 8: Schmidt, known by the last name alone, or another Schmidt
            ("Aisha", "1007"),  # 9: the name itself: a match
        ]
    )
    member_import = imported(club.keeper, content)
    preview = member_import_preview(member_import)
    assert kinds(preview) == {
        2: Kind.DOUBT,
        3: Kind.DOUBT,
        4: Kind.DOUBT,
        5: Kind.DOUBT,
        6: Kind.NEW,
        7: Kind.DOUBT,
        8: Kind.DOUBT,
        9: Kind.MATCH,
    }
    rows = {row.row: row for row in preview.rows}
    assert str(rows[2].problem) == (
        "Nobody of this book is called Aisha Demir, but somebody by a shorter or longer form of the name: Aisha. The "
        "same, or a new player?"
    )
    offered = {row: [one.player.name if one.player else one.code for one in rows[row].choices] for row in rows}
    assert offered[2] == ["skip", "Aisha", "new"]
    assert offered[3] == ["skip", "Anna", "Schmidt", "new"]
    assert offered[4] == ["skip", "Anna", "new"]
    assert offered[5] == ["skip", "Ömer", "new"]
    assert offered[8] == ["skip", "Schmidt", "new"]
    assert offered[7] == ["skip", "Hans Müller", "Müller, Hans", "new"]
    assert "but spelt alike: Hans Müller / Müller, Hans." in str(rows[7].problem)

    # One Anna for two rows is refused, naming both, rather than either row given to her unasked.
    anna = str(player(club, "Anna").public_id)
    with pytest.raises(Conflict, match=r"Row 3 \(Anna Schmidt\): rows 3, 4 would all join Anna: choose one."):
        applied(member_import, r3=anna, r4=anna)
    assert not Join.objects.filter(player__keeper=club.keeper).exists()
    # Anna is Anna Schmidt; Anna Müller, left as she was, is skipped (not added, not joined to Anna).
    applied(member_import, r2="new", r3=anna, r5=str(player(club, "Ömer").public_id))
    numbers = dict(Player.objects.filter(keeper=club.keeper).values_list("name", "person__federation_number"))
    assert (numbers["Anna"], numbers["Ömer"], numbers["Aisha Demir"], numbers["Aisha"]) == (
        "1001",
        "1003",
        "4711",
        "1007",
    )
    assert numbers["Jörg Weber"] == "1004"
    assert "Anna Müller" not in numbers


def test_a_name_spelt_alike_and_a_shorter_form_of_it_are_offered_in_one_doubt(club: Club) -> None:
    clubs.club_player_add(club=club, name="Jörg")
    member_import = imported(club.keeper, csv_file([("Name", "Mitgliedsnummer"), ("Joerg Schmidt", "4711")]))
    (row,) = member_import_preview(member_import).rows
    assert row.kind == Kind.DOUBT
    assert str(row.problem) == (
        "Nobody of this book is called Joerg Schmidt, but spelt alike: Jörg Schmidt; by a shorter or longer form of "
        "the name: Jörg. The same, or a new player?"
    )
    assert [one.player.name if one.player else one.code for one in row.choices] == [
        "skip",
        "Jörg Schmidt",
        "Jörg",
        "new",
    ]


def test_a_name_with_more_or_fewer_words_than_a_players_is_a_doubt_not_a_second_player_unseen(club: Club) -> None:
    # The book knows them as they are called at the table; the member list has the name as the federation has it.
    for name in ("Anna Berg", "Maria Kühn", "Lisa Marie Lang", "Hans"):
        clubs.club_player_add(club=club, name=name)
    content = csv_file(
        [
            ("Name", "Mitgliedsnummer"),
            ("Anna Maria Berg", "2001"),  # 2: Anna Berg with her second first name
            ("Lisa Maria Kuehn", "2002"),  # 3: Maria Kühn, who goes by her second first name, spelt otherwise
            ("Lang, Lisa", "2003"),  # 4: Lisa Marie Lang without her second first name
            ("Karl Heinz Klein", "2004"),  # 5: Karl Klein in full
            ("Hans Peter Schmidt", "2005"),  # 6: Jörg Schmidt is no Hans Peter; Hans may be
            ("Ida Maria Berger", "2006"),  # 7: nobody of the book: new
        ]
    )
    member_import = imported(club.keeper, content)
    preview = member_import_preview(member_import)
    assert kinds(preview) == {2: Kind.DOUBT, 3: Kind.DOUBT, 4: Kind.DOUBT, 5: Kind.DOUBT, 6: Kind.DOUBT, 7: Kind.NEW}
    rows = {row.row: row for row in preview.rows}
    offered = {row: [one.player.name if one.player else one.code for one in rows[row].choices] for row in rows}
    assert offered[2] == ["skip", "Anna Berg", "new"]
    assert offered[3] == ["skip", "Maria Kühn", "new"]
    assert offered[4] == ["skip", "Lisa Marie Lang", "new"]
    assert offered[5] == ["skip", "Karl Klein", "new"]
    assert offered[6] == ["skip", "Hans", "new"]
    assert str(rows[2].problem) == (
        "Nobody of this book is called Anna Maria Berg, but somebody by a shorter or longer form of the name: Anna "
        "Berg. The same, or a new player?"
    )
    applied(
        member_import, r2=str(player(club, "Anna Berg").public_id), r4=str(player(club, "Lisa Marie Lang").public_id)
    )
    numbers = dict(Player.objects.filter(keeper=club.keeper).values_list("name", "person__federation_number"))
    assert (numbers["Anna Berg"], numbers["Lisa Marie Lang"], numbers["Ida Maria Berger"]) == ("2001", "2003", "2006")
    assert "Anna Maria Berg" not in numbers
    assert "Karl Heinz Klein" not in numbers
    assert numbers["Karl Klein"] is None


def test_a_number_another_player_of_the_book_holds_and_two_rows_of_one_player_are_refused(club: Club) -> None:
    join_number(player=player(club, "Karl Klein"), number="555")
    content = csv_file(
        [("Name", "Mitgliedsnummer"), ("Karl Kleine", "555"), ("Jörg Schmidt", "1"), ("Schmidt Jörg", "2")]
    )
    rows = {row.row: row for row in member_import_preview(imported(club.keeper, content)).rows}
    assert rows[2].kind == Kind.REFUSED
    assert str(rows[2].problem) == "The number 555 is Karl Klein's in this book already."
    assert (rows[3].kind, rows[4].kind) == (Kind.REFUSED, Kind.REFUSED)
    assert str(rows[3].problem) == "The name Jörg Schmidt is in rows 3, 4: a book has one of a name."


def test_the_preview_costs_the_same_however_many_rows(club: Club) -> None:
    def counted(rows: int) -> int:
        lines = [("Name", "Mitgliedsnummer"), *((f"Spieler {row}", str(row)) for row in range(rows))]
        member_import = imported(club.keeper, csv_file(lines))
        for row in range(0, rows, 3):
            elsewhere(f"Spieler {row}", str(row))
        with CaptureQueriesContext(connection) as queries:
            member_import_preview(member_import)
        return len(queries)

    assert counted(3) == counted(60)


# The pages


def upload(client: Client, book: Keeper, content: bytes, name: str = "mitglieder.csv") -> Any:
    return client.post(reverse("member_imports", args=[book.pk]), {"file": SimpleUploadedFile(name, content)})


def test_the_secretary_previews_decides_the_doubts_with_a_tap_and_joins_the_players_in_one_batch(club: Club) -> None:
    karla = elsewhere("Karla Groß", "777")
    secretary = signed_in(User.objects.get(username="sina"))
    roster = secretary.get(reverse("club_roster", args=[club.public_id]))
    assert reverse("member_imports", args=[club.keeper_id]) in roster.content.decode()
    assert "Import member numbers" in text_of(roster)
    rows = [("Vorname", "Nachname", "Mitgliedsnummer"), ("Jörg", "Schmidt", "4711"), ("Karl", "Klein", "777")]
    rows += [("Hans", "Müller", "1001"), ("Eva", "Neu", "1002"), ("Otto", "Bad", "10;02")]
    sent = upload(secretary, club.keeper, spreadsheet(rows, "xlsx"), "mitglieder.xlsx")
    member_import = MemberImport.objects.get(keeper=club.keeper)
    assert sent.status_code == 302
    assert sent["Location"] == reverse("member_import", args=[member_import.public_id])
    assert not Join.objects.filter(player__keeper=club.keeper).exists()

    page = secretary.get(sent["Location"])
    shown = text_of(page)
    assert "1 row matches a player of the book." in shown
    assert "1 new player is added." in shown
    assert "2 doubts for you to decide." in shown
    assert (
        "Refused rows Row Name Number Why 6 Otto Bad 10;02 A federation number has up to 20 letters and digits."
        in shown
    )
    assert "Join 2 players and the doubts as decided" in shown
    body = page.content.decode()
    # Each doubt is one row of taps, skipping preselected.
    assert body.count('value="skip" id="id_d-3_0" checked') == 1
    assert body.count('value="skip" id="id_d-4_0" checked') == 1
    plan = re.search(r'name="plan" value="([^"]+)"', body)
    assert plan is not None

    hans = player(club, "Müller, Hans")
    done = secretary.post(
        reverse("member_import_apply", args=[member_import.public_id]),
        {"plan": html.unescape(plan[1]), "d-4": str(hans.public_id)},
        follow=True,
    )
    assert "3 players joined." in text_of(done)
    member_import.refresh_from_db()
    assert member_import.state == MemberImport.State.APPLIED
    assert member_import.applied_by == User.objects.get(username="sina")
    numbers = dict(Player.objects.filter(keeper=club.keeper).values_list("name", "person__federation_number"))
    assert numbers == {
        "Jörg Schmidt": "4711",
        "Karl Klein": None,  # the doubt left as it was: skipped
        "Hans Müller": None,
        "Müller, Hans": "1001",  # the doubt decided with a tap
        "Eva Neu": "1002",  # added
    }
    assert list(member_import.added.values_list("name", flat=True)) == ["Eva Neu"]
    assert set(Join.objects.filter(player__keeper=club.keeper).values_list("batch", flat=True)) == {member_import.batch}
    assert Player.objects.get(pk=karla.pk).person.federation_number == "777"  # type: ignore[union-attr]
    assert "Undo this import" in text_of(done)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "Row 2: Aisha Demir, 4711 Skip: join nobody to this number Join Aisha Add Aisha Demir as a new player "
            "Nobody of this book is called Aisha Demir, but somebody by a shorter or longer form of the name: Aisha. "
            "The same, or a new player?",
        ),
        (
            "de",
            "Zeile 2: Aisha Demir, 4711 Überspringen: niemanden mit dieser Nummer verbinden Aisha verbinden "
            "Aisha Demir als neuen Spieler hinzufügen Niemand in diesem Buch heißt Aisha Demir, aber jemand mit einer "
            "kürzeren oder längeren Form des Namens: Aisha. Dieselbe Person oder ein neuer Spieler?",
        ),
    ],
)
def test_the_page_asks_whether_a_name_in_full_is_the_player_known_by_a_shorter_form_of_it(
    club: Club, language: str, said: str
) -> None:
    clubs.club_player_add(club=club, name="Aisha")
    secretary = signed_in(User.objects.get(username="sina"))
    secretary.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    sent = upload(secretary, club.keeper, csv_file([("Name", "Mitgliedsnummer"), ("Aisha Demir", "4711")]))
    page = secretary.get(sent["Location"])
    shown = text_of(page)
    assert said in shown
    assert 'value="skip" id="id_d-2_0" checked' in page.content.decode()


def test_a_doubt_about_a_number_joined_elsewhere_joins_when_the_secretary_says_so(club: Club) -> None:
    karla = elsewhere("Karla Groß", "777")
    member_import = imported(club.keeper, csv_file([("Name", "Mitgliedsnummer"), ("Karl Klein", "777")]))
    klein = player(club, "Karl Klein")
    with pytest.raises(Invalid, match="Nothing to join"):
        applied(member_import)
    applied(member_import, r2=str(klein.public_id))
    assert Player.objects.get(pk=klein.pk).person == Player.objects.get(pk=karla.pk).person


def test_the_page_shows_why_a_file_is_refused_next_to_the_field(club: Club) -> None:
    secretary = signed_in(User.objects.get(username="sina"))
    page = secretary.get(reverse("member_imports", args=[club.keeper_id]))
    body = page.content.decode()
    assert page.status_code == 200
    assert 'type="file"' in body
    assert 'accept=".csv,.xlsx,.ods,' in body
    refused = upload(secretary, club.keeper, b"Name;Ort\nAnna;Kiel\n")
    assert refused.status_code == 400
    body = refused.content.decode()
    assert 'id="id_file_error"' in body
    assert 'aria-invalid="true"' in body
    assert "No columns of names and member numbers found" in text_of(refused)
    assert upload(secretary, club.keeper, b"").status_code == 400
    assert not MemberImport.objects.exists()


def test_only_who_keeps_the_book_meets_its_imports(club: Club) -> None:
    member_import = imported(club.keeper, csv_file([HEADINGS, *MEMBERS]))
    plan = member_import_preview(member_import).plan
    addresses: list[tuple[str, str, dict[str, Any]]] = [
        ("get", reverse("member_imports", args=[club.keeper_id]), {}),
        ("post", reverse("member_imports", args=[club.keeper_id]), {"file": SimpleUploadedFile("a.csv", b"")}),
        ("get", reverse("member_import", args=[member_import.public_id]), {}),
        ("post", reverse("member_import_apply", args=[member_import.public_id]), {"plan": plan}),
        ("post", reverse("member_import_undo", args=[member_import.public_id]), {}),
        ("post", reverse("member_import_discard", args=[member_import.public_id]), {}),
    ]
    make_user("mallory")
    for name in ("mallory", "ben"):
        visitor = signed_in(User.objects.get(username=name))
        for method, address, data in addresses:
            assert getattr(visitor, method)(address, data).status_code in (403, 404), (name, address)
    assert Client().get(addresses[0][1]).status_code == 302
    owner = signed_in(User.objects.get(username="olga"))
    assert owner.get(addresses[0][1]).status_code == 200
    assert owner.get(reverse("member_imports", args=[999_999])).status_code == 404
    member_import.refresh_from_db()
    assert member_import.state == MemberImport.State.READ
    assert not Join.objects.exists()
    # One's own book is kept the same way.
    own = Keeper.objects.create(user=User.objects.get(username="mallory"))
    assert signed_in(own.user).get(reverse("member_imports", args=[own.pk])).status_code == 200  # type: ignore[arg-type]


def test_applying_twice_applies_once(club: Club) -> None:
    member_import = imported(club.keeper, csv_file([HEADINGS, *MEMBERS]))
    plan = member_import_preview(member_import).plan
    member_import_apply(member_import=member_import, by=None, plan=plan, decisions={})
    joins = list(Join.objects.values_list("pk", flat=True))
    with pytest.raises(Conflict, match="applied already"):
        member_import_apply(member_import=member_import, by=None, plan=plan, decisions={})
    assert list(Join.objects.values_list("pk", flat=True)) == joins
    assert Player.objects.filter(keeper=club.keeper, name="Eva Neu").count() == 1
    again = signed_in(User.objects.get(username="sina")).post(
        reverse("member_import_apply", args=[member_import.public_id]), {"plan": plan}, follow=True
    )
    assert "This import was applied already." in text_of(again)
    assert list(Join.objects.values_list("pk", flat=True)) == joins


def test_a_number_joined_since_the_preview_refuses_the_whole_import_naming_the_row(club: Club) -> None:
    member_import = imported(club.keeper, csv_file([HEADINGS, *MEMBERS]))
    plan = member_import_preview(member_import).plan
    # Meanwhile another secretary gives Eva's number to a player of another book, under another name.
    elsewhere("Evelyn Alt", "DSKV0815")
    joins = Join.objects.count()
    secretary = signed_in(User.objects.get(username="sina"))
    refused = secretary.post(reverse("member_import_apply", args=[member_import.public_id]), {"plan": plan})
    assert refused.status_code == 409
    assert (
        "Row 3 (Eva Neu) changed since the preview: The number DSKV0815 is joined to somebody of another name already."
        in text_of(refused)
    )
    assert Join.objects.count() == joins
    assert not Player.objects.filter(keeper=club.keeper, name="Eva Neu").exists()
    assert Player.objects.get(keeper=club.keeper, name="Jörg Schmidt").person is None
    member_import.refresh_from_db()
    assert member_import.state == MemberImport.State.READ
    # The page shows the preview as it is now: the row a doubt, skipped unless decided.
    body = refused.content.decode()
    assert 'value="skip" id="id_d-3_0" checked' in body


def test_undoing_puts_every_player_back_and_removes_the_players_it_added_that_have_played_nothing(club: Club) -> None:
    anna = make_user("anna")
    joerg = player(club, "Jörg Schmidt")
    linked = clubs.club_player_add(club=club, name="Anna Alt")
    player_link(player=linked, account=anna)
    hans = elsewhere("Hans Müller", "1001")
    content = csv_file(
        [
            ("Name", "Mitgliedsnummer"),
            ("Jörg Schmidt", "4711"),  # a new person for the number
            ("Anna Alt", "42"),  # the number given to her account's person
            ("Eva Neu", "1002"),  # added, plays nothing
            ("Ida Neu", "1003"),  # added, checked in at a night since
        ]
    )
    member_import = applied(imported(club.keeper, content))
    assert Person.objects.get(account=anna).federation_number == "42"
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    clubs.check_in(night=night, player=player(club, "Ida Neu"))

    secretary = signed_in(User.objects.get(username="sina"))
    undone = secretary.post(reverse("member_import_undo", args=[member_import.public_id]), follow=True)
    shown = text_of(undone)
    assert "The import is undone" in shown
    assert "Players removed: Eva Neu." in shown
    assert "Players kept, as they have played or were linked since: Ida Neu." in shown
    assert Player.objects.get(pk=joerg.pk).person is None
    assert Person.objects.get(account=anna).federation_number is None
    assert Player.objects.get(pk=linked.pk).person == Person.objects.get(account=anna)
    assert not Player.objects.filter(keeper=club.keeper, name="Eva Neu").exists()
    assert Player.objects.get(keeper=club.keeper, name="Ida Neu").person is None
    assert Player.objects.get(pk=hans.pk).person.federation_number == "1001"  # type: ignore[union-attr]
    assert not Join.objects.filter(batch=member_import.batch, undone_at__isnull=True).exists()
    member_import.refresh_from_db()
    assert member_import.state == MemberImport.State.UNDONE
    assert member_import.kept == ["Ida Neu"]
    assert "Undo this import" not in text_of(secretary.get(reverse("member_import", args=[member_import.public_id])))
    # Undoing again changes nothing.
    assert member_import_undo(member_import=member_import, by=None).removed == []


def test_undoing_takes_back_every_number_the_import_gave_or_carried_over(club: Club) -> None:
    # Karl Klein of the club is one person with a league's Karl Klein (a roster paired them), without a number; a
    # tournament's Karl Klein holds the number 888. Jörg Schmidt is an account's person, without a number.
    klein = player(club, "Karl Klein")
    league = Player.objects.create(keeper=Keeper.objects.create(), name="Karl Klein", name_key="karl klein")
    join_roster(player=klein, league_player=league)
    tournament = elsewhere("Karl Klein", "888")
    player_link(player=player(club, "Jörg Schmidt"), account=make_user("joerg"))
    rows = [("Name", "Mitgliedsnummer"), ("Jörg Schmidt", "4711"), ("Karl Klein", "888")]
    member_import = applied(imported(club.keeper, csv_file(rows)))
    karl = Person.objects.get(players=klein)
    assert set(karl.players.all()) == {klein, league, tournament}
    assert karl.federation_number == "888"
    assert Person.objects.get(account__username="joerg").federation_number == "4711"

    member_import_undo(member_import=member_import, by=None)
    back = Person.objects.get(players=tournament)
    assert back.federation_number == "888"
    assert set(back.players.all()) == {tournament}
    assert set(Person.objects.get(players=klein).players.all()) == {klein, league}
    assert Person.objects.get(players=klein).federation_number is None
    assert Person.objects.get(account__username="joerg").federation_number is None


def test_an_import_whose_player_was_joined_again_since_is_not_undone(club: Club) -> None:
    member_import = applied(imported(club.keeper, csv_file([("Name", "Mitgliedsnummer"), ("Jörg Schmidt", "4711")])))
    player_link(player=player(club, "Jörg Schmidt"), account=make_user("joerg"))
    with pytest.raises(Conflict, match="Jörg Schmidt was joined again since this import"):
        member_import_undo(member_import=member_import, by=None)
    member_import.refresh_from_db()
    assert member_import.state == MemberImport.State.APPLIED


def test_a_member_list_lists_the_books_past_imports(club: Club) -> None:
    secretary = signed_in(User.objects.get(username="sina"))
    upload(secretary, club.keeper, csv_file([HEADINGS, *MEMBERS]), "liste-2026.csv")
    page = text_of(secretary.get(reverse("member_imports", args=[club.keeper_id])))
    assert "Past imports" in page
    assert "liste-2026.csv" in page
    assert "sina" in page
    assert "Skatclub Herz Dame" in page


def test_a_list_not_applied_is_thrown_away_by_a_tap_or_after_thirty_days_and_an_applied_one_never(club: Club) -> None:
    secretary = signed_in(User.objects.get(username="sina"))
    upload(secretary, club.keeper, csv_file([HEADINGS, *MEMBERS]), "liste-2026.csv")
    member_import = MemberImport.objects.get(keeper=club.keeper)
    preview = secretary.get(reverse("member_import", args=[member_import.public_id]))
    assert "Throw this list away" in text_of(preview)
    thrown = secretary.post(reverse("member_import_discard", args=[member_import.public_id]), follow=True)
    assert "The member list is thrown away: nothing was joined." in text_of(thrown)
    assert "liste-2026.csv" not in text_of(thrown)
    assert not MemberImport.objects.exists()
    assert not Join.objects.exists()
    assert secretary.post(reverse("member_import_discard", args=[member_import.public_id])).status_code == 404
    # A tap on the preview's join, in another tab, after the list was thrown away: nothing is joined, and it says why.
    with pytest.raises(Gone):
        member_import_apply(member_import=member_import, by=None, plan="", decisions={})
    member_import_discard(member_import=member_import)

    kept = applied(imported(club.keeper, csv_file([HEADINGS, *MEMBERS])))
    refused = secretary.post(reverse("member_import_discard", args=[kept.public_id]), follow=True)
    assert "This import was applied: undo it instead." in text_of(refused)
    undone = applied(imported(club.keeper, csv_file([HEADINGS, ("Ida", "Neu", "3001")])))
    member_import_undo(member_import=undone, by=None)
    with pytest.raises(Conflict, match="undone: it stays"):
        member_import_discard(member_import=undone)
    old = imported(club.keeper, csv_file([HEADINGS, *MEMBERS]))
    recent = imported(club.keeper, csv_file([HEADINGS, *MEMBERS]))
    month_ago = timezone.now() - UNAPPLIED_KEPT
    MemberImport.objects.filter(pk__in=[old.pk, kept.pk]).update(created_at=month_ago)
    forget_expired()
    assert set(MemberImport.objects.values_list("pk", flat=True)) == {kept.pk, undone.pk, recent.pk}


def test_joining_a_list_thrown_away_meanwhile_says_so(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    secretary = signed_in(User.objects.get(username="sina"))
    member_import = imported(club.keeper, csv_file([HEADINGS, *MEMBERS]))
    plan = member_import_preview(member_import).plan

    def thrown_away_first(**given: Any) -> MemberImport:
        # The other tab's tap lands between this one's reading the import and its joining.
        member_import_discard(member_import=given["member_import"])
        return member_import_apply(**given)

    # The module, not the view of its name that ``matches.views`` exports.
    monkeypatch.setattr(
        importlib.import_module("matches.views.member_imports"), "member_import_apply", thrown_away_first
    )
    sent = secretary.post(reverse("member_import_apply", args=[member_import.public_id]), {"plan": plan}, follow=True)
    assert sent.redirect_chain[-1][0] == reverse("member_imports", args=[club.keeper_id])
    assert "This member list was thrown away: nothing was joined." in text_of(sent)
    assert not Join.objects.exists()


def test_a_preview_of_thousands_of_doubts_is_answered_in_one_tap(club: Club) -> None:
    # Every row a doubt: two players of its name in the book. The form sends an answer a doubt, far more fields than
    # Django lets a form send unless told.
    names = [f"Spieler {chr(65 + one // 676)}{chr(97 + one // 26 % 26)}{chr(97 + one % 26)}" for one in range(1100)]
    Player.objects.bulk_create(
        Player(keeper=club.keeper, name=written, name_key=name_key(written))
        for name in names
        for written in (name, ", ".join(reversed(name.split(" "))))
    )
    rows = [(name, str(4000 + row)) for row, name in enumerate(names)]
    member_import = imported(club.keeper, csv_file([("Name", "Mitgliedsnummer"), *rows]))
    preview = member_import_preview(member_import)
    assert len(preview.of(Kind.DOUBT)) == len(names)
    answers = {f"d-{row.row}": SKIP for row in preview.of(Kind.DOUBT)}
    first = preview.of(Kind.DOUBT)[0]
    answers[f"d-{first.row}"] = first.choices[1].code
    secretary = signed_in(User.objects.get(username="sina"))
    sent = secretary.post(
        reverse("member_import_apply", args=[member_import.public_id]), {"plan": preview.plan, **answers}
    )
    assert sent.status_code == 302
    assert Join.objects.filter(player__keeper=club.keeper).count() == 1
    # A list of as many rows as it may have: each a doubt, with the plan and the form's token beside them.
    assert settings.DATA_UPLOAD_MAX_NUMBER_FIELDS >= MAX_ROWS + 2


def test_each_players_words_are_read_once_a_pass_however_many_rows_share_a_word_with_them(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows of a shorter or longer form of a name are looked for among the players sharing a word with them: each
    player's words are read once for the whole list, not again for every row (a list of thousands against a book of
    thousands, all of them sharing a first name or two)."""
    book = ("Anna Berg", "Anna Lang", "Anna Roth", "Anna Kühn")
    for name in book:
        clubs.club_player_add(club=club, name=name)
    rows = [(f"Anna {last}", str(2000 + number)) for number, last in enumerate(("Albers", "Brandt", "Claus", "Dorn"))]
    member_import = imported(club.keeper, csv_file([("Name", "Mitgliedsnummer"), *rows]))
    read: list[str] = []
    words = member_imports.alike_words

    def counted(name: str) -> frozenset[str]:
        read.append(name)
        return words(name)

    monkeypatch.setattr(member_imports, "alike_words", counted)
    preview = member_import_preview(member_import)
    assert kinds(preview) == {2: Kind.NEW, 3: Kind.NEW, 4: Kind.NEW, 5: Kind.NEW}
    assert {name: read.count(name) for name in book} == dict.fromkeys(book, 1)
    read.clear()
    member_import_apply(member_import=member_import, by=None, plan=preview.plan, decisions={})
    assert {name: read.count(name) for name in book} == dict.fromkeys(book, 1)
    assert Player.objects.filter(keeper=club.keeper, name__startswith="Anna ").count() == 8
