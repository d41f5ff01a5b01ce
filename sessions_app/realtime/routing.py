"""Websocket routes (SPEC §8); `config.asgi` puts the authentication middleware in front."""

from __future__ import annotations

from django.urls import URLPattern, path

from sessions_app.realtime import consumers

websocket_urlpatterns: list[URLPattern] = [
    path(
        "ws/sessions/<uuid:session_id>/",
        consumers.SessionEventsConsumer.as_asgi(),
        name="ws-session",
    ),
    path("ws/counselors/", consumers.CounselorsConsumer.as_asgi(), name="ws-counselors"),
    path(
        "ws/notifications/",
        consumers.NotificationsConsumer.as_asgi(),
        name="ws-notifications",
    ),
]
