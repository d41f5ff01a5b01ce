"""The session graph through REST: tree, fork, worklines, spin-off and their refusals."""

from __future__ import annotations

import pytest

from sessions_app.engine.graph import tree as graph
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


def state_url(session_id, name="state"):
    return f"/api/ask/sessions/{session_id}/{name}"


def card_node(client, session_id, card_id):
    """The tree node of the message that dealt card `card_id`."""
    messages = client.get(f"/api/ask/sessions/{session_id}/tree").json()["messages"]
    dealt = AskMessage.objects.filter(session_id=session_id, kind="question_card")
    pk = next(m.pk for m in dealt if m.payload.get("card_id") == card_id)
    return next(m for m in messages if m["id"] == pk)


def test_the_whole_graph_round_trip_runs_through_rest_with_the_engine(client):
    """Issue 6: answer, fork from an earlier answer, answer differently, switch back to the first
    branch and find its cards unchanged; spin a range off and see the marker."""
    session_id = client.post("/api/ask/sessions", {}, format="json").json()["_id"]
    state = client.post(
        state_url(session_id, "messages"), {"text": "Work stress"}, format="json"
    ).json()
    first_card = state["current_card"]

    def post(name, body):
        return client.post(state_url(session_id, name), body, format="json")

    state = post("answers", {"card_id": first_card["id"], "text": "My manager ignores me"}).json()
    second_card = state["current_card"]
    assert second_card["id"] != first_card["id"]

    first_node = card_node(client, session_id, first_card["id"])
    assert post("fork", {"message_id": first_node["id"]}).status_code == 200
    assert client.get(state_url(session_id)).json()["current_card"]["id"] == first_card["id"]
    state = post("answers", {"card_id": first_card["id"], "text": "Honestly, it is fine"}).json()
    assert state["answered"][-1] == {
        "question": first_card["text"],
        "answer": "Honestly, it is fine",
    }

    tree = client.get(f"/api/ask/sessions/{session_id}/tree").json()
    assert first_node["id"] in tree["branch_points"]
    old_tip = card_node(client, session_id, second_card["id"])
    assert post("fork", {"message_id": old_tip["id"]}).status_code == 200
    back = client.get(state_url(session_id)).json()
    assert back["current_card"]["id"] == second_card["id"]
    assert back["current_card"]["text"] == second_card["text"]
    assert back["answered"][-1]["answer"] == "My manager ignores me"

    timeline = client.get(f"/api/ask/sessions/{session_id}/tree").json()
    by_id = {m["id"]: m for m in timeline["messages"]}
    answers = [i for i in timeline["timeline"] if by_id[i]["kind"] == "answer"]
    proposal = post(
        "spin-off",
        {"from_message_id": answers[-1], "to_message_id": answers[-1], "new_workline_name": "Boss"},
    ).json()
    assert post(f"spin-off/{proposal['id']}/decide", {"agreed": True}).status_code == 200
    after = client.get(f"/api/ask/sessions/{session_id}/tree").json()
    texts = [m["text"] for m in after["messages"] if m["id"] in after["timeline"]]
    assert texts[-1] == f"Moved to «Boss» (messages {answers[-1]}–{answers[-1]})"
    assert "My manager ignores me" not in texts
