"""Keepers, players, matches, their seats and games, and the history of every change.

A game row keeps what the players entered (``passed``, ``declarer``, ``entry``) exactly as entered, in the engine's
canonical form; everything else on it, its scores and the match's totals are derived by the rules engine, written only
by the services, and can be recomputed at any time (``manage.py rescore``).
"""

from __future__ import annotations

import secrets
import uuid
from functools import lru_cache

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey, GenericRelation
from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine import ENTRY_VERSION, DealEntry, MatchSetup, Scheme, Variant, deal_from_data, setup_match
from .ids import time_ordered_id
from .names import MAX_KEY_LENGTH


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


class Keeper(models.Model):
    """Who keeps players and matches: a person's own book, or (with a club) a club's.

    A person's keeper outlives the account (``user`` becomes empty), so the matches in it survive their creator.
    Somebody without an account keeps a guest's book, found by the ``guest_key`` their browser holds, until they
    sign up or log in and it becomes their own.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="keeper"
    )
    guest_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return str(self.user) if self.user_id else f"keeper {self.pk}"


class Shown(models.TextChoices):
    """Who sees a person's record besides the person: nobody else (the members of the person's club still see the
    lists of that club's own events), or everybody, under the full name or the first name only."""

    PRIVATE = "private", _("only me (and my club's members for my club's events)")
    FULL = "full", _("everybody, with my full name")
    FIRST = "first", _("everybody, with my first name only")


class Person(models.Model):
    """Somebody who plays in several books (a club's, a league's, a tournament's, their own): the players of those
    books that are this person are joined to it (``Player.person``), by an account (``account``: the person's own),
    by a federation number (``federation_number``: a DSkV or ISPA member number, one person each) or by a claim.
    ``name``: as the person was first known. ``shown``: who else sees the record."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=60)
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="person"
    )
    federation_number = models.CharField(_("federation number"), max_length=20, null=True, blank=True, unique=True)
    shown = models.CharField(_("record shown to"), max_length=8, choices=Shown.choices, default=Shown.PRIVATE)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """Somebody at the table, in a keeper's book; ``account`` links the person's own account, if they have one."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    keeper = models.ForeignKey(Keeper, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    name_key = models.CharField(max_length=MAX_KEY_LENGTH, editable=False)
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="linked_players"
    )
    link_token = models.CharField(max_length=40, unique=True, null=True, blank=True)
    person = models.ForeignKey(Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="players")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["keeper", "name_key"], name="player_name_unique_per_keeper"),
        ]

    def __str__(self) -> str:
        return self.name


class JoinedBy(models.TextChoices):
    ACCOUNT = "account", _("linked to the account")
    NUMBER = "number", _("federation number")
    CODE = "code", _("entry code")
    ROSTER = "roster", _("team roster")


