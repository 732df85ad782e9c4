"""What the API's resources look like, in and out: players, matches, games, changes, clubs, seasons, nights and
standings. Read from the same selectors as the pages; documented in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ..engine import Scheme, Variant
from ..engine.match import MAX_PLANNED_GAMES
from ..names import MAX_NAME_LENGTH
from ..services import MAX_TITLE_LENGTH
from .policy import EMPTY_PARAMETER
from .serializers import (
    MOST_SEATS,
    CheckedInteger,
    CheckedList,
    CheckedText,
    EnteredGameField,
    GameField,
    RulesField,
    SeatField,
    StrictInput,
)


class SeatShape(serializers.Serializer):
    seat = serializers.IntegerField(help_text=_("The seat at the table, from 0 (the order the players were given)."))
    player = serializers.UUIDField()
    name = serializers.CharField()


class PlayerShape(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    linked = serializers.BooleanField(help_text=_("Whether the player is linked to an account."))
    created_at = serializers.DateTimeField()


class StatsShape(serializers.Serializer):
    variant = serializers.CharField()
    scheme = serializers.CharField()
    total = serializers.IntegerField()
    games = serializers.IntegerField(help_text=_("Deals played (not sitting out, not all passed)."))
    declared = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    average = serializers.FloatField()


class PlayerDetailShape(PlayerShape):
    stats = StatsShape(many=True, help_text=_("Lifetime totals per variant and scheme."))


class NextDealShape(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(help_text=_("The dealer's seat."))
    playing = serializers.ListField(child=serializers.IntegerField(), help_text=_("The seats in play, forehand first."))


class MatchShape(serializers.Serializer):
    id = serializers.UUIDField()
    title = serializers.CharField()
    variant = serializers.CharField()
    scheme = serializers.CharField()
    preset = serializers.CharField()
    rules = serializers.DictField(help_text=_("The complete rule set the match is scored under."))
    seats = SeatShape(many=True)
    first_dealer = serializers.IntegerField()
    planned_games = serializers.IntegerField(allow_null=True)
    deals = serializers.IntegerField(help_text=_("The games on the list, passed deals included."))
    totals = serializers.ListField(child=serializers.IntegerField(), help_text=_("Each seat's total."))
    next = NextDealShape(allow_null=True, help_text=_("The next deal; null once the planned games are played."))
    version = serializers.IntegerField(help_text=_("Grows with every change; send it as If-Match to change safely."))
    locked = serializers.BooleanField(help_text=_("A closed club night's list: it takes no changes."))
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


def replayed_field() -> serializers.BooleanField:
    """Whether an answer is the first answer again, to a retry with the same ``Idempotency-Key``."""
    return serializers.BooleanField(help_text=_("A retry with the same Idempotency-Key: the first answer."))


class MatchChangedShape(MatchShape):
    replayed = replayed_field()


class MatchInput(StrictInput):
    variant = serializers.ChoiceField(choices=[v.value for v in Variant])
    scheme = serializers.ChoiceField(
        choices=[s.value for s in Scheme],
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Default: the variant's first."),
    )
    rules = RulesField(required=False, default=dict)
    players = CheckedList(
        child=CheckedText(allow_blank=True, trim_whitespace=False, max_length=MAX_NAME_LENGTH),
        min_length=2,
        max_length=MOST_SEATS,
        help_text=_("The players' names in seat order; a name the book knows is that player."),
    )
    first_dealer = CheckedInteger(required=False, default=0, min_value=0, max_value=MOST_SEATS - 1)
    title = CheckedText(
        required=False, default="", allow_blank=True, trim_whitespace=False, max_length=MAX_TITLE_LENGTH
    )
    preset = serializers.CharField(required=False, default="", allow_blank=True)
    planned_games = CheckedInteger(
        required=False, allow_null=True, default=None, min_value=1, max_value=MAX_PLANNED_GAMES
    )


class QueryInput(serializers.Serializer):
    """Query parameters: one given with an empty value is refused by name, beside the other refusals."""

    def to_internal_value(self, data: Any) -> Any:
        empty = {name: [gettext(EMPTY_PARAMETER)] for name, _field in self.fields.items() if data.get(name) == ""}
        try:
            values = super().to_internal_value(data)
        except serializers.ValidationError as error:
            refused = error.detail if isinstance(error.detail, dict) else {}
            raise serializers.ValidationError({**refused, **empty}) from None
        if empty:
            raise serializers.ValidationError(empty)
        return values


class MatchFilter(QueryInput):
    player = serializers.UUIDField(required=False, help_text=_("Only matches this player sat at."))
    variant = serializers.ChoiceField(choices=[v.value for v in Variant], required=False)
    since = serializers.DateField(required=False, help_text=_("Started on or after this day."))
    until = serializers.DateField(required=False, help_text=_("Started on or before this day."))

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        since, until = attrs.get("since"), attrs.get("until")
        if since is not None and until is not None and since > until:  # type: ignore[operator]
            raise serializers.ValidationError({"until": [_("Must not be before since.")]})
        return attrs


class GameShape(serializers.Serializer):
    id = serializers.UUIDField()
    number = serializers.IntegerField(help_text=_("The deal's number on the list."))
    passed = serializers.BooleanField(help_text=_("All passed: nobody played."))
    declarer = serializers.IntegerField(allow_null=True, help_text=_("The declarer's seat; null in a Ramsch."))
    game = GameField(allow_null=True, help_text=_("The game as entered."))
    bock = serializers.IntegerField()
    won = serializers.BooleanField(allow_null=True)
    game_value = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField(), help_text=_("What each seat writes."))
    breakdown = serializers.ListField(child=serializers.CharField(), help_text=_("How the score came about."))
    version = serializers.IntegerField(help_text=_("The match version of the game's last change."))
    created_at = serializers.DateTimeField()


class GameInput(StrictInput):
    """A deal as entered: all passed, or the declarer's seat and the game in the calculator's shape."""

    passed = serializers.BooleanField(required=False, default=False)
    declarer = SeatField(
        required=False, allow_null=True, default=None, help_text=_("The declarer's seat, from 0; null in a Ramsch.")
    )
    game = EnteredGameField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("The game as in POST /api/v1/calculate/, without bock: the match counts its Bock rounds."),
    )


class GameAddInput(GameInput):
    number = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=100_000,
        help_text=_("The deal the entry was made for: refused (409) if another client entered it meanwhile."),
    )


class GameSavedShape(serializers.Serializer):
    game = GameShape()
    match = MatchShape()
    replayed = replayed_field()


class StepInput(StrictInput):
    change = serializers.UUIDField(
        required=False, allow_null=True, default=None, help_text=_("The change to undo (or redo), as last seen.")
    )


class ChangeShape(serializers.Serializer):
    id = serializers.UUIDField()
    action = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)
    game = serializers.UUIDField(
        allow_null=True,
        help_text=_("The game changed; null for a change to the match itself (its list, seats, co-scorers or book)."),
    )
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    before = serializers.JSONField(
        allow_null=True,
        help_text=_("The game as entered before the change, or what a change to the match itself changed."),
    )
    after = serializers.JSONField(
        allow_null=True, help_text=_("The game as entered after it, or the match's part after it.")
    )


class StepShape(serializers.Serializer):
    change = ChangeShape(allow_null=True, help_text=_("What was done; null when there was nothing to undo or redo."))
    match = MatchShape()
    replayed = replayed_field()


class TokenInput(StrictInput):
    username = serializers.CharField()
    password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})


class TokenShape(serializers.Serializer):
    token = serializers.CharField(help_text=_("Send as 'Authorization: Token …'; shown once, stored only hashed."))
    expiry = serializers.DateTimeField(allow_null=True)


class TokenInfoShape(serializers.Serializer):
    prefix = serializers.CharField(help_text=_("The token's first characters, to tell it apart."))
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)


def paged(shape: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The envelope of a list that comes in pages, for the schema: follow ``next`` to the end."""
    fields = {
        "next": serializers.URLField(allow_null=True, help_text=_("The next page; null on the last.")),
        "previous": serializers.URLField(allow_null=True, help_text=_("The page before; null on the first.")),
        "results": shape(many=True),
    }
    return type(f"Paged{shape.__name__.removesuffix('Shape')}", (serializers.Serializer,), fields)
