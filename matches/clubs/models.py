"""Clubs, their members, seasons, club nights, who came, and the tables each night played.

A club keeps its players and matches in a keeper's book of its own (``Club.keeper``), so every member sees the same
players, and every table of a night is an ordinary match of that book. A table that kept its list on paper and
entered only each player's totals has ``PaperLine`` rows instead of games.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.engine import Scheme, Variant
from matches.engine.draw import TablePlan
from matches.engine.league import RankingRule
from matches.models import Keeper, KeptAnswer, Match, Player, new_link_token


class Club(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    keeper = models.OneToOneField(Keeper, on_delete=models.PROTECT, related_name="club")
    name = models.CharField(_("name"), max_length=100)
    # The link to the club's public screen (standings, refreshing while results come in); renewable, revocable.
    screen_token = models.CharField(max_length=40, unique=True, null=True, blank=True, default=new_link_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubRole(models.TextChoices):
    OWNER = "owner", _("owner")
    SECRETARY = "secretary", _("secretary")
    SCORER = "scorer", _("scorer")
    MEMBER = "member", _("member")


class Membership(models.Model):
    """An account's place in a club; a person may belong to several clubs."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=ClubRole.choices, default=ClubRole.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_unique")]

    def __str__(self) -> str:
        return f"{self.club}: {self.user} ({self.role})"


class Roster(models.Model):
    """What a club knows of one of its players: a guest or a member, the categories they are ranked in, and
    whether public pages show their first name only."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="roster")
    guest = models.BooleanField(_("guest"), default=False)
    categories = models.JSONField(_("categories"), default=list, blank=True)
    first_name_only = models.BooleanField(_("first name only in public"), default=False)

    def __str__(self) -> str:
        return str(self.player)


class Season(models.Model):
    """A club's season: what is played and how the nights are ranked. The rules are stored complete, as a match
    stores them, so a later change of presets never changes a season's results."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    variant = models.CharField(_("variant"), max_length=30, choices=[(v.value, v.value) for v in Variant])
    scheme = models.CharField(_("scheme"), max_length=20, choices=[(s.value, s.value) for s in Scheme])
    rules = models.JSONField(_("rules"), default=dict)
    plan = models.CharField(
        _("tables"), max_length=10, choices=[(p.value, p.value) for p in TablePlan], default=TablePlan.FOURS.value
    )
    games_at_four = models.PositiveSmallIntegerField(_("games per series at a table of four"), default=48)
    games_at_three = models.PositiveSmallIntegerField(_("games per series at a table of three"), default=36)
    games_at_two = models.PositiveSmallIntegerField(_("games per series at a table of two"), default=24)
    ranking = models.CharField(
        _("ranking"), max_length=12, choices=[(r.value, r.value) for r in RankingRule], default=RankingRule.TOTAL.value
    )
    minimum_lists = models.PositiveSmallIntegerField(_("minimum number of lists"), default=0)
    best_nights = models.PositiveSmallIntegerField(_("best nights that count"), default=0)
    guests_ranked = models.BooleanField(_("guests are ranked"), default=True)
    categories = models.JSONField(_("categories"), default=list, blank=True)
    stake = models.PositiveIntegerField(_("stake per series (cents)"), default=0)
    list_fee = models.PositiveIntegerField(_("fee per list (cents)"), default=0)
    lost_fees = models.JSONField(_("fees per lost game (cents, tiered)"), default=list, blank=True)
    # Moves on when its kept sums are written anew from its closed nights' (a rescore), or a roster of the club's
    # players is written (by first name only, a guest), so that the room's screen following its table shows them; a
    # night closing or reopening moves that night's version instead.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"

    def series_games(self, players: int) -> int:
        """The games of one series at a table of ``players``."""
        return {4: self.games_at_four, 3: self.games_at_three}.get(players, self.games_at_two)

    @property
    def ranks_by_average(self) -> bool:
        """Whether its table ranks by the average per list (its score is an average, headed so)."""
        return self.ranking == RankingRule.AVERAGE.value


