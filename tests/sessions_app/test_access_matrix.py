"""QUALITY R1: every API route, HTML page and websocket route by every role by (normal, crisis
session) answers as SPEC §1 says.

The routes are enumerated from the URL conf and the websocket routing, so a new endpoint without a
row here fails `test_every_api_route_has_a_row_in_the_access_table` (or its HTML and websocket
siblings).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from sessions_app.engine.graph import tree as graph
from sessions_app.engine.services import spin_off_propose, workline_create
from sessions_app.models import AskSession, Workline
from tests import factories

PASSWORD = "pw-for-tests-1"
ROLES = (
    "owner",
    "other_client",
    "caseload_counselor",
    "other_counselor",
    "ops",
    "service",
    "anonymous",
)
VARIANTS = ("normal", "crisis")


def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from walk(entry.url_patterns, prefix + str(entry.pattern), ns)
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), f"{namespace}{entry.name}", entry.callback


def api_routes() -> set[tuple[str, str]]:
    """(route name, METHOD) for every handler of every route under /api/."""
    routes = set()
    for path, name, callback in walk(get_resolver().url_patterns):
        if not path.startswith("api/"):
            continue
        view_class = callback.cls
        for method in view_class.http_method_names:
            if method not in ("options", "head") and hasattr(view_class, method):
                routes.add((name, method.upper()))
    return routes


def both(normal: int, crisis: int | None = None) -> tuple[int, int]:
    return (normal, normal if crisis is None else crisis)


def row(**expected: int | tuple[int, int]) -> dict[str, tuple[int, int]]:
    assert set(expected) == set(ROLES), f"a row needs every role: {sorted(expected)}"
    return {role: v if isinstance(v, tuple) else both(v) for role, v in expected.items()}


def everyone(status: int, anonymous: int = 401) -> dict[str, tuple[int, int]]:
    return row(**{role: status for role in ROLES if role != "anonymous"}, anonymous=anonymous)


# Counselors outside the caseload: 404 for a normal session, 403 E_FORBIDDEN for a crisis one.
STRANGER_COUNSELOR = both(404, 403)

TABLE: dict[tuple[str, str], dict[str, tuple[int, int]]] = {
    ("sessions:session-list", "GET"): everyone(200),
    ("sessions:session-list", "POST"): row(
        owner=201,
        other_client=201,
        caseload_counselor=403,
        other_counselor=403,
        ops=403,
        service=201,
        anonymous=401,
    ),
    ("sessions:session-detail", "GET"): row(
        owner=200,
        other_client=404,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=200,
        anonymous=401,
    ),
    ("sessions:session-detail", "PATCH"): row(
        owner=200,
        other_client=404,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=200,
        anonymous=401,
    ),
    ("sessions:session-detail", "DELETE"): row(
        owner=204,
        other_client=404,
        caseload_counselor=403,
        other_counselor=STRANGER_COUNSELOR,
        ops=204,
        service=403,
        anonymous=401,
    ),
    ("sessions:session-modality", "PATCH"): row(
        owner=200,
        other_client=404,
        caseload_counselor=403,
        other_counselor=STRANGER_COUNSELOR,
        ops=403,
        service=200,
        anonymous=401,
    ),
    ("sessions:session-by-dify", "GET"): row(
        owner=403,
        other_client=403,
        caseload_counselor=403,
        other_counselor=403,
        ops=200,
        service=200,
        anonymous=401,
    ),
    ("sessions:session-state", "GET"): row(
        owner=200,
        other_client=404,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=200,
        anonymous=401,
    ),
    # Following a session (Server-Sent Events): whoever may read its state. The matrix opens the
    # stream and checks its status; tests/sessions_app/test_api_stream.py reads it.
    ("sessions:session-stream", "GET"): row(
        owner=200,
        other_client=404,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=200,
        anonymous=401,
    ),
    # The turn loop: only the session's client acts; whoever may read it gets 403.
    **{
        (f"sessions:session-{name}", "POST"): row(
            owner=200,
            other_client=404,
            caseload_counselor=403,
            other_counselor=STRANGER_COUNSELOR,
            ops=403,
            service=403,
            anonymous=401,
        )
        for name in ("answers", "messages", "continue", "end", "last-thing")
    },
    # Risk by hand (SPEC §3): counselors who may read the session, and ops; never a client.
    ("sessions:session-risk", "POST"): row(
        owner=403,
        other_client=403,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=403,
        anonymous=401,
    ),
    # The counselor's workspace: counselors who may read the session (here: its
    # caseload counselor; alerted counselors in test_api_workspace.py) and ops; the row's
    # request makes the acting counselor the holder first where the move needs one.
    **{
        (f"sessions:session-{name}", "POST"): row(
            owner=403,
            other_client=404,
            caseload_counselor=status,
            other_counselor=STRANGER_COUNSELOR,
            ops=status,
            service=403,
            anonymous=401,
        )
        for name, status in (
            ("claim", 200),
            ("take-over", 200),
            ("counselor-messages", 201),
            ("hand-back", 200),
            ("steer", 201),
        )
    },
    # The caller's own profile and its consent to the vault export: clients only,
    # each its own; nobody reads or changes another's.
    **{
        (route, method): row(
            owner=200,
            other_client=200,
            caseload_counselor=403,
            other_counselor=403,
            ops=403,
            service=403,
            anonymous=401,
        )
        for route, methods in (
            ("sessions:profile", ("GET", "PATCH")),
            ("sessions:profile-vault-consent", ("GET", "PUT", "DELETE")),
        )
        for method in methods
    },
    ("sessions:notification-list", "GET"): everyone(200),
    ("sessions:notification-read", "POST"): row(
        owner=200,
        other_client=404,
        caseload_counselor=404,
        other_counselor=404,
        ops=404,
        service=404,
        anonymous=401,
    ),
    ("sessions:export", "POST"): row(
        owner=200,
        other_client=200,  # its own, empty history
        caseload_counselor=403,
        other_counselor=403,
        ops=403,
        service=403,
        anonymous=401,
    ),
    ("sessions:tree", "GET"): row(
        owner=200,
        other_client=404,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=200,
        anonymous=401,
    ),
    ("sessions:worklines", "GET"): row(
        owner=200,
        other_client=404,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=200,
        anonymous=401,
    ),
    **{
        route: row(
            owner=status,
            other_client=404,
            caseload_counselor=status,
            other_counselor=STRANGER_COUNSELOR,
            ops=403,  # ops read everything but do not steer a client's conversation
            service=status,
            anonymous=401,
        )
        for route, status in (
            (("sessions:fork", "POST"), 200),
            (("sessions:worklines", "POST"), 201),
            (("sessions:workline-activate", "POST"), 200),
            (("sessions:spin-off", "POST"), 201),
            (("sessions:spin-off-decide", "POST"), 200),
        )
    },
    # The psychologist (SPEC §9): counselors and ops; the role is checked before the object, so
    # every client and the service get the same 403 whatever the id.
    ("psychologist:session-reanalyze", "POST"): row(
        owner=403,
        other_client=403,
        caseload_counselor=202,
        other_counselor=STRANGER_COUNSELOR,
        ops=202,
        service=403,
        anonymous=401,
    ),
    ("psychologist:hypothesis-list", "GET"): row(
        owner=403,
        other_client=403,
        caseload_counselor=200,
        other_counselor=200,  # an empty page: nothing of alice's is in dana's scope
        ops=200,
        service=403,
        anonymous=401,
    ),
    **{
        route: row(
            owner=403,
            other_client=403,
            caseload_counselor=200,
            other_counselor=STRANGER_COUNSELOR,
            ops=200,
            service=403,
            anonymous=401,
        )
        for route in (
            ("psychologist:hypothesis-accept", "POST"),
            ("psychologist:hypothesis-dismiss", "POST"),
        )
    },
    # CBT homework: clients their own, counselors their caseload's (read only), ops
    # and services read all; only the task's client acts on it. Not a session route: a stranger
    # counselor gets 404 for a crisis session's task too (it learns nothing, not even "crisis").
    ("sessions:task-list", "GET"): everyone(200),
    ("sessions:task-detail", "GET"): row(
        owner=200,
        other_client=404,
        caseload_counselor=200,
        other_counselor=404,
        ops=200,
        service=200,
        anonymous=401,
    ),
    **{
        route: row(
            owner=200,
            other_client=404,
            caseload_counselor=403,
            other_counselor=404,
            ops=403,
            service=403,
            anonymous=401,
        )
        for route in (
            ("sessions:task-detail", "PATCH"),
            ("sessions:task-accept", "POST"),
            ("sessions:task-skip", "POST"),
            ("sessions:task-done", "POST"),
        )
    },
    # Schema, docs and auth: their own rows.
    ("api:auth-token", "POST"): everyone(200, anonymous=401),  # anonymous: bad credentials
    ("api:auth-logout", "POST"): everyone(204),
    ("api:schema", "GET"): everyone(200, anonymous=200),
    ("api:docs", "GET"): everyone(200, anonymous=200),
    # Any other path under /api/: E_NOT_FOUND for everyone, whatever DEBUG says.
    **{
        ("api-not-found", method): everyone(404, anonymous=404)
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
    },
}


@dataclass
class World:
    users: dict[str, Any]
    sessions: dict[str, Any]
    notification: Any


@pytest.fixture
def world(alice, bob, charlie, dana, olga, service_account) -> World:
    users = {
        "owner": alice,
        "other_client": charlie,
        "caseload_counselor": bob,
        "other_counselor": dana,
        "ops": olga,
        "service": service_account,
        "anonymous": None,
    }
    sessions = {
        "normal": factories.AskSessionFactory(user=alice),
        "crisis": factories.CrisisSessionFactory(user=alice),
    }
    notification = factories.NotificationFactory(user=alice, session=sessions["normal"])
    return World(users=users, sessions=sessions, notification=notification)


Request = tuple[dict[str, Any], dict[str, Any] | None]


def session_kwargs(world: World, role: str, variant: str) -> Request:
    return {"session_id": world.sessions[variant].pk}, None


def create_request(world: World, role: str, variant: str) -> Request:
    body = {"user_id": world.users["owner"].pk} if role == "service" else {}
    return {}, body


def login_request(world: World, role: str, variant: str) -> Request:
    user = world.users[role]
    if user is None:
        return {}, {"username": "nobody", "password": "wrong"}
    return {}, {"username": user.username, "password": PASSWORD}


def graph_request(kind: str) -> Callable[[World, str, str], Request]:
    """A live session with a short line of messages, so every graph write has something to do."""

    def build(world: World, role: str, variant: str) -> Request:
        session = world.sessions[variant]
        AskSession.objects.filter(pk=session.pk).update(status=AskSession.Status.ACTIVE)
        session.refresh_from_db()
        first = graph.message_append(session=session, role="narrator", kind="text", text="Q?")
        second = graph.message_append(session=session, role="client", kind="answer", text="A")
        kwargs = {"session_id": session.pk}
        if kind == "fork":
            return kwargs, {"message_id": first.pk}
        if kind == "create":
            return kwargs, {"name": "Sleep"}
        if kind == "activate":
            other = Workline.objects.create(session=session, name="Parked", status="parked")
            return {**kwargs, "workline_id": other.pk}, None
        spin = {"from_message_id": second.pk, "to_message_id": second.pk}
        if kind == "spin":
            return kwargs, {**spin, "new_workline_name": "Work"}
        proposal = spin_off_propose(
            session=session, from_message=second, to_message=second, new_workline_name="Work"
        )
        return {**kwargs, "proposal_id": proposal.pk}, {"agreed": True}

    return build


def started(world: World, variant: str) -> Any:
    """The variant's session made active and started, as the engine would have it."""
    from sessions_app.engine.services import session_start

    session = world.sessions[variant]
    session.status = "active"
    session.save(update_fields=["status"])
    return session_start(session=session)


