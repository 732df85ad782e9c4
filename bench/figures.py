"""Measure what a table waits for as its match grows (``make bench``): a report, not a test.

Every figure is the ratio of two kinds of request measured side by side in one run: the two sides take turns, each
right after the other, many times, and the figure is the ratio of their medians. The machines are shared and noisy;
interleaved medians of the same run stand still where absolute times wander. A figure that misses its goal is printed
as MISSED and the run still exits with 0.

The run makes its own temporary database (never the one the settings name), seeds it through the services, and
sends the requests through Django's test client in process, as the pages' own scorer would (htmx where the page
uses it). A saved game is taken back after each save, outside the timing, so that every repetition meets the same
match; fixes alternate between two entries of the same game. One figure is taken over HTTP instead: saves per
second against health checks per second, with gunicorn serving the same temporary database (``throughput.py``).
"""

from __future__ import annotations

import csv
import gzip
import io
import logging
import os
import random
import re
import statistics
import time
import tracemalloc
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import urlencode

import brotli
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.db import connection, transaction
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from matches.clubs.models import Season
from matches.engine import setup_match
from matches.following import asks_within
from matches.interclub.models import Group
from matches.logs import JsonFormatter
from matches.management.deals import DealMaker
from matches.models import Game, Match, MatchEvent, RankingList
from matches.selectors import game_rows
from matches.services import game_add, match_create
from matches.tournaments.models import Entry
from scorekeeper.storage import minified

from . import BenchError
from .bulk import STANDARD, write_games
from .leagues import LeagueDay, seed_league_day, seed_league_history
from .records import seed_ranking, seed_record
from .restore_figures import restore_against_engine, slowest_save_during_restore
from .seasons import seed_season
from .throughput import measure as measure_throughput
from .tournaments import SERIES as TOURNAMENT_SERIES
from .tournaments import (
    BenchTournament,
    draw,
    seed_room,
    seed_tournament,
    take_entry_back,
    undraw,
)
from .urls import BARE_PATH

# Skat at three with Bock rounds: every save, fix and preview reads the Bock window of the last deals.
RULES: dict[str, bool | int | str] = {"bock": True}
NAMES = ("Anna", "Ben", "Cleo")
SEED = "scorekeeper-bench"
FORM_ENCODED = "application/x-www-form-urlencoded"
FIXED = 3  # the game every fix corrects
# A fix alternates between these two, so that each one changes something; the 60:60 starts a Bock round, so every
# other fix rescores the deals it reaches.
FIXES = ("75", "60")
WARM_UP = 5
# The seeded matches, by name, with their games. Saves, previews, the poll and the pages share the first three (a
# save is taken back exactly); the fixes, which stay in the history, have their own, and so does the hour of
# following, whose other phone's saves stay too.
MATCHES = {"10": 10, "16": 16, "50": 50, "1000": 1000, "fix 10": 10, "fix 1000": 1000, "follow": 16}
# What a phone downloads, in KB: the first visit of a match page (16 games) and one save, compressed as served.
FIRST_LOAD_GOAL_KB = 25
# The CSV export: a match of this many games, downloaded this many times against the csv module.
EXPORT_GAMES = 100_000
EXPORT_ROUNDS = 5
EXPORT_MEMORY_GOAL_MB = 30
EXPORT_RATIO_GOAL = 2
# The club seasons the season table is measured on: about a thousand and about a million games in closed nights.
SEASON_GAMES = (1_000, 1_000_000)
SAVE_ROUND_TRIP_GOAL_KB = 3
# A phone following a match for an hour, what it sends and receives together: left alone, and while another phone
# saves a game every two minutes.
FOLLOW_HOUR = 3600
FOLLOW_SAVES_EVERY = 120
FOLLOW_GOAL_KB = 150
# A restore of a list this long against the engine's scoring of its games; and the slowest save at another table
# while a backup of this many games is restored by another process, against the bare view.
RESTORE_GAMES = 100_000
RESTORE_GOAL = 5
RESTORE_DURING_GAMES = 20_000
SAVE_DURING_RESTORE_GOAL = 100
# Under gunicorn: saves per second against health checks per second, at least this (a floor, not a ceiling). With the
# database connection kept (CONN_MAX_AGE), a health check opens none and a save costs about ten of them.
SERVED_SAVE_GOAL = 0.05
SERVED_ROUNDS = 5
# A league's match day: one group at this many venues of four teams (a table of four at each, four tables a venue),
# a save at one of its tables while the group's live page is read, against the bare view.
LEAGUE_DAY_VENUES = 100
LEAGUE_DAY_SAVE_GOAL = 12
# The group's page after this many match days against after this many: what it costs must not grow with history.
LEAGUE_MATCH_DAYS = (100, 10_000)
LEAGUE_TABLE_GOAL = 2
# A person's record (their own statistics page) at a lifetime of series and at a season's.
RECORD_SERIES = (100, 10_000)
RECORD_GOAL = 2
# A ranking list's page over a federation's series and over a club's: this many people, each with a series at each
# of this many events, against this many.
RANKING_PEOPLE = (100, 10_000)
RANKING_EVENTS = 100
RANKING_GOAL = 2
# Open tournaments of this many players and of this many, two series into the evening: drawing the third series
# (avoiding the pairings met), and the live page as a phone in the room opens it.
TOURNAMENT_PLAYERS = (300, 30)
TOURNAMENT_DRAW_GOAL = 15
TOURNAMENT_RESULTS_GOAL = 2
# Rooms of this many entrants and of this many: a player entered at the door before the draw, against the same in a
# small room; and the organiser's desk once series 1 is drawn, against the same in a room of a tenth.
TOURNAMENT_ENTRANTS = (3000, 30)
TOURNAMENT_ENTRY_GOAL = 1.5
TOURNAMENT_DESK_ENTRANTS = (3000, 300)
TOURNAMENT_DESK_GOAL = 2
# What a page loads by itself: its styles, scripts, images, favicon and manifest (not the pages it links to, nor the
# icons a browser fetches only to install the app, nor an image loaded only when it is scrolled to).
LOADED = re.compile(
    r'<(?:script|img(?![^>]*loading="lazy")|link rel="(?:stylesheet|icon|manifest)")[^>]*? (?:src|href)="(/[^"]+)"'
)
# What a phone's browser takes (Chromium on Android; Brotli over HTTPS, as a deployed server is reached).
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
# The headers htmx and the browser send with a save, as a phone on the match page sends them (the sizes count).
SAVE_HEADERS = {
    "Host": "scorekeeper.example.org",
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile",
    "Accept-Language": "de-DE,de;q=0.9,en;q=0.8",
    "Accept-Encoding": ACCEPT_ENCODING,
    "Content-Type": FORM_ENCODED + "; charset=UTF-8",
    "Origin": "https://scorekeeper.example.org",
    "Referer": "https://scorekeeper.example.org/matches/00000000-0000-0000-0000-000000000000/",
    "HX-Request": "true",
    "HX-Source": "form#entry",
    "HX-Current-URL": "https://scorekeeper.example.org/matches/00000000-0000-0000-0000-000000000000/",
    "Accept": "text/html",
    "HX-Request-Type": "partial",
    "HX-Target": "form#entry",
}
# The headers a phone's browser sends with a following page's ask (Chromium on Android: its client hints and fetch
# metadata too; htmx's own headers but HX-Request are left out, and so is the Referer).
FOLLOW_HEADERS = {
    "Host": SAVE_HEADERS["Host"],
    "Connection": "keep-alive",
    "sec-ch-ua": '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
    "sec-ch-ua-mobile": "?1",
    "sec-ch-ua-platform": '"Android"',
    "HX-Request": "true",
    "User-Agent": SAVE_HEADERS["User-Agent"],
    "Accept": "*/*",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "same-origin",
    "Sec-Fetch-Dest": "empty",
    "Accept-Encoding": ACCEPT_ENCODING,
    "Accept-Language": SAVE_HEADERS["Accept-Language"],
}
FOLLOWED = re.compile(r'id="follow" hx-get="([^"]+)"')


