"""A league's match day in the browser: two venues of four teams play two series side by side. At each venue the
host's secretary checks the teams in and seats each series; two tables a series score on phones from their QR
links and the other two are entered from their paper lists; between the series a captain brings a substitute; the
last table's list lets the secretary close the venue; every captain confirms the report and the league's manager
accepts it; the group's table and the venue's public page show the results while the day goes on and after.

The league, its teams and rosters, the match day and its venues are set up through the services; everything the
people at the match day do goes through the pages, each person in a browser of their own, at a phone's size. The
numbers expected are worked out by the engine from the games and paper lines the test enters."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Locator, Page, expect

from matches.clubs import services as clubs
from matches.engine.cards import Contract
from matches.engine.league import PaperLine, lines_from_paper
from matches.engine.match import score_match, setup_match
from matches.engine.match_days import MatchDay as DayResult
from matches.engine.match_days import SeriesPlace, league_table, rank_series, score_match_day
from matches.interclub import services as leagues
from matches.interclub.models import League, Team, Venue
from matches.interclub.selectors import series_rules, table_rules

from ..factories import make_user
from ..interclub_setup import roster_player
from .flow import TableGame, expect_totals, save_game, score, sheet_rows, signed_in

# The league plays three games a series at a table of four (its setting, 48 at a federation's match day), so that
# the phones' lists are complete after a few taps.
GAMES = 3
SERIES = 2
PHONE_TABLES = (1, 2)
PAPER_TABLES = (3, 4)
# Clubs and the short name their players carry; the first four play at the first venue, the others at the second.
CLUBS = (
    ("Herz Dame", "Herz"),
    ("Kreuz Bube", "Kreuz"),
    ("Pik As", "Pik"),
    ("Karo Sieben", "Karo"),
    ("Grand Hand", "Grand"),
    ("Null Ouvert", "Null"),
    ("Schneider", "Schneid"),
    ("Schwarz", "Schwarz"),
)
# The first dealer sits at seat 0 and the deal moves on a seat a game, so each game's declarer is one who plays it.
PHONE_GAMES = (
    (
        TableGame(1, Contract.CLUBS, 1, "won"),
        TableGame(2, Contract.HEARTS, 2, "lost"),
        TableGame(3, Contract.GRAND, 1, "won"),
    ),
    (
        TableGame(1, Contract.SPADES, 1, "won"),
        TableGame(0, Contract.CLUBS, 2, "won"),
        TableGame(3, Contract.HEARTS, 1, "lost"),
    ),
    (
        TableGame(2, Contract.GRAND, 2, "won"),
        TableGame(0, Contract.SPADES, 1, "lost"),
        TableGame(1, Contract.CLUBS, 1, "won"),
    ),
)
# A paper list's footer in seat order: game points, won, lost (three games a table at most).
PAPER_LISTS = (
    ((24, 1, 0), (0, 0, 0), (-40, 0, 1), (72, 1, 0)),
    ((0, 0, 0), (96, 1, 0), (0, 0, 0), (-48, 0, 1)),
    ((36, 1, 0), (-72, 0, 1), (48, 1, 0), (0, 0, 0)),
)


@dataclass
class Site:
    """A venue as the test follows it: its teams in order with their players (the four regulars, then the
    substitute), the host's secretary, and each table's totals as entered so far, by (series, table) and player."""

    league: League
    venue: Venue
    teams: list[Team]
    players: dict[str, list[str]]
    secretary: User
    # Which of the day's venues it is: the venues' tables enter different games and lists, so that they differ.
    order: int
    totals: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)

    @property
    def path(self) -> str:
        return reverse("interclub_venue", args=[self.venue.public_id])

    @property
    def report_path(self) -> str:
        return reverse("interclub_report", args=[self.venue.public_id])

    def team_of(self, player: str) -> str:
        return next(team for team, names in self.players.items() if player in names)

    def series_scores(self, series: int) -> dict[str, int]:
        """Each team's series score: its players' totals summed over the series' tables."""
        scores = {team.name: 0 for team in self.teams}
        for (number, _), totals in self.totals.items():
            for player, total in totals.items():
                if number == series:
                    scores[self.team_of(player)] += total
        return scores

    def places(self, series: int) -> list[SeriesPlace]:
        return rank_series(self.series_scores(series), series_rules(self.league))

    def day(self) -> DayResult:
        series = [self.series_scores(number) for number in range(1, SERIES + 1)]
        return score_match_day([team.name for team in self.teams], series, series_rules(self.league))


