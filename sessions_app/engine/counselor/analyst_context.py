"""What the Analyst is told about the people around the conversation: the human part of a
session (a counselor spoke while the AI paused) as a recap, and the counselors' steer notes.

Read by the batch when it builds the Analyst's inputs; no writes here. Steer notes live only in
the event log (`steer.noted`), never in a message, so nothing the client receives — the state
document, the messages, the tree, the export — can carry them.
"""

from __future__ import annotations

from typing import Any

from sessions_app.events import EventType
from sessions_app.models import AskMessage, AskSession

# A session holds at most a handful of notes; the newest are the ones that matter.
STEER_NOTES_READ = 50


def human_recap(chain: list[AskMessage]) -> list[dict[str, str]]:
    """The counselor ↔ client exchange on `chain` as recap pairs: each counselor line is the
    question, what the client wrote after it the answer (several lines joined)."""
    pairs: list[dict[str, str]] = []
    for message in chain:
        if message.kind != AskMessage.Kind.TEXT or not message.text:
            continue
        if message.role == AskMessage.Role.COUNSELOR:
            pairs.append({"question": f"(counselor) {message.text}", "answer": ""})
        elif message.role == AskMessage.Role.CLIENT:
            if pairs and pairs[-1]["question"]:
                joined = "\n".join(filter(None, [pairs[-1]["answer"], message.text]))
                pairs[-1]["answer"] = joined
            else:
                pairs.append({"question": "", "answer": message.text})
    return pairs


def steer_notes(session: AskSession) -> list[str]:
    """Steer notes written since the Analyst last answered, oldest first: what its next call
    receives. One query: the log read backwards down to the last `analyst.responded`."""
    rows = (
        session.events.filter(type__in=[EventType.STEER_NOTED, EventType.ANALYST_RESPONDED])
        .order_by("-seq")
        .values_list("type", "payload")[:STEER_NOTES_READ]
    )
    notes: list[str] = []
    for event_type, payload in rows:
        if event_type == EventType.ANALYST_RESPONDED:
            break
        text = payload.get("text") if isinstance(payload, dict) else None
        if isinstance(text, str) and text:
            notes.append(text)
    notes.reverse()
    return notes


def guidance_facts(session: AskSession, *, handed_back: bool) -> dict[str, Any]:
    """Keys to add to the Analyst's turn facts (none when there is nothing to say)."""
    facts: dict[str, Any] = {}
    notes = steer_notes(session)
    if notes:
        facts["counselor_guidance"] = notes
    if handed_back:
        facts["counselor_handed_back"] = True
    return facts
