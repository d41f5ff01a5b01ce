"""The psychologist's browser moves (HTML), mounted under /insights/ beside the dashboard."""

from __future__ import annotations

from django.urls import path

from psychologist import views

app_name = "review"

urlpatterns = [
    path(
        "hypotheses/<int:hypothesis_id>/accept/",
        views.hypothesis_accept,
        name="hypothesis-accept",
    ),
    path(
        "hypotheses/<int:hypothesis_id>/dismiss/",
        views.hypothesis_dismiss,
        name="hypothesis-dismiss",
    ),
    path(
        "sessions/<uuid:session_id>/reanalyse/",
        views.session_reanalyse,
        name="session-reanalyse",
    ),
]
