"""From requests to the engine: plain data in, a scored game with its reasons in the reader's language out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

from .engine import FieldError, Message, Result, RuleError, calculate, game_from_data
from .engine.messages import gettext_noop, msg


@dataclass(frozen=True)
class ScoredGame:
    result: Result
    breakdown: list[str]


def render(message: Message) -> str:
    """A message of the engine in the active language."""
    return message.render(gettext, ngettext)


def score_game(data: Mapping[str, Any]) -> ScoredGame:
    """Score one game described as in the calculator API (``game.bock``: the Bock rounds in force). Raises
    ``RuleError`` for input the rules reject."""
    game = data["game"]
    bock: object = 0
    if isinstance(game, Mapping):
        game = dict(game)
        bock = game.pop("bock", 0)
    if not isinstance(bock, int) or isinstance(bock, bool):
        raise RuleError([FieldError("game.bock", msg(gettext_noop("Must be a whole number.")))])
    result = calculate(
        data["variant"],
        game_from_data(game),
        scheme=data.get("scheme"),
        rules=data.get("rules") or {},
        players=data.get("players"),
        declarer=data.get("declarer", 0),
        dealer=data.get("dealer"),
        bock=bock,
    )
    return ScoredGame(result, [render(step) for step in result.breakdown])


def error_tree(error: RuleError) -> dict[str, Any]:
    """Field errors as nested objects ({"game": {"matadors": ["…"]}}), the shape DRF uses for its own errors."""
    tree: dict[str, Any] = {}
    for problem in error.errors:
        *parents, leaf = problem.field.split(".")
        node = tree
        for part in parents:
            child = node.setdefault(part, {})
            if isinstance(child, list):
                child = node[part] = {"non_field_errors": child}
            node = child
        existing = node.setdefault(leaf, [])
        messages = existing.setdefault("non_field_errors", []) if isinstance(existing, dict) else existing
        messages.append(render(problem.message))
    return tree
