"""Seasons: a season created, checked as a match would be (the variant, scheme and rules, the ranking and money), and
its settings changed, what is played and paid fixed once a table of it is drawn."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine import FieldError, RuleError, Scheme, find_variant, setup_match
from matches.engine.draw import TablePlan
from matches.engine.league import RankingRule
from matches.engine.messages import gettext_noop, msg
from matches.engine.presets import PRESETS
from matches.engine.variants import VariantSpec
from matches.errors import Invalid
from matches.services import closed_lists_report
from matches.services.events import one_line_name, series_lengths

from ..models import Club, ClubTable, Season, SeasonLog


@dataclass(frozen=True)
class SeasonSettings:
    """What a season is played and ranked by, as a form or the API sends it."""

    name: str
    variant: str = "skat"
    preset: str = ""  # a preset's variant, scheme and rules, instead of ``variant`` (``rules`` still override)
    scheme: str = ""
    rules: dict[str, Any] | None = None
    plan: str = ""
    games_at_four: int = 48
    games_at_three: int = 36
    games_at_two: int = 24
    ranking: str = RankingRule.TOTAL.value
    minimum_lists: int = 0
    best_nights: int = 0
    guests_ranked: bool = True
    categories: Sequence[str] = ()
    stake: int = 0
    list_fee: int = 0
    lost_fees: Sequence[tuple[int, int]] = ()


def _default_scheme(spec: VariantSpec) -> str:
    """Seeger-Fabian for Skat (the clubs' and the federation's scoring); the variant's own default otherwise."""
    if Scheme.SEEGER_FABIAN in spec.schemes:
        return Scheme.SEEGER_FABIAN.value
    return spec.default_scheme.value


def season_create(*, club: Club, settings: SeasonSettings, public_id: uuid.UUID | None = None) -> Season:
    """A season, checked as a match would be: the variant, scheme and rules, and the ranking and money.
    ``public_id``: the one it had before (a restored backup)."""
    return Season.objects.create(public_id=public_id or uuid.uuid4(), club=club, **_season_values(settings))


def _season_values(settings: SeasonSettings) -> dict[str, Any]:
    """The season's fields from ``settings``, checked as a match would be: the variant, scheme and rules, and the
    ranking and money."""
    variant, rules, scheme = settings.variant, dict(settings.rules or {}), settings.scheme
    if settings.preset:
        preset = PRESETS.get(settings.preset)
        if preset is None:
            raise Invalid.on("preset", gettext_noop("Not a rule set this app knows."))
        variant, rules, scheme = preset.variant.value, {**preset.rules, **rules}, scheme or preset.scheme.value
    spec = find_variant(variant)
    if spec is None:
        raise Invalid.on("variant", gettext_noop("Not a variant this app knows."))
    scheme = scheme or _default_scheme(spec)
    plan = settings.plan or (TablePlan.PAIRS if max(spec.players) == 2 else TablePlan.FOURS).value
    try:
        setup = setup_match(variant, scheme=scheme, rules=rules, players=spec.default_players)
    except RuleError as error:
        raise Invalid.from_rules(error) from error
    if plan not in {choice.value for choice in TablePlan}:
        raise Invalid.on("plan", gettext_noop("Not a way of seating this club knows."))
    if settings.ranking not in {choice.value for choice in RankingRule}:
        raise Invalid.on("ranking", gettext_noop("Not a ranking this club knows."))
    table_plan, ranking = TablePlan(plan), RankingRule(settings.ranking)
    if table_plan is TablePlan.PAIRS and 2 not in spec.players:
        raise Invalid.on("plan", gettext_noop("This variant is not played in pairs."))
    if table_plan is not TablePlan.PAIRS and not {3, 4} & set(spec.players):
        raise Invalid.on("plan", gettext_noop("This variant is played in pairs."))
    series_lengths({field: getattr(settings, field) for field in ("games_at_four", "games_at_three", "games_at_two")})
    if ranking is RankingRule.BEST_NIGHTS and settings.best_nights < 1:
        raise Invalid.on("best_nights", gettext_noop("Say how many nights count."))
    tiers = sorted((int(start), int(cents)) for start, cents in settings.lost_fees)
    if any(start < 1 or cents < 0 for start, cents in tiers):
        raise Invalid.on("lost_fees", gettext_noop("Each tier starts at a lost game (1 or later) and costs 0 or more."))
    if min(settings.stake, settings.list_fee, settings.minimum_lists, settings.best_nights) < 0:
        raise Invalid.on("stake", gettext_noop("Amounts and counts cannot be negative."))
    return {
        "name": one_line_name(settings.name),
        "variant": setup.spec.variant.value,
        "scheme": setup.scheme.value,
        "rules": setup.stored_rules(),
        "plan": table_plan.value,
        "games_at_four": settings.games_at_four,
        "games_at_three": settings.games_at_three,
        "games_at_two": settings.games_at_two,
        "ranking": ranking.value,
        "minimum_lists": settings.minimum_lists,
        "best_nights": settings.best_nights,
        "guests_ranked": settings.guests_ranked,
        "categories": [one_line_name(category, "categories") for category in settings.categories],
        "stake": settings.stake,
        "list_fee": settings.list_fee,
        "lost_fees": [list(tier) for tier in tiers],
    }


# What is played and paid: fixed from a season's first draw, since its tables start with them and its nights' lists,
# fees and prizes are counted by them. The rest (name, seating, ranking, categories) is read afresh on every page.
FIXED_ONCE_DRAWN = (
    "variant",
    "scheme",
    "rules",
    "games_at_four",
    "games_at_three",
    "games_at_two",
    "stake",
    "list_fee",
    "lost_fees",
)


def season_drawn(season: Season) -> bool:
    """Whether a table of the season was drawn: then what is played and paid stays as it is."""
    return ClubTable.objects.filter(night__season=season).exists()


def season_update(*, season: Season, settings: SeasonSettings, user: User) -> Season:
    """Change a season's settings, checked as a new season's are, and recorded with the values they had. What is
    played and paid (``FIXED_ONCE_DRAWN``) is refused once a table of the season was drawn: its nights keep the
    rules they were played by. The ranking, seating, categories and name may change at any time (the season table
    is ranked afresh by them)."""
    values = _season_values(settings)
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        changed = {name: getattr(locked, name) for name, value in values.items() if getattr(locked, name) != value}
        fixed = [name for name in FIXED_ONCE_DRAWN if name in changed]
        if fixed and season_drawn(locked):
            raise Invalid([FieldError(field, msg(DRAWN_ALREADY)) for field in _fields_of(fixed, locked, values)])
        if not changed:
            return locked
        for name in changed:
            setattr(locked, name, values[name])
        locked.save(update_fields=list(changed))
        SeasonLog.objects.create(season=locked, action=SeasonLog.Action.EDIT, user=user, details={"before": changed})
        if "name" in changed:
            # Every closed list of the season names it: kept again under its new name.
            closed = ClubTable.objects.filter(night__season=locked, night__closed_at__isnull=False)
            closed_lists_report(match_ids=closed.values_list("match_id", flat=True))
        return locked


DRAWN_ALREADY = gettext_noop("Tables of this season are drawn already: what is played and paid stays as it was.")


def _fields_of(names: Sequence[str], season: Season, values: Mapping[str, Any]) -> list[str]:
    """The fields a refusal names: each rule option that changed (``rules.<option>``) instead of the rules whole."""
    fields = [name for name in names if name != "rules"]
    if "rules" in names:
        before, after = season.rules, values["rules"]
        fields += [f"rules.{option}" for option in sorted(after) if before.get(option) != after[option]] or ["rules"]
    return fields
