"""Request and response shapes of the calculator, validated by DRF and documented in the OpenAPI schema."""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.validators import MaxLengthValidator, MaxValueValidator, MinLengthValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..engine import FIELDS, OPTIONS, VARIANTS, Kind, RuleError, Scheme, Variant, game_from_data
from ..engine.cards import CARD_POINTS_TOTAL
from ..engine.common import MAX_BOCK
from ..engine.entry import MAX_MATADORS
from ..engine.options import NAMED_UNKNOWN
from ..scoring import error_tree
from ..services.paper import MAX_SERIES_GAMES, MOST_GAME_POINTS


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
        "maxProperties": len(OPTIONS),
        "description": "Rule options that override the variant's defaults; each variant has only some of them "
        "(GET /api/v1/variants/ lists them with their defaults). Unknown options are rejected.",
        "example": {"kontra_re": True, "ramsch": True},
    }


@extend_schema_field(_rules_schema())
class RulesField(serializers.DictField):
    """Rule options as sent; the engine checks names and values per variant."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.JSONField(), **kwargs)


# The largest table of any variant: seats are numbered from 0 below it.
MOST_SEATS = max(max(spec.players) for spec in VARIANTS.values())
SEAT_NUMBER = {"type": "integer", "minimum": 0, "maximum": MOST_SEATS - 1}

JSON_TYPES: dict[Kind, dict[str, Any]] = {
    Kind.CONTRACT: {"type": "string"},
    Kind.SEAT: {**SEAT_NUMBER, "nullable": True},
    Kind.MATADORS: {
        "type": "integer",
        "nullable": True,
        "minimum": -MAX_MATADORS,
        "maximum": MAX_MATADORS,
        "description": "+n with n, −n without n.",
    },
    Kind.NUMBER: {"type": "integer", "nullable": True},
    Kind.FLAG: {"type": "boolean"},
    Kind.CHOICE: {"type": "string", "nullable": True},
    Kind.RESULT: {"type": "boolean", "nullable": True},
    Kind.OUTCOME: {
        "type": "string",
        "nullable": True,
        "description": "How the card play ended, in place of the declarer's card points where the scheme does not "
        "count them (or beside them, saying the same); draw is 60:60.",
    },
    Kind.POINTS_PER_SEAT: {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": CARD_POINTS_TOTAL},
        "maxItems": MOST_SEATS,
    },
    Kind.SEATS: {"type": "array", "items": SEAT_NUMBER, "maxItems": MOST_SEATS},
    Kind.VALUE: {
        "type": "integer",
        "nullable": True,
        "description": 'A Skat game entered by its value alone (contract "value"): the value as the list writes '
        "it, with won (true or false), kontra and re, and no other field. Only values a game can have are taken "
        "(18, 20, 22, 23, 24, 27, …); a lost game counts twice the value.",
    },
}


def _game_schema() -> dict[str, Any]:
    """The game as entered, described from the engine's one definition of an entry."""
    game: dict[str, Any] = {}
    ramsch: dict[str, Any] = {}
    for entry_field in FIELDS:
        if entry_field.name == "declarer":
            continue
        prop: dict[str, Any] = {**JSON_TYPES[entry_field.kind], "title": str(entry_field.label)}
        choices = [choice for choice in entry_field.choices if choice]
        if choices:
            prop["enum"] = choices
        if entry_field.minimum is not None and entry_field.kind is Kind.NUMBER:
            prop["minimum"] = entry_field.minimum
            prop["maximum"] = entry_field.maximum
        if entry_field.name.startswith("ramsch."):
            ramsch[entry_field.name.removeprefix("ramsch.")] = prop
        else:
            game[entry_field.name] = prop
    game["bock"] = {
        "type": "integer",
        "minimum": 0,
        "maximum": MAX_BOCK,
        "description": "How many Bock rounds are in force (each doubles).",
    }
    game["ramsch"] = {
        "type": "object",
        "nullable": True,
        "properties": ramsch,
        "required": ["card_points"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": game,
        "required": ["contract"],
        "additionalProperties": False,
        "description": "The game as entered; fields at their default may be left out. Unknown fields are refused.",
    }


@extend_schema_field(_game_schema())
class GameField(serializers.JSONField):
    """The game as entered; the engine reads it (``game_from_data``) and reports each field it cannot take, so that
    a wrong type is named beside the other fields' errors."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        body = {key: item for key, item in value.items() if key != "bock"} if isinstance(value, dict) else value
        try:
            game_from_data(body)
        except RuleError as error:
            raise serializers.ValidationError(error_tree(error).get("game", error_tree(error))) from error
        return value


@extend_schema_field({**SEAT_NUMBER, "nullable": True})
class SeatField(serializers.JSONField):
    """A seat as sent: the engine reports a wrong type beside the other fields' errors."""


def _entered_game_schema() -> dict[str, Any]:
    schema = _game_schema()
    return {**schema, "nullable": True, "properties": {k: v for k, v in schema["properties"].items() if k != "bock"}}


@extend_schema_field(_entered_game_schema())
class EnteredGameField(serializers.JSONField):
    """A game entered into a match, read by the services through the engine."""


class CentsField(serializers.IntegerField):
    """An amount of money in whole cents, sent as a JSON number only: a text such as "15" is refused rather than
    read, since whoever sends euros as text meant 15 €, not 15 cents."""

    default_error_messages: ClassVar[dict[str, Any]] = {
        "wrong_type": _("Send whole cents as a number, not as text: 1500 for 15 €."),
        "null": _("Send whole cents as a number: 1500 for 15 €."),
    }


RANGES = (MinValueValidator, MaxValueValidator, MinLengthValidator, MaxLengthValidator)


class EngineChecked(serializers.Field):
    """A field with its range in the schema, but checked by the engine, which reports it beside the other fields'
    errors instead of before them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [check for check in self.validators if not isinstance(check, RANGES)]


class CheckedInteger(EngineChecked, serializers.IntegerField):
    pass


class CheckedList(EngineChecked, serializers.ListField):
    pass


class CheckedText(EngineChecked, serializers.CharField):
    pass


# What each kind of field takes in a JSON body, and the words a value of another JSON type is refused with (a
# field's own ``wrong_type`` message says it for its kind of value): a boolean is not taken for a number, nor a number
# for a boolean or a text, nor a text for anything but a text.
BODY_TYPES: tuple[tuple[tuple[type[serializers.Field[Any, Any, Any, Any]], ...], type, Any], ...] = (
    ((serializers.BooleanField,), bool, _("Must be true or false.")),
    ((serializers.IntegerField,), int, _("Must be a whole number.")),
    (
        (serializers.CharField, serializers.ChoiceField, serializers.UUIDField, serializers.DateField),
        str,
        _("Must be a text."),
    ),
)


def wrong_type(field: serializers.Field, value: Any) -> Any:
    """The refusal of ``value`` for ``field`` if its JSON type is not the field's (a list's items each by the list's
    field, by their place); None if it is, and for null, which the field takes or refuses itself. A nested body is
    checked by its own ``StrictInput``, and a field of any JSON (a game, the rules) by the engine."""
    if value is None:
        return None
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return None
        wrong = {place: refused for place, item in enumerate(value) if (refused := wrong_type(field.child, item))}
        return wrong or None
    for kinds, taken, message in BODY_TYPES:
        if isinstance(field, kinds):
            if isinstance(value, taken) and (taken is bool or not isinstance(value, bool)):
                return None
            return [field.error_messages.get("wrong_type", message)]
    return None


# A body's fields only: a query's parameters are texts by nature, read by a ``QueryInput`` (``matches.api.shapes``).
class StrictInput(serializers.Serializer):
    """A request body with only the fields it documents, each of its own JSON type: an unknown field is refused by
    name (the first few), not silently ignored, and a value of another type (48 sent as "48", a name as 123, true as
    "true" or 1) by its field, never read as what it might have meant."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                errors: dict[str, Any] = {key: [_("Unknown field.")] for key in unknown[:NAMED_UNKNOWN]}
                if len(unknown) > NAMED_UNKNOWN:
                    more = len(unknown) - NAMED_UNKNOWN
                    errors["non_field_errors"] = [_("… and %(count)d more unknown fields.") % {"count": more}]
                raise serializers.ValidationError(errors)
            mistyped = {
                name: refused for name, value in data.items() if (refused := wrong_type(self.fields[name], value))
            }
            if mistyped:
                # Said beside what the other fields refuse, as every refusal of a field is.
                others: Any = {}
                try:
                    super().to_internal_value({name: value for name, value in data.items() if name not in mistyped})
                except serializers.ValidationError as error:
                    others = error.detail
                raise serializers.ValidationError({**others, **mistyped})
        return super().to_internal_value(data)


