"""Bock rounds: a trigger makes the next round of deals count double; rounds that overlap double again."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import DRAW_POINTS, Contract
from .entry import GameEntry, Outcome
from .options import Rules


def triggers_bock(rules: Rules, game: GameEntry | None) -> bool:
    """Whether this game starts a Bock round under the table's triggers."""
    if not rules.bock or game is None:
        return False
    drawn = game.declarer_card_points == DRAW_POINTS or game.outcome == Outcome.DRAW
    if rules.bock_on_draw and drawn and game.contract != Contract.RAMSCH:
        return True
    if rules.bock_on_kontra and game.kontra:
        return True
    return rules.bock_on_grand_hand and game.contract == Contract.GRAND and game.hand


def bock_multiplier(rounds: int) -> int:
    """What a game's value is multiplied by with ``rounds`` Bock rounds in force: ×2 for a Bock game, ×4 for a
    Doppelbock, doubling again per round. What the pages and the files show of a game's Bock."""
    return int(2**rounds)


def bock_counts(rules: Rules, games: Sequence[GameEntry | None], round_length: int) -> list[int]:
    """How many Bock rounds are in force for each deal in order (a passed deal is None and counts as a deal).

    A trigger makes the next ``round_length`` deals (one per seat) count double; every further trigger adds its
    own round, so overlapping rounds count ×4, ×8, ….
    """
    counts = [0] * len(games)
    for index, game in enumerate(games):
        if triggers_bock(rules, game):
            for later in range(index + 1, min(index + 1 + round_length, len(games))):
                counts[later] += 1
    return counts


def bock_ahead(rules: Rules, recent: Sequence[GameEntry | None], round_length: int) -> list[int]:
    """The Bock counts of the next ``round_length`` deals after ``recent`` (oldest first; only the last
    ``round_length`` deals can still reach ahead): the first is the next deal's, and the deals with a count above
    zero are the Bock games still to come."""
    window = list(recent)[-round_length:]
    ahead = bock_counts(rules, [*window, *([None] * round_length)], round_length)
    return ahead[len(window) :]
