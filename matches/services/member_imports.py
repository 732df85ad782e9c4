"""Member numbers in bulk: a federation's member list (CSV, XLSX or ODS) brought into a book by its keeper, a club's
secretary (``docs/rules.md``, "Member numbers in bulk").

The file is read into rows (each row's number in the file, the name and the member number as written), kept with
the import (``MemberImport``). Each row is then checked and matched to the book's players by name, afresh whenever
the preview is shown: one player of that name (the words of the name in any order, ``Müller, Hans`` as ``Hans
Müller``) is a match, nobody of that name a new player, two or more a doubt; nobody of that name but a player of a
name spelt alike, or of a shorter or longer form of it (``Aisha`` or ``Aisha Demir`` for ``Aisha Nur Demir``, and
``Aisha Nur Demir`` for ``Aisha Demir``), is a doubt too, as is a number joined to somebody of another name; a row
that cannot be joined is refused with its reason. Nothing is joined until the keeper confirms the preview: the apply
step reads it all again under the book's lock, refuses the whole import (naming the row) where anything changed
since the preview, and joins every row as decided in one batch of joins, which one undo takes back."""

from __future__ import annotations

import contextlib
import csv
import datetime
import hashlib
import io
import re
import unicodedata
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

import openpyxl
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from ..engine import FieldError, Message
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict, Gone, Invalid, ServiceError
from ..models import Join, Keeper, MemberImport, Person, Player
from ..names import BadName, name_key, normalize_name
from .people import checked_federation_number, join_number, join_undo
from .rankings import rankings_follow_people

# What a member list may be: a file up to this size, with up to this many rows below its headings.
MAX_BYTES = 2 * 2**20
MAX_ROWS = 5000
# What a spreadsheet (a ZIP file) may unpack to: a member list of 5,000 rows takes a few MB.
MAX_UNPACKED = 20 * 2**20
# The headings are looked for in the first rows (a list may have a title above them).
HEADING_ROWS = 10
# The columns read at most in a row of a spreadsheet (an ODS file writes its empty cells as one, repeated; an XLSX
# file may say it is wider than it is), and the rows, empty ones included, read at most of an XLSX sheet.
MAX_COLUMNS = 100
MAX_SHEET_ROWS = 4 * MAX_ROWS
# What a cell of an ODS file is read to at most, and a run of spaces in it (``text:s`` says how many it stands for).
MAX_CELL = 1000
MAX_SPACES = 100
# Rows looked up at a time (the database's limit of values in one statement).
CHUNK = 500
# How long a member list read but neither applied nor discarded is kept: its rows name a federation's members.
UNAPPLIED_KEPT = datetime.timedelta(days=30)
THROWN_AWAY = gettext_noop("This member list was thrown away: nothing was joined.")

# The headings read, compared in lower case without spaces, dots, hyphens, underscores and slashes: "Mitglieds-Nr."
# is "mitgliedsnr". A plain "Nr." is not among them: many lists number their rows so.
NAME_HEADINGS = frozenset({"name", "spieler", "spielername", "player", "playername", "fullname", "mitglied"})
FIRST_NAME_HEADINGS = frozenset({"vorname", "firstname", "givenname", "forename"})
LAST_NAME_HEADINGS = frozenset({"nachname", "familienname", "lastname", "surname", "familyname"})
NUMBER_HEADINGS = frozenset(
    {
        "mitgliedsnummer",
        "mitgliedsnr",
        "mitgliednr",
        "mitgliedernummer",
        "mitgliedernr",
        "membernumber",
        "memberno",
        "membernr",
        "memberid",
        "membershipnumber",
        "dskvnr",
        "dskvnummer",
        "dskvmitgliedsnummer",
        "dskv",
        "ispa",
        "ispanr",
        "ispanummer",
        "verbandsnummer",
        "federationnumber",
        "passnummer",
        "passnr",
        "spielerpassnummer",
        "spielerpassnr",
    }
)
HEADING_NOISE = re.compile(r"[\s.\-_/#:]+")
# What separates the words of a name when names are compared: "Müller, Hans" and "Hans Müller" are one name.
NAME_NOISE = re.compile(r"[\s,.;\-'\"()]+")
# An umlaut written out ("ae", "oe", "ue"), read as its plain vowel where names are compared for their spelling.
WRITTEN_OUT = re.compile(r"([aou])e")

SKIP = "skip"
NEW = "new"


class Kind(StrEnum):
    """What the preview proposes for a row."""

    MATCH = "match"  # the one player of that name joined to the number
    NEW = "new"  # nobody of that name: added as a new player and joined
    DOUBT = "doubt"  # the keeper decides: which player, a new one, or nothing
    DONE = "done"  # the player has this number already
    REFUSED = "refused"  # cannot be joined, and why


