"""Named rule sets a table picks from when it starts a match: data, not branches."""

from __future__ import annotations

from dataclasses import dataclass, field

from .messages import Message, gettext_noop, msg
from .variants import Scheme, Variant

# Tournament series (DSkV): 36 deals at a table of three, 48 at a table of four.
TOURNAMENT_SERIES = {3: 36, 4: 48}


@dataclass(frozen=True)
class Preset:
    """A variant, a scheme and the options that differ from the variant's defaults, under one name."""

    key: str
    label: Message
    variant: Variant
    scheme: Scheme = Scheme.STANDARD
    rules: dict[str, bool | int | str] = field(default_factory=dict)
    series: dict[int, int] = field(default_factory=dict)


PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset("skat-isko", msg(gettext_noop("Skat, ISkO")), Variant.SKAT),
        Preset(
            "skat-pub",
            msg(gettext_noop("Skat, pub rules (Kontra/Re, Ramsch, Bock)")),
            Variant.SKAT,
            rules={"kontra_re": True, "ramsch": True, "bock": True},
        ),
        Preset(
            "skat-tournament",
            msg(gettext_noop("Skat, tournament (Seeger-Fabian)")),
            Variant.SKAT,
            scheme=Scheme.SEEGER_FABIAN,
            series=TOURNAMENT_SERIES,
        ),
        Preset("officers-skat", msg(gettext_noop("Officers' Skat")), Variant.OFFICERS_SKAT),
        Preset(
            "officers-skat-simple",
            msg(gettext_noop("Officers' Skat, simple (2/3/4)")),
            Variant.OFFICERS_SKAT,
            scheme=Scheme.SIMPLE,
        ),
        Preset(
            "officers-skat-as-skat",
            msg(gettext_noop("Officers' Skat, counted as in Skat")),
            Variant.OFFICERS_SKAT,
            rules={"matadors": "extended", "levels": "isko", "schneider": "30-or-fewer", "schwarz": "no-tricks"},
        ),
        Preset("harlequin-skat", msg(gettext_noop("Harlequin Skat")), Variant.HARLEQUIN_SKAT),
        Preset("admirals-skat", msg(gettext_noop("Admirals' Skat")), Variant.ADMIRALS_SKAT),
        Preset("lieutenant-skat", msg(gettext_noop("Lieutenant Skat")), Variant.LIEUTENANT_SKAT),
        Preset("officers-schafkopf", msg(gettext_noop("Officers' Schafkopf")), Variant.OFFICERS_SCHAFKOPF),
    )
}
