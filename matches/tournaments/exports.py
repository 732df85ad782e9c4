"""What leaves the app of a tournament's results, as rows: the total standings, each series' ranking, the prize list
and the cashier's list.

Each is one list of columns and one list of rows that the downloads (CSV, XLSX, ODS, JSON) and the printed page
(``prints``) both show, each in its own way: a cell as a program takes it (a number stays a number, money in euros
to the cent) or as a reader sees it (a real minus sign, "12,50 €"), so that neither can show a column or a figure the
other does not. Every function takes what ``tournament_results`` read and asks the database nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from matches.engine import RuleError
from matches.engine.league import Place
from matches.engine.tournaments import CashierLine, Prize, PrizeKind
from matches.exports.base import Cell
from matches.exports.sheets import Column, Line, Sheet
from matches.labels import euros, figure_cell, standing_label, total_label
from matches.refusals import refusal_texts

from .models import Entry
from .selectors import TournamentResults


def _amount(cents: int) -> Cell:
    """An amount as a program takes it: euros, whole or to the cent (as a figure of the league's files is)."""
    return figure_cell(Fraction(cents, 100))


def _score(value: Fraction) -> Cell:
    return figure_cell(value)


def finished(results: TournamentResults) -> bool:
    """Whether every series of the tournament is drawn and closed: until then its results are as they stand."""
    series = results.series
    return len(series) >= results.tournament.series and all(one.closed_at is not None for one in series)


def _notes(results: TournamentResults, places: Sequence[Place] = (), *, money: bool = False) -> tuple[str, ...]:
    """What a reader of the printed page is told under the table, a line each: what a mark means, and (on the lists
    of money) why no prize is paid."""
    notes = []
    if any(place.by_lot for place in places):
        notes.append(_("* tied: decided by lot"))
    if money and results.problems:
        notes.extend(refusal_texts(RuleError(list(results.problems))))
    return tuple(notes)


# --- The rankings ----------------------------------------------------------------------------------------------------

# The series an entrant played before they withdrew (0: before the first), for a program; empty for one still in (and
# a tandem or team). The printed page marks the name beside it instead (``_marked``).
WITHDRAWN_COLUMN = Column(pgettext_lazy("tournament file", "Withdrew after series"), 0, printed=False)

# The figures as wide as the club's tables have them, for the longest title of either language in bold
# ("Spielpunkte", "Gewonnen", "Verloren").
RANKING_COLUMNS = (
    Column(gettext_lazy("Place"), 14),
    Column(gettext_lazy("Player"), 52, text=True),
    Column(pgettext_lazy("tournament file", "Club"), 30, text=True),
    Column(gettext_lazy("Points"), 22),
    Column(gettext_lazy("Game points"), 30),
    Column(gettext_lazy("Won"), 21),
    Column(gettext_lazy("Lost"), 21),
    WITHDRAWN_COLUMN,
)


def withdrawn_label(withdrawn_after: int) -> str:
    """When an entrant withdrew, in the words the desk and the live page use ("withdrew after series 2")."""
    if withdrawn_after:
        return _("withdrew after series %(number)s") % {"number": withdrawn_after}
    return _("withdrew before series 1")


def _withdrawn(entry: Entry | None) -> int | None:
    """The series played before the entrant withdrew (0: before the first); None: still in, or no entrant."""
    return entry.withdrawn_after if entry is not None else None


def _marked(name: str, entry: Entry | None) -> str:
    """``name`` as a reader on paper sees it: marked beside it where its entrant withdrew ("Anna (withdrew after
    series 2)")."""
    withdrawn = _withdrawn(entry)
    return name if withdrawn is None else f"{name} ({withdrawn_label(withdrawn)})"


def _ranking_lines(results: TournamentResults, places: Sequence[Place]) -> tuple[Line, ...]:
    """The rows of a ranking: an entrant who withdrew is marked beside their name on paper, so that their place does
    not read as a player's still in the field; a file keeps the name as it is and the series in its own column."""
    lines = []
    for place in places:
        row = place.standing
        entry = results.entry(row.player)
        club = entry.club if entry is not None else ""
        cells: tuple[Cell, ...] = (
            place.place,
            row.player,
            club,
            _score(row.score),
            row.game_points,
            row.won,
            row.lost,
            _withdrawn(entry),
        )
        printed = f"{place.place}*" if place.by_lot else str(place.place)
        figures = (standing_label(row.score), total_label(row.game_points), str(row.won), str(row.lost))
        lines.append(Line(cells, (printed, _marked(row.player, entry), club, *figures, "")))
    return tuple(lines)


def standings_sheet(results: TournamentResults) -> Sheet:
    """The total standings: every player's place by their points summed over the series (Seeger-Fabian), with
    their game points and the games won and lost that break a tie (a place decided by lot marked "*" when
    printed)."""
    places = results.standings
    return Sheet(
        name=f"{results.tournament.name} {pgettext('tournament file', 'standings')}",
        title=pgettext("tournament file", "Standings"),
        columns=RANKING_COLUMNS,
        lines=_ranking_lines(results, places),
        notes=_notes(results, places),
        provisional=not finished(results),
    )


def series_sheet(results: TournamentResults, number: int) -> Sheet:
    """The ranking of series ``number`` alone (as far as its tables are, while it is played)."""
    places = results.rankings.series[number - 1] if number <= len(results.rankings.series) else ()
    title = _("Series %(number)s") % {"number": number}
    return Sheet(
        name=f"{results.tournament.name} {title}",
        title=title,
        columns=RANKING_COLUMNS,
        lines=_ranking_lines(results, places),
        notes=_notes(results, places),
        provisional=not finished(results),
    )


# --- The prize list --------------------------------------------------------------------------------------------------

PRIZE_KINDS = {
    PrizeKind.PLACE: pgettext_lazy("prize", "Overall"),
    PrizeKind.BEST_SERIES: pgettext_lazy("prize", "Best series"),
    PrizeKind.CATEGORY: pgettext_lazy("prize", "Category"),
    PrizeKind.TANDEM: pgettext_lazy("prize", "Tandem"),
    PrizeKind.TEAM: pgettext_lazy("prize", "Team"),
}

PRIZE_COLUMNS = (
    Column(pgettext_lazy("tournament file", "Prize"), 40, text=True),
    Column(gettext_lazy("Place"), 14),
    Column(pgettext_lazy("tournament file", "Winner"), 76, text=True),
    Column(pgettext_lazy("tournament file", "Club"), 36, text=True),
    Column(pgettext_lazy("tournament file", "Amount"), 24),
    WITHDRAWN_COLUMN,
)


def prize_label(prize: Prize) -> str:
    """Which ranking a prize is for: "Overall", "Best series", or the category's name."""
    return prize.category if prize.kind is PrizeKind.CATEGORY else str(PRIZE_KINDS[prize.kind])


def prize_sheet(results: TournamentResults) -> Sheet:
    """Every prize with its ranking, place, winner (on paper marked where they withdrew, in a file with the series in
    its own column) and money; a prize nobody is left to win says so. Where the prizes cannot be paid as announced,
    the list is empty and its note says why."""
    lines = []
    for prize in results.prizes:
        # A tandem's or team's prize is won by the side, which has no club of its own.
        entry = results.entry(prize.winner) if prize.kind not in {PrizeKind.TANDEM, PrizeKind.TEAM} else None
        won_by = prize.winner or ""
        winner = _marked(won_by, entry) if won_by else pgettext("tournament file", "not awarded")
        club = entry.club if entry is not None else ""
        cells: tuple[Cell, ...] = (
            prize_label(prize),
            prize.place,
            won_by,
            club,
            _amount(prize.amount),
            _withdrawn(entry),
        )
        texts = (prize_label(prize), str(prize.place), winner, club, euros(prize.amount), "")
        lines.append(Line(cells, texts))
    return Sheet(
        name=f"{results.tournament.name} {pgettext('tournament file', 'prize list')}",
        title=pgettext("tournament file", "Prize list"),
        columns=PRIZE_COLUMNS,
        lines=tuple(lines),
        notes=_notes(results, money=True),
        provisional=not finished(results),
    )


# --- The cashier's list ----------------------------------------------------------------------------------------------

# Eight amounts of up to "9,999.99 €" beside the name, each under a title short enough for its width in either
# language (the docs say what each holds).
CASHIER_COLUMNS = (
    Column(gettext_lazy("Player"), 38, text=True),
    Column(pgettext_lazy("cashier column", "Entry"), 19),
    Column(pgettext_lazy("cashier column", "Lists"), 19),
    Column(pgettext_lazy("cashier column", "Lost"), 19),
    Column(pgettext_lazy("cashier column", "Sides"), 19),
    Column(pgettext_lazy("cashier column", "Due"), 19),
    Column(pgettext_lazy("cashier column", "Paid"), 19),
    Column(pgettext_lazy("cashier column", "Won"), 19),
    Column(pgettext_lazy("cashier column", "Balance"), 19),
    WITHDRAWN_COLUMN,
)


def _cashier_line(name: str, figures: Sequence[int], entry: Entry | None = None) -> Line:
    """A player's amounts (or the totals'), in a file with the series they played before they withdrew; the printed
    page names who withdrew, and when, in a line under the list (beside a name, the mark would not fit the name's
    column)."""
    return Line(
        (name, *(_amount(cents) for cents in figures), _withdrawn(entry)),
        (name, *(euros(cents) for cents in figures), ""),
    )


def _figures(line: CashierLine) -> tuple[int, ...]:
    dues = line.dues
    sides = dues.tandem + dues.team
    return (dues.entry, dues.lists, dues.lost_games, sides, dues.total, line.paid, line.won, line.balance)


def cashier_sheet(results: TournamentResults) -> Sheet:
    """Each player's fees (entry, lists, lost games, tandem and team), what they owe in all, have paid and won, and
    what the cashier hands them at the end (negative: still to take from them); the printed page sums every column
    and gives the totals of money a line each: the fees, the pot, the prize money, the prizes paid and what the
    organiser keeps."""
    cashier = results.cashier
    players = [(line, results.entry(line.player)) for line in cashier.lines]
    lines = [_cashier_line(line.player, _figures(line), entry) for line, entry in players]
    gone = [_marked(line.player, entry) for line, entry in players if _withdrawn(entry) is not None]
    every = [_figures(line) for line in cashier.lines]
    totals = tuple(sum(column) for column in zip(*every, strict=True)) if every else (0,) * 8
    total = _cashier_line(pgettext("tournament file", "Total"), totals)
    pot = cashier.pot
    kept = _("fees kept %(kept)s, share %(share)s, not paid out %(left)s") % {
        "kept": euros(pot.kept),
        "share": euros(pot.share),
        "left": euros(cashier.not_paid_out),
    }
    # A line a total, in the words of the cashier's page, for the cashier to settle up from.
    sums = (
        f"{_('Fees in all')}: {euros(pot.total)}",
        f"{_('The prize pot')}: {euros(pot.main)} ({_('the share and the prizes come from it')})",
        f"{_('Prize money')}: {euros(pot.prize_money)}",
        f"{_('Paid out in prizes')}: {euros(cashier.paid_out)}",
        f"{_('Kept by the organiser')}: {euros(cashier.organiser)} ({kept})",
        *([", ".join(gone)] if gone else []),
    )
    return Sheet(
        name=f"{results.tournament.name} {pgettext('tournament file', 'cashier')}",
        title=pgettext("tournament file", "Cashier's list"),
        columns=CASHIER_COLUMNS,
        lines=tuple(lines),
        notes=(*sums, *_notes(results, money=True)),
        total=total,
        provisional=not finished(results),
    )