def turn_request(prepare: Callable[[Any], dict[str, Any]]) -> Callable[[World, str, str], Request]:
    """Only the owner's cell needs a session in the right state; the others are refused first."""

    def build(world: World, role: str, variant: str) -> Request:
        kwargs = {"session_id": world.sessions[variant].pk}
        if role != "owner":
            return kwargs, {"text": "hello", "card_id": "x"}
        return kwargs, prepare(started(world, variant))

    return build


def _current_card_id(session: Any) -> str:
    from sessions_app.engine.selectors import session_state

    return session_state(session)["current_card"]["id"]


def _at_completion(session: Any) -> dict[str, Any]:
    from sessions_app.engine.cards.dealer import COMPLETION, Turn, new_card, session_locked

    with transaction.atomic():
        turn = Turn(session_locked(session.pk))
        turn.open_batch([new_card("End the session?", COMPLETION)], engine="engine")
        turn.save()
    return {}


def _at_last_thing(session: Any) -> dict[str, Any]:
    from sessions_app.engine.services import session_end

    session_end(session=session)
    return {"finish": True}


def workspace_request(stage: str) -> Callable[[World, str, str], Request]:
    """A live, started session; for staff, held (and taken over) by the acting user as far as
    the move needs."""

    def build(world: World, role: str, variant: str) -> Request:
        from sessions_app.engine.services import session_claim, session_take_over

        session = started(world, variant)
        user = world.users[role]
        if role in ("caseload_counselor", "ops") and stage in ("held", "speaking"):
            session_claim(session=session, counselor=user)
            if stage == "speaking":
                session_take_over(session=session, counselor=user)
        return {"session_id": session.pk}, {"text": "I'm here with you."}

    return build


