"""What the changes to a tournament take in the API: checked in shape here, against the tournament by its
services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.api.serializers import CentsField, CheckedText, PaperTotalsInput, StrictInput
from matches.engine.tournaments import MAX_SERIES, TABLE_SIZES, TEAM_SIZE, Seating
from matches.names import MAX_NAME_LENGTH
from matches.services.people import MAX_FEDERATION_NUMBER

from ..models import SideKind
from ..services import MAX_TEXT_LENGTH

# A payment or a correction of up to 100,000 euros: more is a typing error, not money at a card table.
MOST_CENTS = 10_000_000
# Room for a table or a side the services refuse by name (five players, or nine): anything longer is none at all.
MOST_AT_A_TABLE = 2 * max(TABLE_SIZES)
MOST_IN_A_SIDE = 2 * TEAM_SIZE


class TournamentEntryInput(StrictInput):
    """An entry: a name, and optionally a club, a category of the tournament's and a federation number."""

    name = CheckedText(max_length=MAX_NAME_LENGTH)
    club = CheckedText(required=False, default="", allow_blank=True, max_length=MAX_TEXT_LENGTH)
    category = CheckedText(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_TEXT_LENGTH,
        help_text=_("One of the tournament's categories, by name; empty for none."),
    )
    federation_number = CheckedText(required=False, default="", allow_blank=True, max_length=MAX_FEDERATION_NUMBER)


class TournamentDoorEntryInput(TournamentEntryInput):
    """An entry at the door; ``paid``: the entrant pays what is due on entry at once."""

    paid = serializers.BooleanField(required=False, default=True)


class TournamentPaymentInput(StrictInput):
    """Money an entrant handed the cashier: left out, what is still due on entry (worked out when the payment is
    recorded); given, the amount with what the cashier saw the entrant had paid, so that a payment recorded meanwhile
    (a second cashier, the desk's page) refuses this one rather than take the money twice."""

    amount = CentsField(
        required=False,
        min_value=-MOST_CENTS,
        max_value=MOST_CENTS,
        help_text=_(
            "In whole cents, as a number (1500 for 15 €; a text is refused); negative for a correction; left out: "
            "what is still due on entry."
        ),
    )
    paid = CentsField(
        required=False,
        min_value=0,
        max_value=MOST_CENTS,
        help_text=_(
            "What the entrant had paid when the cashier took this amount, in cents (the entry's paid): needed with an "
            "amount; a payment recorded since refuses this one (409)."
        ),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "amount" in attrs and "paid" not in attrs:
            raise serializers.ValidationError(
                {"paid": [_("Send what the entrant had paid when the cashier took this amount (the entry's paid).")]}
            )
        return attrs


class TournamentSideInput(StrictInput):
    """A tandem (two entrants) or a team (four) for its side ranking."""

    kind = serializers.ChoiceField(choices=[kind.value for kind in SideKind])
    name = CheckedText(max_length=MAX_TEXT_LENGTH)
    entries = serializers.ListField(
        child=serializers.UUIDField(),
        min_length=1,
        max_length=MOST_IN_A_SIDE,
        help_text=_("The entrants, by their entry's id, in the order named."),
    )


class TournamentDrawInput(StrictInput):
    """A series to draw, how it is seated, and for a fixed plan its tables."""

    series = serializers.IntegerField(min_value=1, max_value=MAX_SERIES)
    seating = serializers.ChoiceField(
        choices=[seating.value for seating in Seating],
        required=False,
        default=Seating.DRAW.value,
        help_text=_(
            "draw (from the tournament's seed, avoiding the pairings before), standings (the leaders at "
            "table 1; not for series 1) or plan (the tables as given)."
        ),
    )
    tables = serializers.ListField(
        child=serializers.ListField(child=serializers.UUIDField(), min_length=1, max_length=MOST_AT_A_TABLE),
        required=False,
        default=list,
        help_text=_("With the seating plan only: each table's entrants by their entry's id, in seat order."),
    )


class TablePaperLineInput(PaperTotalsInput):
    """One player's totals from the paper list's footer, the player by their entry."""

    entry = serializers.UUIDField(help_text=_("An entrant seated at the table, by their entry's id."))


class TablePaperInput(StrictInput):
    """A table's paper list: a line for each player at it."""

    lines = serializers.ListField(
        child=TablePaperLineInput(),
        min_length=1,
        max_length=max(TABLE_SIZES),
        help_text=_("One line for each player at the table: game points, games won and lost."),
    )


class TournamentNothingInput(StrictInput):
    """Closing a series and withdrawing an entrant take nothing but the headers."""