@dataclass(frozen=True)
class Side:
    """One kind of request: ``send`` makes it once and returns how long the request alone took, in nanoseconds."""

    name: str
    send: Callable[[], int]


@dataclass(frozen=True)
class Figure:
    """A figure to report: the median of ``measured`` over the median of ``against``, and the most it should be."""

    name: str
    goal: float
    measured: Side
    against: Side


class Seeds:
    """What the figures measure, each seeded when a figure first asks for it, so that a run of some figures
    (``--only``) seeds only what those need."""

    def __init__(self, scorer: User, say: Callable[[str], None]) -> None:
        self.scorer = scorer
        self.say = say

    @cached_property
    def matches(self) -> dict[str, Match]:
        started = time.perf_counter()
        matches = {name: _seed(self.scorer, games) for name, games in MATCHES.items()}
        seeded = sum(MATCHES.values())
        self.say(f"seeded {seeded} games through the services in {time.perf_counter() - started:.1f} s")
        return matches

    @cached_property
    def seasons(self) -> dict[int, Season]:
        started = time.perf_counter()
        seasons = {games: seed_season(self.scorer, f"{games} games", games) for games in SEASON_GAMES}
        self.say(f"seeded two club seasons in {time.perf_counter() - started:.1f} s")
        return seasons

    @cached_property
    def league_day(self) -> LeagueDay:
        started = time.perf_counter()
        day = seed_league_day(self.scorer, "League day", LEAGUE_DAY_VENUES)
        self.say(
            f"seeded a league's match day at {LEAGUE_DAY_VENUES} venues ({len(day.tables)} tables) through the "
            f"services in {time.perf_counter() - started:.1f} s"
        )
        return day

    @cached_property
    def records(self) -> dict[int, Client]:
        """Signed-in browsers of people with records of ``RECORD_SERIES`` closed series."""
        started = time.perf_counter()
        browsers = {}
        for series in RECORD_SERIES:
            browser = Client()
            browser.force_login(seed_record(f"{series}", series))
            browsers[series] = browser
        self.say(f"seeded two players' records of closed lists in {time.perf_counter() - started:.1f} s")
        return browsers

    @cached_property
    def rankings(self) -> dict[int, tuple[Client, RankingList]]:
        """Ranking lists of ``RANKING_PEOPLE`` people over ``RANKING_EVENTS`` events, each with its owner signed in."""
        started = time.perf_counter()
        rankings = {}
        for people in RANKING_PEOPLE:
            owner, ranking = seed_ranking(f"{people}", people, RANKING_EVENTS)
            browser = Client()
            browser.force_login(owner)
            rankings[people] = (browser, ranking)
        self.say(
            f"seeded two ranking lists' closed lists and kept their places in {time.perf_counter() - started:.1f} s"
        )
        return rankings

    @cached_property
    def league_histories(self) -> dict[int, Group]:
        started = time.perf_counter()
        groups = {days: seed_league_history(self.scorer, f"{days} match days", days) for days in LEAGUE_MATCH_DAYS}
        self.say(f"seeded two leagues' closed match days in {time.perf_counter() - started:.1f} s")
        return groups

    @cached_property
    def tournaments_to_draw(self) -> dict[int, BenchTournament]:
        """Tournaments with two series closed and the third still to draw."""
        return self._tournaments("to draw", playing=False)

    @cached_property
    def tournaments_playing(self) -> dict[int, BenchTournament]:
        """Tournaments with two series closed and the third being played."""
        return self._tournaments("playing", playing=True)

    @cached_property
    def rooms_entering(self) -> dict[int, BenchTournament]:
        """Rooms taking entries at the door, series 1 not yet drawn."""
        return self._rooms(TOURNAMENT_ENTRANTS, drawn=False)

    @cached_property
    def rooms_drawn(self) -> dict[int, BenchTournament]:
        """Rooms with series 1 drawn."""
        return self._rooms(TOURNAMENT_DESK_ENTRANTS, drawn=True)

    def _rooms(self, sizes: tuple[int, ...], *, drawn: bool) -> dict[int, BenchTournament]:
        started = time.perf_counter()
        what = "series 1 drawn" if drawn else "entering"
        seeded = {size: seed_room(self.scorer, f"Preisskat {size} {what}", size, drawn=drawn) for size in sizes}
        self.say(
            f"seeded rooms of {' and '.join(map(str, sizes))} entrants ({what}) through the services in "
            f"{time.perf_counter() - started:.1f} s"
        )
        return seeded

    def _tournaments(self, what: str, *, playing: bool) -> dict[int, BenchTournament]:
        started = time.perf_counter()
        seeded = {
            players: seed_tournament(self.scorer, f"Preisskat {players} {what}", players, playing=playing)
            for players in TOURNAMENT_PLAYERS
        }
        self.say(
            f"seeded open tournaments of {' and '.join(map(str, TOURNAMENT_PLAYERS))} players ({what}) through the "
            f"services in {time.perf_counter() - started:.1f} s"
        )
        return seeded


