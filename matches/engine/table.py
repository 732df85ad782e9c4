"""Who deals, who leads and who sits out, game by game: the seats move on clockwise after every deal."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seating:
    """One deal's seats: the dealer, the players in the order they speak (forehand first), and who sits out."""

    dealer: int
    playing: tuple[int, ...]
    sitting_out: int | None

    @property
    def forehand(self) -> int:
        return self.playing[0]


def seating(players: int, first_dealer: int, deal: int) -> Seating:
    """The seats of deal number ``deal`` (from 1) when ``first_dealer`` dealt the first one.

    Forehand sits left of the dealer (the next seat). With three players the dealer is rearhand; with four he sits
    out and the other three play; with two the non-dealer is forehand.
    """
    if players < 2:
        raise ValueError("a table has at least two seats")
    if deal < 1:
        raise ValueError("deals are numbered from 1")
    dealer = (first_dealer + deal - 1) % players
    following = tuple((dealer + step) % players for step in range(1, players))
    if players == 4:
        return Seating(dealer=dealer, playing=following, sitting_out=dealer)
    return Seating(dealer=dealer, playing=(*following, dealer), sitting_out=None)
