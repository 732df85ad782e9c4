"""The admin of clubs: for looking. Nights are closed and reopened, and tables drawn, only through the services."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from matches.admin_inlines import ReadOnlyInline

from .models import Attendance, Club, ClubTable, Membership, Night, NightLog, Season


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)
    readonly_fields = ("public_id", "keeper", "screen_token")
    inlines = (MembershipInline,)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "variant", "scheme", "ranking", "created_at")
    list_filter = ("variant", "scheme", "ranking")
    readonly_fields = ("public_id", "club", "variant", "scheme", "rules", "plan")


class AttendanceInline(ReadOnlyInline):
    model = Attendance


class TableInline(ReadOnlyInline):
    model = ClubTable


class LogInline(ReadOnlyInline):
    model = NightLog


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ("__str__", "date", "series", "closed_at")
    readonly_fields = ("public_id", "season", "seed", "closed_at")
    inlines = (AttendanceInline, TableInline, LogInline)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A closed night's kept sums are part of its season's: a night goes only with its season.
        return False