def hypothesis_request(world: World, role: str, variant: str) -> Request:
    hypothesis = factories.HypothesisFactory(analysis__session=world.sessions[variant])
    return {"hypothesis_id": hypothesis.pk}, {}


def task_request(stage: str, body: dict[str, Any] | None = None) -> Callable[..., Request]:
    """A task of the variant's session, already accepted where the move needs it (entries and
    done come after accepting). A crisis session proposes no homework and its proposals cannot
    be accepted, so its task is an accepted one: every move on it is then allowed by state,
    and the row shows access alone."""

    def build(world: World, role: str, variant: str) -> Request:
        accepted = stage == "accepted" or variant == "crisis"
        task = factories.TaskFactory(
            session=world.sessions[variant], status="accepted" if accepted else "proposed"
        )
        return {"task_id": task.pk}, body

    return build


REQUESTS: dict[tuple[str, str], Callable[[World, str, str], Request]] = {
    ("sessions:task-detail", "GET"): task_request("proposed"),
    ("sessions:task-detail", "PATCH"): task_request("accepted", {"entries": {"intensity": 60}}),
    ("sessions:task-accept", "POST"): task_request("proposed", {}),
    ("sessions:task-skip", "POST"): task_request("proposed", {}),
    ("sessions:task-done", "POST"): task_request("accepted", {}),
    ("psychologist:session-reanalyze", "POST"): lambda w, r, v: (session_kwargs(w, r, v)[0], {}),
    ("psychologist:hypothesis-accept", "POST"): hypothesis_request,
    ("psychologist:hypothesis-dismiss", "POST"): hypothesis_request,
    ("sessions:tree", "GET"): session_kwargs,
    ("sessions:worklines", "GET"): session_kwargs,
    ("sessions:fork", "POST"): graph_request("fork"),
    ("sessions:worklines", "POST"): graph_request("create"),
    ("sessions:workline-activate", "POST"): graph_request("activate"),
    ("sessions:spin-off", "POST"): graph_request("spin"),
    ("sessions:spin-off-decide", "POST"): graph_request("decide"),
    ("sessions:session-answers", "POST"): turn_request(
        lambda s: {"card_id": _current_card_id(s), "text": "Work, mostly."}
    ),
    ("sessions:session-messages", "POST"): turn_request(lambda s: {"text": "Work, mostly."}),
    ("sessions:session-continue", "POST"): turn_request(_at_completion),
    ("sessions:session-end", "POST"): turn_request(lambda s: {}),
    ("sessions:session-last-thing", "POST"): turn_request(_at_last_thing),
    ("sessions:session-state", "GET"): session_kwargs,
    ("sessions:session-stream", "GET"): session_kwargs,
    ("sessions:session-risk", "POST"): lambda w, r, v: (
        session_kwargs(w, r, v)[0],
        {"level": "L4", "reason": "Checked with the client by phone."},
    ),
    ("sessions:session-claim", "POST"): lambda w, r, v: (workspace_request("live")(w, r, v)[0], {}),
    ("sessions:session-take-over", "POST"): lambda w, r, v: (
        workspace_request("held")(w, r, v)[0],
        {},
    ),
    ("sessions:session-counselor-messages", "POST"): workspace_request("speaking"),
    ("sessions:session-hand-back", "POST"): lambda w, r, v: (
        workspace_request("speaking")(w, r, v)[0],
        {},
    ),
    ("sessions:session-steer", "POST"): workspace_request("live"),
    ("sessions:session-list", "POST"): create_request,
    ("sessions:session-detail", "GET"): session_kwargs,
    ("sessions:session-detail", "PATCH"): lambda w, r, v: (
        session_kwargs(w, r, v)[0],
        {"follow_up_needed": True},
    ),
    ("sessions:session-detail", "DELETE"): session_kwargs,
    ("sessions:session-modality", "PATCH"): lambda w, r, v: (
        session_kwargs(w, r, v)[0],
        {"modality_flags": {"text": True}},
    ),
    ("sessions:session-by-dify", "GET"): lambda w, r, v: (
        {"dify_conversation_id": w.sessions[v].dify_conversation_id},
        None,
    ),
    ("sessions:notification-read", "POST"): lambda w, r, v: (
        {"notification_id": w.notification.pk},
        {},
    ),
    ("sessions:export", "POST"): lambda w, r, v: ({}, {"password": PASSWORD}),
    ("sessions:profile", "PATCH"): lambda w, r, v: ({}, {"locale": "ru"}),
    ("api:auth-token", "POST"): login_request,
    ("api:auth-logout", "POST"): lambda w, r, v: ({}, {}),
    **{
        ("api-not-found", method): lambda w, r, v: ({"rest": "no/such/thing"}, {})
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
    },
}


