from django.contrib import admin

from .models import Game, GameScore, Match, MatchEvent, Player, Profile, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner", "variant", "scheme", "created_at")
    list_filter = ("variant", "scheme")
    search_fields = ("title", "owner__username", "seats__player__name")
    inlines = (SeatInline,)


class GameScoreInline(admin.TabularInline):
    model = GameScore
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "match", "position", "passed", "declarer", "game_value", "deleted")
    list_filter = ("deleted", "passed")
    inlines = (GameScoreInline,)


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):
    list_display = ("match", "game", "action", "user", "created_at")
    list_filter = ("action",)


admin.site.register(Player)
admin.site.register(Profile)
