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
        # The core never imports the club app: it asks its registry, where the club app says what it knows.
        from matches.accounts import register_groups
        from matches.backup import register_section
        from matches.permissions import register_book_role, register_subject
        from matches.registry import (
            MenuEntry,
            register_gone_invite_page,
            register_menu_entry,
            register_table_place_reader,
            register_urls,
        )
        from matches.standings import KeptStandings, register_kept_standings

        from . import api, urls
        from .accounts import CLUBS_OF_ACCOUNTS
        from .backup import CLUB_SECTION
        from .models import Night, Season
        from .permissions import CLUB_SUBJECTS, club_book_role
        from .prints import table_place_of
        from .services import night_standings_rescore, season_standings_rescore
        from .views import closed_table_link

        register_book_role(club_book_role)
        for name, subject in CLUB_SUBJECTS.items():
            register_subject(name, subject)
        register_table_place_reader(table_place_of)
        register_gone_invite_page(closed_table_link)
        register_section(CLUB_SECTION)
        # The sums a closed night keeps, then the season's, summed from its nights'.
        nights = Night.objects.filter(closed_at__isnull=False).select_related("season__club")
        register_kept_standings(KeptStandings("club night", "players' kept sums", nights, night_standings_rescore))
        seasons = Season.objects.select_related("club")
        register_kept_standings(KeptStandings("season", "players' kept sums", seasons, season_standings_rescore))
        register_groups(CLUBS_OF_ACCOUNTS)
        register_menu_entry(MenuEntry("club_list", pgettext_lazy("associations", "Clubs")))
        register_urls(pages=urls.urlpatterns, api=api.urlpatterns)
