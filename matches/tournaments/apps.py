from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Open tournaments ("Preisskat"): entries, series drawn and seated, tables as matches, the prize list and the
    cashier's list, on the core of the matches app (an organiser may be a club of the club app)."""

    name = "matches.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The core never imports this app: the app tells it what it knows, as every kind of event does.
        from matches.kinds import EventKind, register_kind
        from matches.registry import ClosedLists, MenuEntry
        from matches.standings import KeptStandings

        from . import api, downloads, urls
        from .accounts import TOURNAMENTS_OF_ACCOUNTS
        from .backup import TOURNAMENT_SECTION
        from .models import Tournament
        from .permissions import TOURNAMENT_SUBJECTS, tournament_book_role
        from .selectors import closed_tournament_lists, tournament_book_names, tournament_table_place
        from .services import series_lists_rescore, tournament_standings_rescore

        # The lists each closed series keeps, then the places, ranked from them.
        tournaments = Tournament.objects.all()
        register_kind(
            EventKind(
                name="tournament",
                book_role=tournament_book_role,
                subjects=TOURNAMENT_SUBJECTS,
                section=TOURNAMENT_SECTION,
                standings=[
                    KeptStandings("tournament", "players' kept series lists", tournaments, series_lists_rescore),
                    KeptStandings("tournament", "entrants' kept places", tournaments, tournament_standings_rescore),
                ],
                accounts=TOURNAMENTS_OF_ACCOUNTS,
                table_place=tournament_table_place,
                closed_lists=ClosedLists(_("Tournaments"), closed_tournament_lists, public=True),
                book_names=tournament_book_names,
                menu=MenuEntry("tournaments:list", _("Tournaments")),
                pages=[*urls.urlpatterns, *downloads.download_urlpatterns],
                api=api.urlpatterns,
                downloads=downloads.TOURNAMENT_DOWNLOADS,
                file_makers={kind: downloads.make_print(kind) for kind in downloads.PRINTS},
            )
        )
