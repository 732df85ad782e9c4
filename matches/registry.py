"""What the apps built on the core answer for it. The core knows nothing of them (the club app, say): an app
registers its answers here when it is ready (its ``AppConfig.ready``), and the core asks here, taking the first
answer that knows.

- An invite link that opens no match any more: a page that says why.
- A match played at a table of an event (a club night): which event, day, series and table, for its printed list.
- The app's own addresses: its pages beside the core's, its API resources in the core's API, and the entry to its
  pages in every page's main menu.
- The files it makes in the background when they are large (``FileJob``): how to make each kind.
- The tables of its events whose lists are closed: which event each was played at, so that every player's closed
  list is kept once in the core (``ClosedList``), where a player's record and the ranking lists read it.
- The books it keeps (a club's, a league's, a tournament's): what each is called, where a page names a player's book.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver
from django.utils.functional import Promise

from .models import Match


@dataclass(frozen=True)
class TablePlace:
    """Where a match was played as an app that drew its table knows it: the event (a club and its season), the day,
    the series and the table's number."""

    event: str
    date: datetime.date
    series: int
    table: int
    # Where the event's results are shown to everybody (empty: nowhere public).
    results_url: str = ""


@dataclass(frozen=True)
class ListPlace:
    """Where a closed list was played, as the kind of event that closed it says: the kind (its registered name), the
    event (a club night, a league's venue, a tournament) by its public id and its name, what it counts in (a club's
    season, a league's group, the tournament itself) by its public id, the day and the series."""

    kind: str
    event: uuid.UUID
    event_name: str
    within: uuid.UUID
    date: datetime.date
    series: int


@dataclass(frozen=True)
class MenuEntry:
    """An app's entry in the main menu of every page: the name of its page's address and its label (translated when
    the page is drawn)."""

    url_name: str
    label: Promise


@dataclass(frozen=True)
class MadeFile:
    """A file a maker made: its bytes, its file name and its content type."""

    content: bytes
    file_name: str
    content_type: str


# How far a maker has come: the parts done of the parts in all.
Progress = Callable[[int, int], None]
# A kind of file made in the background: from a job's arguments, telling how far it has come; None where what it was
# made of is gone (the tournament deleted meanwhile).
FileMaker = Callable[[Mapping[str, Any], Progress], MadeFile | None]

GoneLinkPage = Callable[[HttpRequest, str], HttpResponse | None]
TablePlaceReader = Callable[[Match], TablePlace | None]
# Of the books (keepers) by id, those the app keeps, each with its name (the club's, the league's, the tournament's),
# in one query however many.
BookNames = Callable[[Sequence[int]], Mapping[int, str]]
# Of the matches by id, those at tables whose event closed their lists, each with its place (in a query or two,
# however many matches).
ClosedListReader = Callable[[Sequence[int]], Mapping[int, ListPlace]]


@dataclass(frozen=True)
class ClosedLists:
    """What a kind of event tells the core of its closed lists: what a player's record calls its events (``Club
    nights``), and which of some matches are at its tables whose lists are closed, and where."""

    label: Promise
    reader: ClosedListReader
    # What an account sees of anybody's lists as one of the event's own people (a club's members, their club's
    # nights): the public ids of the ``within`` (a season, a group) whose lists it sees, or None for nothing.
    shared_with: Callable[[User], Iterable[uuid.UUID]] | None = None
    # Whether its lists are published results, anybody's to count in a ranking list (a league's, a tournament's).
    public: bool = False
    # The books whose players ``account`` may rank as one circle (a club's players, for its members): each by the
    # public id of what keeps it (the club), its keeper's id and what it is called.
    circles: Callable[[User], Iterable[tuple[uuid.UUID, int, str]]] | None = None
    # Of the books by id, those that are circles of its (a club's), each with the public id and name of what keeps
    # it: whose players a ranking list of a circle counts, in one query however many books.
    circles_of: Callable[[Sequence[int]], Mapping[int, tuple[uuid.UUID, str]]] | None = None


_gone_invite_pages: list[GoneLinkPage] = []
_gone_invite_fallbacks: list[GoneLinkPage] = []
_table_place_readers: list[TablePlaceReader] = []
_book_names: list[BookNames] = []
_closed_lists: dict[str, ClosedLists] = {}
_pages: list[URLPattern | URLResolver] = []
_api_routes: list[URLPattern | URLResolver] = []
_menu: list[MenuEntry] = []
_file_makers: dict[str, FileMaker] = {}


def register_gone_invite_page(page: GoneLinkPage, *, fallback: bool = False) -> None:
    """``page`` answers an invite link that opens no match any more, if it knows the link (None: it does not). A
    ``fallback`` is asked only when no other page knows it (the core's own, which knows less than an app)."""
    pages = _gone_invite_fallbacks if fallback else _gone_invite_pages
    if page not in pages:
        pages.append(page)


