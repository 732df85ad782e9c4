"""What the changes to a club night take in the API: checked in shape here, against the night by the club's
services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.api.paper import PaperListInput
from matches.api.serializers import CheckedText, StrictInput
from matches.names import MAX_NAME_LENGTH

from ..services import MAX_SERIES, Seating

# The most tables a night's guests may sit from (as the draw's form takes it).
MOST_TABLES = 1000


class CheckInInput(StrictInput):
    """A player of the club by id, or a walk-in guest by name (added to the club's players as a guest)."""

    player = serializers.UUIDField(
        required=False, allow_null=True, default=None, help_text=_("A player of the club, by id.")
    )
    name = CheckedText(
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_NAME_LENGTH,
        help_text=_("A walk-in guest's name, instead of a player: added to the club's players as a guest."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs["player"] is None) == (not attrs["name"].strip()):
            raise serializers.ValidationError({"player": [_("Name a player of the club, or a guest's name.")]})
        return attrs


class CheckOutInput(StrictInput):
    """A checked-in player who leaves before sitting at a table."""

    player = serializers.UUIDField(help_text=_("A checked-in player, by id."))


class DrawInput(StrictInput):
    """How a series is seated, as the night's page asks it."""

    series = serializers.IntegerField(required=False, default=1, min_value=1, max_value=MAX_SERIES)
    seating = serializers.ChoiceField(
        choices=[choice.value for choice in Seating],
        required=False,
        default=Seating.DRAW.value,
        help_text=_(
            "draw: from the night's seed, avoiding recent pairings; ranking: by the season's table; series: by the "
            "series before."
        ),
    )
    again = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_("Draw a series again whose tables have not played yet, from a new seed."),
    )
    guests_from = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=MOST_TABLES,
        help_text=_("The club's guests sit from this table on."),
    )
    unfinished = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_(
            "Seat by the series before although a table of it has not played all its games (it stopped early): its "
            "list as it stands."
        ),
    )


class SwapInput(StrictInput):
    """Two players of a series who swap seats before play."""

    series = serializers.IntegerField(required=False, default=1, min_value=1, max_value=MAX_SERIES)
    first = serializers.UUIDField(help_text=_("A player seated in the series."))
    second = serializers.UUIDField(help_text=_("The player to swap seats with (another than the first)."))


class PaperInput(PaperListInput):
    """A table's paper list, of series 1 unless the body names another."""

    series = serializers.IntegerField(required=False, default=1, min_value=1, max_value=MAX_SERIES)


class CloseInput(StrictInput):
    """Closing the night; a table not played to the end stops it unless said."""

    unfinished = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_("Close the night although a table has not played its series to the end."),
    )


class ReopenInput(StrictInput):
    """Reopening takes nothing but the headers."""
