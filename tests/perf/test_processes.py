"""Issue 20 / SPEC §10: several server processes share PostgreSQL and Redis. An answer given
through one process reaches a watcher whose websocket is held by another, as a live push."""

from __future__ import annotations

import json
import os
import time
import uuid
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.server import database_url, uvicorn
from tests.sessions_app.test_outages import call, client_who_signs_in, sign_in_and_create_a_session

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("transactional_db")]


def shared_redis(layer: str) -> dict[str, str]:
    # Both processes on one Redis and one layer, with a channel prefix no other run shares.
    redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    prefix = f"naisei-test-{uuid.uuid4().hex[:8]}"
    return {"REDIS_URL": redis, "CHANNEL_PREFIX": prefix, "CHANNEL_LAYER": layer}


def frames_until(socket: Any, event_type: str, timeout: float) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            seen.append(json.loads(socket.recv(timeout=max(deadline - time.monotonic(), 0.01))))
        except TimeoutError:
            break
        if seen[-1]["type"] == event_type:
            break
    return seen


@pytest.mark.parametrize("layer", ["core", "pubsub"])
def test_an_answer_through_one_process_reaches_a_watcher_on_another(layer):
    client_who_signs_in("wes")
    env = shared_redis(layer)
    db = database_url()
    with (
        uvicorn(db_url=db, log_name="process-a.log", env=env) as watcher_side,
        uvicorn(db_url=db, log_name="process-b.log", env=env) as writer_side,
    ):
        token, created = sign_in_and_create_a_session(writer_side, "wes")
        base = f"/api/ask/sessions/{created['_id']}"
        status, state = call(f"{writer_side}{base}/state", "GET", token=token)
        ws_url = watcher_side.replace("http://", "ws://") + f"/ws/sessions/{created['_id']}/"
        with connect(ws_url, subprotocols=["naisei.v1", f"naisei.token.{token}"]) as socket:
            replayed = frames_until(socket, "never", timeout=1.0)  # the log so far, if any
            body = {"card_id": state["current_card"]["id"], "text": "Work stress"}
            status, _ = call(f"{writer_side}{base}/answers", "POST", body, token)
            assert status == 200
            live = frames_until(socket, "answer.received", timeout=10.0)

    assert [frame["type"] for frame in live][-1] == "answer.received"
    assert live[-1]["seq"] > max((frame["seq"] for frame in replayed), default=0)
