"""What can be exported: a match's list, a player's statistics, a club night's table and a season's table."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from django.utils.translation import gettext as _

from matches.engine import Contract, Message, deal_from_data
from matches.engine.bock import bock_multiplier
from matches.engine.entry import OVERBID
from matches.labels import (
    contract_label,
    figure_cell,
    match_label,
    render_step,
    result_label,
    scheme_label,
    variant_label,
)
from matches.models import Match, Player, Seat
from matches.selectors import game_rows
from matches.stats import player_stats

from .base import Cell, Exporter

# The most wordings of results an export keeps at a time (a list of Ramsch games may have a new one every game).
KNOWN_RESULTS = 4096
# What Kontra and Re each multiply a game's value by.
KONTRA_RE_FACTOR = 2


class MatchExport(Exporter):
    """A match's list, one row per game: its number, who dealt and declared, the game and its value, how it went,
    the factors that doubled it (Kontra 2, headed in the variant's word for it, Re 2 more, Bock 2 for a Bock game, 4
    for a Doppelbock; empty where none did), and for each player the game's points and the running total."""

    def __init__(self, match: Match, seats: Sequence[Seat], deck: str) -> None:
        self.match = match
        self.names = [seat.player.name for seat in seats]
        self.deck = deck
        self.kontra = match.setup().spec.kontra

    @property
    def filename(self) -> str:
        return match_label(self.match)

    def headers(self) -> list[str]:
        # Each column's name is unique (JSON keys on them): the fixed ones have no colon, the players' names differ.
        players = [
            header
            for name in self.names
            for header in (_("%(name)s: points") % {"name": name}, _("%(name)s: total") % {"name": name})
        ]
        return [
            _("No."),
            _("Dealer"),
            _("Declarer"),
            _("Contract"),
            _("Value"),
            _("Result"),
            render_step(self.kontra),
            _("Re"),
            _("Bock"),
            *players,
        ]

    def rows(self) -> Iterator[Sequence[Cell]]:
        setup = self.match.setup()
        passed = _("all passed")
        contracts: dict[str | None, str] = {}
        totals = [0] * len(self.names)
        results: dict[tuple[Any, ...], str] = {}
        for number, was_passed, declarer, entry, version, won, value, bock, points, steps in game_rows(self.match):
            contract = entry.get("contract") if entry else None
            if contract not in contracts:
                contracts[contract] = contract_label(contract, self.deck)
            scores = points or [0] * len(totals)
            cells: list[Cell] = []
            for seat, score in enumerate(scores):
                totals[seat] += score
                cells += [score, totals[seat]]
            seating = setup.seating(number)
            result = (
                passed
                if was_passed
                else self._result(declarer, seating.sitting_out, entry, version, won, scores, steps, results)
            )
            yield [
                number,
                self.names[seating.dealer],
                "" if declarer is None else self.names[declarer],
                contracts[contract],
                value or None,
                result,
                KONTRA_RE_FACTOR if entry and entry.get("kontra") else None,
                KONTRA_RE_FACTOR if entry and entry.get("re") else None,
                bock_multiplier(bock) if bock else None,
                *cells,
            ]

    def _result(
        self,
        declarer: int | None,
        sitting_out: int | None,
        entry: dict[str, Any],
        version: int,
        won: bool | None,
        scores: list[int],
        steps: list[dict[str, Any]],
        known: dict[tuple[Any, ...], str],
    ) -> str:
        """How the game went, in the words of the match page's list. Games entered alike read alike: each wording is
        made once and looked up after (a list of 100,000 games has a few hundred), which keeps a long export as cheap
        as the csv module writing the same rows. Only a Ramsch's words depend on the scores (who lost it) and on the
        seat that sat the deal out (its card points are none), and only a lost game's on its breakdown (overbid)."""
        overbid = won is False and any(step.get("template") == OVERBID for step in steps)
        ramsch = (tuple(scores), sitting_out) if entry.get("contract") == Contract.RAMSCH else None
        key = (declarer, repr(entry), version, won, overbid, ramsch)
        if key not in known:
            if len(known) >= KNOWN_RESULTS:
                known.clear()
            game = deal_from_data(passed=False, declarer=declarer, entry=entry, version=version).game
            breakdown = [Message.from_data(step) for step in steps]
            known[key] = (
                ""
                if game is None
                else result_label(
                    game,
                    won=won,
                    scores=scores,
                    names=self.names,
                    breakdown=breakdown,
                    kontra=self.kontra,
                    sitting_out=sitting_out,
                    deck=self.deck,
                )
            )
        return known[key]


class PlayerStatsExport(Exporter):
    """A player's lifetime record, one row per variant and scheme."""

    def __init__(self, player: Player) -> None:
        self.player = player

    @property
    def filename(self) -> str:
        return self.player.name

    def headers(self) -> list[str]:
        return [_("Variant"), _("Scoring"), _("Points"), _("Games"), _("Declared"), _("Won"), _("Lost"), _("Average")]

    def rows(self) -> Iterator[Sequence[Cell]]:
        for row in player_stats(self.player):
            yield [
                variant_label(row.variant),
                scheme_label(row.scheme),
                row.total,
                row.games,
                row.declared,
                row.won,
                row.lost,
                figure_cell(row.average),
            ]


def season_sheet(name: str) -> str:
    """A season's sheet name: its own name, with the word "Season" before a name that has no word of its own (a
    season named "2026" or "2026/27")."""
    if any(character.isalpha() for character in name):
        return name
    return _("Season %(name)s") % {"name": name}


class StandingsExport(Exporter):
    """A table of standings (a club night's or a season's) in the columns and rows the club app lays out for every
    way it is shown. ``name`` names the download, ``sheet`` the table in it."""

    def __init__(self, name: str, headers: Sequence[str], rows: Sequence[Sequence[Cell]], *, sheet: str) -> None:
        self.name = name
        self.columns = list(headers)
        self.cells = rows
        self.sheet_title = sheet

    @property
    def filename(self) -> str:
        return self.name

    @property
    def sheet(self) -> str:
        return self.sheet_title

    def headers(self) -> list[str]:
        return self.columns

    def rows(self) -> Iterator[Sequence[Cell]]:
        return iter(self.cells)
