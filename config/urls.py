from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.permissions import AllowAny

from sessions_app.api.auth import LoginApi, LogoutApi
from sessions_app.api.errors import UnknownApiPath
from sessions_app.edge import health
from sessions_app.forms import StaffAuthenticationForm

# Swagger UI boots from an inline script and styles its widgets inline: its page alone relaxes
# the site's Content-Security-Policy (settings.SECURE_CSP) for those, nothing else.
docs_csp = csp_override(
    {
        "default-src": [CSP.SELF],
        "script-src": [CSP.SELF, CSP.UNSAFE_INLINE],
        "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
        "img-src": [CSP.SELF, "data:"],
        "frame-ancestors": [CSP.NONE],
    }
)

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
        docs_csp(
            SpectacularSwaggerView.as_view(url_name="api:schema", permission_classes=[AllowAny])
        ),
        name="docs",
    ),
]

admin.site.site_header = _("Naisei administration")
admin.site.site_title = _("Naisei admin")
admin.site.index_title = _("Sessions, people and the psychologist")

urlpatterns = [
    # Probes for load balancers and orchestrators, outside /api/ (no auth, no schema).
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("api/", include((api_urlpatterns, "api"))),
    path("api/", include("sessions_app.urls")),
    path("api/", include("psychologist.urls")),
    # Last under /api/: an unknown path is JSON E_NOT_FOUND even with DEBUG on.
    path("api/<path:rest>", UnknownApiPath.as_view(), name="api-not-found"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            authentication_form=StaffAuthenticationForm, redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The staff pages' language switcher posts here (Django's set_language: a cookie).
    path("i18n/", include("django.conf.urls.i18n")),
    path("insights/", include("insights.urls")),
    path("insights/", include("psychologist.page_urls")),
    path("", include("sessions_app.page_urls")),
]

# Django's own 404/500 answer JSON under /api/ (sessions_app.api.errors).
handler404 = "sessions_app.api.errors.page_not_found"
handler500 = "sessions_app.api.errors.server_error"