@dataclass(frozen=True)
class Day:
    league: League
    manager: User
    captains: dict[str, User]
    sites: tuple[Site, Site]


def _match_day() -> Day:
    """The league (three games a series, two series a match day), its group of eight clubs' teams, each with a
    captain and four players and a substitute on its roster, and a match day at two venues of four teams each,
    hosted by the first team's club, whose secretary runs it."""
    manager = make_user("manager")
    settings = leagues.LeagueSettings(name="Verbandsliga Nord", series_per_day=SERIES, games_at_four=GAMES)
    league = leagues.league_create(owner=manager, settings=settings)
    division = leagues.division_create(league=league, name="Verbandsliga")
    group = leagues.group_create(division=division, name="Staffel 1", promoted=1, relegated=1)
    match_day = leagues.match_day_create(group=group, number=1, date=datetime.date(2026, 10, 3))
    captains: dict[str, User] = {}
    sites: list[Site] = []
    for first in (0, 4):
        teams, players = [], {}
        secretary = make_user(f"secretary{first}")
        for index, (name, short) in enumerate(CLUBS[first : first + 4], start=first):
            club = clubs.club_create(owner=make_user(f"owner{index}"), name=name)
            captain = make_user(f"captain{index}")
            clubs.member_set(club=club, username=captain.username, role="member")
            if index == first:
                clubs.member_set(club=club, username=secretary.username, role="secretary")
            team = leagues.team_enter(group=group, club=club, name=f"{name} I", captain=captain)
            roster = [roster_player(team, f"{short} {seat}") for seat in range(1, 5)]
            roster.append(roster_player(team, f"{short} Ersatz", substitute=True))
            teams.append(team)
            players[team.name] = [entry.player.name for entry in roster]
            captains[team.name] = captain
        venue = leagues.venue_create(
            match_day=match_day, teams=teams, host_team=teams[0], place=f"Bei {CLUBS[first][0]}"
        )
        sites.append(Site(league, venue, teams, players, secretary, len(sites)))
    return Day(league, manager, captains, (sites[0], sites[1]))


# --- The venue's page -------------------------------------------------------------------------------------------------


def _series(page: Page, number: int) -> Locator:
    return page.get_by_role("region", name=re.compile(rf"^Series {number}\b"))


def _table(page: Page, series: int, number: int) -> Locator:
    heading = page.get_by_role("heading", name=f"Table {number}", exact=True)
    return _series(page, series).get_by_role("listitem").filter(has=heading)


def _seated(page: Page, series: int, number: int) -> list[str]:
    """The players at a table in seat order, as the venue's page lists them ("Name (Team)")."""
    items = _table(page, series, number).get_by_role("list").first.get_by_role("listitem").all_inner_texts()
    return [re.sub(r" \([^)]*\)$", "", item) for item in items]


def _check_in(page: Page, series: int, team: str, players: Sequence[str]) -> None:
    """Tick the team's players for the series (a substitute is marked so next to the name) and check them in."""
    form = _series(page, series).get_by_role("group", name=f"Players of {team}", exact=True)
    for player in players:
        form.get_by_role("checkbox", name=re.compile(rf"^{re.escape(player)}( \(substitute\))?$")).check()
    _series(page, series).get_by_role("button", name=f"Check in {team}", exact=True).click()
    expect(page.get_by_text(f"{team} is checked in for series {series}.", exact=True)).to_be_visible()


