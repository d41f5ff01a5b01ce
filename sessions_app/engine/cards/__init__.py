"""Cards and batches: the Dealer shows a batch's cards one at a time (`dealer`); a completed batch
goes Analyst → Narrator and comes back as new cards, with the pacing rules (`batch`)."""
