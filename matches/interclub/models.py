"""Leagues between clubs: a league's divisions and groups ("Staffeln"), the club teams entered in them with their
rosters, the match days at their venues, who played each series for whom, the tables played there, and the match
report from its captains' confirmations to the league manager's acceptance and any later correction.

A league keeps its players and matches in a keeper's book of its own (``League.keeper``), as a club does: every table
of a match day is an ordinary match of that book, and every player on a roster stands there as a league-book player
linked (through the roster entry) to the club-book player they are. The rules the engine needs (``SeriesRules``,
``TableRules``) are stored with the league, so that a later change of a default never changes its results.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.clubs.models import Club
from matches.engine.match_days import ShortVenue, TableTie, TieRule
from matches.models import Keeper, KeptAnswer, Match, Player, new_link_token


class League(models.Model):
    """A league of one variant and scheme (Skat by Seeger-Fabian, the federations' league scoring). The rules are
    stored complete, as a match stores them, and the tables of its match days start with them."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    keeper = models.OneToOneField(Keeper, on_delete=models.PROTECT, related_name="league")
    name = models.CharField(_("name"), max_length=100)
    variant = models.CharField(_("variant"), max_length=30, default="skat")
    scheme = models.CharField(_("scheme"), max_length=20, default="seeger-fabian")
    rules = models.JSONField(_("rules"), default=dict)
    series_per_day = models.PositiveSmallIntegerField(_("series per match day"), default=3)
    games_at_four = models.PositiveSmallIntegerField(_("games per series at a table of four"), default=48)
    games_at_three = models.PositiveSmallIntegerField(_("games per series at a table of three"), default=36)
    series_tie = models.CharField(
        _("equal series scores"), max_length=12, choices=[(t.value, t.value) for t in TieRule], default=TieRule.SHARED
    )
    short_venue = models.CharField(
        _("a series a team did not play"),
        max_length=14,
        choices=[(s.value, s.value) for s in ShortVenue],
        default=ShortVenue.PRESENT,
    )
    per_team_beaten = models.PositiveSmallIntegerField(_("league points per team beaten"), default=1)
    minus_counts = models.BooleanField(_("fewer minus points rank first"), default=False)
    table_tie = models.CharField(
        _("equal teams in the table"), max_length=8, choices=[(t.value, t.value) for t in TableTie], default="shared"
    )
    minimum_series = models.PositiveSmallIntegerField(_("minimum series for the players' ranking"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def series_games(self, players: int) -> int:
        """The games of one series at a table of ``players``."""
        return self.games_at_four if players == 4 else self.games_at_three


class LeagueRole(models.TextChoices):
    OWNER = "owner", _("owner")
    MANAGER = "manager", _("league manager")


class LeagueManager(models.Model):
    """An account that runs the league: a manager manages everything of it; an owner also gives and takes roles."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="managers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_roles")
    role = models.CharField(_("role"), max_length=10, choices=LeagueRole.choices, default=LeagueRole.MANAGER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="league_manager_unique")]

    def __str__(self) -> str:
        return f"{self.league}: {self.user} ({self.role})"


class Division(models.Model):
    """A level of the league (Bundesliga, Regionalliga, …); ``level`` orders them, 1 the highest."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(_("name"), max_length=100)
    level = models.PositiveSmallIntegerField(_("level"), default=1)

    class Meta:
        ordering = ["level", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="division_name_unique")]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class Group(models.Model):
    """A group ("Staffel") of a division: its teams meet on its match days; the first ``promoted`` places of its
    table go up and the last ``relegated`` go down. ``seed``: every lot drawn for its table comes from it."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(_("name"), max_length=100)
    promoted = models.PositiveSmallIntegerField(_("promotion places"), default=0)
    relegated = models.PositiveSmallIntegerField(_("relegation places"), default=0)
    seed = models.CharField(max_length=64, default=new_link_token, editable=False)
    # Moves on when its kept standings are written anew from its venues' results (a rescore), so that the pages
    # following its table show them; a venue closing, reopening or accepted moves that venue's version instead.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["division", "name"]
        constraints = [models.UniqueConstraint(fields=["division", "name"], name="group_name_unique")]

    def __str__(self) -> str:
        return f"{self.division}: {self.name}"


class Team(models.Model):
    """A club's team in a group ("Team I", "Team II"), with its captain, who checks it in and confirms its reports."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="league_teams")
    name = models.CharField(_("name"), max_length=100)
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="captained_teams"
    )

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["group", "name"], name="team_name_unique")]

    def __str__(self) -> str:
        return self.name


