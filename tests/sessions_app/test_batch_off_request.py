"""The batch off the request (SPEC §3 One turn, §9): an answer that completes a batch returns at
once with `pending`, the batch is a task a worker runs, and its cards reach the client on the
Server-Sent Events stream, the websocket and the long poll — or in the answer itself for a
client that sends `Prefer: wait=N`. Through the project's real ASGI application with the task
queue as production has it (`task_queue`: queued, then worked off as a cluster's worker does).
"""

from __future__ import annotations

import functools
import json
import threading
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connections

from sessions_app.models import AskMessage, AskSession
from sessions_app.tasks import batch_prepare
from tests.sessions_app.test_api_stream import (
    ANSWER,
    Exchange,
    call,
    open_stream,
    run,
    started_session,
    token_of,
)
from tests.ws import communicator

pytestmark = pytest.mark.usefixtures("transactional_db", "channel_layer_kind")

BATCH_TASK = "sessions_app.tasks.batch_prepare"


@pytest.fixture
def client_token(alice) -> str:
    return token_of(alice)


def answer_path(session_id: str) -> str:
    return f"/api/ask/sessions/{session_id}/answers"


def answer_preferring(
    session_id: str, card_id: str, token: str, prefer: str, text: str = ANSWER
) -> Exchange:
    """The answer to `card_id`, sent with `Prefer: <prefer>`; read it with `.start()`/`.json()`."""
    return Exchange(
        "POST",
        answer_path(session_id),
        token=token,
        body={"card_id": card_id, "text": text},
        headers={"Prefer": prefer},
    )


async def answer_pending(session_id: str, card_id: str, token: str) -> dict[str, Any]:
    """Answer the topic card (a batch of one): the answer completes the batch."""
    state = await call("POST", answer_path(session_id), token, {"card_id": card_id, "text": ANSWER})
    assert state["current_card"] is None
    assert state["pending"]["kind"] == "batch"
    return state


def test_a_batch_completing_answer_returns_pending_and_queues_the_batch(client_token, task_queue):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        state = await answer_pending(session_id, card_id, client_token)
        queued = await database_sync_to_async(task_queue.queued)()
        again = await call("GET", f"/api/ask/sessions/{session_id}/state", client_token)
        return session_id, state, queued, again

    session_id, state, queued, again = run(scenario)
    # The answer is stored and shown; the state says the next batch is being made.
    assert state["answered"][-1]["answer"] == ANSWER
    assert queued == [BATCH_TASK]
    assert again["pending"] == state["pending"]
    assert AskSession.objects.get(pk=session_id).batch_pending["since"] == state["pending"]["since"]
    # No model call was made in the request: the offline Analyst has not run yet.
    assert not AskMessage.objects.filter(session_id=session_id, kind="analysis").exists()

    task_queue.run()
    dealt = run(lambda: call("GET", f"/api/ask/sessions/{session_id}/state", client_token))
    assert dealt["pending"] is None
    assert dealt["current_card"] is not None
    assert AskSession.objects.get(pk=session_id).batch_pending is None


def test_the_cards_arrive_on_the_stream_after_the_pending_seq(client_token, task_queue):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        stream = await open_stream(session_id, client_token)
        state = await answer_pending(session_id, card_id, client_token)
        await database_sync_to_async(task_queue.run)()
        await stream.until(lambda s: "card.dealt" in [e["event"] for e in s.events()])
        await stream.close()
        now = await call("GET", f"/api/ask/sessions/{session_id}/state", client_token)
        return state, stream.events(), now

    state, events, now = run(scenario)
    dealt = next(e for e in events if e["event"] == "card.dealt")
    assert dealt["id"] > state["pending"]["since"]
    assert dealt["data"]["payload"]["card_id"] == now["current_card"]["id"]


def test_the_cards_arrive_on_the_websocket(client_token, task_queue):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        socket = communicator(f"/ws/sessions/{session_id}/", token=client_token)
        connected, _ = await socket.connect()
        assert connected
        state = await answer_pending(session_id, card_id, client_token)
        await database_sync_to_async(task_queue.run)()
        received = []
        while "card.dealt" not in [f.get("type") for f in received]:
            received.append(json.loads(await socket.receive_from(timeout=10)))
        await socket.disconnect()
        return state, received

    state, received = run(scenario)
    dealt = next(f for f in received if f.get("type") == "card.dealt")
    assert dealt["seq"] > state["pending"]["since"]


