from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from .views import take_along

        user_logged_in.connect(take_along, dispatch_uid="matches.take_along")
