"""Backup and restore: everything of an account or of a club in one JSON file, and back into any instance.

A backup holds what was entered, never what was derived: the players, every match with its rules and seats, its
games as entered (deleted ones included) and its whole history of changes, each with the moment it was made; an app
built on the core adds its part of a book (the club app: a club's players' roster, its seasons, nights, attendances,
tables, paper lists and the seasons' and nights' histories) as a section of its own (``register_section``).
Restoring (``matches.restore``) writes them with new database ids under the restoring account (a club's backup
becomes a club that account owns, or goes into the one it owns already), keeps every public id, and scores every
match afresh with the current rules engine. Whatever is already there in that book or club (by its public id) is
left as it is, so a second restore of the same file changes nothing. Accounts are not part of a backup: players are
not linked to them, members are not added, and the histories keep their changes without their authors.

Every list in a file comes in a fixed order, so that the same book always gives the same file.
"""

from __future__ import annotations

import codecs
import datetime
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db.models import CharField, Model, Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .converters import LinkToken
from .engine.messages import Message, gettext_noop, msg
from .errors import Invalid
from .models import Keeper, Match, MatchEvent, PaperLine, Player
from .services import paper_restore
from .services.restored import restored_ended_link

FORMAT = "scorekeeper-backup"
# Version 2 added when each player was added, and (for a club) when the club, its seasons, nights and check-ins were
# made, the seasons' histories, what each entry of a night's history replaced, and each table's closed link and guests'
# table. A version-1 file still restores: what it did not keep is made as a restore makes it. Version 3 added the
# changes to a match itself to its history (its list closed or reopened, its seats, co-scorers and book, a scoring
# afresh): they name no game. Version 4 keeps on each match the link its list had when it was closed (a club
# night's, a venue's, a tournament's series), for every kind of event: a file of versions 2 and 3 kept a club
# table's on the table, and a restore gives it to the table's match.
VERSION = 4
READABLE = (1, 2, 3, 4)

T = TypeVar("T")
M = TypeVar("M", bound=Model)


# --- Sections: what the apps on the core keep of a book -----------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    """The core's part of a file as restored, for a section to refer to: the book, its players and matches by their
    public ids, and the file's version."""

    keeper: Keeper
    players: Mapping[str, Player]
    matches: Mapping[str, Match]
    version: int


class NotFound(Exception):
    """No book or several have the name a backup was asked for: the message says how many."""


@dataclass(frozen=True)
class ByName(Generic[T]):
    """How ``manage.py backup`` writes one of an app's books named on its command line: ``flag``, the option that
    names it (``"club"``: ``--club NAME``) and ``help``, what the option says of it; ``find``, the one of that name
    (``NotFound`` where none or several have it); ``backup``, its backup."""

    flag: str
    help: str
    find: Callable[[str], T]
    backup: Callable[[T], dict[str, Any]]


def named(rows: QuerySet[M], plural: str) -> Callable[[str], M]:
    """A ``find`` for ``ByName``: the one of ``rows`` with that ``name`` (``NotFound``, counting the ``plural``
    of them so named, where none or several have it)."""

    def find(name: str) -> M:
        found = list(rows.filter(name=name))
        if len(found) != 1:
            raise NotFound(f"{len(found)} {plural} named {name!r}")
        return found[0]

    return find


@dataclass(frozen=True)
class Section:
    """A part of a backup an app keeps under ``key`` in the file (the club app: ``"club"``). ``book``: the book a file
    with this part restores into, if it is here already, for the restoring account and the file's version (None if
    it is not; ``Unfit`` if it is somebody else's); ``make_book``: makes it, owned by the restoring account, when the
    restore is written; ``restore``: writes the part once the book's players and matches are in, and says how many
    of what it added; ``by_name``: how ``manage.py backup`` writes one of the app's books named on its command line
    (None: it does not)."""

    key: str
    book: Callable[[Mapping[str, Any], User, int], Keeper | None]
    make_book: Callable[[Mapping[str, Any], User, int], Keeper]
    restore: Callable[[Mapping[str, Any], Restored], Mapping[str, int]]
    by_name: ByName[Any] | None = None


_sections: list[Section] = []