def test_every_api_route_has_a_row_in_the_access_table():
    routes = api_routes()
    missing = routes - set(TABLE)
    stale = set(TABLE) - routes
    assert not missing, f"API routes without a row in the access table: {sorted(missing)}"
    assert not stale, f"rows for routes that no longer exist: {sorted(stale)}"


CELLS = [
    pytest.param(route, method, role, variant, id=f"{route}-{method}-{role}-{variant}")
    for (route, method) in TABLE
    for role in ROLES
    for variant in VARIANTS
]


@pytest.mark.parametrize(("route", "method", "role", "variant"), CELLS)
def test_each_role_gets_exactly_the_access_spec_section_1_gives_it(
    world, api_as, route, method, role, variant
):
    kwargs, body = REQUESTS.get((route, method), lambda w, r, v: ({}, None))(world, role, variant)
    url = reverse(route, kwargs=kwargs)
    client = api_as(world.users[role])
    response = getattr(client, method.lower())(url, body, format="json")
    expected = TABLE[(route, method)][role][VARIANTS.index(variant)]
    assert response.status_code == expected, response.content[:500]
    if expected >= 400 and route not in ("api:schema", "api:docs"):
        assert set(response.json()) >= {"code", "detail"}
    if expected == 403 and route.startswith("sessions:session-") and role == "other_counselor":
        assert response.json()["code"] == "E_FORBIDDEN"