@dataclass(frozen=True)
class Choice:
    """One answer to a doubt: ``code`` is what the form sends (``skip``, ``new``, or a player's public id);
    ``player`` the player joined (None: a new one, or nothing); ``doubt`` what speaks against it."""

    code: str
    player: Player | None = None
    doubt: Message | None = None


@dataclass(frozen=True)
class RowPlan:
    """A row of the file as the preview shows it: its number in the file, the name and number as read, what is
    proposed, the player matched, the reason for a refusal or a doubt, and a doubt's choices (skipping first)."""

    row: int
    name: str
    number: str
    kind: Kind
    player: Player | None = None
    problem: Message | None = None
    choices: tuple[Choice, ...] = ()

    @property
    def seen(self) -> str:
        """What the preview showed of the row, in a few letters: an apply that finds another is refused."""
        shown = (
            self.kind,
            self.name,
            self.number,
            self.player.public_id if self.player else None,
            self.problem,
            tuple((choice.code, choice.doubt) for choice in self.choices),
        )
        return self.kind[0] + hashlib.blake2s(repr(shown).encode(), digest_size=5).hexdigest()


@dataclass(frozen=True)
class Preview:
    rows: list[RowPlan]

    @property
    def plan(self) -> str:
        """Every row as the preview showed it, for the form to send back with the keeper's decisions."""
        return ";".join(f"{row.row}={row.seen}" for row in self.rows)

    def of(self, kind: Kind) -> list[RowPlan]:
        return [row for row in self.rows if row.kind == kind]


@dataclass(frozen=True)
class Undone:
    """An import undone: the names of the players it added that were removed, and of those kept (they have played
    or were linked since)."""

    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def _refused(template: str, **params: int | str | Message) -> Invalid:
    return Invalid.on("file", template, **params)


# Reading the file


def member_rows_read(content: bytes) -> list[dict[str, Any]]:
    """The rows of a member list (CSV with ``;`` or ``,``, in UTF-8 with or without its mark, or Windows' Western
    encoding; XLSX; ODS): each as its row number in the file, the name (first and last name joined where the list
    has them apart) and the number, as written. ``Invalid`` (at ``file``) for a file that is none of these, too
    large, empty, or without columns of names and numbers."""
    if not content:
        raise _refused(gettext_noop("The file is empty."))
    if len(content) > MAX_BYTES:
        raise _refused(gettext_noop("A member list is at most {size} MB."), size=MAX_BYTES // 2**20)
    sheet = _sheet(content)
    heading, columns = _heading(sheet)
    rows: list[dict[str, Any]] = []
    for number, cells in sheet:
        if number <= heading:
            continue
        name, member_number = _name(cells, columns), _cell(cells, columns["number"])
        if not name and not member_number:
            continue
        if len(rows) == MAX_ROWS:
            raise _refused(gettext_noop("A member list has at most {count} rows."), count=MAX_ROWS)
        rows.append({"row": number, "name": name[:200], "number": member_number[:100]})
    if not rows:
        raise _refused(gettext_noop("The file has no rows below its headings."))
    return rows


Sheet = list[tuple[int, list[Any]]]


def _sheet(content: bytes) -> Sheet:
    """The first sheet's rows that hold anything, each with its row number."""
    if content.startswith(b"PK\x03\x04"):
        return _spreadsheet(content)
    if content.startswith(b"\xd0\xcf\x11\xe0"):
        raise _refused(gettext_noop("An old Excel file (.xls): save it as .xlsx or .csv and bring that."))
    return _csv(_text(content))


def _spreadsheet(content: bytes) -> Sheet:
    """The first sheet of an XLSX file or an ODS file."""
    unreadable = _refused(gettext_noop("This file could not be read: bring a CSV, XLSX or ODS file."))
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as packed:
            if sum(part.file_size for part in packed.infolist()) > MAX_UNPACKED:
                raise _refused(gettext_noop("This spreadsheet is too large: save it as CSV and bring that."))
            names = set(packed.namelist())
            kind = packed.read("mimetype").decode("ascii", "replace").strip() if "mimetype" in names else ""
        if kind == "application/vnd.oasis.opendocument.spreadsheet":
            return _ods(content)
        if "xl/workbook.xml" in names:
            return _xlsx(content)
    except Invalid:
        raise
    # A damaged spreadsheet fails in many ways inside the readers (a broken ZIP file, missing parts, bad XML).
    except Exception:
        raise unreadable from None
    raise unreadable


def _xlsx(content: bytes) -> Sheet:
    """The first sheet of an XLSX file, read a row at a time and only as wide and as long as a member list can be
    (whatever size the sheet says it has: a small file may claim a million columns)."""
    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        sheet.reset_dimensions()
        rows: Sheet = []
        for number, cells in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True), start=1):
            if any(_filled(cells)):
                rows.append((number, list(cells)))
            if len(rows) > MAX_ROWS + HEADING_ROWS or number > MAX_SHEET_ROWS:
                break
        return rows
    finally:
        book.close()


