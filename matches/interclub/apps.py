from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class InterclubConfig(AppConfig):
    """Leagues between clubs: divisions, groups, teams, their match days at venues and the tables played there, on
    the core of the matches app and the club app (a team's players come from its club's book)."""

    name = "matches.interclub"
    # Not "leagues": the club app holds that label, the one it was first installed under (its apps.py says why); and
    # named apart from it in the admin too, where "leagues" names the club app's tables.
    label = "interclub"
    verbose_name = _("Leagues between clubs")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The core never imports this app: the app tells it what it knows, as every kind of event does.
        from matches.kinds import EventKind, register_kind
        from matches.registry import ClosedLists, MenuEntry
        from matches.standings import KeptStandings

        from . import api, downloads, urls
        from .accounts import LEAGUES_OF_ACCOUNTS
        from .backup import LEAGUE_SECTION
        from .models import Group, Venue
        from .permissions import LEAGUE_SUBJECTS, league_book_role
        from .prints import venue_table_place
        from .selectors import closed_venue_lists, league_book_names
        from .services import group_standings_rescore, venue_kept_results_rescore

        # The results a closed venue keeps, then its group's standings, summed from its venues'.
        venues = Venue.objects.filter(closed_at__isnull=False).select_related("match_day__group__division__league")
        groups = Group.objects.select_related("division__league")
        results = "kept series scores and players' series totals"
        register_kind(
            EventKind(
                name="league",
                book_role=league_book_role,
                subjects=LEAGUE_SUBJECTS,
                section=LEAGUE_SECTION,
                standings=[
                    KeptStandings("venue", results, venues, venue_kept_results_rescore),
                    KeptStandings("group", "teams' and players' kept standings", groups, group_standings_rescore),
                ],
                accounts=LEAGUES_OF_ACCOUNTS,
                table_place=venue_table_place,
                closed_lists=ClosedLists(pgettext_lazy("events", "League match days"), closed_venue_lists, public=True),
                book_names=league_book_names,
                menu=MenuEntry("interclub_leagues", _("Leagues")),
                pages=[*urls.urlpatterns, *downloads.download_urlpatterns],
                api=api.urlpatterns,
                downloads=downloads.LEAGUE_DOWNLOADS,
            )
        )
