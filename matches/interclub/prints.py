"""A league's prints, on the core's PDF pages: the group's table and the players' ranking (the rows the downloads
give, as a reader sees them), and a venue's match report ("Spielbericht") as the federations file it: the teams,
each series' players by team with their totals, the tables' results, the series' places and league points, the
day's result, and who confirmed and who accepted it (or that it is provisional). A venue of four teams and three
series fits one A4 page, with every player's federation number, a substitute and two corrections."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from matches.exports.pdf import FONT, MARGIN, PAGE_WIDTH, Document
from matches.labels import total_label
from matches.models import Match
from matches.registry import TablePlace

from .exports import lined_up_note, report_date, score_change_note, venue_parts
from .models import Team, VenueTable
from .selectors import SeriesResult, VenueReport, account_name

ROW = 4.2  # mm: one line of the report; four teams of four players in three series fit one page
SIZE = 8  # pt
FIGURE = 14  # mm: a player's total beside their name
NOTE_ROW = 3  # mm: a line of small type under a name (the federation number, a substitute)
SAID_ROW = 3  # mm: a line of who confirmed, and of a correction and the series scores it changed
CHANGES_INDENT = 6  # mm: the series scores a correction changed, beneath it
SEPARATOR = " · "
TABLE_TITLE = 18  # mm: "Table 3" before a table's players


def _person(user: User | None) -> str:
    """An account as the report's page names it (``account_name``); one deleted, or left on another server by a
    restored league, as no longer here."""
    return account_name(user) or pgettext("league file", "an account that is not here")


def _moment(value: datetime.datetime) -> str:
    return date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")


def venue_report_pdf(report: VenueReport) -> bytes:
    """The venue's match report, every series with its line-ups, tables and ranking, the day's result and its
    state: provisional until the league's manager accepted it."""
    venue = report.venue
    group = venue.match_day.group
    league = group.division.league
    doc = Document(pgettext("league file", "Match report"))
    doc.add_page()
    doc.cell(
        PAGE_WIDTH,
        f"{pgettext('league file', 'Match report')} · {league.name}",
        height=7,
        bold=True,
        size=13,
        align="L",
        border=0,
    )
    doc.newline(7)
    facts = [group.division.name, *venue_parts(venue), report_date(venue)]
    doc.cell(PAGE_WIDTH, " · ".join(facts), height=5, size=9, align="L", border=0)
    doc.newline(5)
    _state(doc, report)
    doc.newline(2)
    for series in report.series:
        _series(doc, report.teams, series)
    _day(doc, report)
    _confirmations(doc, report)
    return doc.output()


def _state(doc: Document, report: VenueReport) -> None:
    venue = report.venue
    if venue.accepted_at is not None:
        state = pgettext("league file", "Accepted on %(date)s by %(person)s") % {
            "date": _moment(venue.accepted_at),
            "person": _person(venue.accepted_by),
        }
    elif report.ready:
        state = pgettext("league file", "Provisional: not accepted by the league yet")
    else:
        state = pgettext("league file", "Provisional: the venue is still playing")
    doc.cell(PAGE_WIDTH, state, height=5, size=9, bold=True, align="L", border=0)
    doc.newline(5)


def _series(doc: Document, teams: Sequence[Team], series: SeriesResult) -> None:
    """A series: each team's players in a column with their totals, the team's score, place and league points, and
    then each table's players with their totals in seat order."""
    if not doc.room_for(ROW * 12):
        doc.add_page()
    doc.cell(PAGE_WIDTH, _("Series %(number)s") % {"number": series.number}, bold=True, size=9, align="L", border=0)
    doc.newline(ROW + 0.5)
    width = PAGE_WIDTH / max(len(teams), 1)
    totals = {line.player.pk: line.total for table in series.tables for line in table.lines}
    for team in teams:
        doc.cell(width, team.name, bold=True, size=SIZE, shade=True)
    doc.newline(ROW)
    line_ups = dict(series.lined_up)
    deepest = max((len(players) for players in line_ups.values()), default=0)
    for index in range(deepest):
        row = [line_ups.get(team, ())[index] if index < len(line_ups.get(team, ())) else None for team in teams]
        for one in row:
            name = one.player.name if one is not None else ""
            total = total_label(totals[one.player.pk]) if one is not None and one.player.pk in totals else ""
            doc.cell(width - FIGURE, name, size=SIZE, align="L")
            doc.cell(FIGURE, total, size=SIZE, align="R")
        doc.newline(ROW)
        # Under the names, in small type: the federation numbers, the substitutes and whom they came in for.
        notes = [
            doc.wrap(lined_up_note(one, series.number), width, size=SIZE - 2) if one is not None else [] for one in row
        ]
        for line in range(max(map(len, notes))):
            for wrapped in notes:
                doc.cell(width, wrapped[line] if line < len(wrapped) else "", height=NOTE_ROW, size=SIZE - 2, align="L")
            doc.newline(NOTE_ROW)
    places = {place.team: place for place in series.places}
    for team in teams:
        place = places.get(team.name)
        text = (
            pgettext("league file", "%(place)s. place · %(points)s") % {"place": place.place, "points": place.points}
            if place
            else ""
        )
        doc.cell(width - FIGURE, text, size=SIZE, bold=True, align="L")
        doc.cell(FIGURE, total_label(place.score) if place else "", size=SIZE, bold=True, align="R")
    doc.newline(ROW)
    _tables(doc, series)
    doc.newline(2)


