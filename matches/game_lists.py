"""A match's list as the printed paper list writes it: every game's row with its marks, the running totals and the
footer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .engine import (
    Contract,
    MatchSetup,
    Message,
    Scheme,
    ScoredDeal,
    score_match,
)
from .engine.entry import ramsch_doublings
from .engine.league import SeriesLine
from .engine.skat import ListMarks
from .engine.values import paper_marks
from .models import Match, Seat
from .papers import paper_list
from .selectors import live_games


@dataclass(frozen=True)
class ListRow:
    """One game as the paper list writes it: its number, contract (None: all passed) and declarer, its marks (a
    Ramsch: every seat's card points), what doubled its value (Kontra, Re, the Bock rounds in force, a Ramsch's
    Jungfrau and pushes), won or lost at what value, the game points each seat writes and each seat's running
    total, and the seats its line names as the page's list does (``named``: the declarer, or a Ramsch's loser(s) or
    the player of its Durchmarsch)."""

    number: int
    contract: str | None
    declarer: int | None
    sitting_out: int | None
    marks: ListMarks | None
    card_points: Message | None
    kontra: bool
    re: bool
    bock: int
    ramsch_doublings: tuple[Message, ...]
    won: bool | None
    value: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    named: tuple[int, ...]

    @property
    def passed(self) -> bool:
        return self.contract is None

    @property
    def ramsch(self) -> bool:
        return self.contract == Contract.RAMSCH

    @property
    def won_value(self) -> int | None:
        """The value a declarer won, or what a Ramsch scored for its one winner (a Durchmarsch, the fewer card points
        of the two-player games' simple scheme, 1 each at its 60:60)."""
        if self.ramsch:
            best = max(self.points, default=0)
            return best if best > 0 else None
        return self.value if self.won and self.declarer is not None else None

    @property
    def lost_value(self) -> int | None:
        """What a lost game costs its declarer on the list (twice its value under the ISkO), or minus its value
        where the declarer writes nothing (an opponent scores it instead); what a Ramsch cost its loser, the player
        with the most card points (each of the tied players, the whole loss or his share)."""
        if self.ramsch:
            worst = min(self.points, default=0)
            return worst if worst < 0 else None
        if self.won is not False or self.declarer is None:
            return None
        return self.points[self.declarer] or -self.value


@dataclass(frozen=True)
class GameList:
    """A match as its paper list: every game in order and each player's footer line (game points, games won and
    lost, the others' lost games). ``seeger_fabian``: the rows carry game points only, and the footer adds the
    Seeger-Fabian points (``SeriesLine``) up to the match's totals. Its columns are the match's setup's
    (``values.paper_columns``, Kontra and Re, Bock)."""

    match: Match
    names: list[str]
    rows: list[ListRow]
    footers: list[SeriesLine]
    seeger_fabian: bool
    paper: bool = False


def game_list(match: Match, seats: Sequence[Seat]) -> GameList:
    """Every game of the match scored by the engine from what was entered, read in one query however long the
    match is. A Seeger-Fabian list writes the games under the standard scheme (the ISkO's game points: the value
    won, twice the value lost) and leaves the ±50 and the others' bonus to the footer, as the paper list does. A
    list kept on paper has no games here: only the footer entered from it."""
    setup = match.setup()
    paper = paper_list(match)
    if paper is not None:
        names = [seat.player.name for seat in seats]
        footers = [replace(line, player=name) for line, name in zip(paper.lines, names, strict=True)]
        return GameList(match, names, [], footers, paper.seeger_fabian, paper=True)
    seeger_fabian = setup.scheme is Scheme.SEEGER_FABIAN
    written = setup.with_scheme(Scheme.STANDARD) if seeger_fabian else setup
    games = live_games(match).order_by("position").only("passed", "declarer", "entry", "entry_version")
    scored = score_match(written, (game.deal() for game in games.iterator(chunk_size=2000)), lenient=True)
    players = len(seats)
    totals = [0] * players
    won, lost, others_lost = [0] * players, [0] * players, [0] * players
    rows: list[ListRow] = []
    for deal in scored.deals:
        totals = [total + score for total, score in zip(totals, deal.scores, strict=True)]
        if deal.declarer is not None and deal.won is not None:
            (won if deal.won else lost)[deal.declarer] += 1
            if not deal.won:
                others_lost = [count + (seat != deal.declarer) for seat, count in enumerate(others_lost)]
        rows.append(_list_row(written, deal, tuple(totals)))
    names = [seat.player.name for seat in seats]
    footers = [
        SeriesLine(names[seat], players, totals[seat], won[seat], lost[seat], others_lost[seat])
        for seat in range(players)
    ]
    return GameList(match, names, rows, footers, seeger_fabian)


def _list_row(setup: MatchSetup, deal: ScoredDeal, totals: tuple[int, ...]) -> ListRow:
    game, result = deal.deal.game, deal.result
    if result is None:  # all passed, or a game the rules leave unscored: nothing is marked
        game = None
    return ListRow(
        number=deal.number,
        contract=deal.deal.contract,
        declarer=deal.declarer,
        sitting_out=deal.seating.sitting_out,
        marks=(
            paper_marks(setup.spec, setup.scheme, setup.rules, game, result)
            if game is not None and result is not None
            else None
        ),
        card_points=(
            game.ramsch.card_points_word(deal.seating.sitting_out)
            if game is not None and game.ramsch is not None
            else None
        ),
        kontra=game is not None and game.kontra,
        re=game is not None and game.re,
        bock=deal.bock,
        ramsch_doublings=() if result is None else ramsch_doublings(result.breakdown),
        won=deal.won,
        value=deal.game_value,
        points=deal.scores,
        totals=totals,
        named=_named(deal),
    )


def _named(deal: ScoredDeal) -> tuple[int, ...]:
    game = deal.deal.game
    if deal.declarer is not None:
        return (deal.declarer,)
    if game is not None and game.ramsch is not None:
        return game.ramsch.named(deal.scores)
    return ()