class RosterEntry(models.Model):
    """A player of the team's club on the team's roster, or on its substitution list ("Wechselliste") with
    ``substitute``; ``league_player`` is who they are in the league's book, where the tables seat them."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="league_rosters")
    league_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="league_entries")
    federation_number = models.CharField(_("federation number"), max_length=20, blank=True)
    substitute = models.BooleanField(_("on the substitution list"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["substitute", "created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["team", "player"], name="roster_entry_unique")]

    def __str__(self) -> str:
        return f"{self.team}: {self.player}"


class FormerPlayer(models.Model):
    """A club's player taken off the last roster they were on in the league, and who they were in the league's book
    (``league_player``): put on a roster of the league again, they are that player again, their name and whom they
    are joined to, not somebody new named with the club in brackets."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    league_player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "player"], name="former_player_unique")]

    def __str__(self) -> str:
        return f"{self.league}: {self.player} ({self.league_player})"


class MatchDay(models.Model):
    """A match day of a group: all its venues play on the same day. ``seed``: the seating of every venue comes
    from it, so that a seating can be made again."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="match_days")
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"))
    seed = models.CharField(max_length=64, default=new_link_token, editable=False)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["group", "number"], name="match_day_number_unique")]

    def __str__(self) -> str:
        return f"{self.group}: {self.number}"


class Venue(models.Model):
    """Where three or four teams of a match day play their series side by side, hosted by a club (whose secretary
    checks in and seats); ``closed_at`` once every table's list is complete and locked, so its report is ready;
    ``accepted_at``/``accepted_by`` once the league manager accepted the report (till then it is provisional)."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="venues")
    host_club = models.ForeignKey(Club, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    host_team = models.ForeignKey(Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    place = models.CharField(_("place"), max_length=100, blank=True)
    series = models.PositiveSmallIntegerField(_("series"), default=3)
    closed_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Moves on with every change to the venue (its teams, check-ins, seating, paper lists, closing, its report's
    # confirmations and acceptance): a client that changes it naming an older one is told instead of changing what
    # it did not see.
    version = models.PositiveIntegerField(default=0)
    # The version the venue had when the results its report shows last changed (its latest closing that changed
    # them: its lists are locked until it reopens, and a correction closed again with every result as it was changes
    # none): a captain's confirmation or the manager's acceptance naming an older one is refused, as is one naming a
    # version at which a correction had it open (``Correction.reopened_version``); one naming a version moved on
    # since by confirmations, the acceptance or such a correction alone is not.
    results_version = models.PositiveIntegerField(default=0)
    # The answers its changes through the API got, by key (gone with it).
    kept_answers = GenericRelation(KeptAnswer, content_type_field="kind", object_id_field="thing_id")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.match_day} {self.place}"

    @property
    def seed(self) -> str:
        return f"{self.match_day.seed}/{self.public_id}"


class VenueTeam(models.Model):
    """A team playing at a venue; ``match_day`` is the venue's, kept here so that the database holds a team to one
    venue a match day."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="teams")
    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="venues")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "id"]
        constraints = [models.UniqueConstraint(fields=["match_day", "team"], name="venue_team_once_a_day")]

    def __str__(self) -> str:
        return f"{self.venue}: {self.team}"


class CheckIn(models.Model):
    """A roster player checked in for their team for one series at a venue, at ``position`` in its line-up (the
    seating turns the line-ups by it), by ``checked_in_by`` (unknown once that account is deleted, and for a restored
    league). ``match_day`` and ``league_player`` are kept here so that the database holds a player to one seat a
    series on a match day."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="check_ins")
    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="+")
    series = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="check_ins")
    entry = models.ForeignKey(RosterEntry, on_delete=models.PROTECT, related_name="check_ins")
    league_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match_day", "series", "league_player"], name="check_in_once_a_series")
        ]

    def __str__(self) -> str:
        return f"{self.venue} {self.series}: {self.entry}"