def _ods_text(node: Any) -> str:
    """A cell's paragraph as text, its runs of spaces (``text:s``) no longer than a name's."""
    parts = []
    for child in node.childNodes:
        if child.nodeType == child.TEXT_NODE:
            parts.append(str(child.data))
        elif child.qname[1] == "s":
            parts.append(" " * min(int(child.getAttribute("c") or 1), MAX_SPACES))
        elif child.qname[1] == "tab":
            parts.append(" ")
        elif child.qname[1] == "line-break":
            parts.append("\n")
        else:
            parts.append(_ods_text(child))
        if sum(map(len, parts)) > MAX_CELL:
            break
    return "".join(parts)[:MAX_CELL]


def _ods(content: bytes) -> Sheet:
    """The first table of an ODS file. Not tablib's reader: it leaves out empty rows (the row numbers would move)
    and the empty cells an ODS file writes as one repeated cell (the columns would move under other headings)."""
    from odf import opendocument
    from odf.table import Table, TableRow
    from odf.text import P

    document = opendocument.load(io.BytesIO(content))
    tables = document.spreadsheet.getElementsByType(Table)
    rows: Sheet = []
    number = 0
    for row in tables[0].getElementsByType(TableRow) if tables else []:
        cells: list[Any] = []
        for cell in row.childNodes:
            if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                continue
            if cell.getAttribute("valuetype") in ("float", "percentage", "currency"):
                written = cell.getAttribute("value") or ""
                value: Any = Decimal(written) if re.fullmatch(r"-?\d+(\.\d+)?", written) else written
            else:
                value = "\n".join(_ods_text(part) for part in cell.getElementsByType(P))
            repeated = int(cell.getAttribute("numbercolumnsrepeated") or 1)
            cells += [value] * min(repeated, MAX_COLUMNS - len(cells))
            if len(cells) >= MAX_COLUMNS:
                break
        repeated = int(row.getAttribute("numberrowsrepeated") or 1)
        if any(_filled(cells)):
            rows += [(number + step, cells) for step in range(1, min(repeated, MAX_ROWS + HEADING_ROWS) + 1)]
        number += repeated
        if len(rows) > MAX_ROWS + HEADING_ROWS:
            break
    return rows


def _text(content: bytes) -> str:
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings: tuple[str, ...] = ("utf-16",)
    else:
        encodings = ("utf-8-sig", "cp1252")
    for encoding in encodings:
        try:
            text = content.decode(encoding)
        except UnicodeDecodeError:
            continue
        if "\x00" not in text:
            return text
    raise _refused(gettext_noop("This file could not be read: bring a CSV, XLSX or ODS file."))


def _csv(text: str) -> Sheet:
    """The rows of a CSV text, separated by ``;`` or ``,`` (whichever its first lines hold more of; a tab where
    they hold neither). Not tablib's reader: it leaves out empty lines, and the row numbers would move."""
    head = "\n".join(text.splitlines()[:HEADING_ROWS])
    counts = {delimiter: head.count(delimiter) for delimiter in (";", ",", "\t")}
    delimiter = max((";", ","), key=lambda one: counts[one]) if counts[";"] or counts[","] else "\t"
    rows: Sheet = []
    try:
        for number, cells in enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), start=1):
            if any(_filled(cells)):
                rows.append((number, cells[:MAX_COLUMNS]))
            if len(rows) > MAX_ROWS + HEADING_ROWS:
                break
    except csv.Error:
        raise _refused(gettext_noop("This file could not be read: bring a CSV, XLSX or ODS file.")) from None
    return rows


def _filled(cells: Iterable[Any]) -> Iterator[bool]:
    return (_text_of(cell) != "" for cell in cells)


