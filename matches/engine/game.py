"""What the table enters for one game, and what the engine makes of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .messages import Message


class Schwarz(StrEnum):
    """Which party was schwarz: took no trick at all."""

    OPPONENTS = "opponents"
    DECLARER = "declarer"


class Announcement(StrEnum):
    SCHNEIDER = "schneider"
    SCHWARZ = "schwarz"


@dataclass(frozen=True)
class RamschEntry:
    """A Ramsch as entered: card points per seat, the seats that took no trick, how often the skat was pushed."""

    card_points: tuple[int, ...]
    jungfrau: tuple[int, ...] = ()
    pushes: int = 0
    durchmarsch: int | None = None


@dataclass(frozen=True)
class GameEntry:
    """One game exactly as the players entered it; every field is raw input, nothing is derived.

    ``matadors`` is signed: +n for "with n", -n for "without n". ``declarer_card_points`` includes the skat.
    """

    contract: str
    matadors: int | None = None
    declarer_card_points: int | None = None
    schwarz: str | None = None
    hand: bool = False
    ouvert: bool = False
    announced: str | None = None
    won: bool | None = None
    bid: int | None = None
    kontra: bool = False
    re: bool = False
    conceded: bool = False
    bock: int = 0
    ramsch: RamschEntry | None = None


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
