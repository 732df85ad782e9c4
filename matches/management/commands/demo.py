"""Fill the database with a demo account and realistic matches of every variant and scheme, its club's season, a
league with a match day played and accepted, and an open tournament two series in, all through the services.

Each match is written as a script drawn in advance from a seeded ``random.Random`` (games, fixes, deletions, undos
and redos), and every write carries a token made with ``uuid.uuid5`` from a fixed namespace and the step's name.
The services answer a retried token with their first answer, so a second run writes nothing: the command is safe
to run again, e.g. after a migration, and the script never looks at the database to decide what comes next.
"""

from __future__ import annotations

import datetime
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from matches.clubs import services as clubs
from matches.clubs.models import Club, ClubTable, Membership, Night, Season
from matches.engine import MatchSetup, RuleError, setup_match
from matches.engine.presets import PRESETS
from matches.errors import ServiceError
from matches.interclub import services as leagues
from matches.interclub.models import League, Venue
from matches.management.deals import DealMaker
from matches.models import Game, Keeper, Match, MatchEvent, Player, Profile
from matches.names import name_key
from matches.services import (
    Submission,
    game_add,
    game_delete,
    game_edit,
    keeper_for,
    match_create,
    match_redo,
    match_undo,
    player_link,
)
from matches.tournaments import services as tournaments
from matches.tournaments.models import Series as TournamentSeries
from matches.tournaments.models import Table as TournamentTable
from matches.tournaments.models import Tournament

NAMESPACE = uuid.UUID("5c0e4a1e-5c0e-4a1e-8d7a-5ca7de3a0001")
USERNAME = "demo"
PASSWORD = "grand-hand-4711"
# The demo account sits at the table as this player, so "my statistics" has something to show.
ACCOUNT_PLAYER = "Jürgen"


CLUB = "Skatclub Herz Dame"
SEASON = "Saison 2026"
MEMBERS = ("Jürgen", "Hannelore", "Uwe", "Gisela", "Klaus-Dieter", "Aisha", "Mateo", "Renate", "Heinz", "Zofia")
GUESTS = ("Oluwaseun", "Siobhán")
# The club nights: the date, who came, and how many games each table has entered (None: played out and closed).
NIGHTS: tuple[tuple[datetime.date, tuple[str, ...], int | None], ...] = (
    (datetime.date(2026, 11, 3), (*MEMBERS, "Oluwaseun"), None),
    (datetime.date(2026, 11, 10), (*MEMBERS[:8], *GUESTS), None),
    (datetime.date(2026, 11, 17), MEMBERS[:9] + GUESTS[:1] + MEMBERS[9:] + GUESTS[1:], 7),
)
# A league of four clubs the demo account runs: one match day at one venue, two series played on phones, closed,
# confirmed by each team's captain (the account) and accepted.
LEAGUE = "Bezirksliga Westfalen"
LEAGUE_CLUBS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (CLUB, MEMBERS[:5]),
    ("Kreuz Bube Hamm", ("Wilfried", "Dagmar", "Emre", "Ingrid", "Bernd")),
    ("Pik As Soest", ("Marlies", "Olaf", "Yusuf", "Brigitte", "Detlef")),
    ("Karo Sieben Unna", ("Gertrud", "Horst", "Ewa", "Manfred", "Sabine")),
)
LEAGUE_SERIES = 2
# An open tournament the demo account organises: sixteen entrants at the door, series 1 played and closed, series
# 2 drawn and under way.
TOURNAMENT = "Preisskat im Goldenen Löwen"
ENTRANTS = (
    "Annegret", "Björn", "Cem", "Doris", "Elke", "Fritz", "Gül", "Hartmut",
    "Irmgard", "Jens", "Kemal", "Lothar", "Monika", "Norbert", "Olga", "Petra",
)  # fmt: skip


@dataclass(frozen=True)
class MatchPlan:
    """One demo match: a preset, what differs from it, the players in seat order and how many games end up on the
    list (fixes, deletions, undos and redos come on top). ``series`` plays the preset's fixed series to its end."""

    key: str
    preset: str
    title: str
    names: tuple[str, ...]
    games: int
    scheme: str | None = None
    rules: dict[str, bool | int | str] = field(default_factory=dict)
    first_dealer: int = 0
    series: bool = False