class Join(models.Model):
    """A player of a book joined to a person, how and by whom; ``previous``: the person the player was joined to
    before (none: nobody). The joins made at once share a ``batch``; ``number_carried`` is the federation number
    that went over with them (or was given); ``partner``: the player a team's roster paired this one with. Undoing
    a join (``undone_at``) undoes its batch: each player back where they were, the number back to whom it came from;
    the joins are kept, as history."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="joins")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="joins")
    previous = models.ForeignKey(Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    batch = models.UUIDField(default=uuid.uuid4, db_index=True)
    number_carried = models.CharField(max_length=20, blank=True)
    partner = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    how = models.CharField(max_length=8, choices=JoinedBy.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.player_id} → {self.person_id}"


class Match(models.Model):
    """An evening at one table: a variant, a scheme and the rule set chosen at the start, kept as it was.

    ``version`` counts the changes to the match; every change bumps it under the match's lock, so any page, phone or
    client can tell whether what it shows is still current. ``deals`` and ``totals`` are derived.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    keeper = models.ForeignKey(Keeper, on_delete=models.PROTECT, related_name="matches")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    token = models.UUIDField(unique=True, null=True, blank=True, editable=False)
    title = models.CharField(_("title"), max_length=100, blank=True)
    variant = models.CharField(_("variant"), max_length=30, choices=[(v.value, v.value) for v in Variant])
    scheme = models.CharField(_("scheme"), max_length=20, choices=[(s.value, s.value) for s in Scheme])
    rules = models.JSONField(_("rules"), default=dict)
    preset = models.CharField(_("preset"), max_length=40, blank=True)
    players = models.PositiveSmallIntegerField(_("players"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    planned_games = models.PositiveSmallIntegerField(_("planned games"), null=True, blank=True)
    scorers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="scored_matches", blank=True)
    invite_token = models.CharField(max_length=40, unique=True, null=True, blank=True, default=new_link_token)
    share_token = models.CharField(max_length=40, unique=True, null=True, blank=True, default=new_link_token)
    # The scoring link an event's closing turned off (a league's venue, a tournament's series): a phone that opens it
    # afterwards learns that the table's list is closed, and where its results are, instead of meeting a dead link.
    ended_link = models.CharField(max_length=40, blank=True, default="", db_index=True)
    version = models.PositiveIntegerField(default=0)
    # A closed club night locks the lists of its tables until it is reopened; a table entered from paper stays locked.
    locked = models.BooleanField(default=False)
    deals = models.PositiveIntegerField(default=0, help_text="Derived: the games on the list.")
    totals = models.JSONField(default=list, help_text="Derived: each seat's total.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return self.title or f"{self.variant} {self.created_at:%Y-%m-%d}"

    def setup(self) -> MatchSetup:
        """The engine's view of this match's rules and table (the same for every match of the same choices)."""
        rules = tuple(sorted(self.rules.items())) if isinstance(self.rules, dict) else ()
        return _setup_of(self.variant, self.scheme, rules, self.players, self.first_dealer, self.planned_games)


@lru_cache(maxsize=256)
def _setup_of(
    variant: str,
    scheme: str,
    rules: tuple[tuple[str, object], ...],
    players: int,
    first_dealer: int,
    planned_games: int | None,
) -> MatchSetup:
    """A match's setup, checked and built once per set of choices: a save asks for it three times, a page as often,
    and the setup (frozen) never changes once built."""
    return setup_match(
        variant,
        scheme=scheme,
        rules=dict(rules),
        players=players,
        first_dealer=first_dealer,
        planned_games=planned_games,
    )


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
    """One deal of a match, in the order it was entered (``position``; a deleted game keeps its place).

    ``passed``, ``declarer`` and ``entry`` (the engine's sparse game, in the form of ``entry_version``) are what the
    table entered. ``version`` is the match version of the last change to them or to the game's place (its deal
    number, and with it its seats). The fields from ``number`` on are
    derived by the engine (``rules_version`` names the scoring that derived them) and rewritten only by the services;
    ``points`` repeats the game's scores so that the sheet reads one row per game.
    """

    public_id = models.UUIDField(default=time_ordered_id, unique=True, editable=False)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    position = models.PositiveIntegerField()
    passed = models.BooleanField(default=False)
    declarer = models.PositiveSmallIntegerField(null=True, blank=True)
    entry = models.JSONField(null=True, blank=True)
    entry_version = models.PositiveSmallIntegerField(default=ENTRY_VERSION)
    deleted = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    number = models.PositiveIntegerField(null=True, blank=True)
    bock = models.PositiveSmallIntegerField(default=0)
    won = models.BooleanField(null=True)
    game_value = models.IntegerField(default=0)
    points = models.JSONField(default=list, help_text="Derived: what each seat writes (as the game's GameScores).")
    breakdown = models.JSONField(default=list)
    rules_version = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="game_position_unique"),
        ]
        indexes = [
            models.Index(fields=["match", "deleted", "position"], name="game_match_live"),
            models.Index(fields=["match", "number"], name="game_match_number"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.position}"

    @property
    def contract(self) -> str | None:
        return None if self.entry is None else str(self.entry.get("contract"))

    def deal(self) -> DealEntry:
        """What was entered, read by the engine."""
        return deal_from_data(passed=self.passed, declarer=self.declarer, entry=self.entry, version=self.entry_version)

    def snapshot(self) -> dict[str, object]:
        """What a change of this game touches: the state kept in its history, with the entry's version."""
        return game_state(self.entry_version, self.passed, self.declarer, self.entry, self.deleted)


def game_state(
    entry_version: int, passed: bool, declarer: int | None, entry: object, deleted: bool
) -> dict[str, object]:
    """A game's state as its history keeps it (``Game.snapshot``; a restore's games before they are rows)."""
    return {"v": entry_version, "passed": passed, "declarer": declarer, "entry": entry, "deleted": deleted}


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


# A change to a game names it; a change to the match itself names none (``MatchEvent``).
GAME_ACTIONS = ("add", "edit", "delete", "undo", "redo")
MATCH_ACTIONS = ("lock", "unlock", "reseat", "join", "leave", "handover", "rescore", "retitle", "link", "paper")


class MatchEvent(models.Model):
    """One change to a match, with the state before and after: nothing is ever overwritten unseen.

    A change to a game (``GAME_ACTIONS``) names its ``game`` and keeps the game's state before and after; a change
    to the match itself (its list closed or reopened, its seats, co-scorers, title, links or book, a scoring afresh)
    names no game and keeps what it changed (whether a link is on, never its secret address; a table's paper list,
    each player's totals, as it stood before and after it was entered, entered anew or taken back). ``token`` is the one
    the submitting page carried, so a retried submission finds its first event instead of changing the match twice.
    ``version`` is the match version the change made; ``number`` the game's number then. An undo points at the
    change it undid (``undo_of``); a redo is the undo of an undo.
    """

    class Action(models.TextChoices):
        ADD = "add", _("added")
        EDIT = "edit", _("edited")
        DELETE = "delete", _("deleted")
        UNDO = "undo", _("undone")
        REDO = "redo", _("redone")
        LOCK = "lock", _("list closed")
        UNLOCK = "unlock", _("list reopened")
        RESEAT = "reseat", _("seats changed")
        JOIN = "join", _("co-scorer joined")
        LEAVE = "leave", _("co-scorer removed")
        HAND_OVER = "handover", _("handed over to another book")
        RESCORE = "rescore", _("scored afresh")
        RETITLE = "retitle", _("title changed")
        LINK = "link", _("link renewed or turned off")
        PAPER = "paper", _("paper list changed")

    public_id = models.UUIDField(default=time_ordered_id, unique=True, editable=False)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="events")
    action = models.CharField(max_length=10, choices=Action.choices)
    token = models.UUIDField(default=uuid.uuid4)
    version = models.PositiveIntegerField(default=0)
    number = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    undo_of = models.OneToOneField("self", on_delete=models.CASCADE, null=True, blank=True, related_name="undone_by")

    class Meta:
        ordering = ["-version", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "token"], name="event_token_unique"),
            models.CheckConstraint(
                condition=models.Q(game__isnull=False, action__in=GAME_ACTIONS)
                | models.Q(game__isnull=True, action__in=MATCH_ACTIONS),
                name="event_game_of_its_action",
            ),
        ]
        indexes = [models.Index(fields=["match", "version"], name="event_match_version")]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.action} {self.game_id}"


