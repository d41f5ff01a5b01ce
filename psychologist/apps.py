from __future__ import annotations

from django.apps import AppConfig


class PsychologistConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "psychologist"

    def ready(self) -> None:
        from psychologist import receivers  # noqa: F401  (connects the signal receivers)
        from psychologist.llm.offline import offline_agent_register
        from psychologist.offline import hypothesise
        from psychologist.schemas import EMIT_HYPOTHESES_TOOL

        # Both tiers read the same log with the same rules; the tier caps how many it proposes.
        for agent in ("psychologist", "psychologist-light"):
            offline_agent_register(agent, tool=EMIT_HYPOTHESES_TOOL, rules=hypothesise)