def register_section(section: Section) -> None:
    """An app's part of a backup, restored after the core's (the app registers it when it is ready)."""
    if all(known.key != section.key for known in _sections):
        _sections.append(section)


def sections() -> tuple[Section, ...]:
    """The apps' parts of a backup, in the order they registered."""
    return tuple(_sections)


# --- Writing a backup ----------------------------------------------------------------------------------------------


def account_backup(user: User) -> dict[str, Any]:
    """Everything in a person's own book (an empty one if they have kept nothing yet)."""
    keeper = Keeper.objects.filter(user=user).first()
    return book_backup(keeper)


def book_backup(keeper: Keeper | None) -> dict[str, Any]:
    """A backup of the players and matches of ``keeper``'s book (of none: an empty one), for a section to add to."""
    book = _book(keeper) if keeper is not None else {"players": [], "matches": []}
    return {"format": FORMAT, "version": VERSION, "created": when(timezone.now()), **book}


def when(moment: datetime.datetime | None) -> str | None:
    """A moment as a file keeps it."""
    return moment.isoformat() if moment else None


def _book(keeper: Keeper) -> dict[str, Any]:
    players = Player.objects.filter(keeper=keeper).order_by("created_at", "pk")
    matches = Match.objects.filter(keeper=keeper).order_by("created_at", "pk")
    return {
        "players": [
            {"id": str(player.public_id), "name": player.name, "created_at": when(player.created_at)}
            for player in players
        ],
        "matches": [_match(match) for match in matches],
    }


def _match(match: Match) -> dict[str, Any]:
    seats = match.seats.select_related("player").order_by("position")
    games = match.games.order_by("position")
    events = MatchEvent.objects.filter(match=match).select_related("game", "undo_of").order_by("version", "id")
    return {
        "id": str(match.public_id),
        "title": match.title,
        "variant": match.variant,
        "scheme": match.scheme,
        "rules": match.rules,
        "preset": match.preset,
        "first_dealer": match.first_dealer,
        "planned_games": match.planned_games,
        "locked": match.locked,
        "ended_link": match.ended_link,
        "created_at": when(match.created_at),
        "seats": [str(seat.player.public_id) for seat in seats],
        "games": [
            {
                "id": str(game.public_id),
                "position": game.position,
                "passed": game.passed,
                "declarer": game.declarer,
                "entry": game.entry,
                "entry_version": game.entry_version,
                "deleted": game.deleted,
                "version": game.version,
                "created_at": when(game.created_at),
            }
            for game in games
        ],
        "history": [
            {
                "id": str(event.public_id),
                "game": None if event.game is None else str(event.game.public_id),
                "action": event.action,
                "token": str(event.token),
                "version": event.version,
                "number": event.number,
                "created_at": when(event.created_at),
                "before": event.before,
                "after": event.after,
                "undo_of": str(event.undo_of.public_id) if event.undo_of else None,
            }
            for event in events
        ],
    }


# --- Reading a file back ----------------------------------------------------------------------------------------------

MAX_ITEMS = 100_000  # players, matches, games, history entries or nights in one file: more is not a backup of ours


class Unfit(Exception):
    """What the file names is here already, in a book or club the restoring account does not own."""


@dataclass(frozen=True)
class PaperWhere:
    """Where a restored paper list was kept, for its check and its refusal: the table's number and series, the event
    as a reader knows it (a date, a match day, a tournament), the games of its series and whether its game points
    are the ISkO's game values."""

    table: int
    series: int
    event: str
    games: int | None
    skat_values: bool


class Refused(Exception):
    """A part of the file that the pages would refuse, with the message that says which part and why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(str(message))


def items(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The list of objects under ``key`` (of a sane length)."""
    found = data[key]
    if not isinstance(found, list) or len(found) > MAX_ITEMS or not all(isinstance(item, Mapping) for item in found):
        raise ValueError(key)
    return found


def flag(value: Any) -> bool:
    """A yes or no, as the file must say it."""
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


def moment(value: Any) -> datetime.datetime:
    """A moment as ``when`` wrote it, with its offset."""
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None or parsed.tzinfo is None:
        raise ValueError(value)
    return parsed