class VenueTable(models.Model):
    """One table of one series at a venue: a match of the league's book. ``paper``: the table kept its list on paper
    and entered each player's totals (``matches.models.PaperLine``) instead of the games."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="tables")
    series = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="venue_table")
    paper = models.BooleanField(default=False)

    class Meta:
        ordering = ["series", "number"]
        constraints = [models.UniqueConstraint(fields=["venue", "series", "number"], name="venue_table_unique")]

    def __str__(self) -> str:
        return f"{self.venue} {self.series}/{self.number}"


class PlayerSeries(models.Model):
    """A player's Seeger-Fabian total in one series at a closed venue, for their team (derived: written when the
    venue closes, removed when it reopens), so that the league's players' ranking reads one row per series played
    instead of every game of the season."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="player_series")
    series = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    league_player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    total = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["venue", "series", "league_player"], name="player_series_unique")
        ]

    def __str__(self) -> str:
        return f"{self.venue} {self.series}: {self.league_player} {self.total}"


class SeriesScore(models.Model):
    """A team's series score at a closed venue, the sum of its players' totals (derived: written when the venue
    closes, removed when it reopens): the league table ranks every match day from these rows alone."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="series_scores")
    series = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="series_scores")
    score = models.IntegerField()

    class Meta:
        ordering = ["series", "team"]
        constraints = [models.UniqueConstraint(fields=["venue", "series", "team"], name="series_score_unique")]

    def __str__(self) -> str:
        return f"{self.venue} {self.series}: {self.team} {self.score}"


class ReportConfirmation(models.Model):
    """A team's captain confirmed the venue's match report ("Spielbericht") as it stood then: one made before a
    correction confirmed the result before it, and the captain confirms the corrected result with a confirmation of
    its own, the earlier one kept."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="confirmations")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    captain = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.venue}: {self.team}"


class Correction(models.Model):
    """A venue's results reopened once closed: who, why and when, and what changed (``before``: the teams' series
    scores as they stood, accepted or not; ``after``: as closed again, empty while it is open). ``accepted``:
    whether the league manager had accepted them (a correction, with its reason), or the venue was reopened before
    that (the captains' confirmations made until then stay, as of the earlier result). ``results``: the digest of
    the results it reopened (``VenueReport.results_digest``), so that closing it again tells whether any changed;
    ``reopened_version`` and ``closed_version``: the venue's versions while it was open (from the first, up to the
    second, none while it is open), at which its report showed results being corrected."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="corrections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    reason = models.TextField(_("reason"), blank=True)
    accepted = models.BooleanField(default=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(null=True, blank=True)
    results = models.CharField(max_length=64, blank=True)
    reopened_version = models.PositiveIntegerField(default=0)
    closed_version = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.venue}: {self.reason[:40]}"

    def changes(self) -> list[ScoreChange]:
        """Each team's series score the correction changed, series by series, as accepted and as closed again; none
        while the venue is open again."""
        if self.after is None:
            return []
        found = []
        for series in sorted({*self.before, *self.after}, key=int):
            was, now = self.before.get(series, {}), self.after.get(series, {})
            teams = [*was, *(team for team in now if team not in was)]
            found += [
                ScoreChange(int(series), team, was.get(team), now.get(team))
                for team in teams
                if was.get(team) != now.get(team)
            ]
        return found


@dataclass(frozen=True)
class ScoreChange:
    """A team's series score a correction changed: as accepted and as closed again (``None``: the team had no score
    in the series then)."""

    series: int
    team: str
    before: int | None
    after: int | None


class TeamStanding(models.Model):
    """A team's sums over its group's closed venues (derived: kept in step as venues close, reopen and are
    accepted), so that the group's table reads one row per team however many match days it has played. League
    points are kept in halves (a shared place gives halves); ``open_days``: the match days counted that are not
    accepted yet."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="standing")
    plus_halves = models.IntegerField(default=0)
    minus_halves = models.IntegerField(default=0)
    game_points = models.IntegerField(default=0)
    match_days = models.IntegerField(default=0)
    open_days = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.team}: {self.plus_halves / 2:g}:{self.minus_halves / 2:g}"


class PlayerStanding(models.Model):
    """A player's sums over the series they played in a group at its closed venues (derived, kept in step as
    ``TeamStanding`` is), so that the players' ranking reads one row per player; ``open_series``: the series counted
    that are not accepted yet."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="player_standings")
    league_player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    total = models.IntegerField(default=0)
    series = models.IntegerField(default=0)
    open_series = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "league_player"], name="player_standing_unique")]

    def __str__(self) -> str:
        return f"{self.group}: {self.league_player} {self.total}"