def _seat(page: Page, series: int, line_ups: dict[str, list[str]]) -> None:
    """The page lists every team's line-up; the secretary seats the series."""
    for team, players in line_ups.items():
        expect(_series(page, series).get_by_text(f"{team}: {', '.join(players)}", exact=True)).to_be_visible()
    page.get_by_role("button", name=f"Seat series {series}", exact=True).click()
    expect(page.get_by_text(f"Series {series} is seated.", exact=True)).to_be_visible()


def _open_phones(
    page: Page, series: int, new_context: Callable[..., BrowserContext]
) -> list[tuple[int, Page, list[str]]]:
    """A phone at each phone table opens the table's list from the link its QR code carries, without an account."""
    phones = []
    for number in PHONE_TABLES:
        table = _table(page, series, number)
        expect(table.get_by_role("img", name=f"QR code to score table {number}", exact=True)).to_be_visible()
        link = table.get_by_label("Scoring link (no account needed)", exact=True).input_value()
        phone = new_context().new_page()
        phone.goto(link)
        phone.get_by_role("button", name="Score on this phone", exact=True).click()
        expect(phone.get_by_role("heading", level=1)).to_contain_text(f"Table {number}, series {series}")
        phones.append((number, phone, _seated(page, series, number)))
    return phones


def _games(site: Site, series: int, number: int) -> tuple[TableGame, ...]:
    return PHONE_GAMES[(2 * series + number + site.order) % len(PHONE_GAMES)]


def _play(site: Site, series: int, phone: tuple[int, Page, list[str]], count: int) -> None:
    """The table's phone enters its next ``count`` games; the totals it shows then are the engine's."""
    number, page, seated = phone
    games = _games(site, series, number)
    before = sheet_rows(page).count()
    for entered in range(before + 1, before + count + 1):
        save_game(page, games[entered - 1].entry(seated))
        expect(sheet_rows(page)).to_have_count(entered)
    setup = setup_match("skat", scheme="seeger-fabian", rules=site.league.rules, players=4, planned_games=GAMES)
    scored = score_match(setup, [game.deal() for game in games[: before + count]])
    totals = dict(zip(seated, scored.totals, strict=True))
    expect_totals(page, totals)
    site.totals[(series, number)] = totals


def _enter_paper_list(page: Page, site: Site, series: int, number: int) -> None:
    """The secretary enters the footer of a table's paper list from the venue's page."""
    seated = _seated(page, series, number)
    lines = PAPER_LISTS[(series + number + site.order) % len(PAPER_LISTS)]
    _table(page, series, number).get_by_role("link", name="Enter a paper list", exact=True).click()
    for name, (points, won, lost) in zip(seated, lines, strict=True):
        group = page.get_by_role("group", name=name, exact=True)
        group.get_by_role("spinbutton", name=f"Game points of {name}", exact=True).fill(str(points))
        group.get_by_role("spinbutton", name="won", exact=True).fill(str(won))
        group.get_by_role("spinbutton", name="lost", exact=True).fill(str(lost))
    page.get_by_role("button", name="Enter the list", exact=True).click()
    expect(page.get_by_text(f"The list of table {number} is entered.", exact=True)).to_be_visible()
    paper = lines_from_paper([PaperLine(name, *line) for name, line in zip(seated, lines, strict=True)])
    site.totals[(series, number)] = {line.player: line.total for line in paper}


# --- What the results say ---------------------------------------------------------------------------------------------


def _expect_rows(table: Locator, rows: Sequence[Sequence[str]]) -> None:
    """The table's body rows, cell by cell, in order."""
    body = table.get_by_role("row").filter(has=table.page.get_by_role("cell"))
    expect(body).to_have_count(len(rows))
    for row, cells in zip(body.all(), rows, strict=True):
        expect(row.get_by_role("cell")).to_have_text(list(cells))


def _place_rows(places: Sequence[SeriesPlace]) -> list[list[str]]:
    return [[str(place.place), place.team, score(place.score), str(place.points)] for place in places]


