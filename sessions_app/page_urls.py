"""The staff's browser pages (HTML); the API's routes are in `urls.py` under /api/."""

from __future__ import annotations

from django.urls import path

from sessions_app import views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("sessions/<uuid:session_id>/", views.session_detail, name="session"),
    path(
        "sessions/<uuid:session_id>/continue-from/",
        views.session_continue_from,
        name="session-continue-from",
    ),
]
