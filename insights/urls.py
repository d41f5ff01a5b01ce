from __future__ import annotations

from django.urls import path

from insights import views

app_name = "insights"

urlpatterns = [
    path("", views.insights_home, name="home"),
]
