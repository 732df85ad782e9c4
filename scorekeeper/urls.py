from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from matches.api.errors import no_such_address

# Django's account pages, but for the password reset, which the app answers itself (it limits the mails it sends, and a
# new password lifts the login lockout).
accounts = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]

urlpatterns = [
    path("", include("matches.urls")),
    path("accounts/", include(accounts)),
    path("api/v1/", include("matches.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # Under the API's addresses, one that names nothing is its JSON 404 with DEBUG on too (Django would answer its
    # page for developers, in HTML).
    re_path(r"^api/", no_such_address),
]

# An address that names nothing: under the API's, the API's JSON 404; elsewhere Django's page.
handler404 = "matches.api.errors.not_found"
