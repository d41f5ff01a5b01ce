from __future__ import annotations

from django.urls import path

from sessions_app.api import graph as api_graph
from sessions_app.api import risk as api_risk
from sessions_app.api import sessions as api
from sessions_app.api import turns as api_turns
from sessions_app.api import workspace as api_workspace

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
    path("ask/sessions/<uuid:session_id>/tree", api_graph.SessionTreeApi.as_view(), name="tree"),
    path("ask/sessions/<uuid:session_id>/fork", api_graph.SessionForkApi.as_view(), name="fork"),
    path(
        "ask/sessions/<uuid:session_id>/worklines",
        api_graph.WorklineListApi.as_view(),
        name="worklines",
    ),
    path(
        "ask/sessions/<uuid:session_id>/worklines/<int:workline_id>/activate",
        api_graph.WorklineActivateApi.as_view(),
        name="workline-activate",
    ),
    path(
        "ask/sessions/<uuid:session_id>/spin-off", api_graph.SpinOffApi.as_view(), name="spin-off"
    ),
    path(
        "ask/sessions/<uuid:session_id>/spin-off/<int:proposal_id>/decide",
        api_graph.SpinOffDecideApi.as_view(),
        name="spin-off-decide",
    ),
    path(
        "ask/sessions/<uuid:session_id>/state",
        api_turns.SessionStateApi.as_view(),
        name="session-state",
    ),
    path(
        "ask/sessions/<uuid:session_id>/answers",
        api_turns.SessionAnswerApi.as_view(),
        name="session-answers",
    ),
    path(
        "ask/sessions/<uuid:session_id>/messages",
        api_turns.SessionMessageApi.as_view(),
        name="session-messages",
    ),
    path(
        "ask/sessions/<uuid:session_id>/continue",
        api_turns.SessionContinueApi.as_view(),
        name="session-continue",
    ),
    path(
        "ask/sessions/<uuid:session_id>/end",
        api_turns.SessionEndApi.as_view(),
        name="session-end",
    ),
    path(
        "ask/sessions/<uuid:session_id>/last-thing",
        api_turns.SessionLastThingApi.as_view(),
        name="session-last-thing",
    ),
    path(
        "ask/sessions/<uuid:session_id>/risk",
        api_risk.SessionRiskApi.as_view(),
        name="session-risk",
    ),
    # The counselor's workspace (issue 14).
    path(
        "ask/sessions/<uuid:session_id>/claim",
        api_workspace.SessionClaimApi.as_view(),
        name="session-claim",
    ),
    path(
        "ask/sessions/<uuid:session_id>/take-over",
        api_workspace.SessionTakeOverApi.as_view(),
        name="session-take-over",
    ),
    path(
        "ask/sessions/<uuid:session_id>/counselor-messages",
        api_workspace.CounselorMessageApi.as_view(),
        name="session-counselor-messages",
    ),
    path(
        "ask/sessions/<uuid:session_id>/hand-back",
        api_workspace.SessionHandBackApi.as_view(),
        name="session-hand-back",
    ),
    path(
        "ask/sessions/<uuid:session_id>/steer",
        api_workspace.SessionSteerApi.as_view(),
        name="session-steer",
    ),
    path("ask/export", api.ExportApi.as_view(), name="export"),
    path("notifications", api.NotificationListApi.as_view(), name="notification-list"),
    path(
        "notifications/<int:notification_id>/read",
        api.NotificationReadApi.as_view(),
        name="notification-read",
    ),
]
