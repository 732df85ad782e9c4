from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import pre_save
from django.urls import register_converter
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from .api.tokens import revoke_tokens_on_new_password
        from .converters import LinkToken
        from .downloads import Download, register_download
        from .models import Person, RankingList
        from .permissions import Subject, found_in, register_subject
        from .rankings import ranking_allows
        from .records import person_allows
        from .registry import register_gone_invite_page
        from .views.accounts import take_along
        from .views.rankings import ranking_file, ranking_printed
        from .views.sharing import ended_link_page

        register_converter(LinkToken, "link")
        register_subject("person", Subject(Person, found_in(lambda: Person.objects.all()), person_allows))
        register_subject("ranking", Subject(RankingList, found_in(lambda: RankingList.objects.all()), ranking_allows))
        register_download(Download("ranking", "list", ranking_file, ranking_printed, parted=True, query=("edition",)))
        # Asked after the apps' own pages, which know more of their tables (a club night's standings).
        register_gone_invite_page(ended_link_page, fallback=True)

        user_logged_in.connect(take_along, dispatch_uid="matches.take_along")
        pre_save.connect(
            revoke_tokens_on_new_password, sender=get_user_model(), dispatch_uid="matches.revoke_tokens_on_new_password"
        )