class ResetRequest(models.Model):
    """A request for a password-reset mail, kept for an hour to count it against the limits. The address asked for
    and the client asking are kept only as keyed hashes: nothing here tells who asked or for whom."""

    address = models.CharField(max_length=64)
    client = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["address", "created_at"], name="reset_address_recent"),
            models.Index(fields=["client", "created_at"], name="reset_client_recent"),
            models.Index(fields=["created_at"], name="reset_created"),
        ]

    def __str__(self) -> str:
        return f"reset request {self.pk} at {self.created_at:%Y-%m-%d %H:%M}"


class LoginFailure(models.Model):
    """A failed login, kept for an hour to count it against the ceiling for one client address. The address is kept
    only as a keyed hash, and no user name at all."""

    client = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["client", "created_at"], name="login_failure_client_recent"),
            models.Index(fields=["created_at"], name="login_failure_created"),
        ]

    def __str__(self) -> str:
        return f"login failure {self.pk} at {self.created_at:%Y-%m-%d %H:%M}"


class RestoreJob(models.Model):
    """A backup file restored in the background: queued by the backup page, run by the task worker, its progress and
    its outcome shown to the account that uploaded it. The file is kept, in parts (``RestorePart``), until the
    restore has finished.

    ``staging`` is the book a restore writes into until everything is in (see ``matches.restore``): if the worker
    stops halfway, what it wrote there is removed and nothing was restored."""

    class State(models.TextChoices):
        UPLOADING = "uploading", _("being uploaded")
        QUEUED = "queued", _("waiting to start")
        CHECKING = "checking", _("checking and scoring")
        WRITING = "writing", _("writing")
        DONE = "done", _("restored")
        FAILED = "failed", _("not restored")

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="restore_jobs")
    file_name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, help_text="What was added, by kind.")
    problem = models.JSONField(null=True, blank=True, help_text="Why it was not restored, as a stored message.")
    staging = models.ForeignKey(Keeper, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "created_at"], name="restore_user_recent")]

    def __str__(self) -> str:
        return f"restore {self.public_id} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)


