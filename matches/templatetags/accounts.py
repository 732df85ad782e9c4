"""What the menu of every page shows: the apps' entries, and the log-in and sign-up links with what they carry
along."""

from django import template
from django.http import HttpRequest

from ..registry import MenuEntry, menu_entries

register = template.Library()

# The pages that are about the account itself, and the home page, which leads on to a new match after signing up.
_NOT_RETURNED_TO = {"home", "login", "signup", "logout", "password_reset", "password_reset_done"}


@register.simple_tag(takes_context=True)
def back_here(context: template.Context) -> str:
    """The page to come back to after logging in or signing up from it: this page, or on the account pages the
    ``next`` they were given; empty when there is none (an address that names no page leads nowhere back)."""
    request: HttpRequest | None = context.get("request")
    if request is None or request.resolver_match is None:
        return ""
    match = request.resolver_match
    if match.url_name in _NOT_RETURNED_TO:
        return str(request.GET.get("next", ""))
    return request.get_full_path()


@register.simple_tag
def app_menu() -> tuple[MenuEntry, ...]:
    """The entries the apps on the core add to the main menu."""
    return menu_entries()