class Night(models.Model):
    """A club night of a season: who came, the tables of each series, and whether the lists are closed."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField(_("date"))
    series = models.PositiveSmallIntegerField(_("series"), default=1)
    # The first draw of each series and every lot that breaks a tie at this night come from it; it never changes.
    seed = models.CharField(max_length=64, default=new_link_token)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Moves on with every change to the night (check-ins, draws, seats, paper lists, closing): a client that changes
    # it naming an older one is told instead of changing what it did not see.
    version = models.PositiveIntegerField(default=0)
    # The answers its changes through the API got, by key (gone with it).
    kept_answers = GenericRelation(KeptAnswer, content_type_field="kind", object_id_field="thing_id")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-created_at"]
        indexes = [
            models.Index(fields=["season", "date", "created_at"], name="night_season_date"),
            models.Index(fields=["season", "closed_at"], name="night_season_closed"),
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.date}"

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


class NightLog(models.Model):
    """What was done to a night as a whole, by whom and when: closing and reopening, a new date, a series dropped
    before play, a table turned back from paper to phones. ``details`` keeps what the change replaced (the old date,
    the dropped tables' players, the paper totals), so that nothing entered is lost silently."""

    class Action(models.TextChoices):
        CLOSE = "close", _("closed")
        REOPEN = "reopen", _("reopened")
        REDATE = "redate", _("re-dated")
        DROP = "drop", _("series dropped")
        PHONES = "phones", _("back to phones")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="log")
    action = models.CharField(max_length=10, choices=Action.choices)
    details = models.JSONField(default=dict, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.night}: {self.action}"


class SeasonLog(models.Model):
    """What was done to a season, by whom and when: its settings changed (each with the value it had before), a
    night removed (with its date), so that the season's history outlives the night."""

    class Action(models.TextChoices):
        EDIT = "edit", _("settings changed")
        REMOVE_NIGHT = "remove-night", _("night removed")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="log")
    action = models.CharField(max_length=12, choices=Action.choices)
    details = models.JSONField(default=dict, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.season}: {self.action}"


class Attendance(models.Model):
    """A player checked in for a night; ``in_pot``: plays for the prizes (and pays the stake)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendances")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attendances")
    in_pot = models.BooleanField(_("plays for the prizes"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="attendance_unique")]

    def __str__(self) -> str:
        return f"{self.night}: {self.player}"


class ClubTable(models.Model):
    """One table of one series of a night: a match of the club's book. ``paper``: the table kept its list on
    paper and entered each player's totals (``matches.models.PaperLine``) instead of the games."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tables")
    series = models.PositiveSmallIntegerField(default=1)
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="club_table")
    paper = models.BooleanField(default=False)
    # The seed the series was drawn from (empty when it was seated by a ranking): the same attendees, seed and
    # history draw the same tables again.
    seed = models.CharField(max_length=64, blank=True)
    # The table the guests sat from, when the secretary placed them so (recorded, so that the draw can be made again).
    guests_from = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["series", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "series", "number"], name="club_table_unique")]

    def __str__(self) -> str:
        return f"{self.night} {self.series}/{self.number}"


class NightStanding(models.Model):
    """A player's sums over a closed night (derived, written when the night closes and removed when it reopens): a
    closed night's lists are locked, so its results are kept as they closed instead of being summed again."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="night_standings")
    score = models.IntegerField(default=0)
    game_points = models.IntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    lists = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="night_standing_unique")]

    def __str__(self) -> str:
        return f"{self.night}: {self.player} {self.score}"


class SeasonStanding(models.Model):
    """A player's sums over the closed nights of a season (derived: the sum of their ``NightStanding`` rows, kept
    in step as nights close and reopen), so that the season table reads one row per player however long the
    season has run."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_standings")
    score = models.IntegerField(default=0)
    game_points = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    lists = models.IntegerField(default=0)
    nights = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="season_standing_unique")]

    def __str__(self) -> str:
        return f"{self.season}: {self.player} {self.score}"