class PaperTotalsInput(StrictInput):
    """One player's totals from a paper list's footer, at a table of any kind of event."""

    game_points = serializers.IntegerField(min_value=-MOST_GAME_POINTS, max_value=MOST_GAME_POINTS)
    won = serializers.IntegerField(min_value=0, max_value=MAX_SERIES_GAMES)
    lost = serializers.IntegerField(min_value=0, max_value=MAX_SERIES_GAMES)


class PaperLineInput(PaperTotalsInput):
    """One player's totals from a paper list's footer, the player as the table's seats name them."""

    player = serializers.UUIDField(help_text=_("A player seated at the table, as its seats name them."))


class CalculateRequestSerializer(StrictInput):
    variant = serializers.ChoiceField(choices=[v.value for v in Variant])
    scheme = serializers.ChoiceField(
        choices=[s.value for s in Scheme],
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Default: the variant's first scheme (standard)."),
    )
    rules = RulesField(required=False, default=dict)
    players = CheckedInteger(
        required=False,
        allow_null=True,
        default=None,
        min_value=2,
        max_value=MOST_SEATS,
        help_text=_("Seats at the table; default by variant."),
    )
    declarer = CheckedInteger(
        required=False,
        default=0,
        min_value=0,
        max_value=MOST_SEATS - 1,
        help_text=_("The declarer's seat, from 0."),
    )
    dealer = CheckedInteger(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=MOST_SEATS - 1,
        help_text=_("The dealer's seat; with four players the dealer sits out (needed for a Ramsch)."),
    )
    game = GameField()


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
