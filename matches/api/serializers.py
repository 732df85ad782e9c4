"""Request and response shapes of the calculator, validated by DRF and documented in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..engine import OPTIONS, Contract, Scheme, Variant
from ..engine.game import Announcement, Schwarz


def _rules_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, spec in OPTIONS.items():
        prop: dict[str, Any] = {"description": str(spec.help)}
        if spec.kind == "bool":
            prop["type"] = "boolean"
        elif spec.kind == "choice":
            prop["type"] = "string"
            prop["enum"] = list(spec.choices)
        else:
            prop["type"] = "integer"
            prop["minimum"] = spec.minimum
            prop["maximum"] = spec.maximum
        properties[name] = prop
    return {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "description": "Rule options that override the variant's defaults; each variant has only some of them "
        "(GET /api/v1/variants/ lists them with their defaults). Unknown options are rejected.",
        "example": {"kontra_re": True, "ramsch": True},
    }


@extend_schema_field(_rules_schema())
class RulesField(serializers.DictField):
    """Rule options as sent; the engine checks names and values per variant."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.JSONField(), **kwargs)


class RamschSerializer(serializers.Serializer):
    card_points = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=4, help_text=_("Card points per seat.")
    )
    jungfrau = serializers.ListField(
        child=serializers.IntegerField(), required=False, default=list, help_text=_("Seats that took no trick.")
    )
    pushes = serializers.IntegerField(required=False, default=0, help_text=_("How often the skat was pushed on."))
    durchmarsch = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text=_("The seat that took every trick.")
    )


class GameSerializer(serializers.Serializer):
    contract = serializers.ChoiceField(choices=[c.value for c in Contract])
    matadors = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text=_("+n with n, −n without n.")
    )
    declarer_card_points = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text=_("0-120, the skat included.")
    )
    schwarz = serializers.ChoiceField(
        choices=[s.value for s in Schwarz],
        required=False,
        allow_null=True,
        default=None,
        help_text=_("“opponents”: the declarer took every trick; “declarer”: the declarer took none."),
    )
    hand = serializers.BooleanField(required=False, default=False)
    ouvert = serializers.BooleanField(required=False, default=False)
    announced = serializers.ChoiceField(
        choices=[a.value for a in Announcement], required=False, allow_null=True, default=None
    )
    won = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text=_("Null games only: did the declarer win?")
    )
    bid = serializers.IntegerField(required=False, allow_null=True, default=None)
    kontra = serializers.BooleanField(required=False, default=False, help_text=_("Kontra (Stoß in Schafkopf)."))
    re = serializers.BooleanField(required=False, default=False)
    conceded = serializers.BooleanField(
        required=False, default=False, help_text=_("The declarer gave up the game before the play ended.")
    )
    bock = serializers.IntegerField(
        required=False, default=0, help_text=_("How many Bock rounds are in force (each doubles).")
    )
    ramsch = RamschSerializer(required=False, allow_null=True, default=None)


class CalculateRequestSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=[v.value for v in Variant])
    scheme = serializers.ChoiceField(
        choices=[s.value for s in Scheme],
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Default: the variant's first scheme (standard)."),
    )
    rules = RulesField(required=False, default=dict)
    players = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text=_("Seats at the table; default by variant.")
    )
    declarer = serializers.IntegerField(required=False, default=0, help_text=_("The declarer's seat, from 0."))
    dealer = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("The dealer's seat; with four players the dealer sits out (needed for a Ramsch)."),
    )
    game = GameSerializer()


class CalculateResponseSerializer(serializers.Serializer):
    won = serializers.BooleanField(allow_null=True, help_text=_("The declarer's result; null for Ramsch and draws."))
    game_value = serializers.IntegerField(
        help_text=_("The game's value with every multiplier, before a lost game is doubled.")
    )
    scores = serializers.ListField(child=serializers.IntegerField(), help_text=_("What each seat writes on the list."))
    schneider = serializers.BooleanField()
    schwarz = serializers.BooleanField()
    overbid = serializers.BooleanField()
    breakdown = serializers.ListField(child=serializers.CharField(), help_text=_("How the score came about."))


class OptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    help = serializers.CharField()
    kind = serializers.ChoiceField(choices=["bool", "choice", "int"])
    choices = serializers.ListField(child=serializers.CharField())
    default = serializers.JSONField()


class VariantSerializer(serializers.Serializer):
    variant = serializers.CharField()
    title = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())
    schemes = serializers.ListField(child=serializers.CharField())
    contracts = serializers.ListField(child=serializers.CharField())
    options = OptionSerializer(many=True)
