"""The dialogue agents: calling the Analyst, the Narrator and the Summarizer (`calls`), their
prompts (`prompts`) and tools (`schemas`), and the filter on what they say and on what they read
of the client (`hygiene`). Their offline rules are `engine.offline`."""
