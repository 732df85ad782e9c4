"""The cards: suits, contracts, base values and card points shared by every variant."""

from __future__ import annotations

from enum import StrEnum
from itertools import combinations

from .messages import Message, gettext_noop, msg

CARD_POINTS_TOTAL = 120
WINNING_POINTS = 61
DRAW_POINTS = 60  # 60:60: the declarer has not won, and some tables count it apart


class Contract(StrEnum):
    """Every contract in every variant. Suits carry their French names; German decks name them differently."""

    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    CLUBS = "clubs"
    GRAND = "grand"
    NULL = "null"
    RAMSCH = "ramsch"
    WENZ = "wenz"
    DIAMONDS_WENZ = "diamonds-wenz"

    @property
    def label(self) -> Message:
        return CONTRACT_LABELS[self]


SUITS = (Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES, Contract.CLUBS)

DIAMONDS_LABEL = msg(gettext_noop("diamonds"))

CONTRACT_LABELS: dict[Contract, Message] = {
    Contract.DIAMONDS: DIAMONDS_LABEL,
    Contract.HEARTS: msg(gettext_noop("hearts")),
    Contract.SPADES: msg(gettext_noop("spades")),
    Contract.CLUBS: msg(gettext_noop("clubs")),
    Contract.GRAND: msg(gettext_noop("grand")),
    Contract.NULL: msg(gettext_noop("null")),
    Contract.RAMSCH: msg(gettext_noop("Ramsch")),
    Contract.WENZ: msg(gettext_noop("Wenz")),
    # The Bell Wenz of a German deck: the Unters and the bells are trumps.
    Contract.DIAMONDS_WENZ: msg(gettext_noop("{suit} Wenz"), suit=DIAMONDS_LABEL),
}

# ISkO: diamonds/bells 9, hearts 10, spades/leaves 11, clubs/acorns 12, grand 24.
BASE_VALUES: dict[Contract, int] = {
    Contract.DIAMONDS: 9,
    Contract.HEARTS: 10,
    Contract.SPADES: 11,
    Contract.CLUBS: 12,
    Contract.GRAND: 24,
}

# Matadors run from the club jack down the trumps: 4 jacks + 7 suit cards in a suit game, the 4 jacks in a grand.
MAX_MATADORS_SKAT: dict[Contract, int] = {suit: 11 for suit in SUITS} | {Contract.GRAND: 4}
MAX_MATADORS_JACKS_ONLY = 4

# Card points of one card, by rank: A 11, 10 10, K 4, Q/Ober 3, J/Unter 2, 9-8-7 nothing. Sum over the deck: 120.
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# The two skat cards count for the declarer: at most two aces.
MAX_SKAT_POINTS = 2 * CARD_POINTS["A"]

# The card points of all 32 cards, four of each rank.
DECK_POINTS = tuple(points for points in CARD_POINTS.values() for _ in range(4))


def _sums_of_any_cards() -> frozenset[int]:
    sums = {0}
    for points in DECK_POINTS:
        sums |= {total + points for total in sums}
    return frozenset(sums)


# What a party's tricks can hold: every total from 0 to 120 but 1 and 119, since no card is worth 1.
POSSIBLE_CARD_POINTS = _sums_of_any_cards()
# What two cards can hold (a declarer who took no trick has only the skat): 0, 2-8, 10-15, 20-22.
POSSIBLE_SKAT_POINTS = frozenset(first + second for first, second in combinations(DECK_POINTS, 2))
