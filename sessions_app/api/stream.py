"""A session followed over plain HTTP (SPEC §8, §9): `GET …/stream`, its events as Server-Sent
Events, and the long poll behind `GET …/state?wait=N`
(docs/decisions/0008-following-a-session-over-http.md).

Neither holds a thread while it waits. These are DRF views, so authentication, access and errors
are the API's own; each answers with a streaming response over an async iterator
(`sessions_app/realtime/follow.py`), which Django's ASGI handler runs in the event loop after the
middleware chain — synchronous, in the request's thread, inside one of the process's running
slots — has returned. An `async def` view would not do that: behind the synchronous chain Django
drives it from the request's thread (`async_to_sync`), which would wait, slot and all, for as
long as the view does.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import serializers
from rest_framework.request import Request

from sessions_app import services
from sessions_app.access import max_privacy_for, session_for
from sessions_app.api.base import SESSION_ID, ApiView, errors, validated
from sessions_app.api.plugins import JSONRenderer
from sessions_app.errors import ErrorCode, invalid
from sessions_app.models import AskSession
from sessions_app.realtime import follow
from sessions_app.realtime.push import session_digest

# `Last-Event-ID` and `since` are event seqs; anything else is refused, never guessed at.
SEQ_MAX_DIGITS = 10
WAIT_MAX_SECONDS = 30

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    {"type": "string", "pattern": f"^[0-9]{{1,{SEQ_MAX_DIGITS}}}$"},
    OpenApiParameter.HEADER,
    required=False,
    description="The `id` (the event's `seq`) of the last event received: the stream resumes "
    "after it. EventSource sends it by itself when it reconnects.",
)
SINCE = OpenApiParameter(
    "since",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.QUERY,
    required=False,
    description="As `Last-Event-ID`, for clients that cannot set headers (the header wins).",
)

STREAM_DESCRIPTION = """The session's events as Server-Sent Events, as a websocket watcher of
the caller's role receives them (`ws/sessions/{id}/`): each event as `id: <seq>`,
`event: <type>`, `data: <the event as JSON>`, in seq order and each once. Events a client may
not see come as `event: redacted` with an empty payload, so seqs stay contiguous. Without
`Last-Event-ID` (or `since`) the stream starts from now; with it, the events after that seq
come first, from the log. A comment line (`: keep-alive`) is sent when nothing was for
`STREAM_HEARTBEAT_SECONDS` (15). The stream ends after the events that close the session
(`session.closed`, `session.closed_abnormally`, `session.deleted`), when the token expires or is
revoked, or when the client goes. Its owner, its counselors, ops and services may follow it."""


class StreamApi(ApiView):
    """Errors answer in JSON like every route's, whatever the client accepts (an EventSource
    asks only for `text/event-stream`)."""

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        renderer = JSONRenderer()
        return renderer, renderer.media_type


def _since(request: Request) -> int | None:
    """The seq the stream resumes after (the header first), or None: from now on."""
    for name, value in (
        ("Last-Event-ID", request.headers.get("Last-Event-ID")),
        ("since", request.query_params.get("since")),
    ):
        if value:
            if not (value.isascii() and value.isdigit() and len(value) <= SEQ_MAX_DIGITS):
                raise invalid("Not an event seq.", **{name: ["A whole number of 1 to 10 digits."]})
            return int(value)
    return None


def _reader(request: Request) -> follow.Reader:
    user = request.user
    token = request.auth if isinstance(request.auth, AuthToken) else None
    session_key = getattr(getattr(request._request, "session", None), "session_key", None)
    return follow.Reader(
        user_id=request.user.pk,
        level=max_privacy_for(request.user),
        token_digest=token.digest if token is not None else None,
        session_digest=session_digest(session_key) if token is None and session_key else None,
        expiry=token.expiry if token is not None else None,
        opened=lambda channel: services.live_socket_open(user=user, channel_name=channel),
        closed=lambda channel: services.live_socket_close(channel_name=channel),
    )


class SessionStreamApi(StreamApi):
    @extend_schema(
        operation_id="ask_sessions_stream",
        parameters=[SESSION_ID, LAST_EVENT_ID, SINCE],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR,
                description="`retry: 3000`, then one block per event — `id: <seq>`, "
                "`event: <type>`, `data: <the event as JSON: seq, id, type, created_at, actor, "
                "payload>` — and a blank line; `: keep-alive` comment lines between them.",
            ),
            **errors(
                (ErrorCode.VALIDATION, "a malformed Last-Event-ID or since"),
                ErrorCode.FORBIDDEN,
                ErrorCode.NOT_FOUND,
            ),
        },
        description=STREAM_DESCRIPTION,
    )
    def get(self, request: Request, session_id: Any) -> StreamingHttpResponse:
        session = session_for(request.user, session_id)
        since = _since(request)
        # A seq from the future (a stale client, a restored database) would drop every event up
        # to it: it reads as "from now on", as on the websocket.
        after = session.event_seq if since is None else min(since, session.event_seq)
        body = follow.event_stream(
            session_id=session.pk,
            reader=_reader(request),
            after=after,
            ended=session.status != AskSession.Status.ACTIVE or session.is_deleted,
        )
        response = StreamingHttpResponse(body, content_type="text/event-stream")
        # nginx (and proxies that honour it) would hold the events back in a buffer.
        response["X-Accel-Buffering"] = "no"
        return response


# --- the long poll ---------------------------------------------------------------------------


class StateWaitQuery(serializers.Serializer):
    """The long poll's query; other parameters are ignored, as without `wait`."""

    wait = serializers.IntegerField(min_value=0, max_value=WAIT_MAX_SECONDS)
    since = serializers.IntegerField(min_value=0, max_value=10**SEQ_MAX_DIGITS - 1, required=False)


