"""Closing: the three stages (`stages`), the one end every path takes (`end`), and what a client
may be shown of earlier material — summaries, key insights, hooks (`shown`)."""
