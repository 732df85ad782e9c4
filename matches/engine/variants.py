"""The variants the scorekeeper knows: one registry, data rather than branches."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .cards import SUITS, Contract
from .errors import Problems
from .messages import Message, gettext_noop, msg
from .options import (
    KONTRA,
    OPTIONS,
    LevelRule,
    LostHand,
    MatadorRule,
    OptionSpec,
    RamschLoss,
    RamschTies,
    SchneiderRule,
    SchwarzRule,
    Settlement,
)


class Variant(StrEnum):
    SKAT = "skat"
    OFFICERS_SKAT = "officers-skat"
    ADMIRALS_SKAT = "admirals-skat"
    HARLEQUIN_SKAT = "harlequin-skat"
    LIEUTENANT_SKAT = "lieutenant-skat"
    OFFICERS_SCHAFKOPF = "officers-schafkopf"


class Scheme(StrEnum):
    STANDARD = "standard"
    SEEGER_FABIAN = "seeger-fabian"
    BASE_VALUE = "base-value"
    CARD_POINTS = "card-points"
    SIMPLE = "simple"


SCHEME_LABELS: dict[Scheme, Message] = {
    Scheme.STANDARD: msg(gettext_noop("Standard")),
    Scheme.SEEGER_FABIAN: msg(gettext_noop("Seeger-Fabian")),
    Scheme.BASE_VALUE: msg(gettext_noop("Base value")),
    Scheme.CARD_POINTS: msg(gettext_noop("Card points")),
    Scheme.SIMPLE: msg(gettext_noop("Simple (2/3/4)")),
}


class Family(StrEnum):
    """Variants of one family share a scorer."""

    SKAT = "skat"
    OFFICERS = "officers"
    LIEUTENANT = "lieutenant"
    SCHAFKOPF = "schafkopf"


@dataclass(frozen=True)
class VariantSpec:
    """One variant: who plays it, how it may be scored, which contracts and options it has, and their defaults.

    ``bidding``: hand games, announcements, ouvert, bids and conceding exist (there is a skat and an auction).
    ``skat_cards``: two cards lie aside and count for the declarer, so a declarer without a trick may hold points.
    ``choices``: the values the variant offers of an option that has more than it takes (e.g. a Schneider tariff
    that only one game has). ``kontra``: the variant's word for the opponent's doubling (``kontra`` in an entry),
    which its options say too (``option``).
    """

    variant: Variant
    label: Message
    family: Family
    players: tuple[int, ...]
    schemes: tuple[Scheme, ...]
    contracts: tuple[Contract, ...]
    options: dict[str, bool | int | str]
    bidding: bool = False
    skat_cards: bool = False
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kontra: Message = KONTRA

    def option(self, name: str) -> OptionSpec:
        """Option ``name`` as this variant words it: its label and help in the variant's word for Kontra."""
        return OPTIONS[name].worded(self.kontra)

    def option_choices(self, name: str) -> tuple[str, ...]:
        """The values this variant offers for option ``name``, in the option's own order (empty for an option that is
        not a choice)."""
        offered = self.choices.get(name, OPTIONS[name].choices)
        return tuple(choice for choice in OPTIONS[name].choices if choice in offered)

    @property
    def default_players(self) -> int:
        return self.players[0]

    @property
    def default_scheme(self) -> Scheme:
        return self.schemes[0]

    @property
    def forehand_declares(self) -> bool:
        """In the two-player games forehand chooses the game (Officers' and Schafkopf seeds); in Skat the auction
        decides."""
        return max(self.players) == 2


SKAT_CONTRACTS = (*SUITS, Contract.GRAND, Contract.NULL, Contract.RAMSCH)
OFFICERS_SCHEMES = (Scheme.STANDARD, Scheme.BASE_VALUE, Scheme.CARD_POINTS, Scheme.SIMPLE)

# The seed text of Officers' Skat: Kontra/Re belong to the game, null and Ramsch only by agreement, matadors are the
# jacks, Schneider and Schwarz double and quadruple, Schneider is "less than 30", Schwarz "no card points at all".
OFFICERS_OPTIONS: dict[str, bool | int | str] = {
    "kontra_re": True,
    "null": False,
    "ramsch": False,
    "matadors": MatadorRule.JACKS.value,
    "levels": LevelRule.DOUBLING.value,
    "schneider": SchneiderRule.UNDER_30.value,
    "schwarz": SchwarzRule.NO_CARD_POINTS.value,
}

# Schneider for the loser, declarer or not: "less than 30" (the Officers' seed, the Lieutenant table) or "30 or fewer"
# (the ISkO, the Lieutenant program). Only Officers' Schafkopf has Schafkopf's uneven tariff besides.
LOSER_SCHNEIDER: dict[str, tuple[str, ...]] = {
    "schneider": (SchneiderRule.UNDER_30.value, SchneiderRule.AT_MOST_30.value)
}

