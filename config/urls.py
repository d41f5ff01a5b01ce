from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.permissions import AllowAny

from sessions_app.auth_api import LoginApi, LogoutApi

# The API's own pieces that belong to no app: authentication and the OpenAPI document.
api_urlpatterns = [
    path("auth/token", LoginApi.as_view(), name="auth-token"),
    path("auth/logout", LogoutApi.as_view(), name="auth-logout"),
    path(
        "schema/",
        SpectacularAPIView.as_view(permission_classes=[AllowAny]),
        name="schema",
    ),
    path(
        "docs/",
        SpectacularSwaggerView.as_view(url_name="api:schema", permission_classes=[AllowAny]),
        name="docs",
    ),
]

admin.site.site_header = "Naisei administration"
admin.site.site_title = "Naisei admin"
admin.site.index_title = "Sessions, people and the psychologist"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include((api_urlpatterns, "api"))),
    path("api/", include("sessions_app.urls")),
    path("api/", include("psychologist.urls")),
]

# Django's own 404/500 answer JSON under /api/ (sessions_app.api_errors).
handler404 = "sessions_app.api_errors.page_not_found"
handler500 = "sessions_app.api_errors.server_error"
