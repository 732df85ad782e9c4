"""A tournament's results as domain data: each series' lists and places, the total standings, the prize list and
the cashier's list, read from stored rows and derived by the engine (``matches.engine.tournaments``).

A closed series is read from the lists it kept (``SeriesList``, one row per player); a series still being played
sums its tables in the database (the core's ``list_sums`` over their games, one read of the paper lines and one of
the seats), so the results cost a fixed number of queries however many players sit at a table or in the room.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.db.models import Count, F, Q, Sum
from django.urls import reverse

from matches.engine import FieldError, RuleError
from matches.engine.draw import Tables, met_again
from matches.engine.league import Place, SeriesLine
from matches.engine.tournaments import (
    Cashier,
    CashierLine,
    Doubles,
    Entrant,
    Fees,
    OrganiserShare,
    Payout,
    Prize,
    PrizeSchedule,
    Rankings,
    ScheduleKind,
    ShareKind,
    TournamentRules,
    all_dues,
    dues,
    rank_tournament,
    score_tournament,
)
from matches.engine.tournaments import (
    Category as CategoryRule,
)
from matches.engine.tournaments import Side as SideRule
from matches.models import Match
from matches.names import name_key
from matches.papers import paper_sums
from matches.registry import ListPlace, TablePlace
from matches.selectors import versions_mark
from matches.sums import list_sums

from .models import (
    Category,
    Entry,
    EntryStanding,
    Payment,
    Series,
    SeriesList,
    Side,
    SideKind,
    SideMember,
    Table,
    TableSeat,
    Tournament,
)


def schedule_of(stored: Mapping[str, object]) -> PrizeSchedule:
    """A prize schedule as the tournament stores it (``values``, ``kind``, ``payout``; each with the engine's
    default where not given)."""
    values = stored.get("values", ())
    return PrizeSchedule(
        tuple(int(value) for value in values) if isinstance(values, list | tuple) else (),
        ScheduleKind(str(stored.get("kind", ScheduleKind.SHARES))),
        Payout(str(stored.get("payout", Payout.IN_FULL))),
    )


def tournament_rules(tournament: Tournament, categories: Sequence[Category]) -> TournamentRules:
    """The engine's rules of the tournament as its organiser announced it."""
    return TournamentRules(
        seed=tournament.seed,
        series=tournament.series,
        games_at_four=tournament.games_at_four,
        games_at_three=tournament.games_at_three,
        fees=Fees(
            entry=tournament.entry_fee,
            per_list=tournament.list_fee,
            lost_games=tuple((int(start), int(cents)) for start, cents in tournament.lost_game_tiers),
            tandem=tournament.tandem_fee,
            team=tournament.team_fee,
        ),
        share=OrganiserShare(
            ShareKind(tournament.share_kind),
            tournament.share_value,
            keeps_list_fees=tournament.keeps_list_fees,
            keeps_lost_game_fees=tournament.keeps_lost_game_fees,
        ),
        places=schedule_of(tournament.places),
        categories=tuple(CategoryRule(one.name, tuple(int(cents) for cents in one.prizes)) for one in categories),
        best_series=tuple(int(cents) for cents in tournament.best_series),
        tandems=schedule_of(tournament.tandem_prizes),
        teams=schedule_of(tournament.team_prizes),
        doubles=Doubles(tournament.doubles),
    )


def entry_key(entry: Entry) -> str:
    """How the engine knows an entrant: by their name in the tournament's book, which no other entrant has, so that
    its refusals and lots name them as the room does."""
    return entry.player.name


# --- The lists of a series --------------------------------------------------------------------------------------------


def table_lines(tables: Sequence[Table]) -> dict[int, list[SeriesLine]]:
    """Each table's lists, by table id, in seat order: summed from its games by the database, or from its paper
    totals; a player without a game yet has an empty list."""
    seats: dict[int, list[tuple[str, int]]] = {}
    rows = TableSeat.objects.filter(table__in=list(tables)).values_list(
        "table_id", "entry__player__name", "entry__player_id"
    )
    for table_id, key, player_id in rows.order_by("table_id", "position"):
        seats.setdefault(table_id, []).append((key, player_id))
    sums = {(one.match, one.player): one for one in list_sums([table.match_id for table in tables if not table.paper])}
    paper = paper_sums([table.match_id for table in tables if table.paper])
    found: dict[int, list[SeriesLine]] = {}
    for table in tables:
        seated = seats.get(table.pk, [])
        if table.paper:
            written = [(key, paper.get((table.match_id, player_id))) for key, player_id in seated]
            found[table.pk] = [replace(line, player=key) for key, line in written if line is not None]
            continue
        lines = []
        for key, player_id in seated:
            one = sums.get((table.match_id, player_id))
            game_points = one.game_points(seeger_fabian=True) if one is not None else 0
            won, lost, others = (one.won, one.lost, one.others_lost) if one is not None else (0, 0, 0)
            lines.append(SeriesLine(key, len(seated), game_points, won, lost, others))
        found[table.pk] = lines
    return found


