"""Privacy classes of the session fields, in one table (schema §2, SPEC §2).

P1 < P2 < P3. Representations are built from this table: a client never receives a P3 field,
and nobody but counselors, ops and services may write one.
"""

from __future__ import annotations

from enum import IntEnum

from sessions_app.models import EventType


class Privacy(IntEnum):
    P1 = 1
    P2 = 2
    P3 = 3


# Keyed by the schema's own field names, as they appear in JSON.
SESSION_FIELD_PRIVACY: dict[str, Privacy] = {
    "_id": Privacy.P2,
    "user_id": Privacy.P2,
    "dify_conversation_id": Privacy.P1,
    "session_title": Privacy.P2,
    "session_type": Privacy.P1,
    "trigger_source": Privacy.P1,
    "active_agent_key": Privacy.P1,
    "custom_agent_id": Privacy.P1,
    "agent_origin": Privacy.P1,
    "agent_snapshot": Privacy.P2,
    "conversation_variables": Privacy.P2,
    "modality_flags": Privacy.P1,
    "voice_config": Privacy.P2,
    "cbt_focus": Privacy.P2,
    "initial_risk_level": Privacy.P3,
    "final_risk_level": Privacy.P3,
    "session_summary": Privacy.P2,
    "key_insights": Privacy.P2,
    "cbt_techniques_used": Privacy.P2,
    "generated_task_ids": Privacy.P1,
    "counselor_handoff": Privacy.P3,
    "satisfaction_score": Privacy.P2,
    "follow_up_needed": Privacy.P1,
    "follow_up_at": Privacy.P1,
    "message_count": Privacy.P1,
    "audio_message_count": Privacy.P1,
    "attachment_count": Privacy.P1,
    "duration_seconds": Privacy.P1,
    "intervention_triggered": Privacy.P3,
    "createdAt": Privacy.P1,
    "updatedAt": Privacy.P1,
    "endedAt": Privacy.P1,
    "is_deleted": Privacy.P2,
    # Engine field, not in the schema: clients need it to know which session is still open.
    "status": Privacy.P1,
}

# CBT homework (`tasks`, SPEC §2), in its JSON names. The schema gives `generated_task_ids` P1;
# what a task says and what the client wrote in it are content like a summary (P2). Nothing of a
# task is P3: clients read all of their own tasks.
TASK_FIELD_PRIVACY: dict[str, Privacy] = {
    "_id": Privacy.P1,
    "user_id": Privacy.P2,
    "session_id": Privacy.P1,
    "kind": Privacy.P1,
    "title": Privacy.P2,
    "instructions": Privacy.P2,
    "template": Privacy.P1,
    "due_date": Privacy.P1,
    "status": Privacy.P1,
    "entries": Privacy.P2,
    "completion_note": Privacy.P2,
    "rating_before": Privacy.P2,
    "rating_after": Privacy.P2,
    "review_session_id": Privacy.P1,
    "review_message_id": Privacy.P1,
    "createdAt": Privacy.P1,
    "updatedAt": Privacy.P1,
    "acceptedAt": Privacy.P1,
    "finishedAt": Privacy.P1,
}

P3_FIELDS: frozenset[str] = frozenset(
    name for name, level in SESSION_FIELD_PRIVACY.items() if level is Privacy.P3
)


# What a role may read: clients never see P3; every other role sees everything.
CLIENT_MAX_PRIVACY = Privacy.P2
STAFF_MAX_PRIVACY = Privacy.P3


# --- session events as a client may see them (websocket JSON, SPEC §8 / QUALITY R8) --------------

# A client sees the events of its own conversation; clinical and engine-internal events (risk,
# handoffs, flow validation, the Analyst's third-person reasoning, the psychologist's work) are
# not for it. Allow-listed by prefix, so an event type added later stays hidden until someone
# decides a client may see it.
CLIENT_EVENT_PREFIXES: tuple[str, ...] = (
    "session.",
    "card.",
    "answer.",
    "message.",
    "workline.",
    "closing.",
    "last_thing.",
    "task.",
)
# Payload keys that carry P3 facts under names other than the schema's own.
P3_PAYLOAD_KEYS: frozenset[str] = P3_FIELDS | frozenset(
    {"level", "risk_level", "crisis_signal", "handoff_reason", "counselor_id", "pending_guard"}
)
# A person joining, speaking and leaving is the client's own conversation; the claim behind it
# (`handoff.created`) and a counselor's steer notes for the Analyst are not.
CLIENT_EVENT_TYPES: frozenset[str] = frozenset(
    {EventType.COUNSELOR_TOOK_OVER, EventType.COUNSELOR_MESSAGE, EventType.COUNSELOR_HANDED_BACK}
)
REDACTED_EVENT_TYPE = "redacted"


# The Analyst's third-person notes ("the user avoids …") are for staff: a client reads the
# Narrator's words, and sees an Analyst message in its history with its text blanked (SPEC §3).
STAFF_ONLY_MESSAGE_ROLES: frozenset[str] = frozenset({"analyst"})


def client_may_read_message(role: str) -> bool:
    return role not in STAFF_ONLY_MESSAGE_ROLES


def client_may_see_event(event_type: str) -> bool:
    return event_type.startswith(CLIENT_EVENT_PREFIXES) or event_type in CLIENT_EVENT_TYPES


def scrub_p3(value: object) -> object:
    """`value` without P3 keys, nor P3 field names in lists (`session.updated` names its fields)."""
    if isinstance(value, dict):
        return {k: scrub_p3(v) for k, v in value.items() if k not in P3_PAYLOAD_KEYS}
    if isinstance(value, list):
        return [
            scrub_p3(item) for item in value if not (isinstance(item, str) and item in P3_FIELDS)
        ]
    return value
