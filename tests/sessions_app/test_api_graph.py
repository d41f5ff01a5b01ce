"""The session graph through REST: tree, fork, worklines, spin-off and their refusals."""

from __future__ import annotations

import pytest

from sessions_app.engine import graph
from sessions_app.models import AskMessage, AskSession
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(alice):
    return factories.ActiveSessionFactory(user=alice)


@pytest.fixture
def client(api_as, alice):
    return api_as(alice)


def url(session, tail):
    return f"/api/ask/sessions/{session.pk}/{tail}"


def line(session, *texts):
    """Alternate Narrator cards and client answers under the active head."""
    messages = []
    for i, text in enumerate(texts):
        role, kind = ("narrator", "question_card") if i % 2 == 0 else ("client", "answer")
        messages.append(graph.message_append(session=session, role=role, kind=kind, text=text))
    return messages


def timeline_texts(document):
    by_id = {m["id"]: m for m in document["messages"]}
    return [by_id[i]["text"] for i in document["timeline"]]


def test_the_tree_carries_parent_ids_in_the_schema_shape(client, live):
    card, answer = line(live, "How was work?", "Tiring")
    document = client.get(url(live, "tree")).json()
    node = next(m for m in document["messages"] if m["id"] == answer.pk)
    assert set(node) >= {"id", "parent_id", "workline_id", "role", "kind", "text", "createdAt"}
    assert node["parent_id"] == card.pk
    assert document["roots"] == [card.pk]
    assert timeline_texts(document) == ["How was work?", "Tiring"]


def test_fork_answer_differently_then_return_to_the_first_branch(client, live):
    card, _, second_card = line(live, "How was work?", "Tiring", "What tired you most?")
    response = client.post(url(live, "fork"), {"message_id": card.pk}, format="json")
    assert response.status_code == 200
    graph.message_append(session=live, role="client", kind="answer", text="Actually fine")

    document = client.get(url(live, "tree")).json()
    assert timeline_texts(document) == ["How was work?", "Actually fine"]
    assert document["branch_points"] == [card.pk]
    assert document["scope"]["branches"] == 2

    back = client.post(url(live, "fork"), {"message_id": second_card.pk}, format="json").json()
    assert timeline_texts(back) == ["How was work?", "Tiring", "What tired you most?"]


def test_worklines_switch_focus_and_keep_their_heads(client, live):
    line(live, "About my sister?", "She never calls")
    created = client.post(url(live, "worklines"), {"name": "Sleep"}, format="json")
    assert created.status_code == 201
    assert created.json()["is_active"] is True
    graph.message_append(session=live, role="client", kind="text", text="I wake at 4am")
    main = next(w for w in client.get(url(live, "worklines")).json() if w["name"] == "main")
    assert main["status"] == "parked"

    response = client.post(url(live, f"worklines/{main['id']}/activate"), format="json")
    assert response.status_code == 200
    document = client.get(url(live, "tree")).json()
    assert timeline_texts(document) == ["About my sister?", "She never calls"]


def test_a_spin_off_agreed_moves_the_range_and_shows_the_marker(client, live):
    _, a, b, _ = line(live, "Hi?", "Work is chaos", "And your boss?", "He shouted")
    proposal = client.post(
        url(live, "spin-off"),
        {"from_message_id": a.pk, "to_message_id": b.pk, "new_workline_name": "Work"},
        format="json",
    )
    assert proposal.status_code == 201
    assert proposal.json()["status"] == "proposed"
    decided = client.post(
        url(live, f"spin-off/{proposal.json()['id']}/decide"), {"agreed": True}, format="json"
    )
    assert decided.json()["status"] == "agreed"
    texts = timeline_texts(client.get(url(live, "tree")).json())
    assert texts == ["Hi?", "He shouted", f"Moved to «Work» (messages {a.pk}–{b.pk})"]


def test_a_declined_spin_off_changes_nothing(client, live):
    _, a = line(live, "Hi?", "Work is chaos")
    before = client.get(url(live, "tree")).json()
    proposal = client.post(
        url(live, "spin-off"),
        {"from_message_id": a.pk, "to_message_id": a.pk, "new_workline_name": "Work"},
        format="json",
    ).json()
    client.post(url(live, f"spin-off/{proposal['id']}/decide"), {"agreed": False}, format="json")
    after = client.get(url(live, "tree")).json()
    assert after["messages"] == before["messages"]
    assert after["worklines"] == before["worklines"]


@pytest.mark.parametrize("problem", ["other_session", "reversed", "crosses", "unknown_field"])
def test_bad_graph_requests_get_e_validation_and_change_nothing(client, live, problem):
    card, answer = line(live, "Hi?", "Hello")
    if problem == "other_session":
        foreign = factories.AskMessageFactory()
        path, body = "fork", {"message_id": foreign.pk}
    elif problem == "reversed":
        path = "spin-off"
        body = {"from_message_id": answer.pk, "to_message_id": card.pk, "new_workline_name": "X"}
    elif problem == "crosses":
        client.post(url(live, "worklines"), {"name": "Other"}, format="json")
        other = graph.message_append(session=live, role="client", kind="text", text="elsewhere")
        path = "spin-off"
        body = {"from_message_id": card.pk, "to_message_id": other.pk, "new_workline_name": "X"}
    else:
        path, body = "fork", {"message_id": card.pk, "parent": 1}
    before = list(AskMessage.objects.filter(session=live).values("id", "parent_id", "workline_id"))
    response = client.post(url(live, path), body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    after = list(AskMessage.objects.filter(session=live).values("id", "parent_id", "workline_id"))
    assert after == before
    assert not live.spin_offs.exists()


def test_a_closed_session_keeps_its_history(client, alice):
    closed = factories.AskSessionFactory(user=alice, status=AskSession.Status.COMPLETED)
    response = client.post(url(closed, "worklines"), {"name": "Later"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"


def test_clients_do_not_read_the_analysts_notes(api_as, client, live, bob):
    graph.message_append(session=live, role="analyst", kind="analysis", text="The user avoids…")
    own = client.get(url(live, "tree")).json()["messages"]
    staff = api_as(bob).get(url(live, "tree")).json()["messages"]
    assert own[0]["text"] == ""
    assert staff[0]["text"] == "The user avoids…"


def test_charlie_sees_nothing_of_alices_graph(api_as, charlie, live):
    line(live, "Hi?", "Hello")
    for path in ("tree", "worklines"):
        response = api_as(charlie).get(url(live, path))
        assert response.status_code == 404
        assert response.json()["code"] == "E_NOT_FOUND"
