"""The admin of clubs: for looking. A club, its members, a season's settings and a night change only through the
services (the pages and the API), which keep the versions, the kept sums and a club's last owner."""

from django.contrib import admin

from matches.admin_read_only import ReadOnlyAdmin, ReadOnlyInline

from .models import Attendance, Club, ClubTable, Membership, Night, NightLog, Season


class MembershipInline(ReadOnlyInline):
    model = Membership


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)
    inlines = (MembershipInline,)


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "variant", "scheme", "ranking", "created_at")
    list_filter = ("variant", "scheme", "ranking")


class AttendanceInline(ReadOnlyInline):
    model = Attendance


class TableInline(ReadOnlyInline):
    model = ClubTable


class LogInline(ReadOnlyInline):
    model = NightLog


@admin.register(Night)
class NightAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "date", "series", "closed_at")
    inlines = (AttendanceInline, TableInline, LogInline)
