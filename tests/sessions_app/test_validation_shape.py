"""One validation-error shape everywhere: `{"code": "E_VALIDATION", "detail": "…", "fields":
{"name": ["message", …]}}` — from the graph's endpoints, the engine's turn endpoints and DRF's
own serializers alike, and so in the OpenAPI document."""

from __future__ import annotations

import pytest

from sessions_app.engine.graph import tree as graph
from tests import factories

pytestmark = pytest.mark.django_db


def url(session, tail):
    return f"/api/ask/sessions/{session.pk}/{tail}"


def assert_validation_shape(response):
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "detail", "fields"}
    assert body["code"] == "E_VALIDATION"
    assert isinstance(body["detail"], str)
    assert body["detail"]
    assert body["fields"], "a validation error names its fields"
    for name, messages in body["fields"].items():
        assert isinstance(name, str)
        assert isinstance(messages, list)
        assert messages
        assert all(isinstance(message, str) and message for message in messages)


@pytest.fixture
def live(alice):
    session = factories.ActiveSessionFactory(user=alice)
    graph.message_append(session=session, role="narrator", kind="question_card", text="Hi?")
    return session


def test_fork_workline_spin_off_and_turn_endpoints_answer_bad_input_in_one_shape(
    api_as, alice, live
):
    client = api_as(alice)
    foreign = factories.AskMessageFactory()
    bad_requests = [
        ("fork", {"message_id": foreign.pk}),  # engine (graph): another session's message
        ("fork", {}),  # serializer: required field
        ("worklines", {"name": ""}),  # serializer: blank
        ("spin-off", {"from_message_id": foreign.pk, "to_message_id": foreign.pk}),
        ("answers", {"card_id": "c1", "text": "   "}),  # engine (turns): empty text
        ("messages", {"text": ""}),  # engine or serializer: empty
    ]
    for tail, body in bad_requests:
        assert_validation_shape(client.post(url(live, tail), body, format="json"))


def test_the_openapi_document_gives_fields_as_lists_of_messages(api_as):
    schema = api_as().get("/api/schema/?format=json").json()
    fields = schema["components"]["schemas"]["ErrorOutput"]["properties"]["fields"]
    assert fields["type"] == "object"
    assert fields["additionalProperties"] == {"type": "array", "items": {"type": "string"}}


def test_a_nested_fields_errors_come_flat_under_a_dotted_name(api_as, alice, live):
    response = api_as(alice).patch(
        url(live, "modality"),
        {"modality_flags": {"text": True, "audio": False, "file": False, "extra": 1}},
        format="json",
    )
    assert_validation_shape(response)
    assert response.json()["fields"] == {"modality_flags.extra": ["Unknown field."]}
