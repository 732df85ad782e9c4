from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class ClubsConfig(AppConfig):
    """Clubs, their seasons, club nights and tables: on the core of the matches app."""

    name = "matches.clubs"
    # The label the app was first installed under, kept: it names the tables (leagues_club, leagues_night, ...), the
    # app's rows in django_migrations, its content types and permissions, and the app's migrations name it. Another
    # label would have every existing database rename its tables and rewrite those rows, on SQLite and PostgreSQL,
    # for no gain to anybody using it. The leagues between clubs are an app of their own, under another label.
    label = "leagues"
    verbose_name = pgettext_lazy("associations", "Clubs")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The core never imports the club app: the app tells it what it knows, as every kind of event does.
        from matches.kinds import EventKind, register_kind
        from matches.registry import ClosedLists, MenuEntry
        from matches.standings import KeptStandings

        from . import api, urls
        from .accounts import CLUBS_OF_ACCOUNTS
        from .backup import CLUB_SECTION
        from .downloads import CLUB_DOWNLOADS
        from .models import Night, Season
        from .permissions import CLUB_SUBJECTS, club_book_role
        from .prints import table_place_of
        from .selectors import closed_club_lists, club_book_names, club_circles_of, clubs_of_member, seasons_of_members
        from .services import night_standings_rescore, season_standings_rescore
        from .views import closed_table_link

        # The sums a closed night keeps, then the season's, summed from its nights'.
        nights = Night.objects.filter(closed_at__isnull=False).select_related("season__club")
        seasons = Season.objects.select_related("club")
        register_kind(
            EventKind(
                name="club",
                book_role=club_book_role,
                subjects=CLUB_SUBJECTS,
                section=CLUB_SECTION,
                standings=[
                    KeptStandings("club night", "players' kept sums", nights, night_standings_rescore),
                    KeptStandings("season", "players' kept sums", seasons, season_standings_rescore),
                ],
                accounts=CLUBS_OF_ACCOUNTS,
                table_place=table_place_of,
                closed_lists=ClosedLists(
                    pgettext_lazy("events", "Club nights"),
                    closed_club_lists,
                    shared_with=seasons_of_members,
                    circles=clubs_of_member,
                    circles_of=club_circles_of,
                ),
                gone_link_page=closed_table_link,
                book_names=club_book_names,
                menu=MenuEntry("club_list", pgettext_lazy("associations", "Clubs")),
                pages=urls.urlpatterns,
                api=api.urlpatterns,
                downloads=CLUB_DOWNLOADS,
            )
        )
