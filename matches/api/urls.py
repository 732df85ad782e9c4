from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from ..permissions import public
from .views import CalculateView, VariantListView

app_name = "api"

urlpatterns = [
    path("calculate/", public(CalculateView.as_view()), name="calculate"),
    path("variants/", public(VariantListView.as_view()), name="variants"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
