"""The staff's pages: sign-in, the counselor's home, the session page and "continue from here"."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sessions_app import pages
from sessions_app.engine.graph import tree as graph
from sessions_app.engine.selectors import session_tree
from sessions_app.engine.services import message_fork, workline_create
from sessions_app.models import Workline
from tests import factories
from tests.routes import object_url

PASSWORD = "pw-for-tests-1"
page = object_url("pages:session")
continue_url = object_url("pages:session-continue-from")


@pytest.fixture
def conversation(alice):
    """An active session: card → answer → card → answer on the main workline."""
    session = factories.ActiveSessionFactory(user=alice, session_title="Sunday worries")
    messages = [
        graph.message_append(session=session, role=role, kind=kind, text=text)
        for role, kind, text in [
            ("narrator", "question_card", "What is on your mind?"),
            ("client", "answer", "Work, mostly."),
            ("narrator", "question_card", "What about work?"),
            ("client", "answer", "The Monday meeting."),
        ]
    ]
    return session, messages


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- sign-in -----------------------------------------------------------------------------------


def test_the_sign_in_page_renders_without_inline_scripts(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<script>" not in html
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))


def test_a_counselor_signs_in_and_lands_on_the_home_page(client, bob):
    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("pages:home")


@pytest.mark.parametrize("persona", ["alice", "service_account"])
def test_clients_and_services_are_told_only_that_the_credentials_do_not_work(
    request, client, persona
):
    user = request.getfixturevalue(persona)
    right = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    wrong = client.post(reverse("login"), {"username": user.username, "password": "nope"})
    assert right.status_code == wrong.status_code == 200
    assert right.context["form"].errors == wrong.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_sign_out_is_a_post_and_returns_to_the_sign_in_page(bob):
    client = signed_in(bob)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response.url == reverse("login")
    assert client.get(reverse("pages:home")).status_code == 302


def test_anonymous_visitors_are_sent_to_sign_in_and_come_back(client, conversation):
    session, _ = conversation
    response = client.get(page(session))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login") + "?next=")


# --- home --------------------------------------------------------------------------------------


def test_home_shows_caseload_crisis_queue_and_follow_ups(bob, alice, charlie):
    factories.CaseloadAssignmentFactory(counselor=bob, client=charlie)
    at_risk = factories.ActiveSessionFactory(
        user=alice, initial_risk_level="L3", session_title="Needs someone"
    )
    factories.CrisisSessionFactory(
        user=charlie, handoff_counselor=bob, handoff_time=timezone.now(), session_title="Claimed"
    )
    stranger = factories.CrisisSessionFactory(session_title="Not bob's")
    due = factories.AskSessionFactory(
        user=alice,
        session_title="Check in",
        follow_up_needed=True,
        follow_up_at=timezone.now() - timedelta(hours=1),
    )
    response = signed_in(bob).get(reverse("pages:home"))
    assert response.status_code == 200
    assert list(response.context["queue"]) == [at_risk]
    assert list(response.context["follow_ups"]) == [due]
    assert {row.client for row in response.context["caseload"]} == {alice, charlie}
    html = response.content.decode()
    assert "Needs someone" in html
    # In the caseload as charlie's latest session: a crisis is always named neutrally.
    assert "Support session · " in html
    assert "Claimed" not in html
    assert stranger.session_title not in html
    assert 'ws-connect="/ws/counselors/?format=html"' in html


def test_ops_see_live_sessions_instead_of_a_caseload(olga, conversation):
    session, _ = conversation
    response = signed_in(olga).get(reverse("pages:home"))
    assert response.context["caseload"] is None
    assert list(response.context["active"]) == [session]


def test_an_htmx_refresh_of_home_renders_only_the_live_lists(bob):
    response = signed_in(bob).get(reverse("pages:home"), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="home-live"')
    assert "<html" not in html


@pytest.mark.parametrize("persona", ["alice", "service_account"])
def test_home_is_not_for_clients_or_services(request, persona):
    response = signed_in(request.getfixturevalue(persona)).get(reverse("pages:home"))
    assert response.status_code == 403


# --- the session page ----------------------------------------------------------------------------


def test_the_session_page_shows_timeline_tree_worklines_scope_and_event_log(bob, conversation):
    session, messages = conversation
    factories.SessionEventFactory(session=session, type="card.dealt", payload={"message_id": 1})
    response = signed_in(bob).get(page(session))
    assert response.status_code == 200
    html = response.content.decode()
    for message in messages:
        assert f'id="msg-{message.pk}"' in html
    assert 'class="tree"' in html
    assert 'class="worklines"' in html
    assert 'class="scope-strip"' in html
    assert 'id="event-log-list"' in html
    assert "card.dealt" in html
    ws = f'ws-connect="/ws/sessions/{session.pk}/?format=html&amp;since=1"'
    assert ws in html
    assert '<details id="event-log" class="event-log">' in html  # closed by default


def test_highlight_event_opens_the_log_and_marks_that_event(bob, conversation):
    session, _ = conversation
    events = [factories.SessionEventFactory(session=session, type="card.dealt") for _ in range(3)]
    response = signed_in(bob).get(page(session) + f"?highlightEvent={events[1].pk}")
    html = response.content.decode()
    assert '<details id="event-log" class="event-log" open>' in html
    assert f'id="event-{events[1].pk}" class="event event--carddealt event--highlight"' in html
    assert html.count("event--highlight") == 1


@pytest.mark.parametrize("value", ["abc", "-1", "99999", ""])
def test_a_bad_highlight_is_ignored(bob, conversation, value):
    session, _ = conversation
    response = signed_in(bob).get(page(session) + f"?highlightEvent={value}")
    assert response.status_code == 200
    assert "event--highlight" not in response.content.decode()


def test_the_tree_shows_both_branches_after_a_fork(olga, conversation):
    session, messages = conversation
    message_fork(session=session, from_message=messages[1], by=olga)
    other = graph.message_append(session=session, role="client", kind="answer", text="Or home.")
    response = signed_in(olga).get(page(session) + "?view=tree")
    context = response.context
    rows = context["page"].tree
    assert [kind for kind, _ in rows].count("branch") == 3  # the trunk and two forks
    assert context["page"].scope.branches == 2
    assert [m.pk for m in context["page"].timeline] == [messages[0].pk, messages[1].pk, other.pk]
    html = response.content.decode()
    assert 'id="view-tree" class="view-radio" checked' in html
    assert html.count('class="forks"') == 2


@pytest.mark.parametrize(
    ("mood", "css"),
    [("declining", "orb--declining"), ("stable", "orb--stable"), ("improving", "orb--improving")],
)
def test_the_mood_orb_takes_the_latest_mood_delta(bob, conversation, mood, css):
    session, _ = conversation
    factories.SessionEventFactory(
        session=session, type="analyst.responded", payload={"mood_delta": "stable"}
    )
    graph.message_append(
        session=session, role="analyst", kind="analysis", payload={"mood_delta": mood}
    )
    html = signed_in(bob).get(page(session)).content.decode()
    assert f'class="orb {css}"' in html


def test_without_a_mood_the_orb_is_neutral(bob, conversation):
    session, _ = conversation
    assert 'class="orb orb--unknown"' in signed_in(bob).get(page(session)).content.decode()


def test_a_counselor_outside_the_caseload_gets_404_and_for_a_crisis_session_403(dana, alice):
    normal = factories.AskSessionFactory(user=alice)
    crisis = factories.CrisisSessionFactory(user=alice)
    client = signed_in(dana)
    assert client.get(page(normal)).status_code == 404
    response = client.get(page(crisis))
    assert response.status_code == 403
    assert crisis.session_title not in response.content.decode()


def test_an_htmx_refresh_renders_only_the_canvas(bob, conversation):
    session, _ = conversation
    response = signed_in(bob).get(page(session), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="canvas"')
    assert "event-log" not in html


def test_the_session_page_reads_a_bounded_number_of_queries(
    bob, conversation, django_assert_max_num_queries
):
    session, _ = conversation
    for _ in range(20):
        factories.SessionEventFactory(session=session, type="card.dealt")
    client = signed_in(bob)
    # 20 for the canvas and the log, and a fixed 6 for the state panel: the engine's own state
    # and thread documents (each reads the session afresh, as every caller of them does), the
    # LLM calls. None of it grows with the session.
    with django_assert_max_num_queries(26):
        client.get(page(session))


def test_the_page_carries_a_content_security_policy_without_inline_code(bob, conversation):
    session, _ = conversation
    response = signed_in(bob).get(page(session))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    html = response.content.decode()
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))
    assert " style=" not in html
    assert "django_htmx/ext/hx-ws-2" in html


# --- continue from here ---------------------------------------------------------------------


def test_ops_continue_from_a_message_through_htmx(olga, conversation):
    session, messages = conversation
    response = signed_in(olga).post(
        continue_url(session), {"message_id": messages[1].pk}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="canvas"')
    workline = Workline.objects.get(session=session)
    assert workline.head_id == messages[1].pk
    assert session.events.filter(type="message.forked").count() == 1


def test_without_htmx_continue_from_redirects_back_to_the_page(olga, conversation):
    session, messages = conversation
    response = signed_in(olga).post(continue_url(session), {"message_id": messages[0].pk})
    assert response.status_code == 302
    assert response.url == page(session)


def test_a_counselor_watching_may_not_move_the_session(bob, conversation):
    session, messages = conversation
    response = signed_in(bob).post(continue_url(session), {"message_id": messages[1].pk})
    assert response.status_code == 403
    assert Workline.objects.get(session=session).head_id == messages[3].pk
    assert "Continue from here" not in signed_in(bob).get(page(session)).content.decode()


def test_continue_from_needs_the_csrf_token(olga, conversation):
    session, messages = conversation
    client = Client(enforce_csrf_checks=True)
    client.force_login(olga)
    refused = client.post(continue_url(session), {"message_id": messages[1].pk})
    assert refused.status_code == 403
    # The page puts the token in <body hx-headers>; HTMX sends it as X-CSRFToken.
    html = client.get(page(session)).content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', html).group(1)
    accepted = client.post(
        continue_url(session),
        {"message_id": messages[1].pk},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert accepted.status_code == 200


def test_continue_from_a_message_of_another_session_is_404(olga, conversation, alice):
    session, _ = conversation
    elsewhere = factories.AskMessageFactory(session=factories.AskSessionFactory(user=alice))
    response = signed_in(olga).post(continue_url(session), {"message_id": elsewhere.pk})
    assert response.status_code == 404


def test_a_refused_move_shows_an_error_in_the_flash_slot(olga, conversation):
    session, messages = conversation
    workline_create(session=session, name="Home life", by=olga)  # main is parked now
    response = signed_in(olga).post(
        continue_url(session), {"message_id": messages[1].pk}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert response.headers["HX-Retarget"] == "#flash"
    assert response.headers["HX-Reswap"] == "innerHTML"
    assert "active workline" in response.content.decode()


def test_continue_from_is_post_only(olga, conversation):
    session, _ = conversation
    assert signed_in(olga).get(continue_url(session)).status_code == 405


# --- the page view-models -----------------------------------------------------------------------


def test_tree_rows_nest_only_where_the_conversation_branches(olga, conversation):
    session, messages = conversation
    message_fork(session=session, from_message=messages[1], by=olga)
    graph.message_append(session=session, role="client", kind="answer", text="b")
    rows = pages.tree_rows(session_tree(session))
    kinds = [kind if node is None else node.id for kind, node in rows]
    m = [message.pk for message in messages]
    new = max(n for n in kinds if isinstance(n, int))
    assert kinds == [
        "forks",
        "branch",
        m[0],
        m[1],
        "end_chain",
        "forks",
        "branch",
        m[2],
        m[3],
        "end_chain",
        "end_branch",
        "branch",
        new,
        "end_chain",
        "end_branch",
        "end_forks",
        "end_branch",
        "end_forks",
    ]


def test_a_long_linear_session_is_one_flat_chain(alice):
    session = factories.ActiveSessionFactory(user=alice)
    for n in range(60):
        graph.message_append(session=session, role="client", kind="answer", text=str(n))
    rows = pages.tree_rows(session_tree(session))
    assert [kind for kind, _ in rows].count("forks") == 1
    assert len(rows) == 60 + 5


def test_a_session_without_messages_has_an_empty_tree_and_timeline(bob, alice):
    session = factories.ActiveSessionFactory(user=alice)
    response = signed_in(bob).get(page(session))
    assert response.context["page"].tree == []
    html = response.content.decode()
    assert "No messages yet." in html
    assert "No messages on this branch yet." in html