def test_a_long_poll_from_the_pending_seq_answers_with_the_card(client_token, task_queue):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        state = await answer_pending(session_id, card_id, client_token)
        since = state["pending"]["since"]
        poll = Exchange(
            "GET", f"/api/ask/sessions/{session_id}/state?wait=20&since={since}", token=client_token
        )
        await poll.start()
        assert await poll.comm.receive_nothing(timeout=0.3)  # waiting for the worker
        await database_sync_to_async(task_queue.run)()
        return await poll.json()

    polled = run(scenario)
    assert polled["pending"] is None
    assert polled["current_card"] is not None


def test_prefer_wait_returns_the_card_in_the_answer(client_token, task_queue):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        began = time.monotonic()
        posted = answer_preferring(session_id, card_id, client_token, "wait=30")
        await posted.start()  # the answer is committed; the body waits for the batch
        assert await posted.comm.receive_nothing(timeout=0.3)
        await database_sync_to_async(task_queue.run)()
        state = await posted.json()
        return posted, state, time.monotonic() - began

    posted, state, elapsed = run(scenario)
    assert posted.status == 200
    assert posted.headers["preference-applied"] == "wait=30"
    assert state["pending"] is None
    assert state["current_card"] is not None
    assert state["answered"][-1]["answer"] == ANSWER
    assert elapsed < 10


def test_prefer_wait_gives_pending_back_when_no_worker_comes_in_time(client_token, task_queue):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        began = time.monotonic()
        posted = answer_preferring(session_id, card_id, client_token, "respond-async, wait=1")
        return await posted.json(), time.monotonic() - began

    state, elapsed = run(scenario)
    assert state["pending"]["kind"] == "batch"
    assert 1 <= elapsed < 5


@pytest.mark.parametrize("prefer", ["wait=soon", "wait=", "handling=lenient"])
def test_a_preference_without_a_wait_is_ignored(client_token, task_queue, prefer):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        posted = answer_preferring(session_id, card_id, client_token, prefer)
        return posted, await posted.json()

    posted, state = run(scenario)
    assert posted.status == 200
    assert "preference-applied" not in posted.headers
    assert state["pending"]["kind"] == "batch"


def test_prefer_wait_on_an_answer_with_a_next_card_answers_at_once(client_token, task_queue):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        await answer_pending(session_id, card_id, client_token)
        await database_sync_to_async(task_queue.run)()
        state = await call("GET", f"/api/ask/sessions/{session_id}/state", client_token)
        began = time.monotonic()
        card_id = state["current_card"]["id"]
        posted = answer_preferring(session_id, card_id, client_token, "wait=30", "At night.")
        answered = await posted.json()
        return posted, answered, time.monotonic() - began

    posted, answered, elapsed = run(scenario)
    assert posted.status == 200
    assert elapsed < 5
    # The batch had a next card: nothing to wait for, so no preference was applied.
    assert answered["current_card"] is not None
    assert answered["pending"] is None
    assert "preference-applied" not in posted.headers


@pytest.mark.postgres
def test_two_runs_of_one_batch_deal_it_once(client_token, task_queue, settings):
    """A batch handed out twice — its claim ran out (here at once) while its first run was only
    slow — is dealt once, whichever run finishes first: the other finds its record gone."""
    settings.BATCH_LEASE_SECONDS = 0

    async def scenario():
        session_id, card_id = await started_session(client_token)
        await answer_pending(session_id, card_id, client_token)
        return session_id

    session_id = run(scenario)
    [first] = task_queue.take()
    second = functools.partial(batch_prepare, session_id)
    threads = [threading.Thread(target=in_thread, args=(run_,)) for run_ in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert AskMessage.objects.filter(session_id=session_id, kind="analysis").count() == 1
    assert AskSession.objects.get(pk=session_id).batch_pending is None


def in_thread(call: Any) -> None:
    try:
        call()
    finally:
        connections.close_all()
