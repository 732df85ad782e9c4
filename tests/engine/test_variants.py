"""The registry of variants: every option a variant has is one the engine knows, with a default it offers."""

import pytest

from matches.engine import OPTIONS, VARIANTS, VariantSpec, rules_for


@pytest.mark.parametrize("spec", VARIANTS.values(), ids=lambda spec: spec.variant.value)
def test_every_default_is_a_value_the_variant_offers(spec: VariantSpec) -> None:
    for name, default in spec.options.items():
        offered = spec.option_choices(name)
        assert set(offered) <= set(OPTIONS[name].choices)
        if OPTIONS[name].kind == "choice":
            assert default in offered, name


@pytest.mark.parametrize("spec", VARIANTS.values(), ids=lambda spec: spec.variant.value)
def test_every_value_a_variant_offers_makes_a_rule_set(spec: VariantSpec) -> None:
    for name in spec.options:
        for value in spec.option_choices(name):
            assert getattr(rules_for(spec.variant, {name: value}), name) == value


def test_only_officers_schafkopf_offers_schafkopfs_uneven_schneider_tariff() -> None:
    offering = [
        spec.variant.value
        for spec in VARIANTS.values()
        if "schneider" in spec.options and "uneven" in spec.option_choices("schneider")
    ]
    assert offering == ["officers-schafkopf"]
