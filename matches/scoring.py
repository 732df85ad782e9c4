"""From requests to the engine: plain data in, a scored game with its reasons in the reader's language out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from .engine import GameEntry, Message, RamschEntry, Result, RuleError, calculate


@dataclass(frozen=True)
class ScoredGame:
    result: Result
    breakdown: list[str]


def render(message: Message) -> str:
    """A message of the engine in the active language."""
    return message.render(gettext)


def game_entry(data: Mapping[str, Any]) -> GameEntry:
    """Build the engine's game from validated request data (keys as in the API)."""
    fields = dict(data)
    ramsch = fields.pop("ramsch", None)
    entry = None
    if ramsch is not None:
        entry = RamschEntry(
            card_points=tuple(ramsch["card_points"]),
            jungfrau=tuple(ramsch.get("jungfrau") or ()),
            pushes=ramsch.get("pushes") or 0,
            durchmarsch=ramsch.get("durchmarsch"),
        )
    return GameEntry(**fields, ramsch=entry)


def score_game(data: Mapping[str, Any]) -> ScoredGame:
    """Score one game described as in the calculator API. Raises ``RuleError`` for input the rules reject."""
    result = calculate(
        data["variant"],
        game_entry(data["game"]),
        scheme=data.get("scheme"),
        rules=data.get("rules") or {},
        players=data.get("players"),
        declarer=data.get("declarer", 0),
        dealer=data.get("dealer"),
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
        messages = existing["non_field_errors"] if isinstance(existing, dict) else existing
        if isinstance(existing, dict):
            existing.setdefault("non_field_errors", messages)
        messages.append(render(problem.message))
    return tree