def _expect_series_results(page: Page, site: Site, series: int, caption: str = "Results of series") -> None:
    table = page.get_by_role("table", name=f"{caption} {series}", exact=True)
    _expect_rows(table, _place_rows(site.places(series)))


def _expect_report(page: Page, site: Site) -> None:
    """The report ranks each series as the engine does and lists the teams by their day's league and game points."""
    for series in range(1, SERIES + 1):
        _expect_series_results(page, site, series, caption="Ranking of series")
    points = page.get_by_role("region", name="League points", exact=True).get_by_role("table")
    # Best first, as the engine ranks the day.
    rows = [[row.team, str(row.points), score(row.game_points)] for row in site.day().rows]
    _expect_rows(points, rows)


def _expect_league_table(page: Page, day: Day, provisional: bool) -> None:
    """The group's table as the engine ranks the two venues' days: place (▲ up, ▼ down), team, match days, league
    points and game points."""
    group = day.sites[0].venue.match_day.group
    teams = sorted(team.name for site in day.sites for team in site.teams)
    rows = league_table([site.day() for site in day.sites], table_rules(day.league, group), teams=teams)
    marks = {"promotion": " ▲", "relegation": " ▼"}
    expected = [
        [
            f"{row.rank}{marks.get(row.mark or '', '')}",
            " ".join([row.team, *(["provisional"] if provisional else []), *(["undecided"] if row.undecided else [])]),
            str(row.match_days),
            str(row.points),
            score(row.game_points),
        ]
        for row in rows
    ]
    _expect_rows(page.get_by_role("region", name="League table", exact=True).get_by_role("table"), expected)


