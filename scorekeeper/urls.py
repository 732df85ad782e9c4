from django.contrib import admin
from django.urls import include, path

from matches import views

urlpatterns = [
    path("", views.home, name="home"),
    path("api/v1/", include("matches.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