class Requests:
    """The requests the figures compare, on the seeded matches (named as in ``MATCHES``) and leagues."""

    def __init__(self, scorer: User, seeds: Seeds) -> None:
        self.scorer = scorer
        self.seeds = seeds
        self.client = Client()
        self.client.force_login(scorer)
        self.spectator = Client()
        self.reader = Client()
        self.unwrapped = _without_middleware(scorer)
        self.fixes = dict.fromkeys(MATCHES, 0)
        self.phones: dict[int, Client] = {}
        self.entered = 0
        # Set to count the queries of the requests themselves (not of the bench's own reads and resets).
        self.queries: CaptureQueriesContext | None = None

    def _timed(self, send: Callable[[], HttpResponseBase], expected: int, what: str) -> tuple[int, HttpResponseBase]:
        start = time.perf_counter_ns()
        if self.queries is None:
            response = send()
        else:
            with self.queries:
                response = send()
        elapsed = time.perf_counter_ns() - start
        if response.status_code != expected:
            raise BenchError(f"{what}: status {response.status_code}, expected {expected}")
        return elapsed, response

    def _post(
        self, url: str, data: dict[str, str], *, htmx: bool = False, client: Client | None = None
    ) -> HttpResponseBase:
        """A form posted as a browser and htmx post it: URL-encoded (the test client would send multipart)."""
        headers = {"HX-Request": "true"} if htmx else {}
        return (client or self.client).post(url, urlencode(data), content_type=FORM_ENCODED, headers=headers)

    def _fresh(self, name: str) -> Match:
        return Match.objects.get(pk=self.seeds.matches[name].pk)

    def season(self, season: Season) -> int:
        """The season's table, as a member opens it (the page with the table and the latest nights)."""
        url = reverse("season_detail", args=[season.public_id])
        return self._timed(lambda: self.client.get(url), 200, "season table")[0]

    def bare(self, client: Client) -> int:
        return self._timed(lambda: client.get(BARE_PATH), 200, "bare view")[0]

    def save(self, name: str) -> int:
        """An htmx save of the next game; afterwards (not timed) the match is put back exactly as it was."""
        return self._save_next(self.client, self._fresh(name), f"save on the match of {name} games")

    def _save_next(self, client: Client, match: Match, what: str) -> int:
        number = match.deals + 1
        token = uuid.uuid4()
        data = {
            "token": str(token),
            "number": str(number),
            "version": str(match.version),
            "contract": "clubs",
            # The seat after the dealer (at a table of four the dealer sits out).
            "declarer": str(number % match.players),
            "matadors": "2",
            "declarer_card_points": "75",
        }
        url = reverse("game_create", args=[match.public_id])
        elapsed, _ = self._timed(lambda: self._post(url, data, htmx=True, client=client), 200, "save")
        _take_back(match, token, what)
        return elapsed

    def table_save(self, day: LeagueDay) -> int:
        """A save at one of the match day's tables, by the phone that opened the table's QR link (no account: the
        link in its session lets it score), right after the group's live page was read (not timed), as the
        phones and screens following the league read it between the tables' saves."""
        table = day.tables[len(day.tables) // 2]
        phone = self.phones.get(table.match_id)
        if phone is None:
            phone = self.phones[table.match_id] = Client()
            phone.post(reverse("match_join", args=[table.match.invite_token]))
        page = self.reader.get(reverse("interclub_group", args=[day.group.public_id]), HTTP_HX_REQUEST="true")
        if page.status_code != 200:
            raise BenchError(f"league page during the save: status {page.status_code}")
        match = Match.objects.get(pk=table.match_id)
        return self._save_next(phone, match, "save at a venue's table")

    def record(self, browser: Client) -> int:
        """A person's own statistics, their record across events first, as they open it."""
        url = reverse("player_me")
        return self._timed(lambda: browser.get(url), 200, "record")[0]

    def ranking(self, seeded: tuple[Client, RankingList]) -> int:
        """A ranking list's page as its owner opens it: its first places."""
        browser, ranking = seeded
        url = reverse("ranking_detail", args=[ranking.public_id])
        return self._timed(lambda: browser.get(url), 200, "ranking list")[0]

    def group_page(self, group: Group) -> int:
        """The group's public page (its league table), as a phone without an account opens it."""
        url = reverse("interclub_group", args=[group.public_id])
        return self._timed(lambda: self.spectator.get(url), 200, "league table")[0]

    def tournament_draw(self, bench: BenchTournament) -> int:
        """The last series drawn by the organiser, avoiding the pairings of the closed ones; taken back afterwards
        (not timed), so that every repetition draws the same series of the same tournament."""
        start = time.perf_counter_ns()
        if self.queries is None:
            draw(bench.tournament, TOURNAMENT_SERIES, bench.organiser)
        else:
            with self.queries:
                draw(bench.tournament, TOURNAMENT_SERIES, bench.organiser)
        elapsed = time.perf_counter_ns() - start
        undraw(bench.tournament, TOURNAMENT_SERIES)
        return elapsed

    def tournament_entry(self, bench: BenchTournament) -> int:
        """A player entered at the door by the organiser's desk, paid at once; taken back afterwards (not timed), so
        that every repetition meets a room of the same size."""
        self.entered += 1
        url = reverse("tournaments:door", args=[bench.tournament.public_id])
        data = {"door-name": f"Nachzügler {self.entered}", "door-club": "SC Gäste", "door-paid": "on"}
        elapsed, _ = self._timed(lambda: self._post(url, data), 302, "tournament entry")
        take_entry_back(Entry.objects.filter(tournament=bench.tournament).latest("id").pk)
        return elapsed

    def tournament_desk(self, bench: BenchTournament) -> int:
        """The organiser's desk as the organiser opens it."""
        url = reverse("tournaments:desk", args=[bench.tournament.public_id])
        return self._timed(lambda: self.client.get(url), 200, "tournament desk")[0]

    def tournament_live(self, bench: BenchTournament) -> int:
        """The tournament's live page as a phone in the room opens it (no account, nothing held from before)."""
        url = reverse("tournaments:live", args=[bench.tournament.public_id])
        return self._timed(lambda: self.spectator.get(url), 200, "tournament live page")[0]

    def preview(self, name: str) -> int:
        match = self._fresh(name)
        data = {
            "token": str(uuid.uuid4()),
            "contract": "grand",
            "declarer": "0",
            "matadors": "-1",
            "declarer_card_points": "88",
            "hand": "on",
        }
        url = reverse("game_preview", args=[match.public_id])
        elapsed, response = self._timed(lambda: self._post(url, data, htmx=True), 200, "preview")
        if not isinstance(response, HttpResponse) or b"preview-value" not in response.content:
            raise BenchError(f"preview on the match of {name} games: no score in the answer")
        return elapsed

    def poll(self, name: str) -> int:
        """A spectator's page asking whether anything changed since the version it shows: nothing did."""
        match = self._fresh(name)
        url = f"{reverse('match_spectate', args=[match.share_token])}?version={match.version}"
        return self._timed(lambda: self.spectator.get(url, HTTP_HX_REQUEST="true"), 204, "spectator poll")[0]

    def fix(self, name: str) -> int:
        """A fix of game 3 posted from its edit page, alternating between two entries. Each fix stays in the
        history, so the fixes have matches of their own, whose growing history no other figure meets."""
        match = self._fresh(name)
        game = Game.objects.get(match=match, deleted=False, number=FIXED)
        self.fixes[name] += 1
        data = {
            "token": str(uuid.uuid4()),
            "version": str(match.version),
            "contract": "clubs",
            "declarer": "1",
            "matadors": "2",
            "declarer_card_points": FIXES[self.fixes[name] % 2],
        }
        url = reverse("game_edit", args=[match.public_id, game.public_id])
        elapsed, _ = self._timed(lambda: self._post(url, data), 302, "fix")
        # The page the fix leads to would show its "fixed" message and drop it; the bench does not follow the
        # redirect, so it drops the message itself instead of carrying a growing cookie into every later request.
        self.client.cookies.pop("messages", None)
        return elapsed

    def page(self, name: str) -> int:
        match = self._fresh(name)
        url = reverse("match_detail", args=[match.public_id])
        return self._timed(lambda: self.client.get(url), 200, "match page")[0]


class Bench:
    """A run of the figures, each line handed to ``say`` as it is ready."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say

    def run(self, *, rounds: int = 150, only: str = "") -> None:
        """Measure the figures whose name contains ``only`` (any case; every figure when empty), each side ``rounds``
        times, seeding only what they need, in a temporary database of its own (never the one the settings name)."""
        if connection.vendor == "sqlite":
            # A file of its own beside the project, not the test suite's: a test run may be going on meanwhile.
            connection.settings_dict.setdefault("TEST", {})["NAME"] = str(settings.BASE_DIR / "bench-db.sqlite3")
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        # Not ``setup_test_environment``: it instruments every template so that the test client can copy each
        # context it renders, a cost production never pays, and the pages would look dearer than they are.
        production_like = override_settings(
            ROOT_URLCONF="bench.urls",
            DEBUG=False,
            ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"],
            EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        )
        try:
            with production_like, warnings.catch_warnings(), request_lines_discarded():
                # Whitenoise warns that collectstatic has not run; the bench never serves static files.
                warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
                self._run(rounds, only)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def _line(
        self, name: str, value: float, goal: float, *, at_least: bool = False, queries: Sequence[int] = ()
    ) -> None:
        verdict = "ok" if (value >= goal if at_least else value <= goal) else "MISSED"
        # The queries (of each side, where a figure has two) come last, so that the first four fields stay put.
        counted = f"  ({' / '.join(map(str, queries))} queries)" if queries else ""
        self.say(f"{name}  {value:.2f}  goal {goal:g}  {verdict}{counted}")

    def _run(self, rounds: int, only: str) -> None:
        def wanted(name: str) -> bool:
            return only.casefold() in name.casefold()

        scorer = User.objects.create_user("bench-scorer")
        seeds = Seeds(scorer, self.say)
        requests = Requests(scorer, seeds)
        bare = Side("bare view", lambda: requests.bare(requests.client))
        unwrapped = Side("view without middleware", lambda: requests.bare(requests.unwrapped))
        bare_anonymous = Side("bare view, anonymous", lambda: requests.bare(requests.spectator))
        save_10 = Side("save at game 10", lambda: requests.save("10"))
        many, few = TOURNAMENT_PLAYERS
        room, small_room = TOURNAMENT_ENTRANTS
        desk_room, desk_small_room = TOURNAMENT_DESK_ENTRANTS
        league_tables = (
            Side("league table at 10k match days", lambda: requests.group_page(seeds.league_histories[10_000])),
            Side("league table at 100 match days", lambda: requests.group_page(seeds.league_histories[100])),
        )
        figures = (
            Figure("save at game 10 / bare view", 15, save_10, bare),
            Figure("bare view / view without middleware", 2.5, bare, unwrapped),
            Figure(
                "save at game 1000 / game 10", 1.2, Side("save at game 1000", lambda: requests.save("1000")), save_10
            ),
            Figure(
                "preview at game 1000 / game 10",
                1.2,
                Side("preview at game 1000", lambda: requests.preview("1000")),
                Side("preview at game 10", lambda: requests.preview("10")),
            ),
            Figure(
                "spectator poll / bare view",
                3,
                Side("spectator poll at game 1000", lambda: requests.poll("1000")),
                bare_anonymous,
            ),
            Figure(
                "fix at game 1000 / game 10",
                10,
                Side("fix at game 1000", lambda: requests.fix("fix 1000")),
                Side("fix at game 10", lambda: requests.fix("fix 10")),
            ),
            Figure(
                "season table 1M / 1k games",
                2,
                Side("season table at 1M games", lambda: requests.season(seeds.seasons[SEASON_GAMES[1]])),
                Side("season table at 1k games", lambda: requests.season(seeds.seasons[SEASON_GAMES[0]])),
            ),
            Figure(
                "match page at game 1000 / game 50",
                2,
                Side("match page at game 1000", lambda: requests.page("1000")),
                Side("match page at game 50", lambda: requests.page("50")),
            ),
            Figure(
                f"league day {LEAGUE_DAY_VENUES} venues, save / bare view",
                LEAGUE_DAY_SAVE_GOAL,
                Side("save at a venue's table", lambda: requests.table_save(seeds.league_day)),
                bare,
            ),
            Figure("league table 10k / 100 match days", LEAGUE_TABLE_GOAL, *league_tables),
            Figure(
                "player record 10k / 100 series",
                RECORD_GOAL,
                Side("record at 10k series", lambda: requests.record(seeds.records[RECORD_SERIES[1]])),
                Side("record at 100 series", lambda: requests.record(seeds.records[RECORD_SERIES[0]])),
            ),
            Figure(
                "ranking list 1M / 10k series",
                RANKING_GOAL,
                Side("ranking list of 1M series", lambda: requests.ranking(seeds.rankings[RANKING_PEOPLE[1]])),
                Side("ranking list of 10k series", lambda: requests.ranking(seeds.rankings[RANKING_PEOPLE[0]])),
            ),
            Figure(
                f"tournament draw {many} / {few} players",
                TOURNAMENT_DRAW_GOAL,
                Side(f"draw at {many} players", lambda: requests.tournament_draw(seeds.tournaments_to_draw[many])),
                Side(f"draw at {few} players", lambda: requests.tournament_draw(seeds.tournaments_to_draw[few])),
            ),
            Figure(
                f"tournament results {many} / {few} players",
                TOURNAMENT_RESULTS_GOAL,
                Side(f"live page at {many} players", lambda: requests.tournament_live(seeds.tournaments_playing[many])),
                Side(f"live page at {few} players", lambda: requests.tournament_live(seeds.tournaments_playing[few])),
            ),
            Figure(
                f"tournament entry at {room} / {small_room} entrants",
                TOURNAMENT_ENTRY_GOAL,
                Side(f"entry at {room} entrants", lambda: requests.tournament_entry(seeds.rooms_entering[room])),
                Side(
                    f"entry at {small_room} entrants",
                    lambda: requests.tournament_entry(seeds.rooms_entering[small_room]),
                ),
            ),
            Figure(
                f"tournament desk {desk_room} / {desk_small_room} entrants",
                TOURNAMENT_DESK_GOAL,
                Side(f"desk at {desk_room} entrants", lambda: requests.tournament_desk(seeds.rooms_drawn[desk_room])),
                Side(
                    f"desk at {desk_small_room} entrants",
                    lambda: requests.tournament_desk(seeds.rooms_drawn[desk_small_room]),
                ),
            ),
        )
        chosen = tuple(figure for figure in figures if wanted(figure.name))
        samples = _measure(chosen, rounds)
        counted = _queries(requests, chosen)
        medians = {
            name: (statistics.median(measured), statistics.median(against))
            for name, (measured, against) in samples.items()
        }
        for figure in chosen:
            measured_median, against_median = medians[figure.name]
            ratio = measured_median / against_median
            if figure.name.startswith("league day"):
                self._line(figure.name, ratio, figure.goal, queries=[counted[figure.measured.name]])
            elif figure.name.startswith(("league table", "tournament", "player record", "ranking")):
                sides = (figure.measured.name, figure.against.name)
                self._line(figure.name, ratio, figure.goal, queries=[counted[name] for name in sides])
            else:
                self._line(figure.name, ratio, figure.goal)
        wire = Wire(requests)
        if wanted("first load KB"):
            self._line("first load KB", wire.first_load() / 1024, FIRST_LOAD_GOAL_KB)
        if wanted("save round trip KB"):
            self._line("save round trip KB", wire.save_round_trip() / 1024, SAVE_ROUND_TRIP_GOAL_KB)
        idle = saving = None
        if wanted("follow KB per hour, idle"):
            idle = wire.follow_hour(saves_every=None)
            self._line("follow KB per hour, idle", idle.total / 1024, FOLLOW_GOAL_KB)
        if wanted("follow KB per hour, a save every 2 min"):
            saving = wire.follow_hour(saves_every=FOLLOW_SAVES_EVERY)
            self._line("follow KB per hour, a save every 2 min", saving.total / 1024, FOLLOW_GOAL_KB)
        if wanted("csv export 100k memory MB") or wanted("csv export 100k / csv module"):
            export = Export(requests.client, _long_match(scorer, EXPORT_GAMES))
            exported, written = export.measure(EXPORT_ROUNDS)
            self._line("csv export 100k memory MB", export.peak_memory() / 2**20, EXPORT_MEMORY_GOAL_MB)
            self._line("csv export 100k / csv module", exported / written, EXPORT_RATIO_GOAL)
        served = None
        if wanted("requests per second, save / bare view"):
            served = measure_throughput(scorer, SERVED_ROUNDS)
            rate = served.save / served.bare
            self._line("requests per second, save / bare view", rate, SERVED_SAVE_GOAL, at_least=True)
        restorer = User.objects.create_user("bench-restorer")
        if wanted("restore 100k games / engine scoring alone"):
            self._line(
                "restore 100k games / engine scoring alone",
                restore_against_engine(restorer, RESTORE_GAMES),
                RESTORE_GOAL,
            )
        during_restore = None
        if wanted("save during a restore, slowest / bare view"):
            during_restore = slowest, bare_median = slowest_save_during_restore(
                restorer, RESTORE_DURING_GAMES, lambda: requests.save("10"), bare.send
            )
            self._line("save during a restore, slowest / bare view", slowest / bare_median, SAVE_DURING_RESTORE_GOAL)
        if chosen:
            self.say(f"each figure's two sides ({rounds} rounds each): median times, queries")
        for figure in chosen:
            measured_median, against_median = medians[figure.name]
            times = f"{measured_median / 1e6:.2f} / {against_median / 1e6:.2f} ms"
            queries = f"{counted[figure.measured.name]} / {counted[figure.against.name]} queries"
            self.say(f"  {figure.name:<40} {times:>19}  {queries}")
        if during_restore is not None:
            slowest, bare_median = during_restore
            self.say(
                f"during the restore: the slowest save {slowest / 1e6:.1f} ms, the bare views beside the saves "
                f"{bare_median / 1e6:.2f} ms"
            )
        if idle is not None and saving is not None:
            self.say(
                f"following for an hour: {idle.asks} asks (matches/following.py), each {idle.unchanged} bytes there "
                f"and back while nothing changed; with a save every 2 min, {saving.changed} answers brought a change"
            )
        if served is not None:
            self.say(
                f"under gunicorn ({served.workers} workers, {served.clients} clients, median of {SERVED_ROUNDS} "
                f"phases): save {served.save:.0f}/s, health check (bare view) {served.bare:.0f}/s"
            )


class Export:
    """A match's list of ``EXPORT_GAMES`` games as CSV through its page's download, against the csv module writing
    the same games' stored values from the same query, with nothing else to do."""

    def __init__(self, client: Client, match: Match) -> None:
        self.client = client
        self.match = match
        self.url = reverse("match_export", args=[match.public_id, "csv"])

    def download(self) -> int:
        """The whole file through the test client, as a browser receives it; its size in bytes."""
        response = self.client.get(self.url)
        if response.status_code != 200 or not isinstance(response, StreamingHttpResponse):
            raise BenchError(f"csv export: status {response.status_code}")
        return sum(len(chunk) for chunk in response.streaming_content)

    def plain(self) -> int:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        size = 0
        for number, passed, declarer, entry, _version, won, value, bock, points, _steps in game_rows(self.match):
            writer.writerow(
                [number, passed, declarer, entry.get("contract") if entry else "", won, value, bock, *points]
            )
            if buffer.tell() > 2**16:
                size += buffer.tell()
                buffer.seek(0)
                buffer.truncate()
        return size + buffer.tell()

    def measure(self, rounds: int) -> tuple[float, float]:
        """The medians of the two, taking turns ``rounds`` times (after one of each to warm up)."""
        timings: dict[str, list[int]] = {"export": [], "csv": []}
        sides = (("export", self.download), ("csv", self.plain))
        for round_number in range(rounds + 1):
            for name, side in sides if round_number % 2 else reversed(sides):
                start = time.perf_counter_ns()
                side()
                if round_number:
                    timings[name].append(time.perf_counter_ns() - start)
        return statistics.median(timings["export"]), statistics.median(timings["csv"])

    def peak_memory(self) -> int:
        """The most memory the whole download takes at any moment (tracemalloc's peak)."""
        tracemalloc.start()
        try:
            self.download()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


@contextmanager
def request_lines_discarded() -> Iterator[None]:
    """Every request's log line is written as production writes it (the cost is measured), but to nowhere rather
    than between the figures."""
    logger = logging.getLogger("scorekeeper.requests")
    with open(os.devnull, "w") as nowhere:
        handler = logging.StreamHandler(nowhere)
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
        logger.propagate = False
        try:
            yield
        finally:
            logger.propagate = True
            logger.removeHandler(handler)


def _without_middleware(scorer: User) -> Client:
    """A client whose requests meet Django's handler with no middleware at all, signed in as ``scorer`` so that it
    sends the same cookies as the scorer's: what the bare view costs without the stack."""
    client = Client()
    client.force_login(scorer)
    with override_settings(MIDDLEWARE=[]):
        client.handler.load_middleware()
    return client


def _long_match(owner: User, games: int) -> Match:
    """A Skat match at three with ``games`` games, written in bulk (see ``bulk.py``)."""
    match = match_create(owner=owner, variant="skat", scheme="standard", rules={}, player_names=NAMES).match
    seated = [[seat.player for seat in match.seats.select_related("player").order_by("position")]]
    with transaction.atomic():
        write_games([match], seated, games, STANDARD)
    return Match.objects.get(pk=match.pk)


class Wire:
    """What a phone downloads, in bytes, compressed as the server sends it (pages and answers by the compression
    middleware, static files as WhiteNoise serves them, compressed ahead): no cache helps a first visit."""

    def __init__(self, requests: Requests) -> None:
        self.requests = requests
        self.client = requests.client

    def first_load(self) -> int:
        """A match page of 16 games opened for the first time: the page and what it loads itself (styles, scripts,
        the favicon, the manifest, the chart). The service worker's copies for offline use are fetched afterwards,
        in the background, and are not counted; nor are links the page merely shows."""
        match = self.requests._fresh("16")
        page = self.client.get(reverse("match_detail", args=[match.public_id]), HTTP_ACCEPT_ENCODING=ACCEPT_ENCODING)
        total = _sent(page)
        static = "/" + settings.STATIC_URL.strip("/") + "/"
        for address in sorted(set(LOADED.findall(_plain(page)))):
            if address.startswith(static):
                total += _static_size(address)
            else:
                total += _sent(self.client.get(address, HTTP_ACCEPT_ENCODING=ACCEPT_ENCODING))
        return total

    def save_round_trip(self) -> int:
        """One save on the 16-game match: the form as posted and the answer, with the headers both carry."""
        match = self.requests._fresh("16")
        token = uuid.uuid4()
        data = {
            "token": str(token),
            "number": str(match.deals + 1),
            "version": str(match.version),
            "contract": "clubs",
            "declarer": "1",
            "matadors": "2",
            "outcome": "won",
        }
        body = urlencode(data)
        cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in self.client.cookies.items())
        headers = {**SAVE_HEADERS, "Content-Length": str(len(body)), "Cookie": cookies, "X-CSRFToken": "x" * 64}
        sent = len(f"POST {reverse('game_create', args=[match.public_id])} HTTP/1.1\r\n") + _header_size(headers)
        answer = self.client.post(
            reverse("game_create", args=[match.public_id]),
            body,
            content_type=FORM_ENCODED,
            headers={"HX-Request": "true", "Accept-Encoding": ACCEPT_ENCODING},
        )
        if answer.status_code != 200:
            raise BenchError(f"save round trip: status {answer.status_code}")
        _take_back(match, token, "save round trip")
        return sent + len(body) + _sent(answer)

    def follow_hour(self, *, saves_every: int | None) -> Followed:
        """An hour of following the match from its page, asks and answers with their headers (``Following``)."""
        return Following(self.requests).hour(saves_every)


