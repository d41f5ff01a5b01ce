"""E3/R2 groundwork: the OpenAPI document validates and documents every API route."""

from __future__ import annotations

import re

import pytest
import yaml
from django.core.management import call_command

from sessions_app.api.base import ANY_REQUEST
from sessions_app.errors import ErrorCode

pytestmark = pytest.mark.django_db


def test_the_openapi_document_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    paths = set(schema["paths"])
    assert {
        "/api/ask/sessions",
        "/api/ask/sessions/{session_id}",
        "/api/ask/sessions/{session_id}/modality",
        "/api/ask/sessions/by-dify/{dify_conversation_id}",
        "/api/ask/export",
        "/api/notifications",
        "/api/notifications/{notification_id}/read",
        "/api/auth/token",
        "/api/auth/logout",
    } <= paths
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            statuses = set(operation["responses"])
            assert any(s.startswith("2") for s in statuses), (path, method)
            if path != "/api/auth/token":
                assert "401" in statuses, (path, method)


def test_the_schema_and_docs_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200


def test_the_homework_operations_are_documented_with_their_errors_and_idempotency(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    paths = yaml.safe_load(target.read_text())["paths"]
    assert set(paths["/api/ask/tasks"]) == {"get"}
    assert set(paths["/api/ask/tasks/{task_id}"]) == {"get", "patch"}
    patch = paths["/api/ask/tasks/{task_id}"]["patch"]
    assert {"400", "403", "404", "409"} <= set(patch["responses"])
    for move in ("accept", "skip", "done"):
        post = paths[f"/api/ask/tasks/{{task_id}}/{move}"]["post"]
        assert "Idempotency-Key" in [p["name"] for p in post["parameters"]], move
        assert {"403", "404", "409", "422"} <= set(post["responses"]), move
    state = yaml.safe_load(target.read_text())["components"]["schemas"]["StateOutput"]
    assert "homework" in state["properties"]


def test_every_error_code_is_documented_with_its_status_and_what_it_means(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    text = target.read_text()
    schema = yaml.safe_load(text)
    responses = [
        (status, response.get("description", ""))
        for operations in schema["paths"].values()
        for operation in operations.values()
        for status, response in operation["responses"].items()
    ]
    for code in ErrorCode:
        if code in ANY_REQUEST:
            # Not an operation's own: the document's description lists it once.
            line = f"- `{code}` ({code.status}): {code.description}"
            assert line in schema["info"]["description"], code
        else:
            said = f"{code}: {code.description}"
            assert any(
                status == str(code.status) and said in description
                for status, description in responses
            ), code
    # And no code is typed by hand: every one the document names is a member of the enum.
    assert set(re.findall(r"\bE_[A-Z_]+\b", text)) <= set(ErrorCode)


def test_the_stream_and_the_long_poll_are_documented(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    paths = yaml.safe_load(target.read_text())["paths"]
    stream = paths["/api/ask/sessions/{session_id}/stream"]["get"]
    assert set(stream["responses"]["200"]["content"]) == {"text/event-stream"}
    assert {"401", "403", "404"} <= set(stream["responses"])
    assert {"session_id", "Last-Event-ID", "since"} == {p["name"] for p in stream["parameters"]}
    state = paths["/api/ask/sessions/{session_id}/state"]["get"]
    wait = next(p for p in state["parameters"] if p["name"] == "wait")
    assert (wait["in"], wait["schema"]["maximum"]) == ("query", 30)
    assert set(state["responses"]["200"]["content"]) == {"application/json"}