PLANS: tuple[MatchPlan, ...] = (
    MatchPlan("skat-isko-3", "skat-isko", "Donnerstagsrunde", ("Jürgen", "Hannelore", "Uwe"), 42),
    MatchPlan(
        "skat-isko-4",
        "skat-isko",
        "Skat zu viert im Vereinsheim",
        ("Gisela", "Klaus-Dieter", "Aisha", "Mateo"),
        44,
        first_dealer=2,
    ),
    MatchPlan("skat-pub-3", "skat-pub", "Stammtisch Zum Goldenen Hirschen", ("Jürgen", "Wolfgang", "Siobhán"), 48),
    MatchPlan(
        "skat-pub-4",
        "skat-pub",
        "Kneipenskat mit Schieberamsch",
        ("Renate", "Oluwaseun", "Heinz", "Zofia"),
        40,
        rules={"ramsch_schieben": True},
        first_dealer=1,
    ),
    MatchPlan(
        "skat-tournament-3", "skat-tournament", "Preisskat, Tisch 1", ("Ingrid", "Kenji", "Manfred"), 36, series=True
    ),
    MatchPlan(
        "skat-tournament-4",
        "skat-tournament",
        "Preisskat, Tisch 2",
        ("Ursula", "François", "Dieter", "Ayşe"),
        48,
        series=True,
    ),
    MatchPlan("officers-standard", "officers-skat", "Offiziersskat am Sonntag", ("Siobhán", "Kenji"), 36),
    MatchPlan(
        "officers-base-value",
        "officers-skat",
        "Offiziersskat nach Grundwert",
        ("Renate", "Wolfgang"),
        30,
        scheme="base-value",
    ),
    MatchPlan(
        "officers-card-points",
        "officers-skat",
        "Offiziersskat nach Augen",
        ("Zofia", "Oluwaseun"),
        30,
        scheme="card-points",
    ),
    MatchPlan(
        "officers-simple",
        "officers-skat-simple",
        "Offiziersskat, einfach gezählt",
        ("Łukasz", "François"),
        32,
        rules={"null": True, "ramsch": True},
    ),
    MatchPlan("officers-as-skat", "officers-skat-as-skat", "Offiziersskat wie Skat", ("Ingrid", "Dieter"), 30),
    MatchPlan("harlequin", "harlequin-skat", "Harlekin im Zug nach Leipzig", ("Ayşe", "Priya"), 30),
    MatchPlan("admirals", "admirals-skat", "Admiralsskat an Bord", ("Björn", "Sabine"), 34),
    MatchPlan("lieutenant", "lieutenant-skat", "Leutnantsskat", ("Günther", "Brigitte"), 30),
    MatchPlan(
        "schafkopf",
        "officers-schafkopf",
        "Offiziersschafkopf um Zehnerl",
        ("Heinz", "Ursula"),
        30,
        rules={"laufende": True, "stake": 10},
    ),
    MatchPlan(
        "season",
        "skat-pub",
        "Saison am Stammtisch",
        ("Manfred", "Karin", "Nguyễn Lan"),
        300,
        rules={"ramsch_loss": "fixed", "ramsch_fixed_loss": 20},
    ),
)


@dataclass(frozen=True)
class Step:
    """One write of a match's script: ``name`` makes its token; ``game`` names the game it touches (the name of the
    step that added it)."""

    action: str
    name: str
    game: str = ""
    submission: Submission | None = None