def series_lists(tournament: Tournament, series: Sequence[Series]) -> list[list[SeriesLine]]:
    """The lists of each drawn series in order: a closed one's as it kept them, an open one's from its tables."""
    kept: dict[int, list[SeriesLine]] = {}
    rows = SeriesList.objects.filter(series__in=[one for one in series if one.closed_at is not None]).values_list(
        "series_id", "entry__player__name", "table_size", "game_points", "won", "lost", "others_lost"
    )
    for series_id, key, size, game_points, won, lost, others_lost in rows.order_by("id"):
        kept.setdefault(series_id, []).append(SeriesLine(key, size, game_points, won, lost, others_lost))
    open_tables = list(Table.objects.filter(series__in=[one for one in series if one.closed_at is None]))
    live = table_lines(open_tables)
    playing: dict[int, list[SeriesLine]] = {}
    for table in sorted(open_tables, key=lambda table: (table.series_id, table.number)):
        playing.setdefault(table.series_id, []).extend(live[table.pk])
    return [kept.get(one.pk, []) if one.closed_at is not None else playing.get(one.pk, []) for one in series]


def seatings(series: Sequence[Series]) -> list[Tables]:
    """Who sat at which table in each series, by entry key, table by table in seat order."""
    tables: dict[tuple[int, int], list[str]] = {}
    rows = TableSeat.objects.filter(series__in=list(series)).values_list(
        "series_id", "table__number", "entry__player__name"
    )
    for series_id, number, key in rows.order_by("series_id", "table__number", "position"):
        tables.setdefault((series_id, number), []).append(key)
    return [
        tuple(tuple(players) for (series_id, _), players in sorted(tables.items()) if series_id == one.pk)
        for one in series
    ]


def met_again_in(series: Series) -> list[tuple[str, str]]:
    """The pairs seated together in ``series`` who sat at one table in a series before it (by their names in the
    tournament's book): what its draw could not avoid."""
    drawn = list(
        Series.objects.filter(tournament_id=series.tournament_id, number__lte=series.number).order_by("number")
    )
    *before, this = seatings(drawn)
    return met_again(this, before)


# --- Results ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentResults:
    """A tournament's results as they stand: every ranking (per series and in total), the prize list and the
    cashier's list, with the entries the engine's keys name (``entry``). ``problems``: why the prizes or the
    organiser's share cannot be paid as announced (more than the pot as it stands), in which case the prize list is
    empty and the cashier's list pays nothing out, so that the organiser sees the rankings, the dues and the
    reason."""

    tournament: Tournament
    entries: Mapping[str, Entry]
    series: tuple[Series, ...]
    rankings: Rankings
    prizes: tuple[Prize, ...]
    cashier: Cashier
    problems: tuple[FieldError, ...] = ()

    def entry(self, key: str | None) -> Entry | None:
        return self.entries.get(key) if key is not None else None

    @property
    def standings(self) -> tuple[Place, ...]:
        return self.rankings.total


def drawn_series(tournament: Tournament) -> list[Series]:
    return list(Series.objects.filter(tournament=tournament).order_by("number"))


def paid_by_entry(tournament: Tournament) -> dict[int, int]:
    """What each entrant has paid, in cents, summed by the database."""
    rows = Payment.objects.filter(entry__tournament=tournament).values("entry_id").annotate(paid=Sum("amount"))
    return {row["entry_id"]: row["paid"] or 0 for row in rows.order_by()}


def counts_as_entrant(withdrawn_after: int | None, paid: int) -> bool:
    """An entry withdrawn before the first series (``withdrawn_after`` 0) is no entrant, unless it paid: an entry
    fee paid stays in the pot (docs/rules.md, "Open tournaments")."""
    return withdrawn_after != 0 or paid > 0


