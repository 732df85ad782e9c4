"""Small builders for tests: users, matches and games entered the way a table would."""

import io
import uuid
from typing import Any

from django.contrib.auth.models import User
from django.core.management import call_command

from matches.models import Game, Match
from matches.services import Submission, game_add, match_create


def make_user(name: str = "anna") -> User:
    return User.objects.create_user(username=name, password="a-long-enough-password-1")


def make_match(
    owner: User, variant: str = "skat", names: tuple[str, ...] = ("Anna", "Ben", "Cleo"), **kwargs: Any
) -> Match:
    return match_create(
        owner=owner,
        variant=variant,
        scheme=kwargs.pop("scheme", "standard"),
        rules=kwargs.pop("rules", {}),
        player_names=names,
        **kwargs,
    ).match


def add(match: Match, declarer: int | None = 0, token: uuid.UUID | None = None, **entry: Any) -> Game:
    passed = entry.pop("passed", False)
    return game_add(
        match=match,
        user=match.created_by,
        token=token or uuid.uuid4(),
        submission=Submission(passed=passed, declarer=None if passed else declarer, entry=None if passed else entry),
    ).game


def run_tasks() -> None:
    """What the task worker would do now: run every queued task, then stop (only in tests that commit, as the worker
    reads what others committed)."""
    call_command("db_worker", batch=True, startup_delay=False, reload=False, interval=0, stdout=io.StringIO())
