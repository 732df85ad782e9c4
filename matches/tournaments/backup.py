"""A tournament's part of a backup (the section ``"tournament"`` of the core's backup, beside the tournament's own book
of players and matches): its settings as announced, its categories, the entries with their payments, the tandems and
teams, and each drawn series with its tables, seats and paper lists.

Accounts are not part of it (the organiser, the accounts that entered online, who took a payment, who drew a
series): accounts belong to an instance, and the restoring account becomes the organiser. A tournament announced for
a club names the club by public id: the club's own backup is restored first, and a file whose club is not here is
refused with the club's name. What is derived (each player's list of a closed series) is summed afresh from the
restored tables, as closing the series summed it. A tournament found here already (by its public id) is left as it
is.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db.models import Model
from django.utils.dateparse import parse_date

from matches.backup import (
    ByName,
    PaperWhere,
    Refused,
    Restored,
    Section,
    Unfit,
    book_backup,
    flag,
    items,
    moment,
    named,
    paper_restored,
    when,
)
from matches.clubs.models import Club
from matches.clubs.permissions import runs_club
from matches.engine.messages import gettext_noop, msg
from matches.errors import Invalid
from matches.models import Keeper, PaperLine
from matches.names import name_key
from matches.services.people import joins_restored

from . import services as tournaments
from .models import (
    Category,
    Entry,
    Payment,
    Series,
    SeriesList,
    Side,
    SideMember,
    Table,
    TableSeat,
    Tournament,
)
from .selectors import tournament_results

# What a tournament is played, paid and ranked by, as its organiser announced it and its backup keeps it.
SETTINGS = (
    "name",
    "venue",
    "variant",
    "scheme",
    "rules",
    "series",
    "games_at_four",
    "games_at_three",
    "seats",
    "entry_fee",
    "list_fee",
    "lost_game_tiers",
    "tandem_fee",
    "team_fee",
    "share_kind",
    "share_value",
    "keeps_list_fees",
    "keeps_lost_game_fees",
    "places",
    "best_series",
    "tandem_prizes",
    "team_prizes",
    "doubles",
    "late_entries",
    "seed",
)


# --- Writing -------------------------------------------------------------------------------------------------------


def tournament_backup(tournament: Tournament) -> dict[str, Any]:
    """Everything of a tournament: its book, settings, categories, entries, payments, sides and series (not its
    organiser: accounts belong to an instance)."""
    data = book_backup(tournament.keeper)
    club = tournament.club
    data["tournament"] = {
        "id": str(tournament.public_id),
        **{name: getattr(tournament, name) for name in SETTINGS},
        "date": tournament.date.isoformat(),
        "club": None if club is None else {"id": str(club.public_id), "name": club.name},
        "announced_at": when(tournament.announced_at),
        "categories": [
            {"name": one.name, "prizes": one.prizes, "order": one.order}
            for one in Category.objects.filter(tournament=tournament).order_by("order", "pk")
        ],
        "entries": _entries(tournament),
        "sides": _sides(tournament),
        "drawn": [_series(one) for one in Series.objects.filter(tournament=tournament).order_by("number")],
    }
    return data


def _entries(tournament: Tournament) -> list[dict[str, Any]]:
    payments: dict[int, list[dict[str, Any]]] = {}
    for payment in Payment.objects.filter(entry__tournament=tournament).order_by("created_at", "pk"):
        payments.setdefault(payment.entry_id, []).append(
            {"amount": payment.amount, "created_at": when(payment.created_at)}
        )
    entries = Entry.objects.filter(tournament=tournament).select_related("player", "category")
    return [
        {
            "id": str(entry.public_id),
            "player": str(entry.player.public_id),
            "name": entry.name,
            "club": entry.club,
            "category": None if entry.category is None else entry.category.name,
            "federation_number": entry.federation_number,
            "channel": entry.channel,
            "code": entry.code,
            "withdrawn_after": entry.withdrawn_after,
            "created_at": when(entry.created_at),
            "payments": payments.get(entry.pk, []),
        }
        for entry in entries.order_by("created_at", "pk")
    ]


def _sides(tournament: Tournament) -> list[dict[str, Any]]:
    members: dict[int, list[str]] = {}
    rows = SideMember.objects.filter(side__tournament=tournament).values_list("side_id", "entry__public_id")
    for side_id, entry in rows.order_by("side_id", "position"):
        members.setdefault(side_id, []).append(str(entry))
    return [
        {"kind": side.kind, "name": side.name, "created_at": when(side.created_at), "members": members.get(side.pk, [])}
        for side in Side.objects.filter(tournament=tournament).order_by("created_at", "pk")
    ]


def _series(series: Series) -> dict[str, Any]:
    seats: dict[int, list[str]] = {}
    for table_id, entry in (
        TableSeat.objects.filter(series=series).values_list("table_id", "entry__public_id").order_by("position")
    ):
        seats.setdefault(table_id, []).append(str(entry))
    entry_of = dict(Entry.objects.filter(tournament=series.tournament).values_list("player_id", "public_id"))
    lines: dict[int, list[dict[str, Any]]] = {}
    for line in PaperLine.objects.filter(match__tournament_table__series=series).order_by("pk"):
        lines.setdefault(line.match_id, []).append(
            {
                "entry": str(entry_of[line.player_id]),
                "game_points": line.game_points,
                "won": line.won,
                "lost": line.lost,
            }
        )
    tables = Table.objects.filter(series=series).select_related("match").order_by("number")
    return {
        "number": series.number,
        "seating": series.seating,
        "seed": series.seed,
        "drawn_at": when(series.drawn_at),
        "closed_at": when(series.closed_at),
        "tables": [
            {
                "number": table.number,
                "match": str(table.match.public_id),
                "paper": table.paper,
                "seats": seats.get(table.pk, []),
                "paper_lines": lines.get(table.match_id, []),
            }
            for table in tables
        ],
    }


# --- Restoring -----------------------------------------------------------------------------------------------------


def tournament_book(data: Mapping[str, Any], user: User, version: int) -> Keeper | None:
    """The book of the tournament the backup is of, if it is here already (``Unfit`` unless ``user`` manages it)."""
    tournament = Tournament.objects.filter(public_id=uuid.UUID(data["id"])).first()
    if tournament is None:
        return None
    if tournament.organiser_id != user.pk and not runs_club(user, tournament.club_id):
        raise Unfit(data["id"])
    return tournament.keeper


def _club_here(data: Any, user: User) -> Club | None:
    """The club the tournament is announced for, here already and run by ``user`` (``Unfit`` if somebody else
    runs it)."""
    if data is None:
        return None
    club = Club.objects.filter(public_id=uuid.UUID(data["id"])).first()
    if club is None:
        raise Refused(
            msg(
                gettext_noop(
                    "The tournament is announced for the club {club}, which is not here: restore the club's backup "
                    "first. Nothing was restored."
                ),
                club=str(data["name"]),
            )
        )
    if not runs_club(user, club.pk):
        raise Unfit(data["id"])
    return club


def _schedule(data: Mapping[str, Any]) -> tournaments.Schedule:
    return tournaments.Schedule(
        tuple(int(value) for value in data["values"]), kind=str(data["kind"]), payout=str(data["payout"])
    )


def _date(value: Any) -> datetime.date:
    parsed = parse_date(value) if isinstance(value, str) else None
    if parsed is None:
        raise ValueError(value)
    return parsed


def tournament_made(data: Mapping[str, Any], user: User, version: int) -> Keeper:
    """The tournament the backup is of, announced anew with ``user`` its organiser, its settings checked as the
    pages check them: its book."""
    if data["variant"] != tournaments.TOURNAMENT_VARIANT or data["scheme"] != tournaments.TOURNAMENT_SCHEME:
        raise ValueError(data["variant"])
    categories = items(data, "categories")
    settings = tournaments.TournamentSettings(
        name=str(data["name"]),
        date=_date(data["date"]),
        venue=str(data["venue"]),
        rules=dict(data["rules"]),
        series=int(data["series"]),
        games_at_four=int(data["games_at_four"]),
        games_at_three=int(data["games_at_three"]),
        seats=int(data["seats"]),
        entry_fee=int(data["entry_fee"]),
        list_fee=int(data["list_fee"]),
        lost_game_tiers=tuple((int(start), int(cents)) for start, cents in data["lost_game_tiers"]),
        tandem_fee=int(data["tandem_fee"]),
        team_fee=int(data["team_fee"]),
        share_kind=str(data["share_kind"]),
        share_value=int(data["share_value"]),
        keeps_list_fees=flag(data["keeps_list_fees"]),
        keeps_lost_game_fees=flag(data["keeps_lost_game_fees"]),
        places=_schedule(data["places"]),
        best_series=tuple(int(cents) for cents in data["best_series"]),
        tandem_prizes=_schedule(data["tandem_prizes"]),
        team_prizes=_schedule(data["team_prizes"]),
        categories=tuple((str(one["name"]), tuple(int(cents) for cents in one["prizes"])) for one in categories),
        doubles=str(data["doubles"]),
        late_entries=flag(data["late_entries"]),
    )
    club = _club_here(data["club"], user)
    try:
        tournament = tournaments.tournament_announce(organiser=user, settings=settings, club=club, restoring=True)
    except Invalid as error:
        raise ValueError(str(error)) from error
    Tournament.objects.filter(pk=tournament.pk).update(
        public_id=uuid.UUID(data["id"]), seed=str(data["seed"]), announced_at=moment(data["announced_at"])
    )
    for one in categories:
        Category.objects.filter(tournament=tournament, name=str(one["name"])).update(order=int(one["order"]))
    return tournament.keeper


def restore_tournament(data: Mapping[str, Any], restored: Restored) -> dict[str, int]:
    """The tournament's entries, payments, sides and series, into the tournament ``tournament_made`` announced (one
    found here already is left as it is); each closed series' lists summed afresh from its tables, and the standings
    over them kept again."""
    tournament = Tournament.objects.get(keeper=restored.keeper)
    if Entry.objects.filter(tournament=tournament).exists():
        return {}
    categories = {one.name: one for one in Category.objects.filter(tournament=tournament)}
    entries = {str(one["id"]): _restore_entry(tournament, one, restored, categories) for one in items(data, "entries")}
    for one in items(data, "sides"):
        side = _made(Side(tournament=tournament, kind=str(one["kind"]), name=str(one["name"])), exclude=_LINKS)
        _moved(side, created_at=one["created_at"])
        members = [entries[str(member)] for member in one["members"]]
        for position, entry in enumerate(members):
            _made(SideMember(side=side, entry=entry, kind=side.kind, position=position), exclude=_LINKS)
    for one in items(data, "drawn"):
        _restore_series(tournament, one, restored, entries)
    closed = Series.objects.filter(tournament=tournament, closed_at__isnull=False).count()
    if closed:
        tournaments.standings_kept(tournament, closed)
    # Read as the pages read it: a side of the wrong size or a list no series can produce is refused by the engine
    # here (the file is damaged), not on the results page later.
    tournament_results(tournament)
    return {}


# The rows a restored row links to are the restore's own, found by public id: no field check needed for them.
_LINKS = (
    "tournament",
    "player",
    "category",
    "entry",
    "side",
    "series",
    "table",
    "match",
    "account",
    "taken_by",
    "drawn_by",
)

M = TypeVar("M", bound=Model)


def _made(row: M, *, exclude: Sequence[str] = _LINKS) -> M:
    """``row`` checked as its model checks a field, and saved."""
    row.full_clean(exclude=list(exclude), validate_unique=False, validate_constraints=False)
    row.save()
    return row


def _moved(row: Model, **moments: Any) -> None:
    """Give ``row`` the moments the file says it was made (or drawn, or closed), which saving set to now."""
    type(row)._default_manager.filter(pk=row.pk).update(
        **{name: None if value is None else moment(value) for name, value in moments.items()}
    )


def _restore_entry(
    tournament: Tournament, data: Mapping[str, Any], restored: Restored, categories: Mapping[str, Category]
) -> Entry:
    category = data["category"]
    withdrawn = data["withdrawn_after"]
    entry = Entry(
        public_id=uuid.UUID(data["id"]),
        tournament=tournament,
        player=restored.players[data["player"]],
        name=str(data["name"]),
        name_key=name_key(str(data["name"])),
        club=str(data["club"]),
        category=None if category is None else categories[str(category)],
        federation_number=str(data["federation_number"]),
        channel=str(data["channel"]),
        code=str(data["code"]),
        withdrawn_after=None if withdrawn is None else int(withdrawn),
    )
    _made(entry)
    _moved(entry, created_at=data["created_at"])
    joins_restored(numbered=[(entry.player, entry.federation_number)])
    for one in items(data, "payments"):
        payment = _made(Payment(entry=entry, amount=int(one["amount"])))
        _moved(payment, created_at=one["created_at"])
    return entry


def _restore_series(
    tournament: Tournament, data: Mapping[str, Any], restored: Restored, entries: Mapping[str, Entry]
) -> None:
    number = int(data["number"])
    if not 1 <= number <= tournament.series:
        raise ValueError(number)
    series = _made(Series(tournament=tournament, number=number, seating=str(data["seating"]), seed=str(data["seed"])))
    _moved(series, drawn_at=data["drawn_at"], closed_at=data["closed_at"])
    tables = []
    for one in items(data, "tables"):
        table = _made(
            Table(
                series=series, number=int(one["number"]), match=restored.matches[one["match"]], paper=flag(one["paper"])
            )
        )
        for position, entry in enumerate(one["seats"]):
            _made(TableSeat(table=table, series=series, entry=entries[str(entry)], position=position))
        lines = [
            (entries[str(line["entry"])].player, int(line["game_points"]), int(line["won"]), int(line["lost"]))
            for line in items(one, "paper_lines")
        ]
        games = tournament.games_at_four if len(lines) == 4 else tournament.games_at_three
        where = PaperWhere(table.number, number, tournament.name, games, skat_values=True)
        paper_restored(table.match, lines, where=where)
        tables.append(table)
    if data["closed_at"] is not None:
        _keep_lists(series, tables)


def _keep_lists(series: Series, tables: Sequence[Table]) -> None:
    """Every player's list of a closed series, summed from its tables as closing the series summed it."""
    SeriesList.objects.bulk_create(tournaments.series_lists_summed(series, tables))


TOURNAMENT_SECTION = Section(
    key="tournament",
    book=tournament_book,
    make_book=tournament_made,
    restore=restore_tournament,
    by_name=ByName(
        flag="tournament",
        help="the tournament (by name) whose entries, payments, sides and series are backed up",
        find=named(Tournament.objects.all(), "tournaments"),
        backup=tournament_backup,
    ),
)
