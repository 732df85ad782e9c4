"""The shapes of the league's answers in the API (leagues, groups, teams, match days, venues, reports, tables and
rankings), beside the core's shapes in ``matches/api/shapes.py``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.api.shapes import SeatShape, replayed_field


class PointsShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    points = serializers.CharField(help_text=_('League points as plus:minus ("5:1", halves as "2½:½").'))
    plus = serializers.FloatField(help_text=_("Plus points (halves exact)."))
    minus = serializers.FloatField(help_text=_("Minus points (halves exact)."))


class LeagueShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()
    variant = serializers.CharField()
    scheme = serializers.CharField()
    series_per_day = serializers.IntegerField()
    games_at_four = serializers.IntegerField()
    games_at_three = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class GroupShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()
    promoted = serializers.IntegerField(help_text=_("The first places of the table that go up."))
    relegated = serializers.IntegerField(help_text=_("The last places of the table that go down."))


class DivisionShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    name = serializers.CharField()
    level = serializers.IntegerField(help_text=_("1 is the highest."))
    groups = GroupShape(many=True)


class LeagueDetailShape(LeagueShape):
    role = serializers.CharField(allow_null=True, help_text=_("Your role at the league, if any."))
    rules = serializers.DictField(help_text=_("The rules every table of the league plays by, stored complete."))
    series_tie = serializers.CharField()
    short_venue = serializers.CharField()
    per_team_beaten = serializers.IntegerField()
    minus_counts = serializers.BooleanField()
    table_tie = serializers.CharField()
    minimum_series = serializers.IntegerField()
    divisions = DivisionShape(many=True)


class ClubRefShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()


class TeamShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    name = serializers.CharField()
    club = ClubRefShape()
    yours = serializers.BooleanField(help_text=_("You are the team's captain."))


class MatchDayShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    number = serializers.IntegerField()
    date = serializers.DateField()


class GroupDetailShape(GroupShape):
    league = serializers.UUIDField()
    division = serializers.CharField()
    teams = TeamShape(many=True)
    match_days = MatchDayShape(many=True)


class RosterShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    player = serializers.UUIDField(help_text=_("The player in the club's book: check them in by this id."))
    league_player = serializers.UUIDField(
        help_text=_("Who the player is in the league's book, where the tables seat them.")
    )
    name = serializers.CharField()
    substitute = serializers.BooleanField(help_text=_("On the substitution list."))


class TeamDetailShape(TeamShape):
    group = serializers.UUIDField()
    roster = RosterShape(many=True)


class VenueSummaryShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    id = serializers.UUIDField()
    place = serializers.CharField()
    host_club = serializers.UUIDField(allow_null=True)
    series = serializers.IntegerField()
    closed = serializers.BooleanField(help_text=_("Every table's list is complete and locked: the report is ready."))
    accepted = serializers.BooleanField(help_text=_("The league's manager accepted the report."))
    teams = serializers.ListField(child=serializers.UUIDField())


class MatchDayDetailShape(MatchDayShape):
    group = serializers.UUIDField()
    venues = VenueSummaryShape(many=True)


class TeamMatchDayShape(PointsShape):
    match_day = serializers.UUIDField()
    number = serializers.IntegerField()
    date = serializers.DateField()
    venue = serializers.UUIDField()
    place = serializers.CharField()
    closed = serializers.BooleanField()
    provisional = serializers.BooleanField(help_text=_("Not accepted by the league's manager yet."))
    points = serializers.CharField(allow_null=True, help_text=_("The day's league points, once the venue closed."))
    plus = serializers.FloatField(allow_null=True)
    minus = serializers.FloatField(allow_null=True)
    game_points = serializers.IntegerField(allow_null=True, help_text=_("The sum of the team's series scores."))


class TableRowShape(PointsShape):
    rank = serializers.IntegerField(
        allow_null=True, help_text=_("null for a team yet to play a match day: it has no place.")
    )
    team = serializers.UUIDField()
    name = serializers.CharField()
    game_points = serializers.IntegerField()
    match_days = serializers.IntegerField()
    mark = serializers.CharField(allow_null=True, help_text=_("promotion or relegation, where the group marks it."))
    undecided = serializers.BooleanField(help_text=_("Shares its rank across a promotion or relegation line."))
    by_lot = serializers.BooleanField(help_text=_("Its place against a tied neighbour was drawn."))
    provisional = serializers.BooleanField(help_text=_("A match day counted in it is not accepted yet."))


class GroupTableShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    group = serializers.UUIDField()
    provisional = serializers.BooleanField()
    rows = TableRowShape(many=True)


class RankedPlayerShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    rank = serializers.IntegerField()
    player = serializers.UUIDField()
    name = serializers.CharField()
    average = serializers.FloatField(help_text=_("The Seeger-Fabian total per series, to two places."))
    total = serializers.IntegerField()
    series = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text=_("A series counted in it is not accepted yet."))


class RankingShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    league = serializers.UUIDField()
    minimum_series = serializers.IntegerField()
    rows = RankedPlayerShape(many=True)


class CheckedInShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    player = serializers.UUIDField(help_text=_("The player in the club's book."))
    league_player = serializers.UUIDField()
    name = serializers.CharField()
    substitute = serializers.BooleanField()


class LineUpShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    series = serializers.IntegerField()
    team = serializers.UUIDField()
    players = CheckedInShape(many=True, help_text=_("In the order of the line-up."))


class VenueTableShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    series = serializers.IntegerField()
    number = serializers.IntegerField()
    match = serializers.UUIDField(help_text=_("The table's match: score it through the matches' games."))
    paper = serializers.BooleanField(help_text=_("The table's list was kept on paper and entered as totals."))
    seats = SeatShape(many=True)
    met_again = serializers.ListField(
        child=serializers.ListField(child=serializers.UUIDField(), min_length=2, max_length=2),
        help_text=_(
            "The pairs this table seats together (by their seats' player, in seat order) who sat at one table in an "
            "earlier series of the venue: what its seating could not avoid."
        ),
    )


class VenueStateShape(VenueSummaryShape):
    match_day = serializers.UUIDField()
    group = serializers.UUIDField()
    date = serializers.DateField()
    version = serializers.IntegerField(
        help_text=_("Grows with every change to the venue; send it as If-Match to change the venue safely.")
    )
    teams = TeamShape(many=True)  # type: ignore[assignment]  # the venue's own answer names its teams in full
    confirmed = serializers.ListField(
        child=serializers.UUIDField(),
        help_text=_("Teams whose captain confirmed the report as it stands (since its latest correction)."),
    )
    check_ins = LineUpShape(many=True)
    tables = VenueTableShape(many=True)


class VenueChangedShape(VenueStateShape):
    replayed = replayed_field()


class ReportLineShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    player = serializers.UUIDField()
    name = serializers.CharField()
    team = serializers.UUIDField(allow_null=True)
    total = serializers.IntegerField(help_text=_("The Seeger-Fabian total."))
    game_points = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()


class ReportTableShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    number = serializers.IntegerField()
    match = serializers.UUIDField()
    paper = serializers.BooleanField()
    games = serializers.IntegerField()
    complete = serializers.BooleanField(help_text=_("Kept on paper, or every planned game entered."))
    lines = ReportLineShape(many=True)


class SeriesPlaceShape(PointsShape):
    team = serializers.UUIDField()
    score = serializers.IntegerField(help_text=_("The team's series score: its players' totals."))
    place = serializers.IntegerField()


class ReportSeriesShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    series = serializers.IntegerField()
    seated = serializers.BooleanField()
    complete = serializers.BooleanField()
    tables = ReportTableShape(many=True)
    places = SeriesPlaceShape(many=True)


class TeamDayShape(PointsShape):
    team = serializers.UUIDField()
    game_points = serializers.IntegerField()


class ConfirmationShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    team = serializers.UUIDField()
    by = serializers.CharField(
        allow_null=True,
        help_text=_(
            "The username of the captain's account that confirmed it, as the report's page names it; null once that "
            "account was deleted."
        ),
    )
    created_at = serializers.DateTimeField()


class EarlierConfirmationShape(ConfirmationShape):
    corrected_at = serializers.DateTimeField(
        help_text=_("When the correction made after it reopened the report: it confirmed the result before that.")
    )


class CorrectionShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    reason = serializers.CharField(help_text=_("Why: required once the results were accepted."))
    accepted = serializers.BooleanField(
        help_text=_("Whether the league's manager had accepted the results; false: reopened before that.")
    )
    before = serializers.DictField(help_text=_("The teams' series scores as they stood, by series and team."))
    after = serializers.DictField(allow_null=True, help_text=_("As closed again; null while it is open."))
    by = serializers.CharField(
        allow_null=True,
        help_text=_(
            "The username of the account that reopened the venue, as the report's page names it; null once that "
            "account was deleted."
        ),
    )
    created_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


class ReportShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    venue = serializers.UUIDField()
    ready = serializers.BooleanField(help_text=_("The venue closed: every list is complete and locked."))
    provisional = serializers.BooleanField(help_text=_("Not accepted by the league's manager yet."))
    accepted_at = serializers.DateTimeField(
        allow_null=True, help_text=_("When the league's manager accepted the report; null while it is provisional.")
    )
    accepted_by = serializers.CharField(
        allow_null=True,
        help_text=_(
            "The username of the league manager's account that accepted it, as the report's page names it; null "
            "while it is provisional or once that account was deleted."
        ),
    )
    series = ReportSeriesShape(many=True)
    day = TeamDayShape(many=True, help_text=_("Each team's day, best first."))
    confirmed = ConfirmationShape(
        many=True, help_text=_("The captains' confirmations of the report as it stands (since its latest correction).")
    )
    confirmed_before = EarlierConfirmationShape(
        many=True, help_text=_("The captains' confirmations of an earlier result, each made before a correction.")
    )
    corrections = CorrectionShape(many=True)