VARIANTS: dict[Variant, VariantSpec] = {
    spec.variant: spec
    for spec in (
        VariantSpec(
            Variant.SKAT,
            msg(gettext_noop("Skat")),
            Family.SKAT,
            players=(3, 4),
            schemes=(Scheme.STANDARD, Scheme.SEEGER_FABIAN),
            contracts=SKAT_CONTRACTS,
            options={
                "kontra_re": False,
                "bock": False,
                "bock_on_draw": True,
                "bock_on_kontra": True,
                "bock_on_grand_hand": True,
                "ramsch": False,
                "ramsch_jungfrau": True,
                "ramsch_durchmarsch": True,
                "ramsch_schieben": False,
                "ramsch_loss": RamschLoss.CARD_POINTS.value,
                "ramsch_fixed_loss": 10,
                "ramsch_ties": RamschTies.EACH_FULL.value,
                "lost_hand": LostHand.DOUBLE.value,
            },
            bidding=True,
            skat_cards=True,
        ),
        VariantSpec(
            Variant.OFFICERS_SKAT,
            msg(gettext_noop("Officers' Skat")),
            Family.OFFICERS,
            players=(2,),
            schemes=OFFICERS_SCHEMES,
            contracts=SKAT_CONTRACTS,
            options=dict(OFFICERS_OPTIONS),
            choices=LOSER_SCHNEIDER,
        ),
        VariantSpec(
            Variant.HARLEQUIN_SKAT,
            msg(gettext_noop("Harlequin Skat")),
            Family.OFFICERS,
            players=(2,),
            schemes=OFFICERS_SCHEMES,
            contracts=SKAT_CONTRACTS,
            options=dict(OFFICERS_OPTIONS),
            choices=LOSER_SCHNEIDER,
        ),
        # Admirals' Skat bids as in Skat, so its values, hand games and overbids follow Skat by default.
        VariantSpec(
            Variant.ADMIRALS_SKAT,
            msg(gettext_noop("Admirals' Skat")),
            Family.OFFICERS,
            players=(2,),
            schemes=OFFICERS_SCHEMES,
            contracts=SKAT_CONTRACTS,
            options=OFFICERS_OPTIONS
            | {
                "kontra_re": False,
                "null": True,
                "matadors": MatadorRule.EXTENDED.value,
                "levels": LevelRule.ISKO.value,
                "schneider": SchneiderRule.AT_MOST_30.value,
                "schwarz": SchwarzRule.NO_TRICKS.value,
                "lost_hand": LostHand.DOUBLE.value,
            },
            bidding=True,
            skat_cards=True,
            choices=LOSER_SCHNEIDER,
        ),
        # Lieutenant Skat's help table gives 3 from 91 card points, the program's own scoring from 90: the winner's
        # third point is Schneider for the loser, "less than 30" or "30 or fewer". The table is the default.
        VariantSpec(
            Variant.LIEUTENANT_SKAT,
            msg(gettext_noop("Lieutenant Skat")),
            Family.LIEUTENANT,
            players=(2,),
            schemes=(Scheme.STANDARD,),
            contracts=(*SUITS, Contract.GRAND),
            options={"schneider": SchneiderRule.UNDER_30.value},
            choices=LOSER_SCHNEIDER,
        ),
        VariantSpec(
            Variant.OFFICERS_SCHAFKOPF,
            msg(gettext_noop("Officers' Schafkopf")),
            Family.SCHAFKOPF,
            players=(2,),
            schemes=(Scheme.STANDARD,),
            # Schafkopf seed: Wenz and Suit Solo contracts, and Lembke's Bell Wenz ("Unters and Bells").
            contracts=(*SUITS, Contract.WENZ, Contract.DIAMONDS_WENZ),
            # The rules digest reads the stakes as zero-sum ("what one wins, the other pays"), as every match was
            # scored before the option existed; the Schafkopf seed's pot ("paid by each player into the pot") is the
            # other reading.
            options={
                "kontra_re": True,
                "laufende": False,
                "schneider": SchneiderRule.UNDER_30.value,
                "settlement": Settlement.ZERO_SUM.value,
                "stake": 1,
            },
            # Schafkopf seed: the dealer "may double the game value by saying e.g. Stoß or Spritze".
            kontra=msg(gettext_noop("Stoß")),
        ),
    )
}


def find_variant(name: str) -> VariantSpec | None:
    """The variant registered under ``name``, or None."""
    try:
        return VARIANTS[Variant(name)]
    except ValueError:
        return None


def read_variant(name: str, problems: Problems) -> VariantSpec:
    """The variant registered under ``name``; without one nothing else can be checked, so every problem found so far
    is raised with it."""
    spec = find_variant(name)
    if spec is None:
        problems.add(
            "variant", msg(gettext_noop("Must be one of: {choices}."), choices=", ".join(v.value for v in VARIANTS))
        )
        problems.raise_if_any()
    assert spec is not None
    return spec


def read_scheme(spec: VariantSpec, name: str | None, problems: Problems) -> Scheme | None:
    """The scheme ``name`` of ``spec`` (its first when None), or None with a problem reported."""
    if name is None:
        return spec.default_scheme
    chosen = next((scheme for scheme in spec.schemes if scheme.value == name), None)
    if chosen is None:
        problems.add(
            "scheme", msg(gettext_noop("Must be one of: {choices}."), choices=", ".join(s.value for s in spec.schemes))
        )
    return chosen