@dataclass(frozen=True)
class Followed:
    """An hour of following: how many asks, how many answers brought a change, the bytes of one ask and its answer
    while nothing changed, and every byte sent and received."""

    asks: int
    changed: int
    unchanged: int
    total: int


class Following:
    """A phone following the match of ``MATCHES["follow"]`` as its scorer: shown and left alone, it asks when
    ``asks_within`` says (as entry.js times it), with the version it shows; a changed answer gives it the next.
    Another phone may save a game now and then, through the services (its own bytes are its own)."""

    def __init__(self, requests: Requests) -> None:
        self.client = requests.client
        self.scorer = requests.scorer
        self.match = requests._fresh("follow")
        self.deals = DealMaker(
            setup_match("skat", scheme="standard", rules=RULES, players=len(NAMES)), random.Random(SEED)
        )
        self.address = reverse("match_follow", args=[self.match.public_id]) + f"?version={self.match.version}"

    def hour(self, saves_every: int | None) -> Followed:
        saves = list(range(saves_every // 2, FOLLOW_HOUR, saves_every)) if saves_every else []
        asks = asks_within(FOLLOW_HOUR)
        changed = unchanged = total = 0
        for moment in asks:
            while saves and saves[0] < moment:
                saves.pop(0)
                self._save_elsewhere()
            sent, answer = self._ask()
            total += sent + _sent(answer)
            if answer.status_code == 200:
                changed += 1
                self.address = _followed_address(answer)
            elif answer.status_code == 204:
                unchanged = sent + _sent(answer)
            else:
                raise BenchError(f"follow: status {answer.status_code}")
        return Followed(len(asks), changed, unchanged, total)

    def _ask(self) -> tuple[int, HttpResponseBase]:
        cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in self.client.cookies.items())
        sent = len(f"GET {self.address} HTTP/1.1\r\n") + _header_size({**FOLLOW_HEADERS, "Cookie": cookies})
        answer = self.client.get(self.address, headers={"HX-Request": "true", "Accept-Encoding": ACCEPT_ENCODING})
        return sent, answer

    def _save_elsewhere(self) -> None:
        match = Match.objects.get(pk=self.match.pk)
        number = match.deals + 1
        game_add(match=match, user=self.scorer, token=uuid.uuid4(), submission=self.deals.deal(number))


def _followed_address(answer: HttpResponseBase) -> str:
    found = FOLLOWED.search(_plain(answer))
    if found is None:
        raise BenchError("follow: a changed answer without the address to ask next")
    return found[1].replace("&amp;", "&")


def _take_back(match: Match, token: uuid.UUID, what: str) -> None:
    """Put the match back exactly as it was before the game saved with ``token``. Not an undo: that would leave two
    changes in the history every time, and each repetition would meet a match with a longer history than the last.
    The game goes with its scores and its change."""
    added = MatchEvent.objects.filter(match=match, token=token).values_list("game_id", flat=True).first()
    if added is None:
        raise BenchError(f"{what}: the game was not saved")
    Game.objects.filter(pk=added).delete()
    Match.objects.filter(pk=match.pk).update(version=match.version, deals=match.deals, totals=match.totals)


def _plain(response: HttpResponseBase) -> str:
    content = response.content if isinstance(response, HttpResponse) else b""
    if response.get("Content-Encoding") == "gzip":
        content = gzip.decompress(content)
    elif response.get("Content-Encoding") == "br":
        content = brotli.decompress(content)
    return content.decode()


def _sent(response: HttpResponseBase) -> int:
    """The bytes of a response on the wire: its status line, headers (the cookies it sets too) and body as sent."""
    body = len(response.content) if isinstance(response, HttpResponse) else 0
    cookies = sum(len(morsel.output()) + 2 for morsel in response.cookies.values())
    status = f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n"
    return len(status) + _header_size(dict(response.items())) + cookies + body


def _header_size(headers: dict[str, str]) -> int:
    return sum(len(name) + len(value) + 4 for name, value in headers.items()) + 2


def _static_size(address: str) -> int:
    """A static file as WhiteNoise serves it to a phone's browser after ``collectstatic``: minified if it is one of
    the project's own, then Brotli or gzip compressed ahead where that is smaller."""
    name = address.removeprefix("/" + settings.STATIC_URL.strip("/") + "/").split("?")[0]
    path = finders.find(name)
    if not isinstance(path, str):
        raise BenchError(f"first load: {address} is not a static file")
    with open(path, "rb") as file:
        content = minified(name, file.read())
    return min(len(content), len(gzip.compress(content, 9)), len(brotli.compress(content))) + 200


def _seed(scorer: User, games: int) -> Match:
    """A Skat match with Bock rounds and ``games`` games, each added through ``game_add``; every match draws the
    same deals, so their first games are alike."""
    match = match_create(owner=scorer, variant="skat", scheme="standard", rules=RULES, player_names=NAMES).match
    maker = DealMaker(setup_match("skat", scheme="standard", rules=RULES, players=len(NAMES)), random.Random(SEED))
    for number in range(1, games + 1):
        game_add(match=match, user=scorer, token=uuid.uuid4(), submission=maker.deal(number))
    return match


def _sides(figures: tuple[Figure, ...]) -> dict[str, Side]:
    return {side.name: side for figure in figures for side in (figure.measured, figure.against)}


def _queries(requests: Requests, figures: tuple[Figure, ...]) -> dict[str, int]:
    """The queries each side's request makes once more (not those of the bench's own reads and resets)."""
    counted = {}
    for name, side in _sides(figures).items():
        requests.queries = CaptureQueriesContext(connection)
        side.send()
        counted[name] = len(requests.queries)
    requests.queries = None
    return counted


def _measure(figures: tuple[Figure, ...], rounds: int) -> dict[str, tuple[list[int], list[int]]]:
    """Each figure's two sides taking turns, ``rounds`` times after a warm-up, strictly one after the other; one
    figure after the other. By figure: the samples of its measured side and of the side it is set against.

    A request costs more right after another that filled the processor's caches with its own work. So every sample of
    a side is taken right after one of the other side of its figure, and in no other order: a figure comes out the
    same measured alone (``--only``) as among all the others, a side that several figures share (the bare view) is
    timed in each of them beside that figure's other side, and each side's samples are taken in one condition. (Had
    who goes first alternated from round to round, every other sample of a side would follow the side itself, which
    costs less: its samples would fall into two groups and its median in the gap between them, wherever the few
    samples nearest the middle happened to lie.)"""
    samples: dict[str, tuple[list[int], list[int]]] = {}
    for figure in figures:
        measured: list[int] = []
        against: list[int] = []
        for round_number in range(WARM_UP + rounds):
            for side, kept in ((figure.measured, measured), (figure.against, against)):
                elapsed = side.send()
                if round_number >= WARM_UP:
                    kept.append(elapsed)
        samples[figure.name] = (measured, against)
    return samples
