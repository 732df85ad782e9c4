"""Reads that feed the pages, the API and the exports: domain data, no requests, no rendering.

The score sheet reads what the services stored, and only the games it shows: what it costs does not grow with the
length of the match. The next deal, the what-if and the chart come from the engine's match scorer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, QuerySet, Sum

from .charts import HEIGHT as CHART_HEIGHT
from .charts import WIDTH as CHART_WIDTH
from .charts import Chart, totals_chart
from .engine import (
    VARIANTS,
    Checkpoint,
    DealEntry,
    MatchSetup,
    Message,
    NextDeal,
    Scheme,
    ScoredDeal,
    Seating,
    next_deal,
    score_match,
)
from .models import Game, GameScore, Match, MatchEvent, Seat
from .paging import PLACE_ERRORS, BadPlace, Page, place_of, place_token
from .papers import PaperList, paper_list
from .scoring import render

DERIVED_ON_MATCH = ("version", "deals", "totals")


def variant_catalogue() -> list[dict[str, object]]:
    """Every variant with its seats, schemes, contracts and rule options (defaults included, worded in the variant's
    word for Kontra), in the active language."""
    return [
        {
            "variant": spec.variant.value,
            "title": render(spec.label),
            "players": list(spec.players),
            "schemes": [scheme.value for scheme in spec.schemes],
            "contracts": [contract.value for contract in spec.contracts],
            "options": [
                {
                    "name": name,
                    "title": render(option.label),
                    "help": render(option.help),
                    "kind": option.kind,
                    "choices": list(spec.option_choices(name)),
                    "default": default,
                }
                for name, default in spec.options.items()
                for option in [spec.option(name)]
            ],
        }
        for spec in VARIANTS.values()
    ]


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet: the deal as stored (or as scored in a what-if), with the running totals."""

    game: Game
    number: int
    seating: Seating
    scores: list[int]
    totals: list[int]
    breakdown: list[Message]
    bock: int
    value: int
    won: bool | None
    declarer_name: str
    dealer_name: str
    scorable: bool = True

    @property
    def cells(self) -> list[tuple[int, int]]:
        return list(zip(self.scores, self.totals, strict=True))


@dataclass(frozen=True)
class Sheet:
    """A match's score sheet: the rows shown (the latest ones, or all), the totals, and the next deal. ``paper``:
    the list was kept on paper, and the totals are the footer entered from it."""

    match: Match
    seats: list[Seat]
    rows: list[SheetRow]
    totals: list[int]
    next: NextDeal
    scheme: str
    earlier: int = 0
    paper: PaperList | None = None

    @property
    def next_number(self) -> int:
        return self.next.number

    @property
    def next_seating(self) -> Seating:
        return self.next.seating

    @property
    def next_bock(self) -> int:
        return self.next.bock

    @property
    def bock_games_after(self) -> int:
        return self.next.bock_games_after

    @property
    def earlier_place(self) -> str | None:
        """Where the list's page of the games before these starts (``games_page``), if any came before."""
        if not self.earlier or not self.rows:
            return None
        return place_token(self.rows[0].number, self.rows[0].game.pk)

    @property
    def games_left(self) -> int | None:
        return None if self.paper else self.next.games_left

    @property
    def finished(self) -> bool:
        return self.paper is not None or self.next.finished

    @property
    def names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]

    def name(self, seat: int | None) -> str:
        return "" if seat is None else self.seats[seat].player.name

    @property
    def standings(self) -> list[tuple[Seat, int]]:
        return list(zip(self.seats, self.totals, strict=True))

    @property
    def next_dealer_name(self) -> str:
        return self.name(self.next.seating.dealer)

    @property
    def next_forehand_name(self) -> str:
        return self.name(self.next.seating.forehand)

    @property
    def next_sitting_out_name(self) -> str:
        return self.name(self.next.seating.sitting_out)


def guest_match_count(key: str | None) -> int:
    """How many matches the guest's book of that key holds (0 for no key or no such book)."""
    if not key:
        return 0
    return Match.objects.filter(keeper__guest_key=key, keeper__user__isnull=True).count()


def seats_of(match: Match) -> list[Seat]:
    """The match's seats in order, each with its player."""
    return list(Seat.objects.filter(match_id=match.pk).select_related("player").order_by("position"))


def live_games(match: Match) -> QuerySet[Game]:
    return Game.objects.filter(match=match, deleted=False)


