from __future__ import annotations

from django.urls import path

from psychologist import api

app_name = "psychologist"

urlpatterns = [
    path(
        "ask/sessions/<uuid:session_id>/psychologist/reanalyze",
        api.ReanalyzeApi.as_view(),
        name="session-reanalyze",
    ),
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
