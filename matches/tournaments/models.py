"""Open tournaments ("Preisskat"): a tournament as its organiser announced it, its categories, the entries with
their payments, the tandems and teams of its side rankings, its series with their tables and seats, the paper lists
of tables kept on paper, and each player's list of a closed series.

A tournament keeps its players and matches in a book of its own (``Tournament.keeper``), as a league does: every
table of a series is an ordinary match of that book, scored by phone through its link as at a club night, or kept
on paper and entered as each player's totals. What the organiser entered is stored as entered (amounts in whole
cents, schedules as their values); every result is derived by the engine (``matches.engine.tournaments``).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.clubs.models import Club
from matches.engine.tournaments import Doubles, Seating, ShareKind
from matches.models import Keeper, KeptAnswer, Match, Player, new_link_token
from matches.names import MAX_KEY_LENGTH


class Tournament(models.Model):
    """An open tournament as announced: when and where, how many series of how many games, the fees, the
    organiser's share, the prize schedule of the places and of the side rankings (each a dict ``values``, ``kind``,
    ``payout`` as entered), the best-series prizes, and the options (docs/rules.md, "Open tournaments"). ``seed``:
    every draw and lot of the tournament comes from it, so that a draw can be made again."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    keeper = models.OneToOneField(Keeper, on_delete=models.PROTECT, related_name="tournament")
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments"
    )
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments")
    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=100, blank=True)
    variant = models.CharField(_("variant"), max_length=30, default="skat")
    scheme = models.CharField(_("scheme"), max_length=20, default="seeger-fabian")
    rules = models.JSONField(_("rules"), default=dict)
    series = models.PositiveSmallIntegerField(_("series"), default=3)
    games_at_four = models.PositiveSmallIntegerField(_("games per series at a table of four"), default=48)
    games_at_three = models.PositiveSmallIntegerField(_("games per series at a table of three"), default=36)
    seats = models.PositiveIntegerField(_("most players the room seats"), default=0)
    entry_fee = models.PositiveIntegerField(_("entry fee"), default=0)
    list_fee = models.PositiveIntegerField(_("list fee"), default=0)
    lost_game_tiers = models.JSONField(_("lost-game fees"), default=list)
    tandem_fee = models.PositiveIntegerField(_("tandem fee"), default=0)
    team_fee = models.PositiveIntegerField(_("team fee"), default=0)
    share_kind = models.CharField(
        _("organiser's share"), max_length=8, choices=[(k.value, k.value) for k in ShareKind], default=ShareKind.PERCENT
    )
    share_value = models.PositiveIntegerField(_("organiser's share"), default=0)
    keeps_list_fees = models.BooleanField(_("the organiser keeps the list fees"), default=True)
    keeps_lost_game_fees = models.BooleanField(_("the organiser keeps the lost-game fees"), default=True)
    places = models.JSONField(_("prize schedule"), default=dict)
    best_series = models.JSONField(_("prizes for the best series"), default=list)
    tandem_prizes = models.JSONField(_("tandem prizes"), default=dict)
    team_prizes = models.JSONField(_("team prizes"), default=dict)
    doubles = models.CharField(
        _("two prizes for one player"), max_length=8, choices=[(d.value, d.value) for d in Doubles], default="better"
    )
    late_entries = models.BooleanField(_("entries at the door until the first draw"), default=True)
    seed = models.CharField(max_length=64, default=new_link_token, editable=False)
    announced_at = models.DateTimeField(auto_now_add=True)
    # Moves on with every change to the tournament (entries, payments, draws, paper lists, closings): a client that
    # changes it naming an older one is told instead of changing what it did not see.
    version = models.PositiveIntegerField(default=0)
    # The answers its changes through the API got, by key (gone with it).
    kept_answers = GenericRelation(KeptAnswer, content_type_field="kind", object_id_field="thing_id")

    class Meta:
        ordering = ["-date", "name"]

    def __str__(self) -> str:
        return self.name

    def series_games(self, players: int) -> int:
        """The games of one series at a table of ``players``."""
        return self.games_at_four if players == 4 else self.games_at_three