def match_sheet(
    match: Match,
    *,
    scheme: str | None = None,
    last: int | None = None,
    upto: int | None = None,
    seats: list[Seat] | None = None,
    refresh: bool = True,
) -> Sheet:
    """The score sheet as stored, or rescored under another ``scheme`` (what-if) without changing anything.

    ``last`` shows only the latest games (the match page), ``upto`` ends the rows at that deal (paging back);
    either way only the games shown (and the few before the next deal that its Bock depends on) are read. The
    match's derived fields are read again first unless the caller's match is current (``refresh``): another request
    may have changed them.
    """
    if refresh:
        match.refresh_from_db(fields=list(DERIVED_ON_MATCH))
    seats = seats if seats is not None else seats_of(match)
    setup = match.setup()
    if scheme is not None and scheme != match.scheme:
        return _what_if(match, seats, Scheme(scheme))
    end = match.deals if upto is None else max(0, min(upto, match.deals))
    games = live_games(match).filter(number__lte=end)
    reach = setup.reach if end == match.deals else 0
    if last is not None:
        games = games.filter(number__gt=end - max(last, reach))
    read = list(games.order_by("number"))
    shown = read if last is None else read[-last:] if last else []
    after = _score_sums(live_games(match).filter(number__gt=end), len(seats)) if end < match.deals else [0] * len(seats)
    totals_at_end = [total - later for total, later in zip(match.totals, after, strict=True)]
    rows = _stored_rows(setup.seating, shown, totals_at_end, seats)
    recent = _recent_deals(match, setup.reach, read if end == match.deals else [])
    upcoming = next_deal(setup, Checkpoint(match.deals, tuple(match.totals), tuple(recent)))
    paper = paper_list(match)
    return Sheet(
        match=match,
        seats=seats,
        rows=rows,
        totals=paper.totals if paper else list(totals_at_end),
        next=upcoming,
        scheme=match.scheme,
        earlier=rows[0].number - 1 if rows else end,
        paper=paper,
    )


def sheet_after(match: Match, seats: list[Seat], games: Sequence[Game], after: Checkpoint) -> Sheet:
    """The sheet's last rows from ``games`` just written (the latest of the match, in order), with the match where
    ``after`` leaves it: nothing is read."""
    setup = match.setup()
    rows = _stored_rows(setup.seating, games, list(after.totals), seats)
    return Sheet(
        match=match,
        seats=seats,
        rows=rows,
        totals=list(after.totals),
        next=next_deal(setup, after),
        scheme=match.scheme,
        earlier=after.deals - len(rows),
    )


def _stored_rows(
    seating_of: Callable[[int], Seating], games: Sequence[Game], end_totals: list[int], seats: Sequence[Seat]
) -> list[SheetRow]:
    """Rows from stored games, with running totals worked back from the totals after the last of them."""
    rows: list[SheetRow] = []
    totals = list(end_totals)
    for game in reversed(games):
        scores = list(game.points) or [0] * len(seats)
        assert game.number is not None
        seating = seating_of(game.number)
        rows.append(
            SheetRow(
                game=game,
                number=game.number,
                seating=seating,
                scores=scores,
                totals=list(totals),
                breakdown=[Message.from_data(step) for step in game.breakdown],
                bock=game.bock,
                value=game.game_value,
                won=game.won,
                declarer_name=_name(seats, game.declarer),
                dealer_name=_name(seats, seating.dealer),
            )
        )
        totals = [total - score for total, score in zip(totals, scores, strict=True)]
    rows.reverse()
    return rows


def _name(seats: Sequence[Seat], seat: int | None) -> str:
    return "" if seat is None or not 0 <= seat < len(seats) else seats[seat].player.name


def _score_sums(games: QuerySet[Game], players: int) -> list[int]:
    sums = [0] * players
    rows = GameScore.objects.filter(game__in=games).values("seat").annotate(total=Sum("points"))
    for row in rows:
        sums[row["seat"]] = row["total"] or 0
    return sums


def checkpoint_before(match: Match, setup: MatchSetup, *, position: int | None = None) -> Checkpoint:
    """The match before the game at ``position`` (before the next deal when None): the number of deals before it,
    and the last ones, as many as reach ahead. The totals are the match's (before the next deal)."""
    earlier = live_games(match)
    if position is not None:
        earlier = earlier.filter(position__lt=position)
    count = earlier.count() if position is not None else match.deals
    recent: list[DealEntry] = []
    if setup.reach:
        rows = earlier.order_by("-position").only("passed", "declarer", "entry", "entry_version")[: setup.reach]
        recent = [row.deal() for row in reversed(rows)]
    return Checkpoint(count, tuple(match.totals), tuple(recent))


def _recent_deals(match: Match, reach: int, shown: Sequence[Game]) -> list[DealEntry]:
    """The last ``reach`` deals of the match (for the next deal's Bock), from the rows read when they hold them."""
    if not reach:
        return []
    if len(shown) >= reach or len(shown) == match.deals:
        return [game.deal() for game in shown[-reach:]]
    # Live games are numbered in the order of their positions, and positions are indexed: no sort of the whole match.
    rows = live_games(match).order_by("-position")[:reach]
    return [game.deal() for game in reversed(rows)]


def _what_if(match: Match, seats: list[Seat], scheme: Scheme) -> Sheet:
    """Every game of the match scored under another scheme by the engine (deals it cannot score count nothing)."""
    setup = match.setup().with_scheme(scheme)
    games = list(live_games(match).order_by("number"))
    scored = score_match(setup, [game.deal() for game in games], lenient=True)
    rows: list[SheetRow] = []
    totals = [0] * len(seats)
    for game, deal in zip(games, scored.deals, strict=True):
        totals = [total + score for total, score in zip(totals, deal.scores, strict=True)]
        rows.append(_scored_row(game, deal, totals, seats))
    return Sheet(match=match, seats=seats, rows=rows, totals=list(scored.totals), next=scored.next, scheme=scheme.value)


