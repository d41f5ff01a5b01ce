"""What only a browser proves (SPEC §8): pages that update in place over the websocket, the
event-log highlight, the tree after "continue from here", the live crisis queue.

The first test drives the real engine: the client's app creates a session and answers its cards
through REST while the counselor's page follows. The others set up a conversation through the
graph service (the engine's own write path), which is quicker for what they prove. Screenshots go
to tests/artifacts/.
"""

from __future__ import annotations

import re
import subprocess
from typing import Any

import pytest
from playwright.sync_api import expect

from sessions_app.engine.graph import tree as graph
from sessions_app.events import event_append
from sessions_app.models import AskSession
from sessions_app.selectors import latest_mood
from tests import factories
from tests.browser.conftest import screenshot
from tests.server import daphne, database_url, free_port

pytestmark = pytest.mark.usefixtures("browser_db")

PASSWORD = "pw-for-tests-1"
LAPTOP = {"width": 1366, "height": 900}
TABLET = {"width": 820, "height": 1180}
SOCKET = "document.getElementById('live')['htmx-internal-data'].webSocket"


def sign_in(browser: Any, base: str, username: str) -> Any:
    context = browser.new_context(base_url=base, viewport=LAPTOP)
    page = context.new_page()
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


class ClientApp:
    """The client's app in a second browser context, speaking REST with a token."""

    def __init__(self, browser: Any, base: str, username: str) -> None:
        self.context = browser.new_context(base_url=base)
        response = self.context.request.post(
            "/api/auth/token", data={"username": username, "password": PASSWORD}
        )
        assert response.ok, response.text()
        self.headers = {"Authorization": f"Token {response.json()['token']}"}

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.context.request.post(f"/api/ask/{path}", data=body, headers=self.headers)
        assert response.ok, response.text()
        return response.json()

    def get(self, path: str) -> dict[str, Any]:
        response = self.context.request.get(f"/api/ask/{path}", headers=self.headers)
        assert response.ok, response.text()
        return response.json()

    def patch(self, session: Any, body: dict[str, Any]) -> None:
        response = self.context.request.patch(
            f"/api/ask/sessions/{session.pk}", data=body, headers=self.headers
        )
        assert response.ok, response.text()


@pytest.fixture
def people() -> dict[str, Any]:
    alice = factories.ClientFactory(username="alice", first_name="Alice")
    factories.UserProfileFactory(user=alice)
    bob = factories.CounselorFactory(username="bob", first_name="Bob")
    factories.CaseloadAssignmentFactory(counselor=bob, client=alice)
    olga = factories.OpsFactory(username="olga", first_name="Olga")
    return {"alice": alice, "bob": bob, "olga": olga}


def conversation(owner: Any, title: str = "Sunday worries") -> tuple[Any, list[Any]]:
    session = factories.ActiveSessionFactory(user=owner, session_title=title, cbt_focus="")
    event_append(session=session, type="session.created", actor="client")
    lines = [
        ("narrator", "intro", "Hi Alice. Let's take a few quiet minutes for this week."),
        ("narrator", "question_card", "What has been on your mind since Sunday?"),
        ("client", "answer", "Work, mostly. The Monday meeting keeps coming back."),
        ("narrator", "question_card", "What about the meeting weighs on you most?"),
    ]
    messages = []
    for role, kind, text in lines:
        messages.append(graph.message_append(session=session, role=role, kind=kind, text=text))
        event_append(
            session=session,
            type="card.dealt" if role == "narrator" else "answer.received",
            payload={"message_id": messages[-1].pk},
        )
    return session, messages