class RestorePart(models.Model):
    """A part of an uploaded backup's text, in order: a file of any size is streamed from the upload into the
    database a part at a time (where every app server and the task worker find it), never held whole by the page."""

    job = models.ForeignKey(RestoreJob, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField()
    text = models.TextField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "number"], name="restore_part_unique")]

    def __str__(self) -> str:
        return f"{self.job} part {self.number}"


class FileJob(models.Model):
    """A file too large to make while a page waits (a tournament's table cards for a room of hundreds): queued by its
    download, made by the task worker (``tasks.file_job_run``) with the maker its kind registered, its progress shown
    to the account that asked, and kept for that account to download until the daily cleanup removes it
    (``tasks.FILES_KEPT``). ``arguments``: what the maker needs, as the download gave it; ``language``: the asker's,
    in which the file is written."""

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting to start")
        MAKING = "making", _("being made")
        DONE = "done", _("ready")
        FAILED = "failed", _("not made")

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="file_jobs")
    kind = models.CharField(max_length=40)
    title = models.CharField(max_length=255)
    arguments = models.JSONField(default=dict)
    language = models.CharField(max_length=10)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file_name = models.CharField(max_length=255, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    content = models.BinaryField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["created_at"], name="file_job_created")]

    def __str__(self) -> str:
        return f"file {self.public_id} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)


class PaperLine(models.Model):
    """A player's totals from a table's paper list, as written: game points, games won, games lost. A table of any
    kind of event (a club night's, a league venue's, a tournament's) is a match; one that kept its list on paper has a
    line for each seat instead of games, and its list is locked (``services.paper_enter``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="paper_lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    game_points = models.IntegerField(_("game points"))
    won = models.PositiveSmallIntegerField(_("won"))
    lost = models.PositiveSmallIntegerField(_("lost"))

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="paper_line_of_a_match_unique")]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.player_id}"


class ClosedList(models.Model):
    """One player's list of one series at a table of an event, as its event closed it: reported by the kind of event
    when its lists close (a club night, a league's venue, a tournament's series) and taken back when they reopen, so
    that a player's record and the ranking lists read every kind of event from one table and never the apps' own.
    Where it was played is as the kind said (``matches.registry.ListPlace``); its figures are derived from the match
    (its games, or its paper list) and ``manage.py rescore`` sums them afresh. ``scheme``: the match's; ``total``:
    the Seeger-Fabian total under that scheme, otherwise the game points. ``sequence``: its day and series as one
    number (the day's ordinal × 1,000 + the series), by which a record lists and pages them."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="closed_lists")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="closed_lists")
    kind = models.CharField(max_length=40)
    event = models.UUIDField()
    event_name = models.CharField(max_length=200)
    within = models.UUIDField()
    date = models.DateField()
    series = models.PositiveSmallIntegerField()
    sequence = models.PositiveIntegerField()
    scheme = models.CharField(max_length=20)
    table_size = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    lost = models.PositiveIntegerField()
    others_lost = models.PositiveIntegerField()
    game_points = models.IntegerField()
    total = models.IntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="closed_list_unique")]
        indexes = [
            models.Index(fields=["player", "sequence"], name="closed_list_player_sequence"),
            models.Index(fields=["within", "date"], name="closed_list_within_date"),
            models.Index(fields=["event"], name="closed_list_event"),
        ]

    def __str__(self) -> str:
        return f"{self.event_name} {self.series}: {self.player_id}"