@pytest.mark.django_db(transaction=True)
def test_two_venues_play_a_match_day_on_phones_and_paper_to_the_accepted_league_table(
    new_context: Callable[..., BrowserContext], live_server: Any
) -> None:
    base = live_server.url
    day = _match_day()
    sites = day.sites
    secretaries = [signed_in(new_context(), base, site.secretary) for site in sites]
    for site, page in zip(sites, secretaries, strict=True):
        page.goto(base + site.path)
    regulars = [{team: names[:4] for team, names in site.players.items()} for site in sites]

    # Series 1, at both venues side by side: the host's secretary checks every team's regulars in and seats them.
    for page, regular in zip(secretaries, regulars, strict=True):
        for team_name, players in regular.items():
            _check_in(page, 1, team_name, players)
        _seat(page, 1, regular)
    phones = [_open_phones(page, 1, new_context) for page in secretaries]
    for index in range(len(PHONE_TABLES)):
        for site, its_phones in zip(sites, phones, strict=True):
            _play(site, 1, its_phones[index], GAMES)
    for site, page in zip(sites, secretaries, strict=True):
        for number in PAPER_TABLES:
            _enter_paper_list(page, site, 1, number)
        _expect_series_results(page, site, 1)

    # Between the series a captain brings the substitute in for a regular; the secretary checks in the others.
    site, page = sites[0], secretaries[0]
    substituting = site.teams[2].name
    substituted = [*site.players[substituting][:3], site.players[substituting][4]]
    captain = signed_in(new_context(), base, day.captains[substituting])
    captain.goto(base + site.path)
    _check_in(captain, 2, substituting, substituted)
    page.reload()
    for page, regular in zip(secretaries, regulars, strict=True):
        for team_name, players in regular.items():
            if team_name != substituting:
                _check_in(page, 2, team_name, players)
        # The line-up marks the substitute, as the check-in form does.
        marked = [*substituted[:-1], f"{substituted[-1]} (substitute)"]
        _seat(page, 2, regular | {substituting: marked} if page is secretaries[0] else regular)

    # Series 2: the phones play all but their last game while the paper lists are entered; the public page (no
    # account) follows the results of both series as they stand.
    phones = [_open_phones(page, 2, new_context) for page in secretaries]
    for index in range(len(PHONE_TABLES)):
        for site, its_phones in zip(sites, phones, strict=True):
            _play(site, 2, its_phones[index], GAMES - 1)
    for site, page in zip(sites, secretaries, strict=True):
        for number in PAPER_TABLES:
            _enter_paper_list(page, site, 2, number)
    # A visitor (no account) opens each venue's page in a tab of its own and leaves it open: it shows no QR code
    # and nothing to change, and it follows the tables by itself every 30 seconds.
    watching = new_context()
    watching.clock.install()
    # The secretaries' pages follow too: once the last list is complete, the way to close the venue comes by itself.
    for page in secretaries:
        page.context.clock.install()
        page.reload()
    tabs = [watching.new_page() for _ in sites]
    for site, tab in zip(sites, tabs, strict=True):
        tab.goto(base + site.path)
        for series in (1, 2):
            _expect_series_results(tab, site, series)
        expect(tab.get_by_role("img", name=re.compile("^QR code"))).to_have_count(0)
        expect(tab.get_by_role("button")).to_have_count(0)

    # The last games: the phones' lists are complete, the open tabs follow, and each secretary closes the venue.
    for site, its_phones in zip(sites, phones, strict=True):
        for phone in its_phones:
            _play(site, 2, phone, 1)
    for context in (watching, *(page.context for page in secretaries)):
        context.clock.fast_forward("00:31")
    for site, tab in zip(sites, tabs, strict=True):
        _expect_series_results(tab, site, 2)
    for site, page in zip(sites, secretaries, strict=True):
        page.get_by_role("button", name="Close the venue", exact=True).click()
        expect(page.get_by_text("The venue is closed: every list is locked and its report is ready.")).to_be_visible()
        expect(page.get_by_role("heading", name="Match report", level=1)).to_be_visible()
        _expect_report(page, site)
        # The report marks the substitute and whom they came in for.
        came_in = f"{substituted[-1]} (substitute, in for {sites[0].players[substituting][3]} from series 2)"
        line_up = f"{substituting}: {', '.join([*substituted[:-1], came_in])}"
        if site is sites[0]:
            expect(page.get_by_text(line_up, exact=True)).to_be_visible()

    # Every captain confirms the report for the team, each on their own phone; the league's manager accepts both.
    captains = {substituting: captain}
    for site in sites:
        for team in site.teams:
            if team.name not in captains:
                captains[team.name] = signed_in(new_context(), base, day.captains[team.name])
            confirming = captains[team.name]
            confirming.goto(base + site.report_path)
            confirming.get_by_role("button", name=f"Confirm the report for {team.name}", exact=True).click()
            expect(confirming.get_by_text(f"{team.name} confirmed the report.", exact=True)).to_be_visible()
    manager = signed_in(new_context(), base, day.manager)
    visitor = tabs[0]
    visitor.goto(base + reverse("interclub_group", args=[sites[0].venue.match_day.group.public_id]))
    _expect_league_table(visitor, day, provisional=True)
    for site in sites:
        manager.goto(base + site.report_path)
        confirmed = ", ".join(f"{team.name} ({day.captains[team.name].username})" for team in site.teams)
        expect(manager.get_by_text(f"Confirmed by: {confirmed}", exact=True)).to_be_visible()
        manager.get_by_role("button", name="Accept the report", exact=True).click()
        expect(manager.get_by_text("The report is accepted: its results are no longer provisional.")).to_be_visible()
        expect(manager.get_by_text(re.compile(r"^Accepted on .* by manager\.$"))).to_be_visible()

    # Everybody reads the group's table in the engine's order, and the venues' results as they were played.
    visitor.reload()
    _expect_league_table(visitor, day, provisional=False)
    for site in sites:
        visitor.goto(base + site.path)
        expect(visitor.get_by_text("closed: every list is locked", exact=True)).to_be_visible()
        for series in (1, 2):
            _expect_series_results(visitor, site, series)
