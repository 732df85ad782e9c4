"""The admin: for looking, not for scoring. Matches, games, seats and the history change only through the services
(the pages and the API), which move a match's version on for the phones following it; an action rescores matches
through them too."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from .admin_read_only import ReadOnlyAdmin, ReadOnlyInline
from .models import Game, GameScore, Keeper, Match, MatchEvent, Player, Profile, Seat
from .services import match_rescore


class SeatInline(ReadOnlyInline):
    model = Seat


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "keeper", "variant", "scheme", "deals", "version", "created_at")
    list_filter = ("variant", "scheme")
    search_fields = ("title", "keeper__user__username", "seats__player__name")
    inlines = (SeatInline,)
    actions = ("rescore",)

    @admin.action(description="Rescore the selected matches")
    def rescore(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        changed = sum(match_rescore(match).changed for match in queryset)
        self.message_user(request, f"{changed} derived values rewritten.", messages.SUCCESS)


class GameScoreInline(ReadOnlyInline):
    model = GameScore


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "match", "number", "passed", "declarer", "game_value", "deleted", "rules_version")
    list_filter = ("deleted", "passed", "rules_version")
    inlines = (GameScoreInline,)


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "game", "action", "version", "user", "created_at")
    list_filter = ("action",)


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("name", "keeper", "account")
    search_fields = ("name",)


@admin.register(Keeper)
class KeeperAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "created_at")


admin.site.register(Profile)