# --- HTML pages (R1): every route outside /api/ and /admin/ has rows -----------------------------

# The pages are the staff's: clients and services get 403 whatever the id (it tells nothing about
# the object); anonymous visitors are sent to sign in.
HTML_TABLE: dict[tuple[str, str], dict[str, tuple[int, int]]] = {
    ("pages:home", "GET"): row(
        owner=403,
        other_client=403,
        caseload_counselor=200,
        other_counselor=200,
        ops=200,
        service=403,
        anonymous=302,
    ),
    # The crisis banner's open alerts (every staff page fetches them): staff only.
    ("pages:alerts", "GET"): row(
        owner=403,
        other_client=403,
        caseload_counselor=200,
        other_counselor=200,
        ops=200,
        service=403,
        anonymous=302,
    ),
    ("pages:session", "GET"): row(
        owner=403,
        other_client=403,
        caseload_counselor=200,
        other_counselor=STRANGER_COUNSELOR,
        ops=200,
        service=403,
        anonymous=302,
    ),
    # Watching is read-only: only ops move a session from the page (302 back to it).
    ("pages:session-continue-from", "POST"): row(
        owner=403,
        other_client=403,
        caseload_counselor=403,
        other_counselor=STRANGER_COUNSELOR,
        ops=302,
        service=403,
        anonymous=302,
    ),
    # The risk form: counselors who may read the session, and ops (302 back to the page).
    ("pages:session-risk", "POST"): row(
        owner=403,
        other_client=403,
        caseload_counselor=302,
        other_counselor=STRANGER_COUNSELOR,
        ops=302,
        service=403,
        anonymous=302,
    ),
    # Switching a workline steers the session like continue-from: ops only (302 back to it).
    ("pages:session-workline-activate", "POST"): row(
        owner=403,
        other_client=403,
        caseload_counselor=403,
        other_counselor=STRANGER_COUNSELOR,
        ops=302,
        service=403,
        anonymous=302,
    ),
    # The counselor's workspace: staff who may read (or, to claim, were alerted
    # about) the session; each move sends them back to the session page.
    **{
        (f"pages:session-{move}", "POST"): row(
            owner=403,
            other_client=403,
            caseload_counselor=302,
            other_counselor=STRANGER_COUNSELOR,
            ops=302,
            service=403,
            anonymous=302,
        )
        for move in ("claim", "take-over", "counselor-message", "hand-back", "steer")
    },
    # The sandbox is for counselors and ops; starting sends them to the new test session.
    ("pages:sandbox", "GET"): row(
        owner=403,
        other_client=403,
        caseload_counselor=200,
        other_counselor=200,
        ops=200,
        service=403,
        anonymous=302,
    ),
    ("pages:sandbox-start", "POST"): row(
        owner=403,
        other_client=403,
        caseload_counselor=302,
        other_counselor=302,
        ops=302,
        service=403,
        anonymous=302,
    ),
    # Playing is the test client's move: nobody plays a real client's session from the pages
    # (the sandbox player's own rights are in tests/sessions_app/test_sandbox.py).
    **{
        (f"pages:sandbox-{move}", "POST"): row(
            owner=403,
            other_client=403,
            caseload_counselor=403,
            other_counselor=STRANGER_COUNSELOR,
            ops=403,
            service=403,
            anonymous=302,
        )
        for move in ("answer", "message", "continue", "end", "last-thing")
    },
    # Insights: counselors (their caseload; an empty dashboard without one) and ops.
    # For clients and services the page does not exist (404, whatever they ask for).
    ("insights:home", "GET"): row(
        owner=404,
        other_client=404,
        caseload_counselor=200,
        other_counselor=200,
        ops=200,
        service=404,
        anonymous=302,
    ),
    # Accept, dismiss, reanalyse from the pages: reviewers who may read the session (302 back).
    **{
        route: row(
            owner=404,
            other_client=404,
            caseload_counselor=302,
            other_counselor=STRANGER_COUNSELOR,
            ops=302,
            service=404,
            anonymous=302,
        )
        for route in (
            ("review:hypothesis-accept", "POST"),
            ("review:hypothesis-dismiss", "POST"),
            ("review:session-reanalyse", "POST"),
        )
    },
    # Signed-in users are sent on from the sign-in page; sign-out works for anyone.
    ("login", "GET"): everyone(302, anonymous=200),
    # Probes (QUALITY R10): anyone, no session needed; they name dependencies, never secrets.
    ("healthz", "GET"): everyone(200, anonymous=200),
    ("readyz", "GET"): everyone(200, anonymous=200),
    ("logout", "POST"): everyone(302, anonymous=302),
    # The language switcher: anyone may choose the pages' language (a cookie), then goes back.
    ("set_language", "POST"): everyone(302, anonymous=302),
}


