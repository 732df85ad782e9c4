"""What leaves the app of a league's results, as rows: a group's table, a venue's match report and the league's
players' ranking.

Each is one list of columns and one list of rows that the downloads (CSV, XLSX, ODS, JSON) and the printed page
(``prints``) both show, each in its own way: a cell as a program takes it (a number stays a number) or as a reader
sees it (league points as "5:1", a real minus sign), so that neither can show a column or a figure the other does not.
Every function takes what a selector read and asks the database nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from matches.engine.match_days import LeaguePoints, Mark, TeamDay
from matches.exports.base import Cell
from matches.exports.sheets import Column, Line, Sheet
from matches.labels import figure_cell, standing_label, total_label

from .models import Group, League, ScoreChange, Venue
from .selectors import GroupTable, LinedUp, RankedPlayer, VenueReport


def _number(value: Fraction) -> Cell:
    """A figure as a program takes it: whole, or to two places (a half league point, an average)."""
    return figure_cell(value)


def _yes(flag: bool) -> str:
    return _("yes") if flag else ""


MARKS = {
    Mark.PROMOTION: pgettext_lazy("league file", "promotion"),
    Mark.RELEGATION: pgettext_lazy("league file", "relegation"),
}


# --- The group's table -----------------------------------------------------------------------------------------------

TABLE_COLUMNS = (
    Column(gettext_lazy("Place"), 14),
    Column(pgettext_lazy("league file", "Team"), 42, text=True),
    Column(pgettext_lazy("league file", "Club"), 28, text=True),
    # Wide enough for the longest title of either language in bold ("League points", "Spielpunkte").
    Column(pgettext_lazy("league file", "League points"), 30),
    Column(pgettext_lazy("league file", "Plus points"), 0, printed=False),
    Column(pgettext_lazy("league file", "Minus points"), 0, printed=False),
    Column(gettext_lazy("Game points"), 28),
    Column(pgettext_lazy("league file", "Match days"), 24),
    Column(pgettext_lazy("league file", "Mark"), 24, text=True),
    Column(pgettext_lazy("league file", "Provisional"), 0, printed=False),
    Column(pgettext_lazy("league file", "Undecided"), 0, printed=False),
)


def group_table_sheet(table: GroupTable) -> Sheet:
    """The group's table: each team's place (a place decided by lot marked "*" when printed; none for a team yet to
    play, which is never marked), league points as plus:minus (and each alone for a spreadsheet), the summed series
    scores, the match days counted, promotion or relegation (marked "?" when printed where the team shares its rank
    across the line, and the league's manager decides), and whether a result counted in it is not accepted yet
    (marked "†" when printed)."""
    lines = []
    for one in table.rows:
        row = one.row
        mark = str(MARKS[row.mark]) if row.mark else ""
        # A team yet to play has no place: nothing in a file, a dash when printed, as on the page.
        place = "–" if row.rank is None else f"{row.rank}*" if row.by_lot else str(row.rank)
        team = f"{one.team.name} †" if one.provisional else one.team.name
        cells: tuple[Cell, ...] = (
            row.rank,
            one.team.name,
            one.team.club.name,
            str(row.points),
            _number(row.points.plus),
            _number(row.points.minus),
            row.game_points,
            row.match_days,
            mark,
            _yes(one.provisional),
            _yes(row.undecided),
        )
        texts = (place, team, one.team.club.name, str(row.points), "", "", total_label(row.game_points))
        printed_mark = f"{mark} ?" if row.undecided else mark
        lines.append(Line(cells, (*texts, str(row.match_days), printed_mark, "", "")))
    group = table.group
    return Sheet(
        name=f"{group.division.league.name} {group.division.name} {group.name}",
        title=group.name,
        columns=TABLE_COLUMNS,
        lines=tuple(lines),
        notes=_notes(
            by_lot=any(one.row.by_lot for one in table.rows),
            provisional=any(one.provisional for one in table.rows),
            undecided=any(one.row.undecided for one in table.rows),
        ),
    )


def _notes(*, by_lot: bool, provisional: bool, undecided: bool = False) -> tuple[str, ...]:
    notes = []
    if by_lot:
        notes.append(_("* tied: decided by lot"))
    if undecided:
        notes.append(pgettext("league file", "? undecided: the rank spans the line, the league's manager decides"))
    if provisional:
        notes.append(pgettext("league file", "† provisional: a result counted here is not accepted yet"))
    return tuple(notes)


# --- The players' ranking --------------------------------------------------------------------------------------------

RANKING_COLUMNS = (
    Column(gettext_lazy("Place"), 14),
    Column(gettext_lazy("Player"), 70, text=True),
    Column(gettext_lazy("Average"), 26),
    Column(gettext_lazy("Points"), 26),
    Column(gettext_lazy("Series"), 20),
    Column(pgettext_lazy("league file", "Provisional"), 0, printed=False),
)


def players_ranking_sheet(league: League, ranking: Sequence[RankedPlayer], *, group: Group | None = None) -> Sheet:
    """The league's (or a group's) players by their average per series: the place, the name, the average, the
    summed totals, the series played, and whether a series counted is not accepted yet (marked "†" when
    printed)."""
    lines = []
    for one in ranking:
        row = one.row
        name = f"{one.player.name} †" if one.provisional else one.player.name
        cells: tuple[Cell, ...] = (
            row.rank,
            one.player.name,
            _number(row.average),
            row.total,
            row.series,
            _yes(one.provisional),
        )
        texts = (str(row.rank), name, standing_label(row.average), total_label(row.total), str(row.series), "")
        lines.append(Line(cells, texts))
    name = f"{league.name} {group.name}" if group is not None else league.name
    return Sheet(
        name=f"{name} {_('players')}",
        title=pgettext("league file", "Players' ranking"),
        columns=RANKING_COLUMNS,
        lines=tuple(lines),
        notes=_notes(by_lot=False, provisional=any(one.provisional for one in ranking)),
    )


# --- A venue's match report ------------------------------------------------------------------------------------------

REPORT_COLUMNS = (
    Column(pgettext_lazy("the number of a series", "Series"), 12),
    Column(pgettext_lazy("league file", "Table"), 12),
    Column(pgettext_lazy("league file", "Team"), 44, text=True),
    Column(gettext_lazy("Player"), 44, text=True),
    Column(gettext_lazy("Points"), 16),
    Column(gettext_lazy("Game points"), 16),
    Column(gettext_lazy("Won"), 12),
    Column(gettext_lazy("Lost"), 12),
    Column(gettext_lazy("Place"), 10),
    Column(pgettext_lazy("league file", "League points"), 12),
    Column(pgettext_lazy("league file", "Federation number"), 0, text=True, printed=False),
    Column(pgettext_lazy("league file", "Line-up"), 0, text=True, printed=False),
)


def lined_up_note(one: LinedUp, series: int) -> str:
    """What the match report says of a player beside the name: the federation number, on the substitution list,
    and whom they came in for from which series; empty when there is nothing to say."""
    parts = []
    if one.federation_number:
        parts.append(pgettext("league file", "no. %(number)s") % {"number": one.federation_number})
    if one.substitute:
        parts.append(pgettext("league file", "substitute"))
    if one.came_in_for is not None:
        parts.append(
            pgettext("league file", "in for %(player)s from series %(number)s")
            % {"player": one.came_in_for.name, "number": series}
        )
    return ", ".join(parts)


def score_change_note(change: ScoreChange) -> str:
    """A series score a correction changed, as the match report says it: "Series 2, Pik As I: 3000 → 3074" (a dash
    where the team had no score in the series)."""
    before, after = ("–" if value is None else total_label(value) for value in (change.before, change.after))
    return pgettext("league file", "Series %(number)s, %(team)s: %(before)s → %(after)s") % {
        "number": change.series,
        "team": change.team,
        "before": before,
        "after": after,
    }


def venue_parts(venue: Venue) -> list[str]:
    """What names a venue: the group, the match day and the place."""
    day = venue.match_day
    number = pgettext("league file", "Match day %(number)s") % {"number": day.number}
    return [part for part in (day.group.name, number, venue.place) if part]


def venue_name(venue: Venue) -> str:
    """What a venue's files are called."""
    return " ".join(venue_parts(venue))


