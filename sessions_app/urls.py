from __future__ import annotations

from django.urls import path

from sessions_app import api

app_name = "sessions"

urlpatterns = [
    path("ask/sessions", api.SessionListApi.as_view(), name="session-list"),
    path(
        "ask/sessions/by-dify/<uuid:dify_conversation_id>",
        api.SessionByDifyApi.as_view(),
        name="session-by-dify",
    ),
    path("ask/sessions/<uuid:session_id>", api.SessionDetailApi.as_view(), name="session-detail"),
    path(
        "ask/sessions/<uuid:session_id>/modality",
        api.SessionModalityApi.as_view(),
        name="session-modality",
    ),
    path("ask/export", api.ExportApi.as_view(), name="export"),
    path("notifications", api.NotificationListApi.as_view(), name="notification-list"),
    path(
        "notifications/<int:notification_id>/read",
        api.NotificationReadApi.as_view(),
        name="notification-read",
    ),
]
