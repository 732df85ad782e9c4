from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("matches.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/", include("matches.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
