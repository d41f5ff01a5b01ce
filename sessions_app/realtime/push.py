"""The realtime layer (SPEC §8): what is pushed to which Channels group (what watchers get is
rendered by `frames.py`).

Pushes go out only from the event service, after commit. A push names the event (session, id,
seq, type) and carries none of its payload: every watcher re-reads the row and renders it for
its own reader, so nothing private crosses the channel layer and a client never receives a
counselor's view of an event. The layer is at-most-once; a lost push is repaired by the watcher
(the consumer notices the gap in `seq` and re-reads it; a reconnecting watcher passes
`?since=SEQ`), so a failure here is logged and swallowed, never raised into the request.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import weakref
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from sessions_app.models import EventType

logger = logging.getLogger(__name__)

COUNSELORS_GROUP = "counselors"
# Appending one of these alerts on-duty counselors live (SPEC §3 crisis, §8); an escalated alert
# (nobody claimed it) alerts again, ops included.
CRISIS_EVENT_TYPES = frozenset({EventType.RISK_ESCALATED, EventType.ALERT_ESCALATED})
# Events that can move a session into or out of the crisis queue or the follow-ups list.
QUEUE_EVENT_TYPES = CRISIS_EVENT_TYPES | frozenset(
    {
        EventType.HANDOFF_CREATED,
        EventType.COUNSELOR_TOOK_OVER,
        EventType.COUNSELOR_HANDED_BACK,
        EventType.SESSION_CREATED,
        EventType.SESSION_UPDATED,
        EventType.SESSION_CLOSED,
        EventType.SESSION_CLOSED_ABNORMALLY,
        EventType.SESSION_DELETED,
    }
)


def session_group(session_id: object) -> str:
    return f"session.{session_id}"


Message = tuple[str, dict[str, Any]]  # (group, message)


def _send_all(messages: list[Message]) -> None:
    """Send `messages` in order. Inside the ASGI server (a request's thread, whose event loop
    runs the layer) they are handed to that loop and the request goes on without waiting for
    Redis: one hop for all of a commit's pushes, chained behind the process's earlier ones so
    that they leave in commit order. Elsewhere (the worker, commands, the test client) they are
    sent before returning, in a short-lived loop."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    loop = _server_loop()
    if loop is not None:
        try:
            loop.call_soon_threadsafe(_chain, loop, layer, messages)
            return
        except RuntimeError:  # the loop closed in between (shutdown): send it here instead
            pass
    try:
        async_to_sync(_publish)(layer, messages)
    except Exception as exc:  # never raised into the request
        logger.warning("push failed count=%s error=%s", len(messages), type(exc).__name__)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop this thread was called from through sync_to_async, or None."""
    threadlocal = SyncToAsync.threadlocal
    if getattr(threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


# A Redis that accepts and never answers must not hold every later push of the process (they
# wait in the chain) — nor, outside the server, the caller.
PUSH_TIMEOUT_SECONDS = 5

# Per event loop, the last chained send; and every send still running (a task needs a strong
# reference until it ends).
_tails: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)
_running: set[asyncio.Task[None]] = set()


def _chain(loop: asyncio.AbstractEventLoop, layer: Any, messages: list[Message]) -> None:
    task = loop.create_task(_publish(layer, messages, after=_tails.get(loop)))
    _tails[loop] = task
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _publish(
    layer: Any, messages: list[Message], after: asyncio.Task[None] | None = None
) -> None:
    if after is not None and not after.done():
        await asyncio.wait([after])
    for group, message in messages:
        try:
            await asyncio.wait_for(layer.group_send(group, message), PUSH_TIMEOUT_SECONDS)
        except Exception as exc:  # the layer is best-effort by design; the database is the truth
            logger.warning(
                "push failed group=%s type=%s seq=%s error=%s",
                group.split(".")[0],
                message.get("event_type"),
                message.get("seq"),
                type(exc).__name__,
            )


def publish_events(*, session_id: object, events: list[tuple[int, int, str]]) -> None:
    """Tell the session's watchers (and, for queue events, the counselors) about the events
    (id, seq, type) one commit appended, in one send."""
    messages: list[Message] = []
    for event_id, seq, event_type in events:
        messages.append(
            (
                session_group(session_id),
                {
                    "type": "session.event",
                    "session_id": str(session_id),
                    "event_id": event_id,
                    "seq": seq,
                    "event_type": event_type,
                },
            )
        )
        if event_type in QUEUE_EVENT_TYPES:
            messages.append(_counselors_message(session_id, event_id, seq, event_type))
    _send_all(messages)


def _counselors_message(session_id: object, event_id: int, seq: int, event_type: str) -> Message:
    kind = "crisis.alert" if event_type in CRISIS_EVENT_TYPES else "queue.changed"
    return (
        COUNSELORS_GROUP,
        {
            "type": "counselors.notice",
            "kind": kind,
            "session_id": str(session_id),
            "event_id": event_id,
            "seq": seq,
            "event_type": event_type,
        },
    )


def user_group(user_id: object) -> str:
    return f"user.{user_id}"


def publish_notification(*, user_id: object, notification_id: int, kind: str) -> bool:
    """Tell the user's open connections that a notification arrived; they read it from the REST
    inbox, which applies the privacy rules. Best effort, like every push: False when it failed."""
    layer = get_channel_layer()
    if layer is None:
        return False
    message = {"type": "notification.new", "notification_id": notification_id, "kind": kind}
    try:
        async_to_sync(layer.group_send)(user_group(user_id), message)
    except Exception as exc:  # the inbox row is the delivery; the push only saves a poll
        logger.warning(
            "notification push failed notification=%s error=%s",
            notification_id,
            type(exc).__name__,
        )
        return False
    return True


# --- the user's open websockets ------------------------------------------------------------------


def sockets_group(user_id: object) -> str:
    """Every open websocket of one user, whatever it streams: told when credentials end."""
    return f"sockets.{user_id}"


def credentials_revoked_publish(
    *, user_id: object, token_digests: list[str] = (), session_keys: list[str] = ()
) -> None:
    """Close the user's websockets opened with these tokens or browser sessions (after commit;
    best effort: each websocket also re-checks its credentials periodically). Tokens travel as
    knox's digests, sessions as `session_digest`: no usable credential crosses the layer."""
    if not token_digests and not session_keys:
        return
    message = {
        "type": "credentials.revoked",
        "token_digests": list(token_digests),
        "session_digests": [session_digest(key) for key in session_keys],
    }
    _send_all([(sockets_group(user_id), message)])


def session_digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()


def browser_logged_out(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """Django's `user_logged_out` (sent before the session is flushed): that browser's
    websockets close."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and session_key:
        credentials_revoked_publish(user_id=user.pk, session_keys=[session_key])