def _text_of(value: Any) -> str:
    """A cell as text: a whole number without its ".0" (a spreadsheet keeps member numbers as numbers)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return str(int(value))
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return " ".join(str(value).split())


def _cell(cells: Sequence[Any], index: int | None) -> str:
    return _text_of(cells[index]) if index is not None and index < len(cells) else ""


def _heading_key(value: Any) -> str:
    return HEADING_NOISE.sub("", unicodedata.normalize("NFKC", _text_of(value)).casefold())


def _heading(sheet: Sheet) -> tuple[int, dict[str, int | None]]:
    """The row of the headings (among the first rows) and the columns of the name (or of the first and the last
    name) and of the number. Refused where none is found, or where two columns could be the names or numbers."""
    for number, cells in sheet[:HEADING_ROWS]:
        keys = [_heading_key(cell) for cell in cells]
        found: dict[str, list[int]] = defaultdict(list)
        for index, key in enumerate(keys):
            for kind, headings in (
                ("name", NAME_HEADINGS),
                ("first", FIRST_NAME_HEADINGS),
                ("last", LAST_NAME_HEADINGS),
                ("number", NUMBER_HEADINGS),
            ):
                if key in headings:
                    found[kind].append(index)
        if found["first"] and not found["last"] and found["name"]:
            # "Vorname" and "Name": the name is the last name.
            found["last"], found["name"] = found["name"], []
        if found["first"] and found["last"]:
            found["name"] = []
        names = found["name"] or (found["first"] and found["last"])
        if not found["number"] or not names:
            continue
        for kind in ("name", "first", "last", "number"):
            if len(found[kind]) > 1:
                twice = ", ".join(_text_of(cells[index]) for index in found[kind])
                raise _refused(gettext_noop("Two columns could be read as one ({columns}): keep one."), columns=twice)
        columns: dict[str, int | None] = {
            kind: found[kind][0] if found[kind] else None for kind in ("name", "first", "last", "number")
        }
        return number, columns
    raise _refused(
        gettext_noop(
            "No columns of names and member numbers found: the first row names them, such as Name (or Vorname and "
            "Nachname) and Mitgliedsnummer."
        )
    )


def _name(cells: Sequence[Any], columns: Mapping[str, int | None]) -> str:
    if columns["name"] is not None:
        return _cell(cells, columns["name"])
    return " ".join(part for part in (_cell(cells, columns["first"]), _cell(cells, columns["last"])) if part)


# Matching the rows to the book's players


def loose_key(name: str) -> str:
    """What two names share when they are one name written two ways: their words in any order ("Müller, Hans")."""
    return " ".join(sorted(part for part in NAME_NOISE.split(name_key(name)) if part))


def alike_key(name: str) -> str:
    """What two names share when they may be one name spelt two ways: their words without accents, an umlaut and
    its written-out form read as the plain vowel ("Hans Müller", "Hans Mueller" and "Hans Muller"; "Zoë", "Zoe")."""
    return " ".join(sorted(_plain(part) for part in NAME_NOISE.split(name_key(name)) if part))


def alike_words(name: str) -> frozenset[str]:
    """The words of a name as ``alike_key`` reads them: a shorter or longer form of a name ("Aisha", "Aisha Demir",
    "Aisha Nur Demir") has fewer or more of them, every word of the shorter among the longer's."""
    return frozenset(_plain(part) for part in NAME_NOISE.split(name_key(name)) if part)


def _plain(word: str) -> str:
    bare = "".join(char for char in unicodedata.normalize("NFKD", word) if not unicodedata.combining(char))
    return WRITTEN_OUT.sub(r"\1", bare)


def _as_written(raw: str) -> str:
    """The name a row gives, as a player's: "Müller, Hans" (last name first) read as "Hans Müller"."""
    name = normalize_name(raw)
    last, comma, first = name.partition(",")
    if comma and "," not in first and first.strip() and last.strip():
        return normalize_name(f"{first} {last}")
    return name


@dataclass
class _Read:
    row: int
    name: str
    number: str
    problem: Message | None = None


def _read(raw: Mapping[str, Any]) -> _Read:
    row, name, number = int(raw["row"]), str(raw.get("name", "")), str(raw.get("number", ""))
    if not name.strip():
        return _Read(row, name, number, msg(gettext_noop("No name.")))
    try:
        name = _as_written(name)
    except BadName as bad:
        return _Read(row, name, number, bad.message)
    try:
        checked = checked_federation_number(number)
    except Invalid as invalid:
        return _Read(row, name, number, invalid.errors[0].message)
    if not checked:
        return _Read(row, name, number, msg(gettext_noop("No member number.")))
    return _Read(row, name, checked)


def _twice(read: list[_Read]) -> None:
    """Rows with one number, and rows of one name in any order of its words (one player of a book), are refused,
    each naming the others: which number is whose is for the keeper to say on the player's page."""
    for key, template in (
        (lambda one: one.number, gettext_noop("The number {number} is in rows {rows}: which is it?")),
        (lambda one: loose_key(one.name), gettext_noop("The name {name} is in rows {rows}: a book has one of a name.")),
    ):
        rows: dict[str, list[_Read]] = defaultdict(list)
        for one in read:
            if one.problem is None:
                rows[key(one)].append(one)
        for same in rows.values():
            if len(same) > 1:
                numbers = ", ".join(str(one.row) for one in same)
                for one in same:
                    one.problem = msg(template, number=one.number, name=one.name, rows=numbers)