def since(entry: Mapping[str, Any], key: str, *, version: int, added: int, absent: Any) -> Any:
    """``entry[key]``, a field the format's version ``added`` brought: a file of an older version left it out,
    meaning ``absent``."""
    return entry[key] if version >= added else absent


def ended_link(value: Any) -> str:
    """The link a match's list had when it was closed, as the file must say it (empty: none), as long as its field
    takes and shaped as a link: a paper table turned back to its phones scores by it again."""
    if not isinstance(value, str) or (value and not re.fullmatch(LinkToken.regex, value)):
        raise ValueError(value)
    field = Match._meta.get_field("ended_link")
    assert isinstance(field, CharField)
    return str(field.clean(value, None))


def ended_link_restored(match: Match, value: Any) -> None:
    """The link a restored match's list had when it was closed, where a file of before the core kept it has it
    elsewhere (a club table's, in versions 2 and 3): kept on the match through the core's services, where the match
    keeps none of its own. The link names one table: one another match here keeps or gives out does not fit."""
    link = ended_link(value)
    if not link:
        return
    if link_taken([link], but=match) is not None:
        raise Unfit(str(match.public_id))
    restored_ended_link(match=match, link=link)


def link_taken(links: Sequence[str], *, but: Match | None = None) -> str | None:
    """The first of ``links`` (the links closed lists had, from a file) that a match here (but ``but``) keeps as
    its closed list's or gives out as its scoring link now: a file may take over neither, or a phone that scans a
    table's code would be told of the file's event once that table's list closes. None if none is."""
    here = Match.objects.exclude(pk=but.pk) if but is not None else Match.objects.all()
    wanted = set(links)
    found = here.filter(Q(ended_link__in=wanted) | Q(invite_token__in=wanted))
    first = found.values_list("ended_link", "invite_token").first()
    if first is None:
        return None
    ended, invite = first
    return ended if ended in wanted else invite


def paper_lines(match: Match) -> list[dict[str, Any]]:
    """A table's paper list as a section keeps it with its table: each player's totals, the player by their public
    id, in the order they were entered."""
    lines = match.paper_lines.select_related("player").order_by("pk")
    return [
        {"player": str(line.player.public_id), "game_points": line.game_points, "won": line.won, "lost": line.lost}
        for line in lines
    ]


def paper_lines_read(entry: Mapping[str, Any], restored: Restored) -> list[tuple[Player, int, int, int]]:
    """The paper list a section's table keeps (``paper_lines``, as ``paper_lines`` wrote it), each line's player
    among the restored ones; for ``paper_restored`` to check and write."""
    return [
        (restored.players[line["player"]], int(line["game_points"]), int(line["won"]), int(line["lost"]))
        for line in items(entry, "paper_lines")
    ]


PAPER_REFUSED = gettext_noop(
    "The paper list of table {table}, series {series} ({event}) cannot be: {problem} Nothing was restored."
)


def paper_restored(match: Match, lines: Sequence[tuple[Player, int, int, int]], *, where: PaperWhere) -> None:
    """A restored table's paper list, each player's totals as the file has them: each a number its field takes,
    the whole checked as the paper-list form checks it (``where`` says against what, and names the table in a
    refusal), and written through the core's services."""
    for player, points, won, lost in lines:
        PaperLine(match=match, player=player, game_points=points, won=won, lost=lost).full_clean(
            exclude=["match", "player"], validate_unique=False
        )
    if not lines:
        return
    try:
        paper_restore(match=match, lines=lines, games=where.games, skat_values=where.skat_values)
    except Invalid as error:
        problem = error.errors[0].message
        said = msg(PAPER_REFUSED, table=where.table, series=where.series, event=where.event, problem=problem)
        raise Refused(said) from error


# An uploaded backup is kept a part of this many bytes at a time (``RestorePart``).
RESTORE_PART_BYTES = 2**20


def backup_parts(upload: UploadedFile) -> Iterator[str]:
    """An uploaded backup's text a part at a time (``RESTORE_PART_BYTES`` each, a character never split), read from
    the upload as it lies on disk; ``UnicodeDecodeError`` where it is not UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    upload.seek(0)
    while chunk := upload.read(RESTORE_PART_BYTES):
        text = decoder.decode(chunk)
        if text:
            yield text
    rest = decoder.decode(b"", final=True)
    if rest:
        yield rest
