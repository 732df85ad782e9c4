"""A kind of event on the core, declared once: an app on the core (club nights, leagues between clubs, open
tournaments, or a kind still to come) hands ``register_kind`` an ``EventKind`` from its ``AppConfig.ready``, and
every part of the core that serves all kinds alike learns of it from there: the permission policy (its book role and
the subjects its addresses name), the backup and restore (its section), ``rescore --check`` (its kept standings),
deleting an account (what happens to the events it runs), a table's place and a closed table's link, its closed
lists (every player's list of a series, kept once in the core), what its books are called, the menu, its pages and
API routes, the lists it offers as files, and the files the task worker makes for it. The core never imports an
app; it reads what the apps registered."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.urls import URLPattern, URLResolver

from .accounts import GroupsOfAccounts, register_groups
from .backup import Section, register_section
from .downloads import Download, register_download
from .permissions import BookRole, Subject, register_book_role, register_subject
from .registry import (
    BookNames,
    ClosedLists,
    FileMaker,
    GoneLinkPage,
    MenuEntry,
    TablePlaceReader,
    register_book_names,
    register_closed_lists,
    register_file_maker,
    register_gone_invite_page,
    register_menu_entry,
    register_table_place_reader,
    register_urls,
)
from .standings import KeptStandings, register_kept_standings

Routes = Sequence[URLPattern | URLResolver]


@dataclass(frozen=True)
class EventKind:
    """What a kind of event tells the core about itself (``name``: how the core's tools and messages name it)."""

    name: str
    book_role: BookRole
    subjects: Mapping[str, Subject]
    section: Section
    standings: Sequence[KeptStandings]
    accounts: GroupsOfAccounts
    table_place: TablePlaceReader
    menu: MenuEntry
    pages: Routes
    api: Routes
    downloads: Sequence[Download] = ()
    file_makers: Mapping[str, FileMaker] = field(default_factory=dict)
    # What a table's scoring link opens once its event closed, where the kind says more than the core's page does.
    gone_link_page: GoneLinkPage | None = None
    # Which of some matches are at its tables whose lists are closed, and where: every player's closed list is kept
    # in the core from there (``services.closed_lists_report``, which the kind calls when it closes or reopens).
    closed_lists: ClosedLists | None = None
    # What the books it keeps are called (a club's name), where a page names a player's book.
    book_names: BookNames | None = None


_KINDS: dict[str, EventKind] = {}


def register_kind(kind: EventKind) -> None:
    if kind.name in _KINDS:
        raise ValueError(f"The kind of event {kind.name!r} is registered twice.")
    _KINDS[kind.name] = kind
    register_book_role(kind.book_role)
    for name, subject in kind.subjects.items():
        register_subject(name, subject)
    register_section(kind.section)
    for standings in kind.standings:
        register_kept_standings(standings)
    register_groups(kind.accounts)
    register_table_place_reader(kind.table_place)
    if kind.gone_link_page is not None:
        register_gone_invite_page(kind.gone_link_page)
    if kind.closed_lists is not None:
        register_closed_lists(kind.name, kind.closed_lists)
    if kind.book_names is not None:
        register_book_names(kind.book_names)
    register_menu_entry(kind.menu)
    register_urls(pages=kind.pages, api=kind.api)
    for download in kind.downloads:
        register_download(download)
    for name, maker in kind.file_makers.items():
        register_file_maker(name, maker)


def event_kinds() -> tuple[EventKind, ...]:
    """Every kind of event registered, in the order the apps were installed."""
    return tuple(_KINDS.values())
