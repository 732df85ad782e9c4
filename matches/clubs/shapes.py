"""The shapes of the club app's answers in the API (clubs, seasons, nights, tables and standings), beside the
core's shapes in ``matches/api/shapes.py``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.api.shapes import SeatShape


class ClubShape(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    role = serializers.CharField(help_text=_("Your role at the club."))


class SeasonShape(serializers.Serializer):
    id = serializers.UUIDField()
    club = serializers.UUIDField()
    name = serializers.CharField()
    variant = serializers.CharField()
    scheme = serializers.CharField()
    ranking = serializers.CharField()
    games_at_four = serializers.IntegerField()
    games_at_three = serializers.IntegerField()
    games_at_two = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class ClubDetailShape(ClubShape):
    seasons = SeasonShape(many=True)


class NightShape(serializers.Serializer):
    id = serializers.UUIDField()
    season = serializers.UUIDField()
    date = serializers.DateField()
    series = serializers.IntegerField()
    closed = serializers.BooleanField()


class SeasonDetailShape(SeasonShape):
    nights = NightShape(many=True)


class TableShape(serializers.Serializer):
    series = serializers.IntegerField()
    number = serializers.IntegerField()
    match = serializers.UUIDField()
    paper = serializers.BooleanField()
    seats = SeatShape(many=True)


class NightDetailShape(NightShape):
    tables = TableShape(many=True)


class PlaceShape(serializers.Serializer):
    place = serializers.IntegerField()
    player = serializers.UUIDField()
    name = serializers.CharField()
    score = serializers.FloatField(help_text=_("What the table ranks by (an average to two places)."))
    game_points = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    lists = serializers.IntegerField()
    by_lot = serializers.BooleanField(help_text=_("Tied after every tie-break: placed by lot."))


class SeriesShape(serializers.Serializer):
    series = serializers.IntegerField()
    places = PlaceShape(many=True)


class NightStandingsShape(serializers.Serializer):
    night = serializers.UUIDField()
    places = PlaceShape(many=True)
    series = SeriesShape(many=True)


class SeasonStandingsShape(serializers.Serializer):
    season = serializers.UUIDField()
    nights = serializers.IntegerField()
    places = PlaceShape(many=True)