def sides_of(tournament: Tournament) -> tuple[list[SideRule], list[SideRule]]:
    """The tandems and the teams entered, each with its members' entry keys in the order named."""
    members: dict[int, list[str]] = {}
    rows = SideMember.objects.filter(side__tournament=tournament).values_list("side_id", "entry__player__name")
    for side_id, key in rows.order_by("side_id", "position"):
        members.setdefault(side_id, []).append(key)
    found: dict[str, list[SideRule]] = {"tandem": [], "team": []}
    for side in Side.objects.filter(tournament=tournament).order_by("created_at", "id"):
        found[side.kind].append(SideRule(side.name, tuple(members.get(side.pk, ()))))
    return found["tandem"], found["team"]


def tournament_results(tournament: Tournament) -> TournamentResults:
    """The rankings, the prize list and the cashier's list of the tournament as they stand (the series being played
    counted as far as their tables are). Ties: more won, fewer lost, then a lot from the tournament's seed."""
    categories = list(Category.objects.filter(tournament=tournament).order_by("order", "id"))
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("category", "player").order_by("created_at", "id")
    )
    paid = paid_by_entry(tournament)
    entrants = [
        Entrant(
            entry_key(entry),
            frozenset({entry.category.name}) if entry.category is not None else frozenset(),
            paid.get(entry.pk, 0),
        )
        for entry in entries
        if counts_as_entrant(entry.withdrawn_after, paid.get(entry.pk, 0))
    ]
    series = drawn_series(tournament)
    tandems, teams = sides_of(tournament)
    rules = tournament_rules(tournament, categories)
    lists = series_lists(tournament, series)
    problems: tuple[FieldError, ...] = ()
    try:
        result = score_tournament(rules, entrants, lists, tandems=tandems, teams=teams)
    except RuleError as error:
        problems = tuple(error.errors)
        result = score_tournament(without_prizes(rules), entrants, lists, tandems=tandems, teams=teams)
    return TournamentResults(
        tournament,
        {entry_key(entry): entry for entry in entries},
        tuple(series),
        result.rankings,
        result.prizes,
        result.cashier,
        problems,
    )


def cashier_lines_by_entry(tournament: Tournament) -> dict[int, CashierLine]:
    """Each entrant's line of the cashier's list by entry id, as ``tournament_results`` has it but without the
    prizes (``won`` is 0): what they owe and what they have paid, read from plain rows without ranking anybody, for
    the desk that takes the money. An entry that counts for nothing (withdrawn before the first series without
    paying) has no line."""
    paid = paid_by_entry(tournament)
    keys: list[int] = []
    entrants: list[Entrant] = []
    rows = Entry.objects.filter(tournament=tournament).values_list("pk", "player__name", "withdrawn_after")
    for pk, key, withdrawn_after in rows.order_by("pk"):
        if counts_as_entrant(withdrawn_after, paid.get(pk, 0)):
            keys.append(pk)
            entrants.append(Entrant(key, paid=paid.get(pk, 0)))
    tandems, teams = sides_of(tournament)
    lists = series_lists(tournament, drawn_series(tournament))
    owed = all_dues(tournament_rules(tournament, []).fees, entrants, lists, tandems=tandems, teams=teams)
    return {pk: CashierLine(due, entrant.paid, 0) for pk, due, entrant in zip(keys, owed, entrants, strict=True)}


def cashier_line_of(entry: Entry) -> CashierLine | None:
    """One entrant's line of ``cashier_lines_by_entry``, read from their own rows alone (their payments, their lists
    of the closed series, their table of the series being played, their sides), so that an entrant's page costs the
    same in a room of thirty and of three thousand."""
    paid = Payment.objects.filter(entry=entry).aggregate(paid=Sum("amount"))["paid"] or 0
    if not counts_as_entrant(entry.withdrawn_after, paid):
        return None
    key = entry_key(entry)
    kept = SeriesList.objects.filter(entry=entry, series__closed_at__isnull=False).order_by("series__number")
    lines = [
        SeriesLine(key, size, game_points, won, lost, others_lost)
        for size, game_points, won, lost, others_lost in kept.values_list(
            "table_size", "game_points", "won", "lost", "others_lost"
        )
    ]
    playing = Table.objects.filter(seats__entry=entry, series__closed_at__isnull=True).order_by("series__number")
    for seated in table_lines(list(playing)).values():
        lines += [line for line in seated if line.player == key]
    sides = set(SideMember.objects.filter(entry=entry).values_list("side__kind", flat=True))
    fees = tournament_rules(entry.tournament, []).fees
    in_tandem, in_team = SideKind.TANDEM in sides, SideKind.TEAM in sides
    due = dues(Entrant(key, paid=paid), lines, fees, in_tandem=in_tandem, in_team=in_team)
    return CashierLine(due, paid, 0)


