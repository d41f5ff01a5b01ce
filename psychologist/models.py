"""The psychologist app: the LLM layer, the agents and post-session analysis."""