@dataclass(frozen=True)
class _Facts:
    """What the rows are matched against: the book, its players by their names' loose key, by the key of names
    spelt alike, and by each word of their names as that key reads it, each player's words (by id, read once for
    all the rows), the people holding the rows' numbers, and the players (id, book, name) of those people and of the
    book's players' people."""

    book: int
    by_name: dict[str, list[Player]]
    alike: dict[str, list[Player]]
    by_word: dict[str, list[Player]]
    words: dict[int, frozenset[str]]
    holders: dict[str, Person]
    players_of: dict[int, list[tuple[int, int, str]]]

    def books_of(self, person: int) -> set[int]:
        return {book for _, book, _ in self.players_of.get(person, [])}

    def spelt_alike(self, name: str) -> list[Player]:
        return self.alike.get(alike_key(name), [])

    def other_form(self, name: str) -> list[Player]:
        """The players of a shorter or longer form of ``name`` (every word of one among the other's, spelt alike:
        "Anna Berg" or "Anna" for "Anna Maria Berg", "Anna Maria Berg" for "Anna Berg"), in the book's order, but
        those of a name spelt alike. Every word is looked at, none more than another: which of them is a first
        name, a second one or the last name, a list and a table do not say alike."""
        words = alike_words(name)
        alike = self.spelt_alike(name)
        sharing = {player.pk: player for word in words for player in self.by_word.get(word, [])}
        return [
            player
            for _, player in sorted(sharing.items())
            if player not in alike and (self.words[player.pk] <= words or words <= self.words[player.pk])
        ]


