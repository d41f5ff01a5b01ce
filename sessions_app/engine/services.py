"""The dialogue engine's service functions: what the REST views, the sandbox and the tests
call. Each owns its transactions; none calls a model inside one.

    session_start(*, session) -> AskSession            (called by services.session_create)
    answer_submit(*, session, card_id, text) -> TurnResult
    message_submit(*, session, text) -> TurnResult
    session_continue(*, session) -> TurnResult
    session_end(*, session) -> TurnResult
    last_thing_submit(*, session, text=None, finish=False) -> TurnResult
    session_state(session) -> dict                    (SPEC §9 state document)
    thread_state(session) -> dict                     (SPEC §4 thread state; never for clients)
"""

from __future__ import annotations

from sessions_app.engine.closing import last_thing_submit, session_end
from sessions_app.engine.dealer import TurnResult
from sessions_app.engine.start import session_start
from sessions_app.engine.state import session_state, thread_state
from sessions_app.engine.turns import answer_submit, message_submit, session_continue

__all__ = [
    "TurnResult",
    "answer_submit",
    "last_thing_submit",
    "message_submit",
    "session_continue",
    "session_end",
    "session_start",
    "session_state",
    "thread_state",
]