class Script:
    """A match's writes, drawn in advance: it keeps the list as the services will have it (which games are on it,
    in order) so that every deal is drawn for the seat and number it will really have."""

    def __init__(self, plan: MatchPlan, setup: MatchSetup) -> None:
        self.plan = plan
        self.setup = setup
        self.rng = random.Random(f"scorekeeper-demo/{plan.key}")
        self.maker = DealMaker(setup, self.rng)
        self.live: list[tuple[str, Submission]] = []
        self.steps: list[Step] = []

    def write(self) -> list[Step]:
        while len(self.live) < self.plan.games:
            self._add()
            if len(self.live) > 3:
                self._correct()
        return self.steps

    def _step(self, action: str, game: str = "", submission: Submission | None = None) -> str:
        name = f"{action}-{len(self.steps) + 1}"
        self.steps.append(Step(action, name, game, submission))
        return name

    def _add(self) -> None:
        submission = self.maker.deal(len(self.live) + 1)
        self.live.append((self._step("add", submission=submission), submission))

    def _correct(self) -> None:
        """Now and then, what tables do: fix a game, delete one entered twice, undo a slip, change their mind."""
        roll = self.rng.random()
        planned = self.setup.planned_games
        room = planned is None or len(self.live) < planned
        if roll < 0.06:
            self._fix(self._recent())
        elif roll < 0.08 and room:
            self._add()
            name, _ = self.live.pop()
            self._step("delete", name)
        elif roll < 0.10 and room:
            self._add()
            self.live.pop()
            self._step("undo")
        elif roll < 0.115:
            index = self._recent()
            self._step("delete", self.live[index][0])
            self._step("undo")
        elif roll < 0.13:
            index = self._recent()
            self._fix(index)
            self._step("undo")
            self._step("redo")
        elif roll < 0.14 and self.setup.players != 4:
            name, _ = self.live.pop(self._recent())
            self._step("delete", name)

    def _recent(self) -> int:
        """One of the last games; at four only the last, since deleting an earlier one moves later deals to other
        dealers, whose games the rules may then refuse."""
        if self.setup.players == 4:
            return len(self.live) - 1
        return self.rng.randrange(max(0, len(self.live) - 6), len(self.live))

    def _fix(self, index: int) -> None:
        name, wrong = self.live[index]
        fixed = self.maker.fix(index + 1, wrong)
        self._step("edit", name, fixed)
        self.live[index] = (name, fixed)


