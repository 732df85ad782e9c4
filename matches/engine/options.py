"""Rule options: their types, their meaning and the rule sets built from them.

A variant lists the options it has and its default for each (see ``variants.py``); a table may override them.
Every option is documented in ``docs/rules.md`` with its source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .errors import Problems
from .messages import Message, gettext_noop, msg

# What the opponent says to double a game, as the entry, the breakdown, the list and the options name it: Skat's word,
# unless a variant has its own (``VariantSpec.kontra``).
KONTRA = msg(gettext_noop("Kontra"))


class SchneiderRule(StrEnum):
    AT_MOST_30 = "30-or-fewer"
    UNDER_30 = "under-30"
    UNEVEN = "uneven"


class SchwarzRule(StrEnum):
    NO_TRICKS = "no-tricks"
    NO_CARD_POINTS = "no-card-points"


class MatadorRule(StrEnum):
    JACKS = "jacks"
    EXTENDED = "extended"


class LevelRule(StrEnum):
    DOUBLING = "doubling"
    ISKO = "isko"


class RamschLoss(StrEnum):
    CARD_POINTS = "card-points"
    FIXED = "fixed"


class RamschTies(StrEnum):
    EACH_FULL = "each-full"
    SHARED = "shared"


class Settlement(StrEnum):
    POT = "pot"
    ZERO_SUM = "zero-sum"


class LostHand(StrEnum):
    DOUBLE = "double"
    SINGLE = "single"


@dataclass(frozen=True)
class Rules:
    """The options in force at a table. Options a variant does not have keep these neutral values."""

    kontra_re: bool = False
    bock: bool = False
    bock_on_draw: bool = True
    bock_on_kontra: bool = True
    bock_on_grand_hand: bool = True
    ramsch: bool = False
    ramsch_jungfrau: bool = False
    ramsch_durchmarsch: bool = False
    ramsch_schieben: bool = False
    ramsch_loss: RamschLoss = RamschLoss.CARD_POINTS
    ramsch_fixed_loss: int = 10
    ramsch_ties: RamschTies = RamschTies.EACH_FULL
    lost_hand: LostHand = LostHand.DOUBLE
    null: bool = True
    matadors: MatadorRule = MatadorRule.EXTENDED
    levels: LevelRule = LevelRule.ISKO
    schneider: SchneiderRule = SchneiderRule.AT_MOST_30
    schwarz: SchwarzRule = SchwarzRule.NO_TRICKS
    laufende: bool = False
    stake: int = 1
    settlement: Settlement = Settlement.ZERO_SUM

    def as_dict(self) -> dict[str, bool | int | str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


RULE_FIELDS = frozenset(f.name for f in fields(Rules))


@dataclass(frozen=True)
class OptionSpec:
    """What one option is: its type, its allowed values, a label and a sentence that explains it.

    A match stores its complete rule set; a rule set stored before an option existed is read with the option's
    default. So a new option's default is always what the engine scored before it: stored matches never change.
    An option about Kontra names it by its ``{kontra}`` parameter, Skat's word until a variant words it
    (``worded``).
    """

    name: str
    label: Message
    help: Message
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    is_int: bool = False

    def worded(self, kontra: Message) -> OptionSpec:
        """This option as a variant words it: its label and help naming the opponent's doubling ``kontra``, the
        variant's word for it (``VariantSpec.kontra``)."""
        return replace(self, label=_with_kontra(self.label, kontra), help=_with_kontra(self.help, kontra))

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        return "int" if self.is_int else "bool"

    def parse(
        self, value: object, problems: Problems, choices: tuple[str, ...] | None = None
    ) -> bool | int | str | None:
        """Check one value from a request, against ``choices`` where a variant offers only some of the option's
        values; report and return None when it is not allowed."""
        field = f"rules.{self.name}"
        allowed = self.choices if choices is None else choices
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            problems.add(field, msg(gettext_noop("Must be true or false.")))
            return None
        if self.kind == "choice":
            if isinstance(value, str) and value in allowed:
                return value
            problems.add(field, msg(gettext_noop("Must be one of: {choices}."), choices=", ".join(allowed)))
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            problems.add(field, msg(gettext_noop("Must be a whole number.")))
            return None
        if self.minimum is not None and value < self.minimum:
            problems.add(field, msg(gettext_noop("Must be at least {minimum}."), minimum=self.minimum))
            return None
        if self.maximum is not None and value > self.maximum:
            problems.add(field, msg(gettext_noop("Must be at most {maximum}."), maximum=self.maximum))
            return None
        return value