def report_sheet(report: VenueReport) -> Sheet:
    """The venue's report as rows: every player's line at their table in each series, then each team's series
    score with its place and league points, and last each team's day (its league and game points), best first."""
    lines: list[Line] = []
    for series in report.series:
        details = series.player_details()
        for table in series.tables:
            for line in table.lines:
                name = line.team.name if line.team is not None else ""
                figures = (line.total, line.game_points, line.won, line.lost)
                one = details.get(line.player.pk)
                said = (one.federation_number, lined_up_note(one, series.number)) if one is not None else ("", "")
                lines.append(_report_line(series.number, table.table.number, name, line.player.name, figures, said))
        for place in series.places:
            lines.append(_team_line(series.number, place.team, place.score, place.place, place.points))
    for _team, day in report.days_best_first():
        if day is not None:
            lines.append(_day_line(day))
    return Sheet(
        name=report_name(report),
        title=pgettext("league file", "Match report"),
        columns=REPORT_COLUMNS,
        lines=tuple(lines),
    )


def report_name(report: VenueReport) -> str:
    """What a venue's report's files are called: the venue, and whether the report is provisional or accepted."""
    status = pgettext("league file", "provisional") if report.provisional else pgettext("league file", "accepted")
    return f"{venue_name(report.venue)} {status}"


def _report_line(
    series: int, table: int, team: str, player: str, figures: tuple[int, int, int, int], said: tuple[str, str]
) -> Line:
    """A player's line; ``said``: their federation number and what the report says of them (``lined_up_note``)."""
    total, game_points, won, lost = figures
    cells: tuple[Cell, ...] = (series, table, team, player, total, game_points, won, lost, None, None, *said)
    texts = (str(series), str(table), team, player, total_label(total), total_label(game_points), str(won), str(lost))
    return Line(cells, (*texts, "", "", *said))


def _team_line(series: int, team: str, score: int, place: int, points: LeaguePoints) -> Line:
    cells: tuple[Cell, ...] = (series, None, team, None, score, None, None, None, place, str(points), None, None)
    texts = (str(series), "", team, "", total_label(score), "", "", "", str(place), str(points), "", "")
    return Line(cells, texts)


def _day_line(day: TeamDay) -> Line:
    whole = pgettext("league file", "Match day")
    figures: tuple[Cell, ...] = (day.game_points, None, None, None, None, str(day.points), None, None)
    cells: tuple[Cell, ...] = (whole, None, day.team, None, *figures)
    texts = (whole, "", day.team, "", total_label(day.game_points), "", "", "", "", str(day.points), "", "")
    return Line(cells, texts)


def report_date(venue: Venue) -> str:
    return date_format(venue.match_day.date, "SHORT_DATE_FORMAT")