def register_table_place_reader(reader: TablePlaceReader) -> None:
    """``reader`` answers at which event's table a match was played (None: not at one it knows)."""
    if reader not in _table_place_readers:
        _table_place_readers.append(reader)


def register_book_names(reader: BookNames) -> None:
    """``reader`` names the books its app keeps, of those asked for (the others it leaves out)."""
    if reader not in _book_names:
        _book_names.append(reader)


def book_names(keepers: Iterable[int]) -> dict[int, str]:
    """The names of those of the books (keepers, by id) that an app keeps, by id: a query an app, however many books
    are asked for; a person's own book is no app's, and not among them."""
    wanted = sorted(set(keepers))
    found: dict[int, str] = {}
    for reader in _book_names:
        left = [keeper for keeper in wanted if keeper not in found]
        if not left:
            break
        found |= reader(left)
    return found


def register_closed_lists(kind: str, lists: ClosedLists) -> None:
    """The closed lists of the kind of event named ``kind``: what a record calls them, and how their places are read."""
    _closed_lists.setdefault(kind, lists)


def closed_list_places(match_ids: Sequence[int]) -> dict[int, ListPlace]:
    """Of the matches ``match_ids``, those at tables of an event whose lists are closed, each with its place."""
    places: dict[int, ListPlace] = {}
    for lists in _closed_lists.values():
        places.update(lists.reader(match_ids))
    return places


def lists_shared_with(account: User) -> set[uuid.UUID]:
    """The ``within`` of the closed lists that ``account`` sees of anybody, as one of the events' own people."""
    shared: set[uuid.UUID] = set()
    for lists in _closed_lists.values():
        if lists.shared_with is not None:
            shared.update(lists.shared_with(account))
    return shared


def lists_countable_by(account: User) -> tuple[list[str], set[uuid.UUID]]:
    """What ``account`` may count in a ranking list: the kinds whose lists are published results, and the ``within``
    it sees as one of an event's own people."""
    public = [kind for kind, lists in _closed_lists.items() if lists.public]
    return public, lists_shared_with(account)


def lists_circles(account: User) -> list[tuple[uuid.UUID, int, str]]:
    """The books whose players ``account`` may rank as one circle (its clubs'), each with what it is called."""
    return [
        circle for lists in _closed_lists.values() if lists.circles is not None for circle in lists.circles(account)
    ]


def lists_circles_of(keepers: Iterable[int]) -> dict[int, tuple[uuid.UUID, str]]:
    """Of the books (keepers, by id), those that are circles, each with the public id and name of what keeps it."""
    wanted = sorted(set(keepers))
    found: dict[int, tuple[uuid.UUID, str]] = {}
    for lists in _closed_lists.values():
        if wanted and lists.circles_of is not None:
            found |= lists.circles_of(wanted)
    return found


def closed_lists_label(kind: str) -> str:
    """What a player's record calls the events of the kind named ``kind`` (its name, for a kind no longer here)."""
    lists = _closed_lists.get(kind)
    return str(lists.label) if lists is not None else kind


def register_urls(*, pages: Sequence[URLPattern | URLResolver], api: Sequence[URLPattern | URLResolver]) -> None:
    """Serve an app's ``pages`` beside the core's, and its ``api`` resources in the core's API (its namespace)."""
    _pages.extend(pattern for pattern in pages if pattern not in _pages)
    _api_routes.extend(pattern for pattern in api if pattern not in _api_routes)


def register_menu_entry(entry: MenuEntry) -> None:
    """Show ``entry`` in the main menu of every page for a signed-in visitor, after the core's own entries."""
    if entry not in _menu:
        _menu.append(entry)


def menu_entries() -> tuple[MenuEntry, ...]:
    """The apps' entries in the main menu, in the order they were registered."""
    return tuple(_menu)


def app_pages() -> list[URLPattern | URLResolver]:
    """The pages the apps on the core serve."""
    return list(_pages)


def app_api_routes() -> list[URLPattern | URLResolver]:
    """The API resources the apps on the core serve."""
    return list(_api_routes)


def gone_invite_page(request: HttpRequest, token: str) -> HttpResponse | None:
    """The page an app gives for an invite link that opens no match any more, or None (the link is unknown)."""
    for page in (*_gone_invite_pages, *_gone_invite_fallbacks):
        answer = page(request, token)
        if answer is not None:
            return answer
    return None


def table_place(match: Match) -> TablePlace | None:
    """The event's table ``match`` was played at, if an app drew it there."""
    for reader in _table_place_readers:
        found = reader(match)
        if found is not None:
            return found
    return None


def register_file_maker(kind: str, maker: FileMaker) -> None:
    """``maker`` makes the files of ``kind`` that a download queued because they are large."""
    _file_makers.setdefault(kind, maker)


def file_maker(kind: str) -> FileMaker | None:
    return _file_makers.get(kind)
