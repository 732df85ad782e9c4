"""Every write of a knockout: announcing one, starting a series of tables through the core's ``table_match``, entering
a table's paper list through the core's ``table_paper_enter`` (the players' kept game points summed anew), summing those
afresh for a rescore, and the organiser leaving (their account is deleted)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum

from matches.engine import RuleError, setup_match
from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.models import Keeper, PaperLine, Player
from matches.services.events import one_line_name
from matches.services.paper import TableVersion
from matches.services.paper import table_paper_enter as core_table_paper_enter
from matches.services.tables import moved_on, table_match, table_title
from matches.standings import rows_differ

from .models import Knockout, KnockoutStanding, KnockoutTable

VARIANT, SCHEME = "skat", "seeger-fabian"
# A knockout's tables seat three or four: a series of players is split into tables of four, the last ones of three.
MIN_PLAYERS, MOST_PLAYERS = 3, 64
MOST_GAMES = 96


def knockout_create(*, organiser: User | None, name: str, games: int = 12) -> Knockout:
    """A new knockout with a book of its own, its rules checked and stored complete."""
    if not 1 <= games <= MOST_GAMES:
        raise Invalid.on("games", gettext_noop("Between 1 and {most}."), most=MOST_GAMES)
    try:
        setup = setup_match(VARIANT, scheme=SCHEME, rules={}, players=4)
    except RuleError as error:  # pragma: no cover - the defaults are valid
        raise Invalid.from_rules(error) from error
    with transaction.atomic():
        return Knockout.objects.create(
            keeper=Keeper.objects.create(),
            name=one_line_name(name),
            organiser=organiser,
            variant=VARIANT,
            scheme=SCHEME,
            rules=setup.stored_rules(),
            games=games,
        )


def _lock(knockout: Knockout) -> Knockout:
    return Knockout.objects.select_for_update().get(pk=knockout.pk)


def _tables_of(players: Sequence[str]) -> list[list[str]]:
    """The players split into tables of four, the last ones of three where four do not go up."""
    threes = (-len(players)) % 4
    sizes = [4] * ((len(players) - 3 * threes) // 4) + [3] * threes
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def series_start(*, knockout: Knockout, series: int, players: Sequence[str], user: User | None) -> list[KnockoutTable]:
    """Seat a series: its players, in order, at tables of four (and three), each a match of the knockout's book.
    A series started already keeps its tables."""
    with transaction.atomic():
        locked = _lock(knockout)
        existing = list(KnockoutTable.objects.filter(knockout=locked, series=series).order_by("number"))
        if existing:
            return existing
        if not MIN_PLAYERS <= len(players) <= MOST_PLAYERS or len(players) == 5:
            raise Invalid.on(
                "players",
                gettext_noop("Tables of three and four seat {low} to {high} players, but not {count}."),
                low=MIN_PLAYERS,
                high=MOST_PLAYERS,
                count=len(players),
            )
        if len(set(players)) != len(players):
            raise Invalid.on("players", gettext_noop("A player is listed twice."))
        tables = []
        for number, seated in enumerate(_tables_of(players), start=1):
            title = table_title(number, series, locked.name)
            match = table_match(keeper=locked.keeper, rules=locked, players=seated, title=title, user=user)
            tables.append(KnockoutTable.objects.create(knockout=locked, series=series, number=number, match=match))
        moved_on(locked)
        return tables


def table_paper_enter(
    *,
    table: KnockoutTable,
    lines: Sequence[tuple[Player, int, int, int]],
    user: User | None,
    version: TableVersion | None = None,
) -> None:
    """Enter a table's paper list through the core's ``table_paper_enter``, checked against the knockout's games; the
    players' kept game points are summed anew."""
    with transaction.atomic():
        knockout = _lock(table.knockout)
        core_table_paper_enter(
            table=table, event=knockout, lines=lines, games=knockout.games, skat_values=True, user=user, version=version
        )
        _standings_write(knockout)


def _standings(knockout: Knockout) -> dict[int, int]:
    """Each player's game points over the knockout's paper lists, summed afresh."""
    lines = PaperLine.objects.filter(match__knockout_table__knockout=knockout)
    return dict(lines.values("player").annotate(points=Sum("game_points")).values_list("player", "points"))


def _standings_write(knockout: Knockout) -> None:
    KnockoutStanding.objects.filter(knockout=knockout).delete()
    KnockoutStanding.objects.bulk_create(
        KnockoutStanding(knockout=knockout, player_id=player, game_points=points)
        for player, points in _standings(knockout).items()
    )


def knockout_standings_rescore(knockout: Knockout, *, check: bool = False) -> int:
    """Sum a knockout's players' game points afresh and compare with those it kept: the rows that differ; unless
    ``check``, they are written anew and its version moves on."""
    with transaction.atomic():
        locked = _lock(knockout)
        kept = dict(KnockoutStanding.objects.filter(knockout=locked).values_list("player_id", "game_points"))
        differ = rows_differ(_standings(locked), kept)
        if differ and not check:
            _standings_write(locked)
            moved_on(locked)
        return differ


def knockout_hand_over(*, knockout: Knockout, username: str) -> Knockout:
    """Make the account named ``username`` the knockout's organiser."""
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise Invalid.on("username", gettext_noop("There is no account of that name."))
    with transaction.atomic():
        locked = _lock(knockout)
        if locked.organiser_id == user.pk:
            raise Conflict.on("username", gettext_noop("That account runs it already."))
        locked.organiser = user
        locked.save(update_fields=["organiser"])
        moved_on(locked)
        return locked


def knockouts_organised_leave(*, user: User) -> None:
    """The organiser's knockouts are run by nobody once their account is deleted (only the last organiser is
    refused that: see ``accounts``)."""
    Knockout.objects.filter(organiser=user).update(organiser=None)
