"""Where the players sit for one game, and what the engine makes of the game."""

from __future__ import annotations

from dataclasses import dataclass, field

from .messages import Message


@dataclass(frozen=True)
class Table:
    """Who sits where: the number of seats, the declarer's seat and, with four players, the dealer who sits out."""

    players: int
    declarer: int = 0
    dealer: int | None = None


@dataclass(frozen=True)
class Result:
    """A scored game: what each seat writes on the list, and the steps that led there.

    ``won`` is the declarer's result (None for Ramsch and for a drawn game); ``game_value`` is the value of the game
    with every multiplier, before a lost game is doubled.
    """

    won: bool | None
    game_value: int
    scores: tuple[int, ...]
    schneider: bool = False
    schwarz: bool = False
    overbid: bool = False
    breakdown: tuple[Message, ...] = field(default_factory=tuple)
