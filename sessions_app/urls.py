from __future__ import annotations

from django.urls import path

from sessions_app.api import graph as api_graph
from sessions_app.api import profile as api_profile
from sessions_app.api import risk as api_risk
from sessions_app.api import sessions as api
from sessions_app.api import stream as api_stream
from sessions_app.api import tasks as api_tasks
from sessions_app.api import turns as api_turns
from sessions_app.api import workspace as api_workspace
from sessions_app.api.base import session_path

app_name = "sessions"

urlpatterns = [
    path("ask/sessions", api.SessionListApi.as_view(), name="session-list"),
    path(
        "ask/sessions/by-dify/<uuid:dify_conversation_id>",
        api.SessionByDifyApi.as_view(),
        name="session-by-dify",
    ),
    path("ask/sessions/<uuid:session_id>", api.SessionDetailApi.as_view(), name="session-detail"),
    session_path("modality", api.SessionModalityApi, "session-modality"),
    session_path("tree", api_graph.SessionTreeApi, "tree"),
    session_path("fork", api_graph.SessionForkApi, "fork"),
    session_path("worklines", api_graph.WorklineListApi, "worklines"),
    session_path(
        "worklines/<int:workline_id>/activate", api_graph.WorklineActivateApi, "workline-activate"
    ),
    session_path("spin-off", api_graph.SpinOffApi, "spin-off"),
    session_path(
        "spin-off/<int:proposal_id>/decide", api_graph.SpinOffDecideApi, "spin-off-decide"
    ),
    session_path("state", api_turns.SessionStateApi, "session-state"),
    session_path("stream", api_stream.SessionStreamApi, "session-stream"),
    session_path("answers", api_turns.SessionAnswerApi, "session-answers"),
    session_path("messages", api_turns.SessionMessageApi, "session-messages"),
    session_path("continue", api_turns.SessionContinueApi, "session-continue"),
    session_path("end", api_turns.SessionEndApi, "session-end"),
    session_path("last-thing", api_turns.SessionLastThingApi, "session-last-thing"),
    session_path("risk", api_risk.SessionRiskApi, "session-risk"),
    # The counselor's workspace (docs/decisions/0001-a-counselor-takes-over.md).
    session_path("claim", api_workspace.SessionClaimApi, "session-claim"),
    session_path("take-over", api_workspace.SessionTakeOverApi, "session-take-over"),
    session_path(
        "counselor-messages", api_workspace.CounselorMessageApi, "session-counselor-messages"
    ),
    session_path("hand-back", api_workspace.SessionHandBackApi, "session-hand-back"),
    session_path("steer", api_workspace.SessionSteerApi, "session-steer"),
    # CBT homework between sessions (docs/decisions/0004-cbt-homework-between-sessions.md).
    path("ask/tasks", api_tasks.TaskListApi.as_view(), name="task-list"),
    path("ask/tasks/<uuid:task_id>", api_tasks.TaskDetailApi.as_view(), name="task-detail"),
    path("ask/tasks/<uuid:task_id>/accept", api_tasks.TaskAcceptApi.as_view(), name="task-accept"),
    path("ask/tasks/<uuid:task_id>/skip", api_tasks.TaskSkipApi.as_view(), name="task-skip"),
    path("ask/tasks/<uuid:task_id>/done", api_tasks.TaskDoneApi.as_view(), name="task-done"),
    path("ask/export", api.ExportApi.as_view(), name="export"),
    path("profile", api_profile.ProfileApi.as_view(), name="profile"),
    path(
        "profile/vault-consent", api_profile.VaultConsentApi.as_view(), name="profile-vault-consent"
    ),
    path("notifications", api.NotificationListApi.as_view(), name="notification-list"),
    path(
        "notifications/<int:notification_id>/read",
        api.NotificationReadApi.as_view(),
        name="notification-read",
    ),
]