def test_the_inspection_page_follows_an_engine_session_the_client_answers_through_rest(
    asgi_server, chromium, people
):
    client = ClientApp(chromium, asgi_server, "alice")
    session_id = client.post("sessions", {})["_id"]
    state = client.post(f"sessions/{session_id}/messages", {"text": "Work stress"})
    page = sign_in(chromium, asgi_server, "bob")
    page.goto(f"/sessions/{session_id}/")
    expect(page.locator("#live")).to_have_attribute("data-live", "open")
    page.evaluate("window.sameDocument = true")

    for answer in ("My manager piles work on me.", "I feel tense and tired every evening."):
        card = state["current_card"]
        state = client.post(
            f"sessions/{session_id}/answers", {"card_id": card["id"], "text": answer}
        )
        expect(page.locator(".timeline")).to_contain_text(answer)
        expect(page.locator(".timeline")).to_contain_text(state["current_card"]["text"][:40])
    expect(page.locator("#event-log-list")).to_contain_text("answer.received")
    session = AskSession.objects.get(pk=session_id)
    mood = latest_mood(session)
    assert mood is not None  # a batch completed: the Analyst said how the mood moved
    expect(page.locator(".orb")).to_have_class(re.compile(f"orb--{mood}"))
    assert page.evaluate("window.sameDocument") is True  # updated in place, never reloaded
    screenshot(page, "inspection-engine")


def test_a_counselor_watches_a_session_update_live_while_the_client_answers_through_rest(
    asgi_server, chromium, people
):
    session, _ = conversation(people["alice"])
    page = sign_in(chromium, asgi_server, "bob")
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("#live")).to_have_attribute("data-live", "open")
    expect(page.locator(".orb")).to_have_class(re.compile("orb--unknown"))
    page.evaluate("window.sameDocument = true")

    # The client answers; the engine's turn writes the answer, the Analyst's output (with its
    # mood) and the next card.
    graph.message_append(
        session=session, role="client", kind="answer", text="That I will freeze again."
    )
    graph.message_append(
        session=session,
        role="analyst",
        kind="analysis",
        text="The user anticipates freezing; less avoidance than last week.",
        payload={"mood_delta": "improving"},
    )
    graph.message_append(
        session=session,
        role="narrator",
        kind="question_card",
        text="When did you last speak up and it went fine?",
    )
    client = ClientApp(chromium, asgi_server, "alice")
    client.patch(session, {"session_title": "The Monday meeting"})

    expect(page.locator(".timeline")).to_contain_text("When did you last speak up")
    expect(page.locator("#event-log-list")).to_contain_text("session.updated")
    expect(page.locator(".orb")).to_have_class(re.compile("orb--improving"))
    assert page.evaluate("window.sameDocument") is True  # updated in place, never reloaded
    page.click("#event-log summary")
    screenshot(page, "inspection-live")

    # A dropped connection resumes with ?since= the last seq shown: nothing missed, no duplicate.
    shown = page.locator("#live-seq").get_attribute("data-seq")
    page.evaluate(f"{SOCKET}.socket.close()")
    expect(page.locator("#live")).to_have_attribute("data-live", "closed")
    client.patch(session, {"satisfaction_score": 4})  # happens while the page is away
    page.evaluate(f"{SOCKET}.publicInterface.reconnect()")
    expect(page.locator("#live")).to_have_attribute("data-live", "open")
    assert f"since={shown}" in sockets[-1]
    expect(page.locator("#event-log-list > li")).to_have_count(session.events.count())
    seqs = page.locator("#event-log-list > li").evaluate_all(
        "items => items.map(i => i.dataset.seq)"
    )
    assert seqs == [str(n) for n in range(1, session.events.count() + 1)]

    page.set_viewport_size(TABLET)
    screenshot(page, "inspection-tablet")


