"""The shapes of an open tournament's answers in the API (the tournament as announced, entries with their payments,
tandems and teams, series with their tables, rankings, the prize list and the cashier's list), beside the core's
shapes in ``matches/api/shapes.py``. Every amount is in cents."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.api.shapes import replayed_field


def withdrawn_after_field() -> serializers.IntegerField:
    """When the entrant of a place or of a prize withdrew, as their entry says it; null for a side."""
    return serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "The series played before the entrant withdrew (0: before series 1); null: still in, or a tandem or a team."
        ),
    )


class TournamentScheduleShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    values = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("By place: amounts in cents, or shares in basis points.")
    )
    kind = serializers.CharField(help_text=_("amounts or shares"))
    payout = serializers.CharField(help_text=_("in-full or as-announced"))


class TournamentTierShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    start = serializers.IntegerField(help_text=_("From this lost game of a list on."))
    cents = serializers.IntegerField(help_text=_("The fee for each lost game from there."))


class TournamentFeesShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    entry = serializers.IntegerField()
    list = serializers.IntegerField(help_text=_("For each list (series) played."))
    lost_games = TournamentTierShape(many=True)
    tandem = serializers.IntegerField()
    team = serializers.IntegerField()


class TournamentShareShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    kind = serializers.CharField(help_text=_("percent (of the pot, in basis points) or amount (in cents)"))
    value = serializers.IntegerField()
    keeps_list_fees = serializers.BooleanField()
    keeps_lost_game_fees = serializers.BooleanField()


class TournamentCategoryShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    name = serializers.CharField()
    prizes = serializers.ListField(child=serializers.IntegerField(), help_text=_("By place within the category."))


class TournamentClubRefShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()


class TournamentSeriesSummaryShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    number = serializers.IntegerField()
    seating = serializers.CharField(help_text=_("draw, standings or plan"))
    closed = serializers.BooleanField(help_text=_("Every table's list is complete and locked."))


class TournamentShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()
    date = serializers.DateField()
    venue = serializers.CharField()
    club = TournamentClubRefShape(allow_null=True, help_text=_("The club it is announced for, if any."))
    announced_at = serializers.DateTimeField()


class TournamentDetailShape(TournamentShape):
    variant = serializers.CharField()
    scheme = serializers.CharField()
    rules = serializers.DictField(help_text=_("The rules every table plays by, stored complete."))
    series = serializers.IntegerField(help_text=_("How many series are played."))
    games_at_four = serializers.IntegerField()
    games_at_three = serializers.IntegerField()
    seats = serializers.IntegerField(help_text=_("The most players the room seats; 0: no limit."))
    fees = TournamentFeesShape()
    share = TournamentShareShape(help_text=_("The organiser's share."))
    places = TournamentScheduleShape(help_text=_("The prize schedule of the places."))
    best_series = serializers.ListField(child=serializers.IntegerField(), help_text=_("Prizes for the best series."))
    tandem_prizes = TournamentScheduleShape()
    team_prizes = TournamentScheduleShape()
    categories = TournamentCategoryShape(many=True)
    doubles = serializers.CharField(help_text=_("better: a player placed for two prizes wins the better one; both"))
    late_entries = serializers.BooleanField(help_text=_("Entries at the door until the first draw."))
    entrants = serializers.IntegerField(help_text=_("Entries not withdrawn."))
    drawn = TournamentSeriesSummaryShape(many=True, help_text=_("The series drawn so far."))
    manages = serializers.BooleanField(help_text=_("You manage the tournament."))
    version = serializers.IntegerField(
        help_text=_("Grows with every change to the tournament; send it as If-Match to change it safely.")
    )


class TournamentPaymentShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    amount = serializers.IntegerField(help_text=_("Negative: a correction."))
    created_at = serializers.DateTimeField()


class TournamentEntryShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()
    club = serializers.CharField()
    category = serializers.CharField(allow_null=True)
    federation_number = serializers.CharField()
    channel = serializers.CharField(help_text=_("online or door"))
    code = serializers.CharField(help_text=_("The confirmation code the entrant shows at the door."))
    withdrawn_after = serializers.IntegerField(
        allow_null=True, help_text=_("The series played before the entrant withdrew; null: still in.")
    )
    paid = serializers.IntegerField(help_text=_("Every payment summed."))
    payments = TournamentPaymentShape(many=True)
    created_at = serializers.DateTimeField()


class TournamentMemberShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    entry = serializers.UUIDField()
    name = serializers.CharField()


class TournamentSideShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    kind = serializers.CharField(help_text=_("tandem or team"))
    name = serializers.CharField()
    members = TournamentMemberShape(many=True, help_text=_("In the order named."))


class TournamentTableSeatShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    seat = serializers.IntegerField(help_text=_("The seat at the table, from 0."))
    entry = serializers.UUIDField()
    player = serializers.UUIDField(help_text=_("The player in the tournament's book, as the match seats them."))
    name = serializers.CharField()
    club = serializers.CharField()


class TournamentTableShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    number = serializers.IntegerField()
    match = serializers.UUIDField(help_text=_("The table's match: score it through the matches' games."))
    paper = serializers.BooleanField(help_text=_("The table's list was kept on paper and entered as totals."))
    planned_games = serializers.IntegerField(allow_null=True)
    deals = serializers.IntegerField(help_text=_("The games on the table's list so far."))
    seats = TournamentTableSeatShape(many=True)


class TournamentSeriesShape(TournamentSeriesSummaryShape):
    seed = serializers.CharField(help_text=_("What a drawn series was drawn from; empty for one seated otherwise."))
    drawn_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    tables = TournamentTableShape(many=True)


class TournamentPlaceShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    place = serializers.IntegerField()
    entry = serializers.UUIDField(allow_null=True, help_text=_("The entrant; null for a tandem or a team."))
    name = serializers.CharField()
    club = serializers.CharField()
    score = serializers.IntegerField(help_text=_("The Seeger-Fabian total."))
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    lists = serializers.IntegerField(help_text=_("The lists (series) counted."))
    game_points = serializers.IntegerField()
    by_lot = serializers.BooleanField(help_text=_("Its place against a tied neighbour was drawn."))
    withdrawn_after = withdrawn_after_field()


class TournamentWinnerShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    entry = serializers.UUIDField(allow_null=True, help_text=_("The entrant; null for a tandem or a team."))
    name = serializers.CharField()
    withdrawn_after = withdrawn_after_field()


class TournamentPrizeShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    kind = serializers.CharField(help_text=_("place, best-series, category, tandem or team"))
    category = serializers.CharField(help_text=_("The category of a category's prize; empty otherwise."))
    place = serializers.IntegerField()
    amount = serializers.IntegerField()
    winner = TournamentWinnerShape(allow_null=True, help_text=_("null: nobody is left in its ranking to win it."))


class TournamentPrizesShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    tournament = serializers.UUIDField()
    prizes = TournamentPrizeShape(many=True)
    tandems = TournamentPlaceShape(many=True, help_text=_("The tandems' ranking."))
    teams = TournamentPlaceShape(many=True, help_text=_("The teams' ranking."))
    problems = serializers.DictField(
        help_text=_("Why the prizes cannot be paid as announced (messages by field); the prize list is empty then.")
    )


class TournamentSeriesDetailShape(TournamentSeriesShape):
    tournament = serializers.UUIDField()


class TournamentPotShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    entries = serializers.IntegerField(help_text=_("Entry fees."))
    list_fees = serializers.IntegerField()
    lost_game_fees = serializers.IntegerField()
    tandem_fees = serializers.IntegerField()
    team_fees = serializers.IntegerField()
    total = serializers.IntegerField(
        help_text=_("Every fee due: the entry fees, list and lost-game fees, sides' fees.")
    )
    kept = serializers.IntegerField(help_text=_("The fees the organiser keeps outright."))
    prize_pot = serializers.IntegerField(
        help_text=_(
            "What the organiser's share and the prizes come from: every fee but those kept outright and the side "
            "rankings'."
        )
    )
    share = serializers.IntegerField(help_text=_("The organiser's share, of the prize pot."))
    prize_money = serializers.IntegerField(help_text=_("The prize pot less the share."))


class TournamentCashierLineShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    entry = serializers.UUIDField()
    name = serializers.CharField()
    entry_fee = serializers.IntegerField()
    list_fees = serializers.IntegerField()
    lost_game_fees = serializers.IntegerField()
    tandem_fee = serializers.IntegerField()
    team_fee = serializers.IntegerField()
    due = serializers.IntegerField(help_text=_("Every fee summed."))
    paid = serializers.IntegerField()
    owed = serializers.IntegerField(help_text=_("Still to pay."))
    won = serializers.IntegerField()
    balance = serializers.IntegerField(help_text=_("What the cashier hands over at the end; negative: still takes."))
    withdrawn_after = withdrawn_after_field()


class TournamentCashierShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    tournament = serializers.UUIDField()
    lines = TournamentCashierLineShape(many=True)
    pot = TournamentPotShape()
    paid_in = serializers.IntegerField()
    owed = serializers.IntegerField()
    paid_out = serializers.IntegerField()
    not_paid_out = serializers.IntegerField(help_text=_("Prize money nobody won or a schedule left."))
    organiser = serializers.IntegerField(help_text=_("What the organiser keeps: fees kept, the share, not paid out."))
    problems = serializers.DictField(help_text=_("Why the prizes cannot be paid as announced (messages by field)."))


class TournamentChangedShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    tournament = serializers.UUIDField()
    version = serializers.IntegerField(help_text=_("The tournament's version after the change."))
    replayed = replayed_field()


class TournamentEntryChangedShape(TournamentChangedShape):
    entry = TournamentEntryShape()


class TournamentSideChangedShape(TournamentChangedShape):
    side = TournamentSideShape()


class TournamentSeriesChangedShape(TournamentChangedShape):
    series = TournamentSeriesShape()