class Category(models.Model):
    """A category with prizes of its own (women, seniors, youth, or the organiser's own): amounts in cents by place
    within the category."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(_("name"), max_length=100)
    prizes = models.JSONField(_("prizes"), default=list)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="tournament_category_unique")]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class Channel(models.TextChoices):
    ONLINE = "online", _("online")
    DOOR = "door", _("at the door")


class Entry(models.Model):
    """A player entered: the name, club and category as given, an optional federation number, how they entered,
    the code they show at the door, the account that entered online (if any), and ``withdrawn_after``: the number
    of series played before they withdrew (0: before the first). ``player``: who they are in the tournament's book,
    where the tables seat them."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    name = models.CharField(_("name"), max_length=100)
    # The name as names are compared (``matches.names.name_key``): an entry is found by it, and a player entering
    # twice is known by it, with one indexed read however many have entered.
    name_key = models.CharField(max_length=MAX_KEY_LENGTH, editable=False)
    club = models.CharField(_("club"), max_length=100, blank=True)
    category = models.ForeignKey(
        Category, on_delete=models.PROTECT, null=True, blank=True, related_name="entries", verbose_name=_("category")
    )
    federation_number = models.CharField(_("federation number"), max_length=20, blank=True)
    channel = models.CharField(_("entered"), max_length=8, choices=Channel.choices)
    code = models.CharField(_("confirmation code"), max_length=8)
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_entries"
    )
    withdrawn_after = models.PositiveSmallIntegerField(_("withdrawn after series"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="tournament_entry_player_unique"),
            models.UniqueConstraint(fields=["tournament", "code"], name="tournament_entry_code_unique"),
        ]
        indexes = [models.Index(fields=["tournament", "name_key"], name="tournament_entry_name_key")]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class Payment(models.Model):
    """Money an entrant handed the cashier, in cents, with who took it and when: a payment is never changed, so
    the cashier's list keeps its history."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="payments")
    amount = models.IntegerField(_("amount"))
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.entry}: {self.amount}"


class SideKind(models.TextChoices):
    TANDEM = "tandem", _("tandem")
    TEAM = "team", _("team")


class Side(models.Model):
    """A tandem (two entrants) or a team (four) entered in its side ranking for its fee."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sides")
    kind = models.CharField(_("kind"), max_length=8, choices=SideKind.choices)
    name = models.CharField(_("name"), max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "kind", "name"], name="tournament_side_unique")]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class SideMember(models.Model):
    """An entrant in a tandem or team, in the order named; ``kind`` is the side's, kept here so that the database
    holds an entrant to one tandem and one team."""

    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="members")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="sides")
    kind = models.CharField(max_length=8, choices=SideKind.choices)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["entry", "kind"], name="tournament_side_member_unique")]

    def __str__(self) -> str:
        return f"{self.side}: {self.entry}"


class Series(models.Model):
    """A series of the tournament, once drawn: how it was seated, the seed it was drawn from (recorded, so that the
    draw can be made again), when and by whom; ``closed_at`` once every table's list is complete and locked."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series_drawn")
    number = models.PositiveSmallIntegerField(_("series"))
    seating = models.CharField(
        _("seating"), max_length=10, choices=[(s.value, s.value) for s in Seating], default=Seating.DRAW
    )
    seed = models.CharField(max_length=100, blank=True)
    drawn_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        verbose_name_plural = _("series")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournament_series_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} {self.number}"


class Table(models.Model):
    """One table of a series: a match of the tournament's book, scored through its link as at a club night.
    ``paper``: the table kept its list on paper and entered each player's totals (``matches.models.PaperLine``)
    instead."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="tournament_table")
    paper = models.BooleanField(default=False)

    class Meta:
        ordering = ["series", "number"]
        constraints = [models.UniqueConstraint(fields=["series", "number"], name="tournament_table_unique")]

    def __str__(self) -> str:
        return f"{self.series}/{self.number}"


class TableSeat(models.Model):
    """An entrant's seat at a table of a series; ``series`` is kept here so that the database holds an entrant to
    one seat a series."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "position"]
        constraints = [models.UniqueConstraint(fields=["series", "entry"], name="tournament_seat_once_a_series")]

    def __str__(self) -> str:
        return f"{self.table}: {self.entry}"


class SeriesList(models.Model):
    """An entrant's list of a closed series (derived: written when the series closes from its table's games or
    paper totals), so that the standings, the prize list and the cashier's list read one row per player and series
    instead of every game."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="lists")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="lists")
    table_size = models.PositiveSmallIntegerField()
    game_points = models.IntegerField()
    won = models.PositiveSmallIntegerField()
    lost = models.PositiveSmallIntegerField()
    others_lost = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["series", "entry"], name="tournament_series_list_unique")]

    def __str__(self) -> str:
        return f"{self.series}: {self.entry}"


class EntryStanding(models.Model):
    """An entrant's standing over the closed series (derived: written when a series closes, ranked by the engine
    from the lists the closed series kept), so that the live page reads a page of places instead of ranking every
    player's lists each time a phone or the room's screen asks. ``series``: how many closed series it counts;
    ``place``: the entrant's place in the ranking (ties broken by more won, fewer lost, then the tournament's lot);
    ``by_lot``: the tie-breaks could not separate the entrant from a neighbour."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="standing")
    series = models.PositiveSmallIntegerField()
    place = models.PositiveIntegerField()
    by_lot = models.BooleanField(default=False)
    total = models.IntegerField()
    game_points = models.IntegerField()
    won = models.PositiveIntegerField()
    lost = models.PositiveIntegerField()
    lists = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["tournament", "place"]
        constraints = [models.UniqueConstraint(fields=["tournament", "place"], name="tournament_standing_place_unique")]

    def __str__(self) -> str:
        return f"{self.entry}: {self.place}"