def _chunks(values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


def _facts(book: int, read: list[_Read], *, lock: bool) -> _Facts:
    players = Player.objects.filter(keeper_id=book).select_related("person").order_by("pk")
    if lock:
        players = players.select_for_update(of=("self",))
    by_name: dict[str, list[Player]] = defaultdict(list)
    alike: dict[str, list[Player]] = defaultdict(list)
    by_word: dict[str, list[Player]] = defaultdict(list)
    words: dict[int, frozenset[str]] = {}
    for player in players:
        by_name[loose_key(player.name)].append(player)
        alike[alike_key(player.name)].append(player)
        words[player.pk] = alike_words(player.name)
        for word in words[player.pk]:
            by_word[word].append(player)
    numbers = sorted({one.number for one in read if one.problem is None})
    holders: dict[str, Person] = {}
    for part in _chunks(numbers):
        holders |= {
            person.federation_number or "": person for person in Person.objects.filter(federation_number__in=part)
        }
    facts = _Facts(book, by_name, alike, by_word, words, holders, defaultdict(list))
    wanted = [one.name for one in read if one.problem is None and one.number in holders]
    people = {person.pk for person in holders.values()} | {
        player.person_id
        for name in wanted
        for player in by_name.get(loose_key(name)) or [*facts.spelt_alike(name), *facts.other_form(name)]
        if player.person_id is not None
    }
    for part in _chunks(sorted(people)):
        for person, pk, keeper, name in Player.objects.filter(person_id__in=part).values_list(
            "person_id", "pk", "keeper_id", "name"
        ):
            facts.players_of[person].append((pk, keeper, name))
    return facts


def _target(facts: _Facts, player: Player | None, name: str, number: str) -> tuple[str, Message | None]:
    """Whether ``player`` (None: a new player called ``name``) may be joined to ``number``: ``ok``, ``done`` (it has
    the number already), ``doubt`` (the number is joined to somebody of another name) or ``refused``, with why."""
    holder = facts.holders.get(number)
    current = player.person if player is not None else None
    called = player.name if player is not None else name
    if holder is not None and current is not None and holder.pk == current.pk:
        return "done", None
    if holder is not None and (holder.account_id or (current is not None and current.account_id)):
        return "refused", msg(
            gettext_noop(
                "The federation number {number} is another person's: their entries are claimed with their codes."
            ),
            number=number,
        )
    if current is not None and current.federation_number:
        return "refused", msg(
            gettext_noop("{name} is joined to the federation number {number} already."),
            name=called,
            number=current.federation_number,
        )
    if holder is None:
        return "ok", None
    theirs = facts.players_of.get(holder.pk, [])
    here = [other for pk, book, other in theirs if book == facts.book and (player is None or pk != player.pk)]
    if here:
        return "refused", msg(
            gettext_noop("The number {number} is {other}'s in this book already."), number=number, other=here[0]
        )
    if current is not None and facts.books_of(current.pk) & facts.books_of(holder.pk):
        return "refused", msg(
            gettext_noop("{name} and the person with the number {number} play in one book as two players."),
            name=called,
            number=number,
        )
    names = {loose_key(holder.name)} | {loose_key(other) for _, _, other in theirs}
    if loose_key(name) not in names and (player is None or loose_key(player.name) not in names):
        return "doubt", msg(
            gettext_noop("The number {number} is joined to somebody of another name already."), number=number
        )
    return "ok", None


def _planned(facts: _Facts, one: _Read) -> RowPlan:
    if one.problem is not None:
        return RowPlan(one.row, one.name, one.number, Kind.REFUSED, problem=one.problem)
    candidates = facts.by_name.get(loose_key(one.name), [])
    if len(candidates) == 1:
        player = candidates[0]
        answer, why = _target(facts, player, one.name, one.number)
        if answer == "ok":
            return RowPlan(one.row, one.name, one.number, Kind.MATCH, player=player)
        if answer == "done":
            return RowPlan(one.row, one.name, one.number, Kind.DONE, player=player)
        if answer == "doubt":
            choices = (Choice(SKIP), Choice(str(player.public_id), player, why))
            return RowPlan(one.row, one.name, one.number, Kind.DOUBT, player=player, problem=why, choices=choices)
        return RowPlan(one.row, one.name, one.number, Kind.REFUSED, player=player, problem=why)
    new_answer, new_why = _target(facts, None, one.name, one.number)
    alike = [] if candidates else facts.spelt_alike(one.name)
    other = [] if candidates else facts.other_form(one.name)
    if alike or other:
        # Nobody of the book has this name, but a name spelt alike ("Mueller" for "Müller"), or a shorter or longer
        # form of it (a player entered by the first name alone, "Aisha" for "Aisha Demir"; "Anna Berg" for the list's
        # "Anna Maria Berg"): the secretary says whether it is them or somebody new, rather than a second player of one
        # person being added unseen.
        offered, done = _offered(facts, [*alike, *other], one)
        if done is not None:
            return done
        if new_answer in ("ok", "doubt"):
            offered.append(Choice(NEW, None, new_why))
        if len(offered) > 1:
            return RowPlan(
                one.row, one.name, one.number, Kind.DOUBT, problem=_near(one, alike, other), choices=tuple(offered)
            )
    if not candidates:
        if new_answer == "ok":
            return RowPlan(one.row, one.name, one.number, Kind.NEW)
        if new_answer == "doubt":
            choices = (Choice(SKIP), Choice(NEW, None, new_why))
            return RowPlan(one.row, one.name, one.number, Kind.DOUBT, problem=new_why, choices=choices)
        return RowPlan(one.row, one.name, one.number, Kind.REFUSED, problem=new_why)
    offered, done = _offered(facts, candidates, one)
    if done is not None:
        return done
    exact = any(player.name_key == name_key(one.name) for player in candidates)
    if not exact and new_answer in ("ok", "doubt"):
        offered.append(Choice(NEW, None, new_why))
    if len(offered) == 1:
        none = msg(
            gettext_noop("{count} players of this book are called {name}, and none of them can take this number."),
            count=len(candidates),
            name=one.name,
        )
        return RowPlan(one.row, one.name, one.number, Kind.REFUSED, problem=none)
    same = msg(
        gettext_noop("{count} players of this book are called {name}: which one is it?"),
        count=len(candidates),
        name=one.name,
    )
    return RowPlan(one.row, one.name, one.number, Kind.DOUBT, problem=same, choices=tuple(offered))


def _near(one: _Read, alike: Sequence[Player], other: Sequence[Player]) -> Message:
    """Why a row of a name nobody of the book has is a doubt: the players of a name spelt alike, of a shorter or
    longer form of it, or both."""
    spelt, form = (" / ".join(player.name for player in players) for players in (alike, other))
    if not other:
        return msg(
            gettext_noop("Nobody of this book is called {name}, but spelt alike: {names}. The same, or a new player?"),
            name=one.name,
            names=spelt,
        )
    if not alike:
        return msg(
            gettext_noop(
                "Nobody of this book is called {name}, but somebody by a shorter or longer form of the name: {names}. "
                "The same, or a new player?"
            ),
            name=one.name,
            names=form,
        )
    return msg(
        gettext_noop(
            "Nobody of this book is called {name}, but spelt alike: {names}; by a shorter or longer form of the name: "
            "{form}. The same, or a new player?"
        ),
        name=one.name,
        names=spelt,
        form=form,
    )


def _offered(facts: _Facts, players: Sequence[Player], one: _Read) -> tuple[list[Choice], RowPlan | None]:
    """The choices a doubt offers among ``players`` (skipping first, then each that may take the row's number); or
    the row done where one of them has the number already."""
    offered = [Choice(SKIP)]
    for player in players:
        answer, why = _target(facts, player, one.name, one.number)
        if answer == "done":
            return offered, RowPlan(one.row, one.name, one.number, Kind.DONE, player=player)
        if answer in ("ok", "doubt"):
            offered.append(Choice(str(player.public_id), player, why))
    return offered, None


def member_import_preview(member_import: MemberImport, *, lock: bool = False) -> Preview:
    """Every row of the import checked and matched to the book's players as they are now (``lock``: the book's
    players locked, for the apply step). In a few queries, however many rows."""
    read = [_read(raw) for raw in member_import.rows]
    _twice(read)
    facts = _facts(member_import.keeper_id, read, lock=lock)
    return Preview([_planned(facts, one) for one in read])


# Applying and undoing


def _plan_of(plan: str) -> dict[int, str]:
    seen: dict[int, str] = {}
    for part in plan.split(";"):
        row, _, code = part.partition("=")
        if row.isascii() and row.isdigit() and len(row) < 10:
            seen[int(row)] = code
    return seen


def _row_refused(row: RowPlan | _Read, why: Message) -> Conflict:
    return Conflict(
        [
            FieldError(
                "import",
                msg(gettext_noop("Row {row} ({name}): {why}"), row=row.row, name=row.name, why=why),
            )
        ]
    )


def member_import_apply(
    *, member_import: MemberImport, by: User | None, plan: str, decisions: Mapping[int, str]
) -> MemberImport:
    """Join the rows of the import as the keeper confirmed them: ``plan`` is the preview they saw (``Preview.plan``),
    ``decisions`` their answer to each doubt by row (a choice's code; none: skipped). In one transaction, with the
    book's players locked: the new players added and every row joined to its number in one batch of joins. Refused
    whole, with nothing stored, where a row is not as the preview showed it (a number joined meanwhile), where two
    rows would join one player, and for an import applied already (a second tap, a second keeper)."""
    with transaction.atomic():
        locked = MemberImport.objects.select_for_update().filter(pk=member_import.pk).first()
        if locked is None:
            raise Gone.on("import", THROWN_AWAY)
        if locked.state != MemberImport.State.READ:
            raise Conflict.on("import", gettext_noop("This import was applied already."))
        list(Keeper.objects.select_for_update().filter(pk=locked.keeper_id).values_list("pk", flat=True))
        preview = member_import_preview(locked, lock=True)
        seen = _plan_of(plan)
        changed = [row for row in preview.rows if seen.get(row.row) != row.seen]
        if changed:
            raise Conflict(
                [
                    FieldError(
                        "import",
                        msg(
                            gettext_noop("Row {row} ({name}) changed since the preview: {why}"),
                            row=row.row,
                            name=row.name,
                            why=row.problem or msg(gettext_noop("look at it again.")),
                        ),
                    )
                    for row in changed[:5]
                ]
            )
        chosen: list[tuple[RowPlan, Choice]] = []
        for row in preview.rows:
            if row.kind == Kind.MATCH:
                chosen.append((row, Choice(str(row.player.public_id) if row.player else NEW, row.player)))
            elif row.kind == Kind.NEW:
                chosen.append((row, Choice(NEW)))
            elif row.kind == Kind.DOUBT:
                code = decisions.get(row.row, SKIP)
                choice = next((one for one in row.choices if one.code == code), None)
                if choice is None:
                    raise _row_refused(row, msg(gettext_noop("choose one of its answers.")))
                if choice.code != SKIP:
                    chosen.append((row, choice))
        _each_player_once(chosen)
        if not chosen:
            raise Invalid.on("import", gettext_noop("Nothing to join: every row is skipped or has nothing to do."))
        joined = _joined(locked, chosen, by)
        # The rankings that count these players follow them once, all joined.
        rankings_follow_people([player for player, _ in joined.values()])
        locked.decisions = [_decision(row, joined.get(row.row)) for row in preview.rows]
        locked.state = MemberImport.State.APPLIED
        locked.applied_at, locked.applied_by = timezone.now(), by
        locked.save(update_fields=["decisions", "state", "applied_at", "applied_by"])
        locked.added.set([player for player, added in joined.values() if added])
        return locked


def _each_player_once(chosen: list[tuple[RowPlan, Choice]]) -> None:
    rows: dict[int, list[RowPlan]] = defaultdict(list)
    names: dict[int, str] = {}
    for row, choice in chosen:
        if choice.player is not None:
            rows[choice.player.pk].append(row)
            names[choice.player.pk] = choice.player.name
    for player, same in rows.items():
        if len(same) > 1:
            numbers = ", ".join(str(row.row) for row in same)
            raise _row_refused(
                same[0],
                msg(gettext_noop("rows {rows} would all join {name}: choose one."), rows=numbers, name=names[player]),
            )


def _joined(
    member_import: MemberImport, chosen: list[tuple[RowPlan, Choice]], by: User | None
) -> dict[int, tuple[Player, bool]]:
    """Each chosen row's player (added where new) joined to its number, in the import's batch; by row, the player
    and whether it was added."""
    joined: dict[int, tuple[Player, bool]] = {}
    for row, choice in chosen:
        player, added = choice.player, choice.player is None
        try:
            with transaction.atomic():
                if player is None:
                    player = Player.objects.create(
                        keeper_id=member_import.keeper_id, name=row.name, name_key=name_key(row.name)
                    )
                join_number(
                    player=player, number=row.number, by=by, field="import", batch=member_import.batch, follow=False
                )
        except IntegrityError:
            raise _row_refused(row, msg(gettext_noop("a player of this name was added meanwhile."))) from None
        except ServiceError as error:
            raise _row_refused(row, error.errors[0].message) from None
        joined[row.row] = (player, added)
    return joined


def _decision(row: RowPlan, joined: tuple[Player, bool] | None) -> dict[str, Any]:
    player = joined[0] if joined else row.player
    return {
        "row": row.row,
        "name": row.name,
        "number": row.number,
        "kind": row.kind.value,
        "joined": joined is not None,
        "added": bool(joined and joined[1]),
        "player": str(player.public_id) if player else None,
        "player_name": player.name if player else "",
        "problem": row.problem.to_data() if row.problem else None,
    }


def member_import_undo(*, member_import: MemberImport, by: User | None) -> Undone:
    """Take an applied import back: its joins undone at once (each player back to whom they were, the numbers back
    with them), and the players it added removed where they have played nothing and were linked to nobody since
    (the others kept, named). Undoing an import undone already changes nothing. Refused where one of its players was
    joined again since (that join is undone first)."""
    with transaction.atomic():
        locked = MemberImport.objects.select_for_update().get(pk=member_import.pk)
        if locked.state == MemberImport.State.UNDONE:
            return Undone(kept=list(locked.kept))
        if locked.state != MemberImport.State.APPLIED:
            raise Conflict.on("import", gettext_noop("This import was not applied: there is nothing to undo."))
        list(Keeper.objects.select_for_update().filter(pk=locked.keeper_id).values_list("pk", flat=True))
        live = list(
            Join.objects.filter(batch=locked.batch, undone_at__isnull=True).select_related("player").order_by("pk")
        )
        if live:
            latest: dict[int, int] = {}
            for join in Join.objects.filter(
                player__in=[one.player_id for one in live], undone_at__isnull=True
            ).order_by("created_at", "pk"):
                latest[join.player_id] = join.pk
            later = [one.player.name for one in live if latest.get(one.player_id) != one.pk]
            if later:
                raise Conflict.on(
                    "import",
                    gettext_noop("{name} was joined again since this import: undo that join on their page first."),
                    name=later[0],
                )
            join_undo(join=live[0], by=by)
        undone = Undone()
        for player in locked.added.order_by("name", "pk"):
            if player.account_id is not None or player.link_token:
                undone.kept.append(player.name)
                continue
            try:
                with transaction.atomic():
                    player.delete()
            except ProtectedError:
                undone.kept.append(player.name)
            else:
                undone.removed.append(player.name)
        locked.state = MemberImport.State.UNDONE
        locked.undone_at, locked.undone_by = timezone.now(), by
        locked.kept = undone.kept
        locked.save(update_fields=["state", "undone_at", "undone_by", "kept"])
        return undone


def member_import_discard(*, member_import: MemberImport) -> None:
    """Throw away a member list read and not applied, with the names and numbers it holds: nothing was joined. An
    import applied (or undone) stays, as the record of what it did. Throwing away one thrown away changes nothing."""
    with transaction.atomic():
        locked = MemberImport.objects.select_for_update().filter(pk=member_import.pk).first()
        if locked is None:
            return
        if locked.state == MemberImport.State.APPLIED:
            raise Conflict.on("import", gettext_noop("This import was applied: undo it instead."))
        if locked.state == MemberImport.State.UNDONE:
            raise Conflict.on("import", gettext_noop("This import was undone: it stays as the record of what it did."))
        locked.delete()


def member_imports_forget() -> None:
    """The daily cleanup's part: member lists read and left unapplied for ``UNAPPLIED_KEPT`` are thrown away, each
    as its keeper would (one applied meanwhile stays)."""
    old = MemberImport.objects.filter(state=MemberImport.State.READ, created_at__lte=timezone.now() - UNAPPLIED_KEPT)
    for member_import in old.only("pk"):
        with contextlib.suppress(Conflict):
            member_import_discard(member_import=member_import)
