from __future__ import annotations

from django.urls import path

from psychologist import api
from sessions_app.api.base import session_path

app_name = "psychologist"

urlpatterns = [
    session_path("psychologist/reanalyze", api.ReanalyzeApi, "session-reanalyze"),
    path("psychologist/hypotheses", api.HypothesisListApi.as_view(), name="hypothesis-list"),
    path(
        "psychologist/hypotheses/<int:hypothesis_id>/accept",
        api.HypothesisAcceptApi.as_view(),
        name="hypothesis-accept",
    ),
    path(
        "psychologist/hypotheses/<int:hypothesis_id>/dismiss",
        api.HypothesisDismissApi.as_view(),
        name="hypothesis-dismiss",
    ),
]
