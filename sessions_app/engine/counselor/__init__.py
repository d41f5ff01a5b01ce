"""The counselor's workspace: claim, take over, write, hand back, steer (`handoff`), and what the
Analyst is told of the people around the conversation (`analyst_context`)."""
