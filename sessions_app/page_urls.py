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
    path(
        "sessions/<uuid:session_id>/worklines/<int:workline_id>/activate/",
        views.session_workline_activate,
        name="session-workline-activate",
    ),
    path("sessions/<uuid:session_id>/risk/", views.session_risk, name="session-risk"),
    # The counselor's workspace (issue 14).
    path("sessions/<uuid:session_id>/claim/", views.session_claim, name="session-claim"),
    path(
        "sessions/<uuid:session_id>/take-over/", views.session_take_over, name="session-take-over"
    ),
    path(
        "sessions/<uuid:session_id>/counselor-message/",
        views.session_counselor_message,
        name="session-counselor-message",
    ),
    path(
        "sessions/<uuid:session_id>/hand-back/", views.session_hand_back, name="session-hand-back"
    ),
    path("sessions/<uuid:session_id>/steer/", views.session_steer, name="session-steer"),
    path("sandbox/", views.sandbox_home, name="sandbox"),
    path("sandbox/start/", views.sandbox_start, name="sandbox-start"),
    path("sandbox/<uuid:session_id>/answer/", views.sandbox_answer, name="sandbox-answer"),
    path("sandbox/<uuid:session_id>/message/", views.sandbox_message, name="sandbox-message"),
    path("sandbox/<uuid:session_id>/continue/", views.sandbox_continue, name="sandbox-continue"),
    path("sandbox/<uuid:session_id>/end/", views.sandbox_end, name="sandbox-end"),
    path(
        "sandbox/<uuid:session_id>/last-thing/",
        views.sandbox_last_thing,
        name="sandbox-last-thing",
    ),
]