class RecordMonth(models.Model):
    """A player's closed lists of one month summed, by kind of event, scheme and length of series (``games``): kept
    beside the closed lists whenever they change (``services.closed_lists.closed_lists_report``), so that a record
    reads some rows a month however many series it holds. ``month``: its first day."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="record_months")
    month = models.DateField()
    kind = models.CharField(max_length=40)
    scheme = models.CharField(max_length=20)
    games = models.PositiveIntegerField()
    series = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    lost = models.PositiveIntegerField()
    total = models.IntegerField()
    best = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "month", "kind", "scheme", "games"], name="record_month_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.month:%Y-%m} {self.kind}"


class KeptAnswer(models.Model):
    """A change asked through the API with an ``Idempotency-Key`` to a thing that keeps no history of its own (a club
    night, a league's venue, a tournament, a ranking list, an account defining a ranking list), and the answer it got
    (``matches.api.replays``): a retry with the same key (a phone on a bad connection) gets that answer again and
    changes nothing more. One table for every kind
    of event: ``kind`` is the thing's model, ``thing_id`` its key; a thing model that declares a ``GenericRelation``
    to this one takes its answers with it when it is deleted. ``asked``: a digest of the method, address and body, so
    that a key sent again with another change is told apart."""

    kind = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="+")
    thing_id = models.PositiveBigIntegerField()
    thing = GenericForeignKey("kind", "thing_id")
    key = models.UUIDField()
    asked = models.CharField(max_length=64)
    # None once the answer is older than a retry can come (``matches.tasks.ANSWERS_KEPT``): the key stays, so that a
    # retry after that is refused rather than taken as new.
    answer = models.JSONField(encoder=DjangoJSONEncoder, null=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "thing_id", "key"], name="kept_answer_unique")]
        # The answers still kept, by age, for the daily cleanup to find the old ones among them.
        indexes = [
            models.Index(fields=["created_at"], name="kept_answer_created", condition=models.Q(answer__isnull=False))
        ]

    def __str__(self) -> str:
        return f"{self.kind_id}/{self.thing_id}: {self.key}"


class Method(models.TextChoices):
    AVERAGE = "average", _("average per series")
    BEST = "best", _("sum of the best results")
    PLACES = "places", _("placement points")


class Period(models.TextChoices):
    WHOLE = "whole", _("the whole time")
    YEAR = "year", _("year by year")
    MONTH = "month", _("month by month")


class Counted(models.TextChoices):
    EVERYBODY = "everybody", _("everybody who played")
    NUMBERED = "numbered", _("everybody with a federation number")
    BOOK = "book", _("the players of a club")


class RankingList(models.Model):
    """A ranking list over closed lists of any kinds of event (``docs/rules.md``, "Ranking lists"): which count
    (``events``: the public ids of seasons, groups and tournaments, the lists' ``within``; ``date_from`` and
    ``date_to``), over which periods (the whole time, each year, each month), who counts (everybody, everybody with a
    federation number, the players of one club's book), and the method with its options: the average per series
    with ``minimum`` series, the sum of the ``best`` results, or the points per place of ``places`` scaled by the
    field against ``field``. ``public``: everybody sees it (else its owner, and the members of the club of
    ``book``)."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=100)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="ranking_lists"
    )
    events = models.JSONField(_("events"), default=list)
    date_from = models.DateField(_("from"), null=True, blank=True)
    date_to = models.DateField(_("to"), null=True, blank=True)
    period = models.CharField(_("lists"), max_length=8, choices=Period.choices, default=Period.WHOLE)
    counted = models.CharField(_("who counts"), max_length=10, choices=Counted.choices, default=Counted.EVERYBODY)
    book = models.ForeignKey(Keeper, on_delete=models.CASCADE, null=True, blank=True, related_name="ranking_lists")
    method = models.CharField(_("method"), max_length=8, choices=Method.choices, default=Method.AVERAGE)
    minimum = models.PositiveSmallIntegerField(_("minimum number of series"), default=1)
    best = models.PositiveSmallIntegerField(_("best results counted"), default=1)
    places = models.JSONField(_("points per place"), default=list)
    field = models.PositiveSmallIntegerField(_("field the points are for"), default=100)
    public = models.BooleanField(_("shown to everybody"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # The periods that have counted lists, the latest first, and when the places were last kept (``RankingPlace``;
    # None: never, and the list is worked out as it is read until they are).
    periods = models.JSONField(default=list, editable=False)
    kept_at = models.DateTimeField(null=True, editable=False)
    # The answers to its changes asked through the API with a key (``matches.api.replays``), gone with it.
    kept_answers = GenericRelation(KeptAnswer, content_type_field="kind", object_id_field="thing_id")

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class RankingEvent(models.Model):
    """An event a ranking list counts (one of its ``events``: the lists' ``within``), kept beside the list so that a
    list closing finds the rankings that count it by its index."""

    ranking = models.ForeignKey(RankingList, on_delete=models.CASCADE, related_name="counted_events")
    within = models.UUIDField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ranking", "within"], name="ranking_event_unique")]

    def __str__(self) -> str:
        return f"{self.ranking_id} {self.within}"


class RankingPlace(models.Model):
    """A place of a ranking list's period as it stands, kept by the task worker once a list it counts closes or
    reopens (``RankingDue``) and when the ranking changes (``services.rankings.ranking_keep``), so that its page
    reads one page of places however many series it counts. Who holds it: ``person``, else ``player`` alone (a
    player joined to nobody); their name is read as they show it now. ``score``: the method's figure as a fraction
    ("229/2")."""

    ranking = models.ForeignKey(RankingList, on_delete=models.CASCADE, related_name="standing")
    period = models.CharField(max_length=7, blank=True)
    place = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    series = models.PositiveIntegerField()
    events = models.PositiveIntegerField()
    total = models.IntegerField()
    score = models.CharField(max_length=40)

    class Meta:
        indexes = [models.Index(fields=["ranking", "period", "place"], name="ranking_place_order")]

    def __str__(self) -> str:
        return f"{self.ranking_id} {self.period} {self.place}"


class RankingDue(models.Model):
    """A period of a ranking list whose places wait to be kept anew: a list it counts closed or reopened, or its
    players were joined or split (``services.rankings.rankings_follow``). The task worker keeps them and removes the
    rows it read, so that a close never waits on a long list's sums, many closes in a row are summed once, and one
    that lands while the worker sums leaves its row for the next round."""

    ranking = models.ForeignKey(RankingList, on_delete=models.CASCADE, related_name="+")
    period = models.CharField(max_length=7, blank=True)

    class Meta:
        indexes = [models.Index(fields=["ranking", "period"], name="ranking_due_period")]

    def __str__(self) -> str:
        return f"{self.ranking_id} {self.period}"


# What a published list keeps of its ranking list's definition: how its rows were ranked.
RULES_KEPT = ("method", "minimum", "best", "counted", "places", "field")


class RankingEdition(models.Model):
    """A period's ranking list as its owner published it (``period``: "2026-11", "2026", or empty for the whole
    time): kept as it was, with the method and options it was ranked by, whatever closes or reopens or changes
    later. A period published anew (a list of it corrected) has a new edition, the next ``number``; the one before
    is kept as it was, marked replaced (``replaced_at``, ``replaced_by``), and the new one says why (``reason``).
    The edition not replaced is the period's published list: one at most."""

    ranking = models.ForeignKey(RankingList, on_delete=models.CASCADE, related_name="editions")
    period = models.CharField(max_length=7, blank=True)
    number = models.PositiveIntegerField(default=1)
    rows = models.JSONField(default=list)
    # The method and options its rows were ranked by (``RULES_KEPT``): a list changed later is shown as it was.
    rules = models.JSONField(default=dict)
    published_at = models.DateTimeField(default=timezone.now)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    replaced_at = models.DateTimeField(null=True, blank=True)
    replaced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["ranking", "period"],
                condition=models.Q(replaced_at__isnull=True),
                name="ranking_edition_current",
            ),
            models.UniqueConstraint(fields=["ranking", "period", "number"], name="ranking_edition_number"),
        ]

    def __str__(self) -> str:
        return f"{self.ranking_id} {self.period} #{self.number}"


class MemberImport(models.Model):
    """A federation's member list brought into a book (``keeper``) by its keeper, a club's secretary
    (``services.member_imports``): the file's rows as read (``rows``: each row's number in the file, name and number
    as written there), nothing joined until the keeper confirms the preview. Applied, its joins share ``batch`` (one
    undo takes them all back) and ``decisions`` keeps what was done with each row; ``added``: the players it added,
    whom undoing it removes where they have played nothing since."""

    class State(models.TextChoices):
        READ = "read", _("read, not applied")
        APPLIED = "applied", _("applied")
        UNDONE = "undone", _("undone")

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    keeper = models.ForeignKey(Keeper, on_delete=models.CASCADE, related_name="member_imports")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    file_name = models.CharField(max_length=255)
    rows = models.JSONField(default=list)
    decisions = models.JSONField(default=list)
    state = models.CharField(max_length=8, choices=State.choices, default=State.READ)
    batch = models.UUIDField(default=uuid.uuid4, editable=False)
    added = models.ManyToManyField(Player, blank=True, related_name="+")
    kept = models.JSONField(default=list, help_text="The names of added players an undo kept, as they had played.")
    applied_at = models.DateTimeField(null=True, blank=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["keeper", "created_at"], name="member_import_book_recent")]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.state})"