@dataclass(frozen=True)
class EntrantResult:
    """An entrant's end of the tournament as its results have it: their place in the total standings (None: they
    played no list) and their line of the cashier's list, with what they won and the balance the cashier hands them
    (``to_receive``) or still takes from them (``to_pay``)."""

    place: int | None
    line: CashierLine
    # Why the prizes cannot be paid as announced (the cashier's list then pays none): the page says so instead of
    # what they won and a balance without their prize.
    problems: tuple[FieldError, ...] = ()

    @property
    def to_receive(self) -> int:
        return max(self.line.balance, 0)

    @property
    def to_pay(self) -> int:
        return max(-self.line.balance, 0)


def entrant_result(entry: Entry) -> EntrantResult | None:
    """The entrant's place, winnings and balance once every series of the tournament is closed, read from the whole
    room's results as the prize list and the cashier's list read them; None while it runs (what they owe is then
    ``cashier_line_of``), or for an entry that counts for nothing."""
    tournament = entry.tournament
    if Series.objects.filter(tournament=tournament, closed_at__isnull=False).count() < tournament.series:
        return None
    results = tournament_results(tournament)
    key = entry_key(entry)
    line = next((one for one in results.cashier.lines if one.player == key), None)
    if line is None:
        return None
    place = next((one.place for one in results.standings if one.standing.player == key), None)
    return EntrantResult(place, line, results.problems)


def without_prizes(rules: TournamentRules) -> TournamentRules:
    """The rules with every prize and the organiser's share taken away (the categories kept, for their rankings)."""
    return replace(
        rules,
        share=replace(rules.share, value=0),
        places=PrizeSchedule(),
        categories=tuple(CategoryRule(category.name, ()) for category in rules.categories),
        best_series=(),
        tandems=PrizeSchedule(),
        teams=PrizeSchedule(),
    )


def entry_by_code(tournament: Tournament, code: str) -> Entry | None:
    """The entry of the code an entrant shows at the door (letters in any case, spaces ignored)."""
    wanted = "".join(code.split()).upper()
    return (
        Entry.objects.filter(tournament=tournament, code=wanted).select_related("category").first() if wanted else None
    )


# --- What the core asks -----------------------------------------------------------------------------------------------


def tournament_table_place(match: Match) -> TablePlace | None:
    """The tournament's table ``match`` was played at, for the head of its printed list and the page of its ended
    link: the tournament, its date, the series and the table's number, and the live standings."""
    table = Table.objects.filter(match=match).select_related("series__tournament").first()
    if table is None:
        return None
    tournament = table.series.tournament
    live = reverse("tournaments:live", args=[tournament.public_id])
    return TablePlace(tournament.name, tournament.date, table.series.number, table.number, results_url=live)


# --- The live page ----------------------------------------------------------------------------------------------------

# The live page lists this many places at a time: the top 50 first, as a prize list shows them in the room.
LIVE_PLACES = 50
# The tables still playing that the live page names; the rest it counts.
LIVE_TABLES = 40


def standings_over_closed_series(tournament: Tournament) -> list[tuple[int, Place]]:
    """Each entrant with a list of a closed series (by entry id) and their place over the closed series: the
    engine's total ranking of those lists, with its tie-breaks and its lot from the tournament's seed."""
    entries = dict(Entry.objects.filter(tournament=tournament).values_list("player__name", "pk"))
    closed = list(Series.objects.filter(tournament=tournament, closed_at__isnull=False).order_by("number"))
    ranked = rank_tournament(
        tournament_rules(tournament, []), [Entrant(key) for key in entries], series_lists(tournament, closed)
    )
    return [(entries[place.standing.player], place) for place in ranked.total]


@dataclass(frozen=True)
class LivePlaces:
    """A page of the standings over the closed series (``closed``: how many): the places shown, how many entrants
    are ranked, the page (from 1) and how many pages there are; ``found``: the name looked for, where the places
    are the first of the ``matching`` entrants it finds."""

    closed: int
    places: tuple[EntryStanding, ...]
    ranked: int
    page: int
    pages: int
    found: str = ""
    matching: int = 0

    @property
    def first(self) -> int:
        return self.places[0].place if self.places else 0

    @property
    def last(self) -> int:
        return self.places[-1].place if self.places else 0