def _scored_row(game: Game, deal: ScoredDeal, totals: list[int], seats: Sequence[Seat]) -> SheetRow:
    return SheetRow(
        game=game,
        number=deal.number,
        seating=deal.seating,
        scores=list(deal.scores),
        totals=list(totals),
        breakdown=list(deal.breakdown),
        bock=deal.bock,
        value=deal.game_value,
        won=deal.won,
        declarer_name=_name(seats, deal.deal.declarer),
        dealer_name=_name(seats, deal.seating.dealer),
        scorable=deal.scorable,
    )


def sheet_row(match: Match, game: Game) -> SheetRow:
    """One stored game as a sheet row (to fix or delete it), without reading the rest of the match."""
    sheet = match_sheet(match, upto=game.number, last=1)
    return sheet.rows[0]


def match_chart(
    match: Match, seats: Sequence[Seat], width: int = CHART_WIDTH, height: int = CHART_HEIGHT
) -> Chart | None:
    """The running totals over the whole match, for its chart (read once per version of the match) in a ``width`` ×
    ``height`` box."""
    players = len(seats)
    per_game: dict[int, list[int]] = {}
    rows = GameScore.objects.filter(game__match=match, game__deleted=False).values_list(
        "game__number", "seat", "points"
    )
    for number, seat, points in rows:
        per_game.setdefault(number or 0, [0] * players)[seat] = points
    running: list[list[int]] = []
    totals = [0] * players
    for number in sorted(per_game):
        totals = [total + score for total, score in zip(totals, per_game[number], strict=True)]
        running.append(list(totals))
    return totals_chart([seat.player.name for seat in seats], running, width, height)


UNDOABLE = (MatchEvent.Action.ADD, MatchEvent.Action.EDIT, MatchEvent.Action.DELETE, MatchEvent.Action.REDO)
CHANGES = (MatchEvent.Action.ADD, MatchEvent.Action.EDIT, MatchEvent.Action.DELETE)


def undoable(match: Match) -> MatchEvent | None:
    """The change an undo would take back: the latest one not undone yet."""
    return (
        MatchEvent.objects.filter(match=match, undone_by__isnull=True, action__in=UNDOABLE)
        .order_by("-version", "-id")
        .first()
    )


def redoable(match: Match) -> MatchEvent | None:
    """The undo a redo would take back: the latest undo not redone yet, if nothing new was changed after it."""
    latest_change = (
        MatchEvent.objects.filter(match=match, action__in=CHANGES)
        .order_by("-version")
        .values_list("version", flat=True)
    ).first()
    undos = MatchEvent.objects.filter(match=match, action=MatchEvent.Action.UNDO, undone_by__isnull=True)
    if latest_change is not None:
        undos = undos.filter(version__gt=latest_change)
    return undos.select_related("undo_of__game", "game").order_by("-version", "-id").first()


def versions_mark(matches: QuerySet[Match]) -> str:
    """A mark of a set of matches that changes with any change to any of them, in one query: how many there are,
    the newest, and the sum of their versions (every change raises one match's version, and none ever goes down)."""
    sums = matches.aggregate(count=Count("id"), newest=Max("id"), versions=Sum("version"))
    return f"{sums['count']}-{sums['newest'] or 0}-{sums['versions'] or 0}"


def added_since(match: Match, version: int) -> int | None:
    """The game (its key) that the one change since ``version`` added, when that is all that changed: the match is
    one version on, and that version added a game (at the end of the list, as every added game is)."""
    if match.version != version + 1:
        return None
    added = MatchEvent.objects.filter(match=match, version=match.version, action=MatchEvent.Action.ADD)
    return added.values_list("game_id", flat=True).first()


GAME_ROW = (
    "number",
    "passed",
    "declarer",
    "entry",
    "entry_version",
    "won",
    "game_value",
    "bock",
    "points",
    "breakdown",
)


def game_rows(match: Match) -> Iterator[tuple[Any, ...]]:
    """The games on a match's list, in order, as plain tuples (``GAME_ROW``), read a few thousand at a time: what an
    export of any length walks through without holding it."""
    games = Game.objects.filter(match=match, deleted=False).order_by("position").values_list(*GAME_ROW)
    return games.iterator(chunk_size=2000)


def games_page(match: Match, *, after: str | None, size: int) -> tuple[Sheet, Page]:
    """A match's list a page at a time, from its latest games back, by the one paging protocol (``page_of``):
    ``after`` is the place of the earliest game of the page before, and this page ends just before it, its rows
    with their running totals. Raises ``BadPlace`` (a 404) for a place not made here."""
    upto = None
    if after:
        try:
            number, pk = place_of(after)
            if type(number) is not int or type(pk) is not int or number < 1:
                raise ValueError(number)
        except PLACE_ERRORS as error:
            raise BadPlace(after) from error
        upto = number - 1
    sheet = match_sheet(match, upto=upto, last=size)
    return sheet, Page(sheet.rows, sheet.earlier_place, paged=bool(after))