def _tables(doc: Document, series: SeriesResult) -> None:
    for result in series.tables:
        doc.cell(TABLE_TITLE, _("Table %(number)s") % {"number": result.table.number}, size=SIZE - 1, align="L")
        seats = max(len(result.lines), 1)
        width = (PAGE_WIDTH - TABLE_TITLE) / seats
        for line in result.lines:
            doc.cell(width - FIGURE, line.player.name, size=SIZE - 1, align="L")
            doc.cell(FIGURE, total_label(line.total), size=SIZE - 1, align="R")
        doc.newline(ROW - 0.4)


def _day(doc: Document, report: VenueReport) -> None:
    """The day's result: each team's league points and game points, best first."""
    if report.day is None:
        return
    if not doc.room_for(ROW * (len(report.day.rows) + 2)):
        doc.add_page()
    doc.cell(PAGE_WIDTH, pgettext("league file", "Result of the match day"), bold=True, size=9, align="L", border=0)
    doc.newline(ROW + 0.5)
    titles = [
        (pgettext("league file", "Team"), 70.0),
        (pgettext("league file", "League points"), 30.0),
        (_("Game points"), 30.0),
    ]
    for title, width in titles:
        doc.cell(width, title, size=SIZE, bold=True, shade=True)
    doc.newline(ROW)
    for row in report.day.rows:
        doc.cell(titles[0][1], row.team, size=SIZE, align="L")
        doc.cell(titles[1][1], str(row.points), size=SIZE, bold=True, align="R")
        doc.cell(titles[2][1], total_label(row.game_points), size=SIZE, align="R")
        doc.newline(ROW)
    doc.newline(2)


def _confirmations(doc: Document, report: VenueReport) -> None:
    """Who confirmed the report for which team (and who confirmed an earlier result, before a correction), and each
    correction with the series scores it changed, side by side on the lines beneath it; in the type of the tables'
    lines, so that two corrections still fit the page."""
    lines = [
        pgettext("league file", "Confirmed for %(team)s by %(person)s on %(date)s")
        % {"team": one.team.name, "person": _person(one.captain), "date": _moment(one.created_at)}
        for one in report.confirmed
    ]
    lines += [
        pgettext(
            "league file", "Confirmed for %(team)s by %(person)s on %(date)s, before the correction of %(corrected)s"
        )
        % {
            "team": one.team.name,
            "person": _person(one.captain),
            "date": _moment(one.created_at),
            "corrected": _moment(correction.created_at),
        }
        for one, correction in report.confirmed_before
    ]
    confirmed = {one.team_id for one in report.confirmed}
    lines += [
        pgettext("league file", "Not confirmed for %(team)s") % {"team": team.name}
        for team in report.teams
        if team.pk not in confirmed
    ]
    rows = [(0.0, line) for line in lines]
    for one in report.corrections:
        said = {"date": _moment(one.created_at), "person": _person(one.user), "reason": one.reason}
        if one.accepted:
            line = pgettext("league file", "Corrected on %(date)s by %(person)s: %(reason)s") % said
        else:
            line = pgettext("league file", "Reopened before acceptance on %(date)s by %(person)s") % said + (
                f": {one.reason}" if one.reason else ""
            )
        changes = [score_change_note(change) for change in one.changes()]
        rows += [
            (0.0, line),
            *((CHANGES_INDENT, note) for note in _side_by_side(doc, changes, PAGE_WIDTH - CHANGES_INDENT)),
        ]
    for indent, line in rows:
        if not doc.room_for(SAID_ROW):
            doc.add_page()
        doc.pdf.set_x(MARGIN + indent)
        doc.cell(PAGE_WIDTH - indent, line, height=SAID_ROW, size=SIZE - 1, align="L", border=0)
        doc.newline(SAID_ROW)


def _side_by_side(doc: Document, notes: Sequence[str], width: float) -> list[str]:
    """``notes`` joined by " · " into lines that fit ``width`` (mm) in the type of the tables' lines, each note whole
    on one line."""
    doc.pdf.set_font(FONT, "", SIZE - 1)
    room = width - 2 * doc.pdf.c_margin
    lines: list[str] = []
    for note in notes:
        if lines and doc.pdf.get_string_width(f"{lines[-1]}{SEPARATOR}{note}") <= room:
            lines[-1] = f"{lines[-1]}{SEPARATOR}{note}"
        else:
            lines.append(note)
    return lines


def venue_table_place(match: Match) -> TablePlace | None:
    """The venue's table ``match`` was played at, for the head of its printed list and the page of its ended link:
    the league, the group and the match day, the series and the table's number, and the venue's report."""
    table = VenueTable.objects.filter(match=match).select_related("venue__match_day__group__division__league").first()
    if table is None:
        return None
    day = table.venue.match_day
    event = _("%(league)s · %(group)s · match day %(number)s") % {
        "league": day.group.division.league.name,
        "group": day.group.name,
        "number": day.number,
    }
    report = reverse("interclub_report", args=[table.venue.public_id])
    return TablePlace(event, day.date, table.series, table.number, results_url=report)
