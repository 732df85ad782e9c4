"""The account pages: the account's own page, deleting the account, a password reset that sends only so many mails,
and the answer to a login refused for too many failures (the pages' and the API's)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import PasswordResetConfirmView, PasswordResetView
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache

from .accounts import account_delete, account_deletion, login_lockout_lift, password_reset_allowed
from .errors import ServiceError
from .forms.accounts import AccountDeleteForm
from .labels import match_label, render_step
from .permissions import signed_in, signed_in_account
from .preferences import deck_of


def client_address(request: HttpRequest) -> str | None:
    """The client's network address: the connection's, or behind ``PROXY_COUNT`` proxies the one the outermost of
    them wrote at the end of X-Forwarded-For (what a client wrote there itself comes before it and is not read)."""
    proxies: int = settings.PROXY_COUNT
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if proxies and len(hops) >= proxies:
        return hops[-proxies]
    address: str | None = request.META.get("REMOTE_ADDR")
    return address


@signed_in
@never_cache
def account(request: HttpRequest) -> HttpResponse:
    """The account's own page: its name and address, and what can be done with it."""
    return render(request, "registration/account.html")


@signed_in
@never_cache
def account_delete_view(request: HttpRequest) -> HttpResponse:
    """What deleting the account does, listed; done after the password is given again."""
    user = signed_in_account(request)
    form = AccountDeleteForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            account_delete(user=user)
        except ServiceError as error:
            form.add_error(None, render_step(error.errors[0].message, deck_of(request)))
            return _delete_page(request, form, status=error.status)
        logout(request)
        messages.success(request, _("Your account is deleted."))
        return redirect("home")
    return _delete_page(request, form, status=400 if form.errors else 200)


def _delete_page(request: HttpRequest, form: AccountDeleteForm, *, status: int) -> HttpResponse:
    plan = account_deletion(signed_in_account(request))
    context: dict[str, Any] = {
        "form": form,
        "plan": plan,
        "handed_over": [(match_label(handover.match), handover.to.username) for handover in plan.handed_over],
        "deleted": [match_label(match) for match in plan.deleted],
        "groups_left": [render_step(message) for message in plan.groups_left],
        "groups_kept": [render_step(message) for message in plan.groups_kept],
    }
    return render(request, "registration/account_delete.html", context, status=status)


def _cooloff_minutes() -> int:
    return max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def locked_out(request: HttpRequest, response: HttpResponse | None, credentials: dict[str, Any] | None) -> HttpResponse:
    """The answer to a login refused for too many failures (axes' ``AXES_LOCKOUT_CALLABLE``): the login page with
    the reason, or for the API a JSON message; 429 with ``Retry-After`` either way."""
    minutes = _cooloff_minutes()
    message = ngettext(
        "Too many failed logins: logging in is paused for %(minutes)d minute after the last try. Try again later.",
        "Too many failed logins: logging in is paused for %(minutes)d minutes after the last try. Try again later.",
        minutes,
    ) % {"minutes": minutes}
    match = request.resolver_match
    if match is not None and match.namespace == "api":
        answer: HttpResponse = JsonResponse({"detail": message}, status=429)
    else:
        username = (credentials or {}).get("username") or request.POST.get("username", "")
        form = AuthenticationForm(request, initial={"username": username})
        context = {"form": form, "locked": message, "next": request.POST.get("next", "")}
        answer = render(request, "registration/login.html", context, status=429)
    answer["Retry-After"] = str(minutes * 60)
    return answer


class LimitedPasswordResetView(PasswordResetView):
    """Django's password reset, sending at most a few mails an hour for one address and from one client."""

    def form_valid(self, form: Any) -> HttpResponse:
        client = client_address(self.request) or ""
        if not password_reset_allowed(address=form.cleaned_data["email"], client=client):
            form.add_error(
                None,
                _("Too many reset links were asked for: try again in an hour. Links already sent keep working."),
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


class LockLiftingPasswordResetConfirmView(PasswordResetConfirmView):
    """Django's new password from a reset link; the user name's login lockout ends with it (whoever owns the mail
    address has shown who they are)."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        login_lockout_lift(form.user)
        return response
