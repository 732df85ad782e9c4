"""One entry point for every variant: check the table, build the rules, hand the game to its family's scorer."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .common import Context
from .entry import BY_VALUE, GameEntry
from .errors import Problems, RuleError
from .game import Result, Table
from .lieutenant import score_lieutenant
from .messages import gettext_noop, msg
from .officers import score_officers
from .options import Rules, build_rules
from .schafkopf import score_schafkopf
from .skat import score_skat
from .values import score_by_value
from .variants import Family, read_scheme, read_variant

SCORERS: dict[Family, Callable[[Context, GameEntry], Result]] = {
    Family.SKAT: score_skat,
    Family.OFFICERS: score_officers,
    Family.LIEUTENANT: score_lieutenant,
    Family.SCHAFKOPF: score_schafkopf,
}


def calculate(
    variant: str,
    game: GameEntry,
    *,
    scheme: str | None = None,
    rules: Mapping[str, object] | None = None,
    players: int | None = None,
    declarer: int = 0,
    dealer: int | None = None,
    bock: int = 0,
) -> Result:
    """Score one game.

    ``rules`` overrides the variant's default options; ``players`` defaults to the variant's usual table; ``bock``
    counts the Bock rounds in force. Raises ``RuleError`` naming every field that cannot be scored.
    """
    problems = Problems()
    spec = read_variant(variant, problems)
    chosen = read_scheme(spec, scheme, problems)
    rule_set = build_rules(spec.options, rules or {}, problems, spec.choices)
    seats = spec.default_players if players is None else players
    if seats not in spec.players:
        problems.add(
            "players",
            msg(gettext_noop("Must be one of: {choices}."), choices=", ".join(map(str, spec.players))),
        )
    else:
        for field, seat in (("declarer", declarer), ("dealer", dealer)):
            if seat is not None and not 0 <= seat < seats:
                problems.add(field, msg(gettext_noop("Must be a seat from 0 to {last}."), last=seats - 1))
    if any(not error.field.startswith("rules.") for error in problems.errors):
        problems.raise_if_any()
    assert chosen is not None
    context = Context(spec, chosen, rule_set, Table(seats, declarer, dealer), bock)
    try:
        result = score_in_context(context, game)
    except RuleError as error:
        problems.extend(error.errors)
    problems.raise_if_any()
    return result


def score_in_context(ctx: Context, game: GameEntry) -> Result:
    """Score one game at a table whose variant, scheme, rules and seats are already checked."""
    if game.contract == BY_VALUE:
        return score_by_value(ctx, game)
    return SCORERS[ctx.spec.family](ctx, game)


def rules_for(variant: str, overrides: Mapping[str, object]) -> Rules:
    """The rule set of ``variant`` with ``overrides`` applied; raises ``RuleError`` for options it does not have."""
    problems = Problems()
    spec = read_variant(variant, problems)
    rules = build_rules(spec.options, overrides, problems, spec.choices)
    problems.raise_if_any()
    return rules
