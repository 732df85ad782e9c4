from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KnockoutConfig(AppConfig):
    """A one-night knockout: a kind of event installed for the tests only (``tests/settings.py``), that proves a new
    kind gets what every kind shares by one registration."""

    name = "tests.knockout"
    label = "knockout"
    verbose_name = _("Knockouts")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from matches.kinds import EventKind, register_kind
        from matches.registry import MenuEntry
        from matches.standings import KeptStandings

        from ..event_things import register_things
        from . import api, views
        from .accounts import KNOCKOUTS_OF_ACCOUNTS
        from .backup import KNOCKOUT_SECTION
        from .downloads import KNOCKOUT_DOWNLOADS
        from .models import Knockout
        from .permissions import KNOCKOUT_SUBJECTS, knockout_book_role, knockout_table_place
        from .services import knockout_standings_rescore
        from .things import knockout_things

        register_kind(
            EventKind(
                name="knockout",
                book_role=knockout_book_role,
                subjects=KNOCKOUT_SUBJECTS,
                section=KNOCKOUT_SECTION,
                standings=[
                    KeptStandings(
                        "knockout", "players' kept game points", Knockout.objects.all(), knockout_standings_rescore
                    )
                ],
                accounts=KNOCKOUTS_OF_ACCOUNTS,
                table_place=knockout_table_place,
                menu=MenuEntry("knockouts", _("Knockouts")),
                pages=views.urlpatterns,
                api=api.urlpatterns,
                downloads=KNOCKOUT_DOWNLOADS,
            )
        )
        # What the persona matrix and the schema fuzzer ask its addresses about.
        register_things("knockout", knockout_things)
