"""Websocket consumers (SPEC §8). Thin: `connect` authenticates and checks access, handlers
render through `frames` and forward.

Close codes after the handshake: 4400 a malformed `?since=` or `?format=`, 4401 no valid
credentials, 4403 the role may not use this stream or a counselor reached a crisis session that
is not theirs (E_FORBIDDEN), 4404 a session the caller may not know exists (E_NOT_FOUND), 4503
the channel layer (Redis) failed or did not answer, at the handshake or later: try again later
(servers may not send 1013), reconnecting with `?since=` loses nothing.

Later, 4401 also closes a connection whose credentials ended — its token revoked (logout,
eviction) or expired, its browser session gone — and 4429 the user's oldest connections beyond
`WEBSOCKETS_PER_USER`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.utils import timezone

from sessions_app import services
from sessions_app.access import max_privacy_for, receives_crisis_alerts, session_for
from sessions_app.errors import ApplicationError
from sessions_app.models import AskSession
from sessions_app.realtime import frames
from sessions_app.realtime import push as realtime
from sessions_app.realtime.auth import accepted_subprotocol, credentials_valid
from sessions_app.roles import Role, role_of

logger = logging.getLogger(__name__)

NO_CREDENTIALS = 4401
FORBIDDEN = 4403
NOT_FOUND = 4404
BAD_REQUEST = 4400
TOO_MANY = 4429
UNAVAILABLE = 4503
# A Redis that accepts and never answers must not hold a handshake open.
LAYER_TIMEOUT_SECONDS = 2


class BadQuery(ValueError):
    pass


def query_options(scope: dict[str, Any]) -> tuple[str, int | None]:
    """(`format`, `since`) from the query string; `since` None means "from now on"."""
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    fmt = query.get("format", [frames.FORMAT_JSON])[-1]
    if fmt not in frames.FORMATS:
        raise BadQuery("format")
    since = query.get("since", [None])[-1]
    if since is None or since == "":
        return fmt, None
    if not (since.isascii() and since.isdigit() and len(since) <= 10):
        raise BadQuery("since")
    return fmt, int(since)


class StreamConsumer(AsyncWebsocketConsumer):
    """The streams' common ground. The channel layer (Redis in production) may fail at any
    step — making the connection's channel, joining a group, receiving, leaving — and none of
    those failures may escape: an escaped one is an HTTP 500 at the handshake, or a traceback and
    a dead socket later. A failed layer closes the connection with 4503 instead."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # channels' own `__call__`, with the layer's channel made under a timeout and its
        # receive loop guarded.
        self.scope = scope
        self.base_send = send
        self.joined: list[str] = []
        self.layer_down = False
        self.counted = False
        self.watch: asyncio.Future[None] | None = None
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            try:
                self.channel_name = await self._layer(self.channel_layer.new_channel())
                sources.append(self._layer_receive)
            except Exception as exc:  # see _layer_failure
                self._layer_failure("new_channel", exc)
        with contextlib.suppress(StopConsumer):
            await await_many_dispatch(sources, self.dispatch)

    async def _layer(self, step: Any) -> Any:
        return await asyncio.wait_for(step, LAYER_TIMEOUT_SECONDS)

    def _layer_failure(self, step: str, exc: BaseException) -> None:
        if not self.layer_down:
            logger.warning("websocket.layer_failed step=%s error=%s", step, type(exc).__name__)
        self.layer_down = True

    async def _layer_receive(self) -> dict[str, Any]:
        if self.layer_down:
            await asyncio.Event().wait()  # never set: a failed layer is quiet until the end
        try:
            return await self.channel_layer.receive(self.channel_name)
        except Exception as exc:  # Redis went away under a live connection
            self._layer_failure("receive", exc)
            return {"type": "layer.failed"}

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler: a hop to the one
        # sync thread per message per watcher, so a push to a hundred watchers queued a hundred
        # hops (QUALITY P5). These handlers reach the database only through
        # `database_sync_to_async`, which closes stale connections itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def refuse(self, code: int) -> None:
        # Accepted first so the client learns why: a close before accept is only an HTTP 403.
        await self.accept(accepted_subprotocol(self.scope))
        await self.close(code=code)

    async def join(self, group: str) -> bool:
        """Join `group`; False (and the connection refused with 4503) when the layer fails."""
        if not self.layer_down and self.channel_layer is not None:
            try:
                await self._layer(self.channel_layer.group_add(group, self.channel_name))
                self.joined.append(group)
                return True
            except Exception as exc:  # see _layer_failure
                self._layer_failure("group_add", exc)
        await self.refuse(UNAVAILABLE)
        return False

    async def join_streams(self, group: str) -> bool:
        """Join the stream's `group` and the user's sockets group; False if refused."""
        user = self.scope["user"]
        return await self.join(group) and await self.join(realtime.sockets_group(user.pk))

    async def open(self) -> None:
        """Accept, count the connection against the user's bound, watch its credentials."""
        user = self.scope["user"]
        await self.accept(accepted_subprotocol(self.scope))
        evicted = await database_sync_to_async(services.live_socket_open)(
            user=user, channel_name=self.channel_name
        )
        self.counted = True
        for channel in evicted:
            try:
                await self._layer(self.channel_layer.send(channel, {"type": "socket.evicted"}))
            except Exception as exc:  # one socket over the bound beats a failed handshake
                logger.warning("websocket.evict_failed error=%s", type(exc).__name__)
        self.watch = asyncio.ensure_future(self._watch_credentials())

    async def _watch_credentials(self) -> None:
        while True:
            await asyncio.sleep(self._until_next_check())
            try:
                valid = await database_sync_to_async(credentials_valid)(self.scope)
            except Exception as exc:  # the database is away: look again next time
                logger.warning("websocket.credentials_check_failed error=%s", type(exc).__name__)
                continue
            if not valid:
                await self.close(code=NO_CREDENTIALS)
                return

    def _until_next_check(self) -> float:
        wait = float(settings.WEBSOCKET_CREDENTIALS_CHECK_SECONDS)
        expiry = self.scope.get("token_expiry")
        if expiry is not None:  # an expiring token closes its connection when it expires
            wait = min(wait, max(0.0, (expiry - timezone.now()).total_seconds()) + 0.05)
        return wait

    async def credentials_revoked(self, message: dict[str, Any]) -> None:
        if self.scope.get("auth_method") == "token":
            revoked = self.scope["token_digest"] in message["token_digests"]
        else:
            session_key = self.scope["session"].session_key or ""
            revoked = realtime.session_digest(session_key) in message["session_digests"]
        if revoked:
            await self.close(code=NO_CREDENTIALS)

    async def socket_evicted(self, message: dict[str, Any]) -> None:
        await self.close(code=TOO_MANY)

    async def layer_failed(self, message: dict[str, Any]) -> None:
        await self.close(code=UNAVAILABLE)

    async def disconnect(self, code: int) -> None:
        if self.watch is not None:
            self.watch.cancel()
        if self.counted:
            try:
                await database_sync_to_async(services.live_socket_close)(
                    channel_name=self.channel_name
                )
            except Exception as exc:  # a leftover row is evicted first when the bound is hit
                logger.warning("websocket.uncount_failed error=%s", type(exc).__name__)
        for group in self.joined:
            try:
                await self._layer(self.channel_layer.group_discard(group, self.channel_name))
            except Exception as exc:  # the group's entry expires by itself (channels-redis)
                self._layer_failure("group_discard", exc)