def _with_kontra(message: Message, kontra: Message) -> Message:
    if "kontra" not in message.params:
        return message
    return replace(message, params={**message.params, "kontra": kontra})


def _choices(enum: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


OPTIONS: dict[str, OptionSpec] = {
    spec.name: spec
    for spec in (
        OptionSpec(
            "kontra_re",
            msg(gettext_noop("{kontra} and Re"), kontra=KONTRA),
            msg(
                gettext_noop(
                    "The opponents may double the game ({kontra}, ×2); the declarer may double again (Re, ×4)."
                ),
                kontra=KONTRA,
            ),
        ),
        OptionSpec(
            "bock",
            msg(gettext_noop("Bock rounds")),
            msg(gettext_noop("Games in a Bock round count double; overlapping Bock rounds double again.")),
        ),
        OptionSpec(
            "bock_on_draw",
            msg(gettext_noop("Bock after 60:60")),
            msg(gettext_noop("A game that ends 60:60 starts a Bock round.")),
        ),
        OptionSpec(
            "bock_on_kontra",
            msg(gettext_noop("Bock after {kontra}"), kontra=KONTRA),
            msg(gettext_noop("A game with {kontra} starts a Bock round."), kontra=KONTRA),
        ),
        OptionSpec(
            "bock_on_grand_hand",
            msg(gettext_noop("Bock after a grand hand")),
            msg(gettext_noop("A grand hand starts a Bock round.")),
        ),
        OptionSpec(
            "ramsch",
            msg(gettext_noop("Ramsch")),
            msg(gettext_noop("When everybody passes, a Ramsch is played instead of a new deal.")),
        ),
        OptionSpec(
            "ramsch_jungfrau",
            msg(gettext_noop("Jungfrau")),
            msg(gettext_noop("In a Ramsch, each player who took no trick doubles the loser's score.")),
        ),
        OptionSpec(
            "ramsch_durchmarsch",
            msg(gettext_noop("Durchmarsch")),
            msg(gettext_noop("In a Ramsch, a player who takes every trick scores +120.")),
        ),
        OptionSpec(
            "ramsch_schieben",
            msg(gettext_noop("Schieberamsch")),
            msg(gettext_noop("In a Ramsch, each player may push the skat on; every push doubles the score.")),
        ),
        OptionSpec(
            "ramsch_loss",
            msg(gettext_noop("Ramsch loss")),
            msg(gettext_noop("The loser of a Ramsch loses his card points, or a fixed amount.")),
            choices=_choices(RamschLoss),
        ),
        OptionSpec(
            "ramsch_fixed_loss",
            msg(gettext_noop("Fixed Ramsch loss")),
            msg(gettext_noop("What the loser of a Ramsch loses when the loss is fixed.")),
            minimum=1,
            maximum=1000,
            is_int=True,
        ),
        OptionSpec(
            "ramsch_ties",
            msg(gettext_noop("Ramsch ties")),
            msg(
                gettext_noop(
                    "When players tie for the most card points in a Ramsch, each of them loses the whole amount, "
                    "or they share it: each loses his share, rounded up to a whole point."
                )
            ),
            choices=_choices(RamschTies),
        ),
        OptionSpec(
            "lost_hand",
            msg(gettext_noop("Lost hand games")),
            msg(gettext_noop("A lost hand game costs twice its value (ISkO since 1999) or once (older rules).")),
            choices=_choices(LostHand),
        ),
        OptionSpec(
            "null",
            msg(gettext_noop("Null games")),
            msg(gettext_noop("The declarer may play null: win by taking no trick.")),
        ),
        OptionSpec(
            "matadors",
            msg(gettext_noop("Matadors")),
            msg(gettext_noop("Count only the jacks (1-4) or the whole run of top trumps as in Skat (up to 11).")),
            choices=_choices(MatadorRule),
        ),
        OptionSpec(
            "levels",
            msg(gettext_noop("Schneider and Schwarz")),
            msg(gettext_noop("Double (Schneider) and quadruple (Schwarz) the value, or add levels as in Skat.")),
            choices=_choices(LevelRule),
        ),
        OptionSpec(
            "schneider",
            msg(gettext_noop("Schneider threshold")),
            msg(
                gettext_noop(
                    "The loser is Schneider with 30 card points or fewer, or only under 30. Schafkopf's uneven "
                    "tariff: the declarer is Schneider with 30 or fewer, his opponent only under 30, so the declarer "
                    "needs 91 card points for Schneider and the opponent 90."
                )
            ),
            choices=_choices(SchneiderRule),
        ),
        OptionSpec(
            "schwarz",
            msg(gettext_noop("Schwarz")),
            msg(gettext_noop("A party is Schwarz when it took no trick, or when it took no card points.")),
            choices=_choices(SchwarzRule),
        ),
        OptionSpec(
            "laufende",
            msg(gettext_noop("Laufende")),
            msg(gettext_noop("Each Laufender adds a unit: from 3 in a solo, from 2 in a Wenz.")),
        ),
        OptionSpec(
            "settlement",
            msg(gettext_noop("Settlement")),
            msg(
                gettext_noop(
                    "Pot: both players pay into a pot before play and the winner takes what he won from it; the "
                    "loser writes nothing. Zero-sum: the loser pays the winner what he won."
                )
            ),
            choices=_choices(Settlement),
        ),
        OptionSpec(
            "stake",
            msg(gettext_noop("Stake")),
            msg(gettext_noop("The agreed unit, e.g. 10 for ten cents: a simple win is one unit.")),
            minimum=1,
            maximum=10000,
            is_int=True,
        ),
    )
}


# However many unknown names a request sends, the answer names only the first few: its size stays bounded.
NAMED_UNKNOWN = 3


def build_rules(
    defaults: Mapping[str, bool | int | str],
    overrides: Mapping[str, object],
    problems: Problems,
    choices: Mapping[str, tuple[str, ...]] | None = None,
) -> Rules:
    """The rule set from a variant's defaults and a table's overrides, each value among the variant's ``choices``
    where it offers only some of an option's values; unknown or bad options are reported."""
    values: dict[str, object] = dict(defaults)
    unknown = [name for name in overrides if name not in defaults]
    for name in unknown[:NAMED_UNKNOWN]:
        problems.add(f"rules.{name}", msg(gettext_noop("This variant has no option “{name}”."), name=name))
    if len(unknown) > NAMED_UNKNOWN:
        more = len(unknown) - NAMED_UNKNOWN
        problems.add("rules", msg(gettext_noop("… and {count} more unknown options."), count=more))
    for name, value in overrides.items():
        if name not in defaults:
            continue
        parsed = OPTIONS[name].parse(value, problems, (choices or {}).get(name))
        if parsed is not None:
            values[name] = parsed
    return _rules_from(values)


def _rules_from(values: Mapping[str, object]) -> Rules:
    enums: dict[str, type[StrEnum]] = {
        "ramsch_loss": RamschLoss,
        "ramsch_ties": RamschTies,
        "lost_hand": LostHand,
        "matadors": MatadorRule,
        "levels": LevelRule,
        "schneider": SchneiderRule,
        "schwarz": SchwarzRule,
        "settlement": Settlement,
    }
    converted: dict[str, Any] = {
        name: enums[name](str(value)) if name in enums else value for name, value in values.items()
    }
    return replace(Rules(), **converted)
