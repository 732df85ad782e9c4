"""Plausible deals for the demo data and the benchmark.

A ``DealMaker`` draws the games a table might enter from a seeded ``random.Random``: the same seed gives the same
games, which is what lets ``manage.py demo`` answer its own retried tokens and the benchmark seed the same matches
every run. Every deal it hands out has been scored by the engine's calculator at the seat it is meant for, so the
services never refuse it, and a mistake here shows up where the deal is drawn, not as a refused write later.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from matches.engine import (
    Contract,
    FieldError,
    MatchSetup,
    Result,
    RuleError,
    Scheme,
    Seating,
    calculate,
    game_from_data,
)
from matches.engine.cards import POSSIBLE_CARD_POINTS, POSSIBLE_SKAT_POINTS
from matches.engine.messages import gettext_noop, msg
from matches.engine.options import MatadorRule, SchwarzRule
from matches.engine.skat import LEGAL_GAME_VALUES
from matches.engine.variants import Family
from matches.services import Submission

# How often a table plays each contract, roughly as Skat lists show it; a variant draws from those it offers.
CONTRACT_WEIGHTS: dict[Contract, int] = {
    Contract.DIAMONDS: 10,
    Contract.HEARTS: 12,
    Contract.SPADES: 14,
    Contract.CLUBS: 18,
    Contract.GRAND: 22,
    Contract.NULL: 8,
    Contract.WENZ: 18,
    Contract.DIAMONDS_WENZ: 6,
}
MOST_IN_SKAT = 22  # two aces: what a declarer without a trick can hold from the skat


@dataclass
class DealMaker:
    """Draws deals for one match; ``pass_rate`` and ``ramsch_rate`` are the shares of deals that nobody plays (where
    the rules let a deal be passed) and that become a Ramsch (where the rules have it)."""

    setup: MatchSetup
    rng: random.Random
    pass_rate: float = 0.05
    ramsch_rate: float = 0.12

    def deal(self, number: int) -> Submission:
        """A deal to enter as deal ``number`` of the match."""
        submission = self._draw(self.setup.seating(number))
        check_deal(self.setup, number, submission)
        return submission

    def fix(self, number: int, wrong: Submission) -> Submission:
        """What a table corrects deal ``number`` to: mostly the declarer's card points, mistyped; where that is no
        playable game (or the deal had no card points), another game altogether. Always different from ``wrong``."""
        points = None if wrong.entry is None else wrong.entry.get("declarer_card_points")
        if wrong.entry is not None and isinstance(points, int):
            corrected = self._possible(max(0, min(120, points + self.rng.choice((-10, -5, -2, 2, 5, 10)))))
            entry = {key: value for key, value in wrong.entry.items() if key != "schwarz"}
            fixed = Submission(declarer=wrong.declarer, entry={**entry, "declarer_card_points": corrected})
            try:
                check_deal(self.setup, number, fixed)
            except RuleError:
                pass
            else:
                if fixed != wrong:
                    return fixed
        while True:
            fixed = self.deal(number)
            if fixed != wrong:
                return fixed

    # --- Drawing ---------------------------------------------------------------------------------------------------

    def _draw(self, seats: Seating) -> Submission:
        spec, rules = self.setup.spec, self.setup.rules
        roll = self.rng.random()
        if self.setup.can_pass and roll < self.pass_rate:
            return Submission(passed=True)
        if rules.ramsch and roll < self.ramsch_rate:
            return Submission(entry=self._ramsch(seats))
        # In the two-player games without an auction forehand chooses the game; elsewhere the auction decides.
        declarer = seats.forehand if spec.forehand_declares and not spec.bidding else self.rng.choice(seats.playing)
        contract = self._contract()
        if spec.family is Family.LIEUTENANT:
            entry: dict[str, Any] = {"contract": contract.value, "declarer_card_points": self._card_points()}
        elif spec.family is Family.SCHAFKOPF:
            entry = self._schafkopf(contract)
        elif contract is Contract.NULL:
            entry = self._null()
        else:
            entry = self._point_game(contract)
        self._doubling(entry)
        if spec.bidding and self.rng.random() < 0.35:
            self._bid(entry, seats, declarer)
        return Submission(declarer=declarer, entry=entry)

    def _contract(self) -> Contract:
        rules, scheme = self.setup.rules, self.setup.scheme
        offered = [
            contract
            for contract in self.setup.spec.contracts
            if contract is not Contract.RAMSCH
            and not (contract is Contract.NULL and (not rules.null or scheme is Scheme.CARD_POINTS))
        ]
        return self.rng.choices(offered, weights=[CONTRACT_WEIGHTS[contract] for contract in offered])[0]

    def _card_points(self) -> int:
        """The declarer's card points: mostly a plain win, some losses, now and then 60:60, Schneider or all 120."""
        roll = self.rng.random()
        if roll < 0.05:
            return 60
        if roll < 0.07:
            return 120
        if roll < 0.11:
            return self._possible(self.rng.randint(0, 30))
        if roll < 0.34:
            return self.rng.randint(31, 59)
        if roll < 0.48:
            return self._possible(self.rng.randint(90, 119))
        return self.rng.randint(61, 89)

    @staticmethod
    def _possible(points: int) -> int:
        """The nearest total a deal can give (no card is worth 1, so 1 and 119 cannot happen)."""
        return points if points in POSSIBLE_CARD_POINTS else points + (1 if points < 60 else -1)

    def _point_game(self, contract: Contract) -> dict[str, Any]:
        """A suit or grand game of the Skat and Officers' families."""
        spec = self.setup.spec
        entry: dict[str, Any] = {"contract": contract.value}
        # Matadors are what the standard schemes count; tables scoring a simplified scheme do not write them down.
        if self.setup.scheme is Scheme.STANDARD or self.setup.scheme is Scheme.SEEGER_FABIAN:
            entry["matadors"] = self._matadors(contract)
        if spec.bidding and self.rng.random() < 0.015:
            entry["conceded"] = True
            return entry
        points = self._card_points()
        entry["declarer_card_points"] = points
        schwarz = self._schwarz(points, most_without_trick=MOST_IN_SKAT if spec.skat_cards else 0)
        if schwarz:
            entry["schwarz"] = schwarz
        if spec.bidding and self.rng.random() < 0.12:
            entry["hand"] = True
            if schwarz == "opponents" and self.rng.random() < 0.3:
                entry["ouvert"] = True
            elif points >= 90 and self.rng.random() < 0.3:
                entry["announced"] = "schneider"
        return entry

    def _matadors(self, contract: Contract) -> int:
        most = 4 if contract is Contract.GRAND or self.setup.rules.matadors is MatadorRule.JACKS else 11
        count = min(most, self.rng.choices((1, 2, 3, 4, 5, 6), weights=(40, 26, 16, 10, 5, 3))[0])
        return count if self.rng.random() < 0.6 else -count

    def _schwarz(self, points: int, *, most_without_trick: int) -> str | None:
        """Who took no trick, where the rules count tricks (with card points alone it follows from the points)."""
        if self.setup.rules.schwarz is not SchwarzRule.NO_TRICKS:
            return None
        if points == 120 and self.rng.random() < 0.6:
            return "opponents"
        holds_only_the_skat = points in POSSIBLE_SKAT_POINTS if most_without_trick else points == 0
        if points <= most_without_trick and holds_only_the_skat and self.rng.random() < 0.3:
            return "declarer"
        return None

    def _null(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"contract": Contract.NULL.value, "won": self.rng.random() < 0.7}
        if self.setup.spec.bidding:
            if self.rng.random() < 0.25:
                entry["hand"] = True
            if self.rng.random() < 0.15:
                entry["ouvert"] = True
        return entry

    def _schafkopf(self, contract: Contract) -> dict[str, Any]:
        points = self._card_points()
        entry: dict[str, Any] = {"contract": contract.value, "declarer_card_points": points}
        schwarz = self._schwarz(points, most_without_trick=0)
        if schwarz:
            entry["schwarz"] = schwarz
        if self.setup.rules.laufende and self.rng.random() < 0.35:
            runs = (2, 3, 4) if contract is Contract.WENZ else (3, 4, 5, 6)
            count = self.rng.choice(runs)
            entry["matadors"] = count if self.rng.random() < 0.6 else -count
        return entry

    def _doubling(self, entry: dict[str, Any]) -> None:
        if self.setup.rules.kontra_re and self.rng.random() < 0.08:
            entry["kontra"] = True
            if self.rng.random() < 0.3:
                entry["re"] = True

    def _bid(self, entry: dict[str, Any], seats: Seating, declarer: int) -> None:
        """The bid the auction stopped at: close below the game's value, now and then above it (an overbid game)."""
        undoubled = {key: value for key, value in entry.items() if key not in ("kontra", "re")}
        value = self._score(undoubled, seats, declarer).game_value
        reachable = sorted(bid for bid in LEGAL_GAME_VALUES if bid <= value)
        if entry["contract"] != Contract.NULL.value and self.rng.random() < 0.05:
            entry["bid"] = min(bid for bid in LEGAL_GAME_VALUES if bid > value)
        elif reachable:
            entry["bid"] = self.rng.choice(reachable[-4:])

    def _ramsch(self, seats: Seating) -> dict[str, Any]:
        """Everybody passed: card points per seat (the dealer at four sits out with none), Jungfrau, Durchmarsch
        and pushes as the rules have them."""
        rules = self.setup.rules
        playing = list(seats.playing)
        points = [0] * self.setup.players
        ramsch: dict[str, Any] = {}
        if rules.ramsch_durchmarsch and self.rng.random() < 0.08:
            seat = self.rng.choice(playing)
            points[seat] = 120
            ramsch["durchmarsch"] = seat
        else:
            takers = list(playing)
            if rules.ramsch_jungfrau and len(playing) > 2 and self.rng.random() < 0.25:
                virgin = self.rng.choice(playing)
                takers.remove(virgin)
                ramsch["jungfrau"] = [virgin]
            shares: list[int] = []
            while not shares or any(share not in POSSIBLE_CARD_POINTS for share in shares):
                cuts = sorted(self.rng.sample(range(8, 113), len(takers) - 1))
                shares = [high - low for low, high in zip([0, *cuts], [*cuts, 120], strict=True)]
            for seat, share in zip(takers, shares, strict=True):
                points[seat] = share
        ramsch["card_points"] = points
        if rules.ramsch_schieben:
            pushes = self.rng.choices((0, 1, 2, 3), weights=(50, 30, 15, 5))[0]
            if pushes:
                ramsch["pushes"] = min(pushes, len(playing))
        return {"contract": Contract.RAMSCH.value, "ramsch": ramsch}

    def _score(self, entry: dict[str, Any], seats: Seating, declarer: int) -> Result:
        setup = self.setup
        return calculate(
            setup.spec.variant.value,
            game_from_data(entry),
            scheme=setup.scheme.value,
            rules=setup.stored_rules(),
            players=setup.players,
            declarer=declarer,
            dealer=seats.dealer,
        )


def check_deal(setup: MatchSetup, number: int, submission: Submission) -> None:
    """Raise ``RuleError`` if the rules would refuse ``submission`` as deal ``number`` of a match of ``setup`` (Bock
    aside: the calculator is asked without it)."""
    if submission.passed:
        if not setup.can_pass:
            raise RuleError(
                [FieldError("passed", msg(gettext_noop("Under these rules a passed deal is not possible.")))]
            )
        return
    seats = setup.seating(number)
    calculate(
        setup.spec.variant.value,
        game_from_data(submission.entry),
        scheme=setup.scheme.value,
        rules=setup.stored_rules(),
        players=setup.players,
        declarer=0 if submission.declarer is None else submission.declarer,
        dealer=seats.dealer,
    )
