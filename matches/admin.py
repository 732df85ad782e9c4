"""The admin: for looking, not for scoring. Matches, games, seats and the history change only through the services
(the pages and the API), which move a match's version on for the phones following it; an action rescores matches
through them too."""

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from .accounts import account_delete, account_deletion
from .admin_read_only import ReadOnlyAdmin, ReadOnlyInline
from .errors import ServiceError
from .models import Game, GameScore, Keeper, Match, MatchEvent, Player, Profile, Seat
from .refusals import refusal_as_messages
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


admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's accounts, deleted one at a time as their owners delete them (``accounts.account_delete``): matches
    handed over or deleted with the book, roles ended, refused for whoever alone runs a club, a league or a
    tournament, with why."""

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> HttpResponse:
        user = self.get_object(request, unquote(object_id))
        if user is None:
            return super().delete_view(request, object_id, extra_context)
        kept = account_deletion(user).groups_kept
        for message in kept:
            self.message_user(request, message.render(), messages.ERROR)
        if not kept:
            try:
                return super().delete_view(request, object_id, extra_context)
            except ServiceError as error:
                # Made the sole owner of something meanwhile: the service, under its lock, refused.
                refusal_as_messages(request, error)
        return HttpResponseRedirect(reverse("admin:auth_user_change", args=[user.pk]))

    def delete_model(self, request: HttpRequest, obj: User) -> None:
        account_delete(user=obj)