def html_route_names() -> set[str]:
    return {
        name
        for path, name, _ in walk(get_resolver().url_patterns)
        if not path.startswith(("api/", "admin/"))
    }


def continue_from_request(world: World, role: str, variant: str) -> Request:
    from sessions_app.engine.graph import tree as graph

    session = world.sessions[variant]
    first = graph.message_append(session=session, role="narrator", kind="question_card")
    graph.message_append(session=session, role="client", kind="answer")
    return {"session_id": session.pk}, {"message_id": first.pk}


def workline_activate_request(world: World, role: str, variant: str) -> Request:
    session = world.sessions[variant]
    graph.message_append(session=session, role="narrator", kind="question_card")
    other = workline_create(session=session, name="other", activate=False)
    return {"session_id": session.pk, "workline_id": other.pk}, {}


def sandbox_start_request(world: World, role: str, variant: str) -> Request:
    body = {"agent": "cbt_specialist", "flow": "reflection_session", "locale": "en"}
    return {}, body | {"provider": "offline"}


HTML_REQUESTS: dict[tuple[str, str], Callable[[World, str, str], Request]] = {
    ("pages:session", "GET"): session_kwargs,
    ("review:hypothesis-accept", "POST"): hypothesis_request,
    ("review:hypothesis-dismiss", "POST"): hypothesis_request,
    ("review:session-reanalyse", "POST"): session_kwargs,
    ("pages:session-continue-from", "POST"): continue_from_request,
    ("pages:session-workline-activate", "POST"): workline_activate_request,
    ("pages:session-risk", "POST"): lambda w, r, v: (
        session_kwargs(w, r, v)[0],
        {"level": "L4", "reason": "Checked."},
    ),
    ("pages:sandbox-start", "POST"): sandbox_start_request,
    ("set_language", "POST"): lambda w, r, v: ({}, {"language": "ru", "next": "/"}),
    ("pages:session-claim", "POST"): workspace_request("live"),
    ("pages:session-take-over", "POST"): workspace_request("held"),
    ("pages:session-counselor-message", "POST"): workspace_request("speaking"),
    ("pages:session-hand-back", "POST"): workspace_request("speaking"),
    ("pages:session-steer", "POST"): workspace_request("live"),
    **{
        (f"pages:sandbox-{move}", "POST"): lambda w, r, v: (session_kwargs(w, r, v)[0], {})
        for move in ("answer", "message", "continue", "end", "last-thing")
    },
}


