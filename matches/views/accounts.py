"""Signing up, taking a guest's matches along on logging in, and the reader's preferences (language, cards)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from ..forms.accounts import SignupForm
from ..models import Deck, Profile
from ..permissions import (
    GUEST_SESSION_KEY,
    LINKS_SESSION_KEY,
    Visitor,
    public,
    request_account,
)
from ..preferences import DECK_SESSION_KEY
from ..selectors import (
    guest_match_count,
)
from ..services import (
    keeper_claim,
    match_links_claim,
)


@public
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        Profile.objects.create(user=user)
        login(request, user, backend="matches.backends.AccountBackend")
        target = request.GET.get("next", "")
        if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
            return redirect(target)
        return redirect("match_new")
    return render(request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")})


def keep_guest(request: HttpRequest, visitor: Visitor) -> None:
    """A guest's book lives as long as the session that holds its key: each visit keeps the session for another
    full term, so that a book in use every week does not expire."""
    if visitor.guest is not None:
        request.session.modified = True


def take_along(sender: object, request: HttpRequest | None, user: User, **kwargs: object) -> None:
    """On logging in (signing up logs in too): what this browser kept without an account comes along: the guest's
    book becomes the account's, and the invite links it held make the account a co-scorer of those matches."""
    if request is None:
        return
    key = request.session.pop(GUEST_SESSION_KEY, None)
    kept = guest_match_count(key)
    keeper_claim(key=key, user=user)
    if kept:
        message = ngettext(
            "The match started in this browser is kept in your account.",
            "The %(count)d matches started in this browser are kept in your account.",
            kept,
        ) % {"count": kept}
        messages.success(request, message, fail_silently=True)
    links = request.session.pop(LINKS_SESSION_KEY, {})
    if isinstance(links, dict):
        match_links_claim(links=links, user=user)


def _back_to(request: HttpRequest, target: str) -> str:
    """``target`` if it is a page of this site (over HTTPS if this request came so), else the home page."""
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return reverse("home")
    return target


@public
@require_safe
def preferences(request: HttpRequest) -> HttpResponse:
    """The language and the suit names, chosen on a page of their own (linked at the bottom of every page); each
    choice leads back to the page the visitor came from (``next``)."""
    return render(request, "matches/preferences.html", {"next": _back_to(request, request.GET.get("next", ""))})


@public
@require_POST
def set_deck(request: HttpRequest) -> HttpResponseRedirect:
    """French or German suit names: kept in the profile, or for a visitor (a spectator) in the session."""
    deck = request.POST.get("deck", Deck.FRENCH)
    account = request_account(request)
    if deck in Deck.values:
        if account is not None:
            Profile.objects.update_or_create(user=account, defaults={"deck": deck})
        else:
            request.session[DECK_SESSION_KEY] = deck
    return HttpResponseRedirect(_back_to(request, request.POST.get("next", "")))
