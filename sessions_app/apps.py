from __future__ import annotations

from django.apps import AppConfig


class SessionsAppConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sessions_app"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from sessions_app.realtime.push import browser_logged_out

        # A browser's logout (the pages, admin, the API's cookie logout) closes its websockets.
        user_logged_out.connect(browser_logged_out, dispatch_uid="naisei.browser_logged_out")

        # The LLM layer knows no agent: the dialogue engine tells its offline provider how to
        # answer as the Analyst, the Narrator and the Summarizer.
        from sessions_app.engine.services import offline_agents_register

        offline_agents_register()