def test_every_html_route_has_a_row_in_the_access_table():
    names = {name for name, _ in HTML_TABLE}
    assert html_route_names() == names


HTML_CELLS = [
    pytest.param(route, method, role, variant, id=f"{route}-{method}-{role}-{variant}")
    for (route, method) in HTML_TABLE
    for role in ROLES
    for variant in VARIANTS
]


@pytest.mark.parametrize(("route", "method", "role", "variant"), HTML_CELLS)
def test_each_role_gets_exactly_the_page_access_spec_section_1_gives_it(
    world, route, method, role, variant
):
    from django.test import Client

    kwargs, body = HTML_REQUESTS.get((route, method), lambda w, r, v: ({}, None))(
        world, role, variant
    )
    client = Client()
    if world.users[role] is not None:
        client.force_login(world.users[role])
    response = getattr(client, method.lower())(reverse(route, kwargs=kwargs), body or {})
    expected = HTML_TABLE[(route, method)][role][VARIANTS.index(variant)]
    assert response.status_code == expected
    if (
        expected == 302
        and role == "anonymous"
        and route.startswith(("pages:", "insights:", "review:"))
    ):
        assert response.url.startswith(reverse("login"))


# --- websocket routes (R1): every route of sessions_app.realtime.routing has rows -------------