WAIT_PARAMETERS = (
    OpenApiParameter(
        "wait",
        {"type": "integer", "minimum": 0, "maximum": WAIT_MAX_SECONDS},
        OpenApiParameter.QUERY,
        required=False,
        description="A long poll: answer as soon as the session has an event after `since`, or "
        "after this many seconds with the current state. Without it the state comes at once.",
    ),
    OpenApiParameter(
        "since",
        {"type": "integer", "minimum": 0},
        OpenApiParameter.QUERY,
        required=False,
        description="With `wait`: the last event seq the client has seen (default: the latest, "
        "so the poll waits for the next event).",
    ),
)


def waited(
    session: AskSession, query: dict[str, str], render: Callable[[AskSession], Any]
) -> StreamingHttpResponse | None:
    """The long poll's response, or None when the state is due at once (an event after `since`
    exists already, or `wait=0`). `render(session)` builds the body from the session re-read."""
    data = validated(StateWaitQuery(data=query))
    wait, since = data["wait"], data.get("since")
    # As on the stream, a seq from the future reads as the latest.
    since = session.event_seq if since is None else min(since, session.event_seq)
    if wait == 0 or session.event_seq > since:
        return None

    def body() -> bytes:
        session.refresh_from_db()
        return JSONRenderer().render(render(session))

    stream: AsyncIterator[bytes] = follow.after_change(
        session_id=session.pk, since=since, wait=wait, render=body
    )
    return StreamingHttpResponse(stream, content_type="application/json")


# --- Prefer: wait on a turn (RFC 7240) -------------------------------------------------------

PREFER_WAIT = re.compile(r"(?:^|[,;\s])wait\s*=\s*\"?(\d{1,6})\"?(?:$|[,;\s])", re.IGNORECASE)


def preferred_wait(request: Request) -> int | None:
    """The seconds `Prefer: wait=N` asks for, at most WAIT_MAX_SECONDS; None without one. A
    preference is a hint (RFC 7240): a malformed one is ignored, never refused."""
    found = PREFER_WAIT.search(request.headers.get("Prefer", ""))
    return min(int(found.group(1)), WAIT_MAX_SECONDS) if found else None


def batch_waited(
    request: Request, response: Any, session_id: Any, render: Callable[[AskSession], Any]
) -> StreamingHttpResponse | None:
    """A turn's answer held until its batch is dealt, when the client prefers to wait and the
    answer says `pending` — in the event loop, like the long poll, not in a thread. None: the
    answer as it is."""
    wait = preferred_wait(request)
    data = getattr(response, "data", None)
    if not wait or response.status_code != 200 or not isinstance(data, dict):
        return None
    if not data.get("pending"):
        return None

    def dealt() -> bool:
        return not AskSession.objects.filter(
            pk=session_id, batch_pending__isnull=False, status=AskSession.Status.ACTIVE
        ).exists()

    def body() -> bytes:
        return JSONRenderer().render(render(AskSession.objects.get(pk=session_id)))

    stream: AsyncIterator[bytes] = follow.after_change(
        session_id=session_id,
        since=data["pending"]["since"],
        wait=wait,
        render=body,
        settled=dealt,
    )
    waited = StreamingHttpResponse(stream, content_type="application/json")
    waited["Preference-Applied"] = f"wait={wait}"
    return waited
