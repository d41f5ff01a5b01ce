"""Pushes to the session's Channels group. Called only after commit, only by the event service.

The channel layer is at-most-once (SPEC §8): a lost push is repaired by the watcher resuming
with `?since=SEQ`, so a failure here is logged and swallowed, never raised into the request.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def session_group(session_id: object) -> str:
    return f"session.{session_id}"


def publish_event(*, session_id: object, event_id: int, seq: int, event_type: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": "session.event",
        "session_id": str(session_id),
        "event_id": event_id,
        "seq": seq,
        "event_type": event_type,
    }
    try:
        async_to_sync(layer.group_send)(session_group(session_id), message)
    except Exception:  # the layer is best-effort by design; the database is the truth
        logger.warning(
            "event push failed session=%s seq=%s type=%s",
            session_id,
            seq,
            event_type,
            exc_info=True,
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
    except Exception:  # the inbox row is the delivery; the push only saves a poll
        logger.warning("notification push failed notification=%s", notification_id, exc_info=True)
        return False
    return True