def _session_access(user: Any, session_id: Any) -> tuple[Any, Any]:
    session = session_for(user, session_id)
    return session, max_privacy_for(user)


class SessionEventsConsumer(StreamConsumer):
    """`ws/sessions/<id>/[?since=SEQ][&format=html]`: every event of one session, in seq order,
    each exactly once per connection: the replay after `since`, then live pushes."""

    async def connect(self) -> None:
        try:
            self.format, since = query_options(self.scope)
        except BadQuery:
            return await self.refuse(BAD_REQUEST)
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return await self.refuse(NO_CREDENTIALS)
        try:
            session, self.level = await database_sync_to_async(_session_access)(
                user, self.scope["url_route"]["kwargs"]["session_id"]
            )
        except ApplicationError as exc:
            return await self.refuse(FORBIDDEN if exc.status == 403 else NOT_FOUND)
        self.session_id = session.pk
        # Join before reading the log: an event committed from here on arrives as a push, one
        # committed before is in the read, and `last_seq` drops whatever arrives twice. Read
        # before accepting: whatever the client commits once it sees the socket open is new.
        if not await self.join_streams(realtime.session_group(session.pk)):
            return
        current = await database_sync_to_async(_current_seq)(session.pk)
        await self.open()
        # A `since` from the future (a stale client, a restored database) would silently drop
        # every event up to it: it is read as "from now on" instead.
        self.last_seq = current if since is None else min(since, current)
        await self.catch_up()

    async def session_event(self, message: dict[str, Any]) -> None:
        seq = message["seq"]
        if seq <= self.last_seq:
            return
        if seq > self.last_seq + 1:
            # A push was lost, or pushes from two web processes crossed: the database has
            # every committed event up to this one (seq order is commit order per session).
            return await self.catch_up()
        frame = await frames.cached_frame(
            self.session_id, message["event_id"], self.level, self.format
        )
        await self.send(text_data=frame)
        self.last_seq = seq

    async def catch_up(self) -> None:
        replay = await database_sync_to_async(frames.frames_after)(
            self.session_id, self.last_seq, self.level, self.format
        )
        for seq, frame in replay:
            await self.send(text_data=frame)
            self.last_seq = seq


def _current_seq(session_id: Any) -> int:
    return AskSession.objects.filter(pk=session_id).values_list("event_seq", flat=True).get()


class CounselorsConsumer(StreamConsumer):
    """`ws/counselors/[?format=html]`: crisis alerts and crisis-queue changes for staff."""

    async def connect(self) -> None:
        try:
            self.format, _ = query_options(self.scope)
        except BadQuery:
            return await self.refuse(BAD_REQUEST)
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            return await self.refuse(NO_CREDENTIALS)
        role = await database_sync_to_async(role_of)(self.user)
        if role not in {Role.COUNSELOR, Role.OPS}:
            return await self.refuse(FORBIDDEN)
        self.alerts = await database_sync_to_async(receives_crisis_alerts)(self.user)
        if not await self.join_streams(realtime.COUNSELORS_GROUP):
            return
        await self.open()

    async def counselors_notice(self, message: dict[str, Any]) -> None:
        frame = await database_sync_to_async(frames.notice_frame)(
            self.user, message, alerts=self.alerts, fmt=self.format
        )
        if frame is not None:
            await self.send(text_data=frame)


class NotificationsConsumer(StreamConsumer):
    """`ws/notifications/`: the signed-in user's own notifications as they are delivered, for
    the client app (token auth, as the session stream). Each frame names the notification; its
    content is read from the REST inbox, which applies the privacy rules."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return await self.refuse(NO_CREDENTIALS)
        if not await self.join_streams(realtime.user_group(user.pk)):
            return
        await self.open()

    async def notification_new(self, message: dict[str, Any]) -> None:
        frame = {key: message[key] for key in ("type", "notification_id", "kind")}
        await self.send(text_data=json.dumps(frame))