def live_places(tournament: Tournament, *, page: int = 1, find: str = "") -> LivePlaces:
    """The places of page ``page`` of the kept standings, or (``find``) of the entrants whose name holds it, at most
    a page of them: three queries however many play (four where a name finds more than a page)."""
    closed = Series.objects.filter(tournament=tournament, closed_at__isnull=False).count()
    standings = EntryStanding.objects.filter(tournament=tournament)
    ranked = standings.count()
    pages = max(1, -(-ranked // LIVE_PLACES))
    shown = standings.select_related("entry").order_by("place")
    if find.strip():
        matches = shown.filter(entry__player__name_key__contains=name_key(" ".join(find.split())))
        places = tuple(matches[:LIVE_PLACES])
        matching = len(places) if len(places) < LIVE_PLACES else matches.count()
        return LivePlaces(closed, places, ranked, 1, pages, found=" ".join(find.split()), matching=matching)
    page = min(max(page, 1), pages)
    start = (page - 1) * LIVE_PLACES
    return LivePlaces(closed, tuple(shown[start : start + LIVE_PLACES]), ranked, page, pages)


def seats_found(tournament: Tournament, find: str) -> tuple[tuple[str, int], ...]:
    """Where the entrants whose name holds ``find`` sit in the series being played (name and table), at most a
    page of them: what a player looks up on the wall list, on their phone. One query however many play."""
    key = name_key(" ".join(find.split()))
    if not key:
        return ()
    seats = TableSeat.objects.filter(
        series__tournament=tournament, series__closed_at__isnull=True, entry__player__name_key__contains=key
    )
    return tuple(seats.order_by("entry__name", "pk").values_list("entry__name", "table__number")[:LIVE_PLACES])


@dataclass(frozen=True)
class SeriesProgress:
    """The series being played: its number, its tables drawn, how many have their list complete (every planned
    game entered, or kept on paper), and the numbers of the first of those still playing (``LIVE_TABLES``)."""

    number: int
    tables: int
    done: int
    playing: tuple[int, ...]

    @property
    def unnamed(self) -> int:
        """The tables still playing beyond those named."""
        return self.tables - self.done - len(self.playing)


def series_progress(tournament: Tournament) -> SeriesProgress | None:
    """How far the series being played is (None between series): counted by the database, so that the answer
    costs the same for ten tables and for a hundred."""
    series = Series.objects.filter(tournament=tournament, closed_at__isnull=True).order_by("number").first()
    if series is None:
        return None
    complete = Q(paper=True) | Q(match__deals__gte=F("match__planned_games"))
    tables = Table.objects.filter(series=series)
    counted = tables.aggregate(drawn=Count("pk"), done=Count("pk", filter=complete))
    playing = tables.exclude(complete).order_by("number").values_list("number", flat=True)[:LIVE_TABLES]
    return SeriesProgress(series.number, counted["drawn"], counted["done"], tuple(playing))


def desk_tables_state(tournament: Tournament) -> tuple[int, str]:
    """What the desk's tables move with, counted by the database in one read however many entrants or tables: the
    tournament's version (entries, draws, paper lists, closings) and the lists of the series being played
    (``versions_mark``: each game saved, undone or fixed, a scoring link renewed)."""
    playing = Match.objects.filter(
        tournament_table__series__tournament=tournament, tournament_table__series__closed_at__isnull=True
    )
    return (tournament.version, versions_mark(playing))


def closed_tournament_lists(match_ids: Sequence[int]) -> dict[int, ListPlace]:
    """Of the matches ``match_ids``, the tables of a tournament's closed series, each with its tournament and
    series."""
    tables = Table.objects.filter(match_id__in=match_ids, series__closed_at__isnull=False).values_list(
        "match_id",
        "series__number",
        "series__tournament__public_id",
        "series__tournament__name",
        "series__tournament__date",
    )
    return {
        match: ListPlace("tournament", tournament, name, tournament, date, series)
        for match, series, tournament, name, date in tables
    }


def tournament_book_names(keepers: Sequence[int]) -> dict[int, str]:
    """The names of the tournaments that keep some of these books (keepers, by id), by the book's id, in one query."""
    return dict(Tournament.objects.filter(keeper_id__in=keepers).values_list("keeper_id", "name"))
