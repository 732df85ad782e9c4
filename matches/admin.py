"""The admin: for looking, not for scoring. Derived data is read only, and games, seats and the history change only
through the services (the pages and the API); an action rescores matches through them too."""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from .admin_inlines import ReadOnlyInline
from .models import Game, GameScore, Keeper, Match, MatchEvent, Player, Profile, Seat
from .services import match_rescore


class SeatInline(ReadOnlyInline):
    model = Seat


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "keeper", "variant", "scheme", "deals", "version", "created_at")
    list_filter = ("variant", "scheme")
    search_fields = ("title", "keeper__user__username", "seats__player__name")
    readonly_fields = (
        "public_id",
        "keeper",
        "created_by",
        "variant",
        "scheme",
        "rules",
        "preset",
        "players",
        "first_dealer",
        "planned_games",
        "version",
        "locked",
        "deals",
        "totals",
        "invite_token",
        "share_token",
    )
    fields = ("title", *readonly_fields)
    inlines = (SeatInline,)
    actions = ("rescore",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Rescore the selected matches")
    def rescore(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        changed = sum(match_rescore(match).changed for match in queryset)
        self.message_user(request, f"{changed} derived values rewritten.", messages.SUCCESS)


class GameScoreInline(ReadOnlyInline):
    model = GameScore


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
