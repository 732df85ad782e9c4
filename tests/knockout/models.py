"""A knockout night: its own book of players and matches, its rules, and its tables (each a match of that book) in
series; the players' game points each keeps from its paper lists, summed when a list is entered."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.models import Keeper, KeptAnswer, Match, Player


class Knockout(models.Model):
    """A one-night knockout of one variant and scheme, run by its organiser; ``version`` moves on with every
    change to it (``matches.services.tables.moved_on``)."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    keeper = models.OneToOneField(Keeper, on_delete=models.PROTECT, related_name="knockout")
    name = models.CharField(_("name"), max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="knockouts"
    )
    variant = models.CharField(_("variant"), max_length=30, default="skat")
    scheme = models.CharField(_("scheme"), max_length=20, default="seeger-fabian")
    rules = models.JSONField(_("rules"), default=dict)
    games = models.PositiveSmallIntegerField(_("games per table"), default=12)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    kept_answers = GenericRelation(KeptAnswer, content_type_field="kind", object_id_field="thing_id")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def series_games(self, players: int) -> int:
        """The games of a table, whatever its size."""
        return self.games


class KnockoutTable(models.Model):
    """A table of a series: a match of the knockout's book. ``paper``: its list was entered from paper."""

    knockout = models.ForeignKey(Knockout, on_delete=models.CASCADE, related_name="tables")
    series = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="knockout_table")
    paper = models.BooleanField(default=False)

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["knockout", "series", "number"], name="knockout_table_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.knockout} {self.series}/{self.number}"


class KnockoutStanding(models.Model):
    """A player's game points over the knockout's paper lists (derived: written when a list is entered)."""

    knockout = models.ForeignKey(Knockout, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game_points = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["knockout", "player"], name="knockout_standing_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.knockout}: {self.player} {self.game_points}"
