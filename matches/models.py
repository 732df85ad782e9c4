"""Players, matches, their seats and games, and the history of every change.

A game row keeps what the players entered (``entry``) exactly as entered; everything else on it and its scores are
derived by the rules engine and can be recomputed at any time.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .engine import Scheme, Variant


def new_link_token() -> str:
    return secrets.token_urlsafe(18)


class Deck(models.TextChoices):
    FRENCH = "french", _("French suits (♣ ♠ ♥ ♦)")
    GERMAN = "german", _("German suits (Eichel, Grün, Herz, Schellen)")


class Profile(models.Model):
    """A user's preferences."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    deck = models.CharField(_("deck"), max_length=10, choices=Deck.choices, default=Deck.FRENCH)

    def __str__(self) -> str:
        return f"{self.user}: {self.deck}"


class Player(models.Model):
    """Somebody at the table, in the address book of the user who keeps the scores."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint("owner", Lower("name"), name="player_name_unique_per_owner"),
        ]

    def __str__(self) -> str:
        return self.name


class Match(models.Model):
    """An evening at one table: a variant, a scheme and the rule set chosen at the start, kept as it was."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matches")
    title = models.CharField(_("title"), max_length=100, blank=True)
    variant = models.CharField(_("variant"), max_length=30, choices=[(v.value, v.value) for v in Variant])
    scheme = models.CharField(_("scheme"), max_length=20, choices=[(s.value, s.value) for s in Scheme])
    rules = models.JSONField(_("rules"), default=dict)
    preset = models.CharField(_("preset"), max_length=40, blank=True)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    planned_games = models.PositiveSmallIntegerField(_("planned games"), null=True, blank=True)
    scorers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="scored_matches", blank=True)
    invite_token = models.CharField(max_length=40, unique=True, default=new_link_token)
    share_token = models.CharField(max_length=40, unique=True, default=new_link_token)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return self.title or f"{self.variant} #{self.pk}"


class Seat(models.Model):
    """A player's place at the table; seat 0 is the first, the deal moves on clockwise."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.position}: {self.player}"


class Game(models.Model):
    """One deal of a match. ``entry`` is the game as entered (the calculator's ``game`` object; None when all passed).

    The fields after ``created_by`` are derived by the engine and rewritten whenever the match is rescored.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    position = models.PositiveIntegerField()
    passed = models.BooleanField(default=False)
    declarer = models.PositiveSmallIntegerField(null=True, blank=True)
    entry = models.JSONField(null=True, blank=True)
    deleted = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    bock = models.PositiveSmallIntegerField(default=0)
    won = models.BooleanField(null=True)
    game_value = models.IntegerField(default=0)
    breakdown = models.JSONField(default=list)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="game_position_unique"),
        ]
        indexes = [models.Index(fields=["match", "deleted", "position"], name="game_match_live")]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.position}"

    @property
    def contract(self) -> str | None:
        return None if self.entry is None else str(self.entry.get("contract"))

    def snapshot(self) -> dict[str, object]:
        """What a change of this game touches: the state kept in its history."""
        return {"passed": self.passed, "declarer": self.declarer, "entry": self.entry, "deleted": self.deleted}


class GameScore(models.Model):
    """What one seat writes on the list for one game (derived)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scores")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="scores")
    points = models.IntegerField()
    declarer = models.BooleanField(default=False)
    played = models.BooleanField(default=True, help_text="Took part in a played deal: not sitting out, not all passed.")

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="score_seat_unique")]

    def __str__(self) -> str:
        return f"{self.game}: {self.seat} {self.points}"


class MatchEvent(models.Model):
    """One change to a match's games, with the state before and after: nothing is ever overwritten unseen.

    ``token`` is the one the submitting page carried, so a retried submission finds its first event instead of
    changing the match twice.
    """

    class Action(models.TextChoices):
        ADD = "add", _("added")
        EDIT = "edit", _("edited")
        DELETE = "delete", _("deleted")
        UNDO = "undo", _("undone")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=10, choices=Action.choices)
    token = models.UUIDField(default=uuid.uuid4)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    undo_of = models.OneToOneField("self", on_delete=models.CASCADE, null=True, blank=True, related_name="undone_by")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["match", "token"], name="event_token_unique")]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.action} {self.game_id}"
