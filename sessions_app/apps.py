from __future__ import annotations

from django.apps import AppConfig


class SessionsAppConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sessions_app"

    def ready(self) -> None:
        # The LLM layer knows no agent: the dialogue engine tells its offline provider how to
        # answer as the Analyst, the Narrator and the Summarizer.
        from psychologist.llm.offline import offline_agent_register
        from sessions_app.engine import schemas
        from sessions_app.engine.offline.analyst import analyse
        from sessions_app.engine.offline.narrator import narrate
        from sessions_app.engine.offline.summarizer import summarise

        offline_agent_register("analyst", tool=schemas.ANALYST_TOOL, rules=analyse)
        offline_agent_register("narrator", tool=schemas.NARRATOR_TOOL, rules=narrate)
        offline_agent_register("summarizer", tool=schemas.SUMMARY_TOOL, rules=summarise)