def test_highlight_event_opens_the_log_scrolled_to_that_event(asgi_server, chromium, people):
    session, _ = conversation(people["alice"])
    events = [event_append(session=session, type="card.dealt", payload={"n": n}) for n in range(40)]
    target = events[24]
    page = sign_in(chromium, asgi_server, "bob")
    page.goto(f"/sessions/{session.pk}/?highlightEvent={target.pk}")
    expect(page.locator("#event-log")).to_have_attribute("open", "")
    item = page.locator(f"#event-{target.pk}")
    expect(item).to_have_class(re.compile("event--highlight"))
    expect(item).to_be_in_viewport()
    inside_the_scroll_box = page.evaluate(
        """id => {
            const item = document.getElementById(id);
            const box = item.closest('.events').getBoundingClientRect();
            const rect = item.getBoundingClientRect();
            return item.closest('.events').scrollTop > 0
                && rect.top >= box.top && rect.bottom <= box.bottom;
        }""",
        f"event-{target.pk}",
    )
    assert inside_the_scroll_box
    screenshot(page, "highlight-event")


def test_continue_from_here_then_the_tree_shows_two_branches(asgi_server, chromium, people):
    session, messages = conversation(people["alice"])
    page = sign_in(chromium, asgi_server, "olga")
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("#live")).to_have_attribute("data-live", "open")

    page.click("#engine-details > summary")  # the raw timeline is the engine's, behind it
    page.click(f"#msg-{messages[2].pk} .chip-button")  # continue from Alice's first answer
    expect(page.locator(f"#msg-{messages[2].pk} .head-pill")).to_be_visible()
    expect(page.locator(f"#msg-{messages[3].pk}")).to_have_count(0)  # off the active branch
    expect(page.locator("#event-log-list")).to_contain_text("message.forked")

    graph.message_append(
        session=session,
        role="narrator",
        kind="question_card",
        text="Leaving work aside, how are evenings at home?",
    )
    ClientApp(chromium, asgi_server, "alice").patch(session, {"satisfaction_score": 5})
    expect(page.locator(".timeline")).to_contain_text("how are evenings at home?")
    expect(page.locator(".scope-strip")).to_contain_text("2 branches")

    page.click("label[for=view-tree]")
    expect(page.locator(".timeline")).to_be_hidden()
    forks = page.locator(".tree .branch .forks > .branch")
    expect(forks).to_have_count(2)
    expect(forks.nth(0)).to_contain_text("What about the meeting")
    expect(forks.nth(1)).to_contain_text("how are evenings at home?")
    screenshot(page, "tree-after-fork")


def test_the_crisis_queue_on_home_updates_live(asgi_server, chromium, people):
    factories.UserProfileFactory(user=people["bob"], on_duty=True)
    session, _ = conversation(people["alice"], title="Late-night message")
    factories.ServiceFactory(username="orchestrator")
    page = sign_in(chromium, asgi_server, "bob")
    expect(page.locator("#counselor-stream")).to_have_attribute("data-live", "open")
    expect(page.locator("#home-live")).not_to_contain_text("Late-night message")

    # The orchestrator raises the risk; the page's crisis queue picks it up without a reload,
    # under the neutral label every crisis gets on lists others read (one escalation path).
    ClientApp(chromium, asgi_server, "orchestrator").patch(session, {"initial_risk_level": "L3"})
    row = page.locator(f'#home-live .card--queue [data-session="{session.pk}"]')
    expect(row).to_have_count(1)
    expect(row).to_contain_text("L3")
    expect(row).not_to_contain_text("Late-night message")
    screenshot(page, "home-crisis-queue")


def test_a_page_whose_channel_layer_is_away_reconnects_once_it_is_back(chromium, people):
    """Redis down at the handshake: the server closes with 4503 ("try again later"), which the
    page retries like 1013, and the stream opens once Redis answers."""
    factories.UserProfileFactory(user=people["bob"], on_duty=True)
    port = free_port()
    env = {"REDIS_URL": f"redis://127.0.0.1:{port}/0"}
    with daphne(db_url=database_url(), log_name="daphne-redis-away.log", env=env) as url:
        page = sign_in(chromium, url, "bob")
        stream = page.locator("#counselor-stream")
        expect(stream).to_have_attribute("data-live", "closed")
        redis = subprocess.Popen(
            ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        try:
            expect(stream).to_have_attribute("data-live", "open", timeout=30_000)
        finally:
            redis.terminate()
            redis.wait(timeout=10)