OPEN = "open"
WS_TABLE: dict[str, dict[str, tuple[int | str, int | str]]] = {
    "ws-session": {
        "owner": (OPEN, OPEN),
        "other_client": (4404, 4404),
        "caseload_counselor": (OPEN, OPEN),
        "other_counselor": (4404, 4403),
        "ops": (OPEN, OPEN),
        "service": (OPEN, OPEN),
        "anonymous": (4401, 4401),
    },
    "ws-counselors": {
        "owner": (4403, 4403),
        "other_client": (4403, 4403),
        "caseload_counselor": (OPEN, OPEN),
        "other_counselor": (OPEN, OPEN),
        "ops": (OPEN, OPEN),
        "service": (4403, 4403),
        "anonymous": (4401, 4401),
    },
    # Everyone signed in has their own notifications; nobody else's (a per-user group).
    "ws-notifications": {role: (OPEN, OPEN) for role in ROLES if role != "anonymous"}
    | {"anonymous": (4401, 4401)},
}


def ws_paths(world: World, variant: str) -> dict[str, str]:
    return {
        "ws-session": f"/ws/sessions/{world.sessions[variant].pk}/",
        "ws-counselors": "/ws/counselors/",
        "ws-notifications": "/ws/notifications/",
    }


def test_every_websocket_route_has_a_row_in_the_access_table():
    from sessions_app.realtime.routing import websocket_urlpatterns

    assert {pattern.name for pattern in websocket_urlpatterns} == set(WS_TABLE)
    for rows in WS_TABLE.values():
        assert set(rows) == set(ROLES)


WS_CELLS = [
    pytest.param(route, role, variant, id=f"{route}-{role}-{variant}")
    for route in WS_TABLE
    for role in ROLES
    for variant in VARIANTS
]


@pytest.mark.parametrize(("route", "role", "variant"), WS_CELLS)
@pytest.mark.usefixtures("keep_test_connection")
def test_each_role_gets_exactly_the_websocket_access_spec_section_1_gives_it(
    world, route, role, variant
):
    from asgiref.sync import async_to_sync
    from knox.models import AuthToken

    from tests.ws import communicator, outcome

    user = world.users[role]
    token = AuthToken.objects.create(user)[1] if user is not None else None
    path = ws_paths(world, variant)[route]

    async def scenario():
        comm = communicator(path, token=token)
        result = await outcome(comm)
        await comm.disconnect()
        return result

    assert async_to_sync(scenario)() == WS_TABLE[route][role][VARIANTS.index(variant)]