class Command(BaseCommand):
    help = (
        "Create the demo account and matches of every variant and scheme, with fixes, deletions, undos and redos. "
        "Running it again changes nothing."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        events_before = MatchEvent.objects.count()
        user = self._account()
        for plan in PLANS:
            try:
                self._play(plan, user)
            except (ServiceError, RuleError) as error:
                raise CommandError(f"{plan.key}: {error}") from error
        player = Player.objects.get(keeper=keeper_for(user), name_key=name_key(ACCOUNT_PLAYER))
        if player.account_id != user.pk:
            player_link(player=player, account=user)
        for what, fill in (("club", self._club), ("league", self._league), ("tournament", self._tournament)):
            try:
                fill(user)
            except (ServiceError, RuleError) as error:
                raise CommandError(f"{what}: {error}") from error
        self._summary(user, MatchEvent.objects.count() - events_before)

    def _club(self, user: User) -> None:
        """A Skat club owned by the demo account: a season of Seeger-Fabian with a stake and fees, two club nights
        played to the end and closed, and tonight's, drawn and under way."""
        membership = Membership.objects.filter(user=user, club__name=CLUB).select_related("club").first()
        club = membership.club if membership else clubs.club_create(owner=user, name=CLUB)
        season = Season.objects.filter(club=club, name=SEASON).first() or clubs.season_create(
            club=club,
            settings=clubs.SeasonSettings(name=SEASON, stake=500, list_fee=200, lost_fees=((1, 50), (4, 100))),
        )
        for index, (date, attendees, played) in enumerate(NIGHTS):
            night = Night.objects.filter(season=season, date=date).first()
            if night is None:
                night = clubs.night_create(season=season, date=date)
            if night.closed:
                continue
            for name in attendees:
                clubs.check_in(night=night, name=name, guest=name in GUESTS)
            clubs.night_draw(night=night, series=1, user=user)
            for table in ClubTable.objects.filter(night=night).select_related("match"):
                self._play_table(table.match, user, f"night-{index}/{table.number}", played)
            if played is None:
                clubs.night_close(night=night, user=user)

    def _league(self, user: User) -> None:
        """The league, unless the account has it already (it is written whole in one go)."""
        if League.objects.filter(name=LEAGUE, managers__user=user).exists():
            return
        with transaction.atomic():
            league = leagues.league_create(owner=user, settings=leagues.LeagueSettings(name=LEAGUE))
            division = leagues.division_create(league=league, name="Bezirksliga")
            group = leagues.group_create(division=division, name="Staffel 2", promoted=1, relegated=1)
            teams, rosters = [], []
            for name, players in LEAGUE_CLUBS:
                membership = Membership.objects.filter(user=user, club__name=name).select_related("club").first()
                club = membership.club if membership else clubs.club_create(owner=user, name=name)
                team = leagues.team_enter(group=group, club=club, name=f"{name} I", captain=user)
                # The fifth is on the substitution list.
                roster = [
                    leagues.roster_add(
                        team=team, player=clubs.club_player_add(club=club, name=player), substitute=index == 4, by=user
                    )
                    for index, player in enumerate(players)
                ]
                teams.append(team)
                rosters.append(roster)
            day = leagues.match_day_create(group=group, number=1, date=datetime.date(2026, 10, 3))
            venue = leagues.venue_create(
                match_day=day, teams=teams, place="Vereinsheim Herz Dame", series=LEAGUE_SERIES
            )
            for series in range(1, LEAGUE_SERIES + 1):
                for team, roster in zip(teams, rosters, strict=True):
                    # The fifth player comes in for the fourth in the second series.
                    playing = roster[:4] if series == 1 else [*roster[:3], roster[4]]
                    leagues.series_check_in(venue=venue, series=series, team=team, entries=playing)
                for table in leagues.series_seat(venue=venue, series=series, user=user):
                    self._play_table(table.match, user, f"league-{series}/{table.number}", None)
            leagues.venue_close(venue=venue, user=user)
            for team in teams:
                leagues.report_confirm(venue=venue, team=team, user=user)
            leagues.report_accept(venue=venue, user=user)

    def _tournament(self, user: User) -> None:
        """The tournament, unless the account organises it already (it is written whole in one go)."""
        if Tournament.objects.filter(name=TOURNAMENT, organiser=user).exists():
            return
        with transaction.atomic():
            tournament = tournaments.tournament_announce(
                organiser=user,
                settings=tournaments.TournamentSettings(
                    name=TOURNAMENT,
                    date=datetime.date(2026, 12, 5),
                    venue="Gasthof Goldener Löwe",
                    series=3,
                    games_at_four=24,
                    games_at_three=18,
                    entry_fee=1500,
                    list_fee=200,
                    places=tournaments.Schedule((4000, 3000, 2000, 1000)),
                ),
            )
            for name in ENTRANTS:
                tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name), user=user)
            for number in (1, 2):
                tournaments.series_draw(tournament=tournament, number=number, user=user)
                series = TournamentSeries.objects.get(tournament=tournament, number=number)
                for table in TournamentTable.objects.filter(series=series).select_related("match"):
                    played = None if number == 1 else 5
                    self._play_table(table.match, user, f"tournament-{number}/{table.number}", played)
                if number == 1:
                    tournaments.series_close(series=series, user=user)

    def _play_table(self, match: Match, user: User, key: str, played: int | None) -> None:
        """A table's series (or its first ``played`` games), drawn from a seed of its own (``key``: the table's)."""
        setup = match.setup()
        maker = DealMaker(setup, random.Random(f"scorekeeper-demo/{key}"))
        games = setup.planned_games or 36
        for number in range(1, min(games, played or games) + 1):
            token = uuid.uuid5(NAMESPACE, f"{key}/{number}")
            game_add(match=match, user=user, token=token, submission=maker.deal(number))

    def _account(self) -> User:
        """The demo account with its profile, as signing up makes them (accounts have no service of their own)."""
        user = User.objects.filter(username=USERNAME).first()
        if user is None:
            user = User.objects.create_user(USERNAME, password=PASSWORD)
        Profile.objects.get_or_create(user=user)
        return user

    def _play(self, plan: MatchPlan, user: User) -> None:
        preset = PRESETS[plan.preset]
        rules = {**preset.rules, **plan.rules}
        scheme = plan.scheme or preset.scheme.value
        planned = preset.series.get(len(plan.names)) if plan.series else None
        setup = setup_match(
            preset.variant.value,
            scheme=scheme,
            rules=rules,
            players=len(plan.names),
            first_dealer=plan.first_dealer,
            planned_games=planned,
        )
        steps = Script(plan, setup).write()
        match = match_create(
            owner=user,
            variant=preset.variant.value,
            scheme=scheme,
            rules=rules,
            player_names=plan.names,
            first_dealer=plan.first_dealer,
            title=plan.title,
            preset=preset.key,
            planned_games=planned,
            token=self._token(plan, "match"),
        ).match
        games: dict[str, Game] = {}
        for step in steps:
            token = self._token(plan, step.name)
            if step.action == "add":
                assert step.submission is not None
                games[step.name] = game_add(match=match, user=user, token=token, submission=step.submission).game
            elif step.action == "edit":
                assert step.submission is not None
                game_edit(game=games[step.game], user=user, token=token, submission=step.submission)
            elif step.action == "delete":
                game_delete(game=games[step.game], user=user, token=token)
            else:
                service = match_redo if step.action == "redo" else match_undo
                # A step that found nothing to take back would record nothing, and a second run would then take
                # back something else: the script must always have something to undo or redo.
                if service(match=match, user=user, token=token) is None:
                    raise CommandError(f"{plan.key}: nothing to {step.action} at {step.name}")

    @staticmethod
    def _token(plan: MatchPlan, name: str) -> uuid.UUID:
        return uuid.uuid5(NAMESPACE, f"{plan.key}/{name}")

    def _summary(self, user: User, written: int) -> None:
        keeper = Keeper.objects.get(user=user)
        matches = Match.objects.filter(keeper=keeper)
        games = Game.objects.filter(match__keeper=keeper)
        live = games.filter(deleted=False)
        actions = Counter(MatchEvent.objects.filter(match__keeper=keeper).values_list("action", flat=True))
        out = self.stdout.write
        out(f"Demo account: user name {USERNAME!r}, password {PASSWORD!r} (set when the account was created)")
        for match in matches.order_by("variant", "scheme", "players", "title"):
            shown = f"{match.variant} / {match.scheme}, {match.players} players"
            series = f" of {match.planned_games}" if match.planned_games else ""
            out(f"  {shown:<42} {match.deals:>4}{series} games  {match.title}")
        out(
            f"{matches.count()} matches, {live.count()} games on the lists "
            f"({live.filter(passed=True).count()} passed, {live.filter(entry__contract='ramsch').count()} Ramsch, "
            f"{live.filter(bock__gt=0).count()} in Bock), {games.filter(deleted=True).count()} deleted; "
            f"{actions['edit']} fixes, {actions['undo']} undos, {actions['redo']} redos"
        )
        for club in Club.objects.filter(memberships__user=user):
            nights = Night.objects.filter(season__club=club)
            out(
                f"Club {club.name}: {club.seasons.count()} season, {nights.count()} nights "
                f"({nights.filter(closed_at__isnull=False).count()} closed), "
                f"{ClubTable.objects.filter(night__in=nights).count()} tables"
            )
        for league in League.objects.filter(managers__user=user):
            venues = Venue.objects.filter(match_day__group__division__league=league)
            out(
                f"League {league.name}: {venues.count()} venue, {venues.filter(accepted_at__isnull=False).count()} "
                "accepted"
            )
        for tournament in Tournament.objects.filter(organiser=user):
            drawn = TournamentSeries.objects.filter(tournament=tournament)
            out(
                f"Tournament {tournament.name}: {tournament.entries.count()} entrants, {drawn.count()} series drawn "
                f"({drawn.filter(closed_at__isnull=False).count()} closed)"
            )
        out(f"{written} changes written by this run" if written else "Nothing to do: the demo data was there already")
