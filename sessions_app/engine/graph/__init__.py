"""The session graph (SPEC §5): the tree of messages, worklines, paths and what a model sees of
them (`tree`), the state that follows a branch (`branch`), and spin-off (`spin_off`)."""
