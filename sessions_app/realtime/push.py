"""The realtime layer (SPEC §8): what is pushed to which Channels group, and what watchers get.

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
import json
import logging
import os
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string

from sessions_app.access import sessions_alertable_to
from sessions_app.models import SessionEvent
from sessions_app.privacy import (
    REDACTED_EVENT_TYPE,
    STAFF_MAX_PRIVACY,
    Privacy,
    client_may_see_event,
    scrub_p3,
)
from sessions_app.roles import Role, role_of

logger = logging.getLogger(__name__)

COUNSELORS_GROUP = "counselors"
# Appending one of these alerts on-duty counselors live (SPEC §3 crisis, §8); an escalated alert
# (nobody claimed it) alerts again, ops included.
CRISIS_EVENT_TYPES = frozenset({"risk.escalated", "alert.escalated"})
# Events that can move a session into or out of the crisis queue or the follow-ups list.
QUEUE_EVENT_TYPES = CRISIS_EVENT_TYPES | frozenset(
    {
        "handoff.created",
        "counselor.took_over",
        "counselor.handed_back",
        "session.created",
        "session.updated",
        "session.closed",
        "session.closed_abnormally",
        "session.deleted",
    }
)
# Watchers choose their frames with `?format=`: JSON (the default, for API clients) or HTML
# fragments that htmx swaps into the page out of band (browser watchers).
FORMAT_JSON = "json"
FORMAT_HTML = "html"
FORMATS = (FORMAT_JSON, FORMAT_HTML)
SESSION_PAGE = "sessions_app/session_detail.html"
HOME_PAGE = "sessions_app/home.html"
# Replays read the log in pages of this many events.
REPLAY_PAGE = 500


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


# --- what a watcher receives ---------------------------------------------------------------------


def event_view(event: SessionEvent, level: Privacy) -> dict[str, Any]:
    """One event as a reader of privacy `level` may see it.

    A client gets its own conversation's events without P3 keys; any other event reaches it as
    a bare `redacted` marker, so its `seq` stays contiguous and gap detection keeps working.
    """
    if level < STAFF_MAX_PRIVACY and not client_may_see_event(event.type):
        return {
            "seq": event.seq,
            "id": event.pk,
            "type": REDACTED_EVENT_TYPE,
            "created_at": event.created_at,
            "actor": "",
            "payload": {},
        }
    payload = event.payload if level >= STAFF_MAX_PRIVACY else scrub_p3(event.payload)
    return {
        "seq": event.seq,
        "id": event.pk,
        "type": event.type,
        "created_at": event.created_at,
        "actor": event.actor,
        "payload": payload,
    }


def render_frame(event: SessionEvent, level: Privacy, fmt: str) -> str:
    view = event_view(event, level)
    if fmt == FORMAT_HTML:
        return render_to_string(f"{SESSION_PAGE}#event_frame", {"event": view})
    return json.dumps(view, cls=DjangoJSONEncoder, ensure_ascii=False)


def frame_for(event_id: int, level: Privacy, fmt: str) -> str:
    return render_frame(SessionEvent.objects.get(pk=event_id), level, fmt)


def frames_after(session_id: object, seq: int, level: Privacy, fmt: str) -> list[tuple[int, str]]:
    """(seq, frame) for every event of the session after `seq`, in order (replay, gaps)."""
    frames: list[tuple[int, str]] = []
    while True:
        page = list(
            SessionEvent.objects.filter(session_id=session_id, seq__gt=seq).order_by("seq")[
                :REPLAY_PAGE
            ]
        )
        frames.extend((event.seq, render_frame(event, level, fmt)) for event in page)
        if len(page) < REPLAY_PAGE:
            return frames
        seq = page[-1].seq


FrameKey = tuple[str, int, int, str]


class FrameCache:
    """Frames by (session, event id, privacy level, format), shared by a process's watchers.

    Events are immutable, so a frame rendered once is right forever: with a hundred watchers
    of one session, the row is read and rendered once per process instead of once per watcher.
    Concurrent watchers await the same in-flight render.
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._done: OrderedDict[FrameKey, str] = OrderedDict()
        self._inflight: dict[FrameKey, asyncio.Future[str]] = {}

    async def get(self, key: FrameKey, render: Callable[[], str]) -> str:
        if key in self._done:
            return self._done[key]
        task = self._inflight.get(key)
        # A future belongs to its event loop; tests run a loop per test.
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            task = asyncio.ensure_future(database_sync_to_async(render)())
            self._inflight[key] = task
        try:
            text = await task
        finally:
            if self._inflight.get(key) is task and task.done():
                del self._inflight[key]
        self._done[key] = text
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return text


frame_cache = FrameCache()


async def cached_frame(session_id: object, event_id: int, level: Privacy, fmt: str) -> str:
    # The session is part of the key so that an id reused by a rolled-back test transaction
    # (SQLite reuses rowids; committed events are never deleted) cannot hit a stale frame.
    return await frame_cache.get(
        (str(session_id), event_id, int(level), fmt), lambda: frame_for(event_id, level, fmt)
    )


# --- the counselors' stream ----------------------------------------------------------------------


def receives_crisis_alerts(user: Any) -> bool:
    """Ops always; counselors while on duty (their profile says so)."""
    role = role_of(user)
    if role is Role.OPS:
        return True
    profile = getattr(user, "profile", None) if role is Role.COUNSELOR else None
    return bool(profile and profile.on_duty)


def notice_frame(user: Any, message: dict[str, Any], *, alerts: bool, fmt: str) -> str | None:
    """What `user` receives for a counselors' notice, or None when the session is not theirs.

    The crisis queue is "visible to that counselor per access rules" (SPEC §1): a counselor
    hears about exactly the sessions it could open or was alerted about (and may claim). A
    crisis alert to a counselor off duty, or about a session somebody holds, is only a queue
    change.
    """
    row = (
        sessions_alertable_to(user)
        .filter(pk=message["session_id"])
        .values("handoff_counselor__first_name", "handoff_counselor__username")
        .first()
    )
    if row is None:
        return None
    holder = row["handoff_counselor__first_name"] or row["handoff_counselor__username"]
    kind = message["kind"] if alerts and not holder else "queue.changed"
    notice = {
        "type": kind,
        "session_id": message["session_id"],
        "event_id": message["event_id"],
        "seq": message["seq"],
        "event_type": message["event_type"],
    }
    if fmt == FORMAT_HTML:
        context = {"notice": notice, "holder": holder or ""}
        return render_to_string(f"{HOME_PAGE}#notice_frame", context)
    return json.dumps(notice)


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
