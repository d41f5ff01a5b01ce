"""The sandbox's writes (SPEC §8): a counselor's test client, starting a test session, and the
provider that answers a test session's turns.

A sandbox session is an ordinary session of a test client — a user in the `client` group whose
profile names the counselor it belongs to (one per counselor, no usable password, no token) —
plus a `SandboxSession` row saying who plays it and which provider answers. The engine runs
unchanged; only the provider is chosen per session, around each call, by `providers_for`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from psychologist.llm.registry import Provider, binding_for_agent, get_provider, providers_replaced
from psychologist.llm.scripted import ScriptedProvider, recording_errors
from sessions_app.engine.selectors import TOOLS_BY_AGENT
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.events import EventType, event_append
from sessions_app.models import AskSession, SandboxSession, SessionType, UserProfile
from sessions_app.roles import Role
from sessions_app.services import session_create

User = get_user_model()

OFFLINE_MODEL = "offline-rules-v1"
# When the binding table does not name an Anthropic model for an agent, the sandbox's
# "anthropic" choice uses the small one: tests of prompts and flows rarely need the large.
ANTHROPIC_FALLBACK_MODEL = "claude-haiku-4-5"
SCRIPT_MAX_RECORDINGS = 200
SCRIPT_MAX_DEPTH = 64
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def anthropic_available() -> bool:
    return bool(settings.ANTHROPIC_API_KEY)


def script_parse(raw: str) -> list[dict[str, Any]]:
    """Recordings from pasted or uploaded JSON: a list of recordings (the scripted provider's
    shape, or `{"agent", "output"}`), or a scenario file whose turns' `model` lists are used.
    Each recording is checked against the provider's own RECORDING_SCHEMA, so a malformed one
    is a form error here rather than a crash at the first turn."""
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise _script_invalid(f"The script is not JSON ({exc.msg}, line {exc.lineno}).") from None
    except RecursionError:
        data = None
    if data is None or _depth_over(data, SCRIPT_MAX_DEPTH):
        raise _script_invalid(f"The script nests deeper than {SCRIPT_MAX_DEPTH} levels.")
    if _unstorable(data):
        # PostgreSQL's jsonb refuses both (a 500 whose log line quoted the script).
        raise _script_invalid(
            _("The script holds \\u0000 or a lone surrogate: neither can be stored.")
        )
    if isinstance(data, dict) and isinstance(data.get("turns"), list):
        data = _scenario_recordings(data["turns"])
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise _script_invalid("The script must be a list of recordings or a scenario file.")
    if len(data) > SCRIPT_MAX_RECORDINGS:
        raise _script_invalid(f"At most {SCRIPT_MAX_RECORDINGS} recordings.")
    return [_recording(item, number) for number, item in enumerate(data, start=1)]


def _scenario_recordings(turns: list[Any]) -> list[Any]:
    recordings: list[Any] = []
    for number, turn in enumerate(turns, start=1):
        model = turn.get("model") if isinstance(turn, dict) else None
        if not isinstance(turn, dict) or not isinstance(model, list | None):
            raise _script_invalid(f"Turn {number} must be an object whose `model` is a list.")
        recordings.extend(model or [])
    return recordings


def _recording(item: dict[str, Any], number: int) -> dict[str, Any]:
    if "output" in item:
        agent = item.get("agent")
        if not isinstance(agent, str) or agent not in TOOLS_BY_AGENT:
            raise _script_invalid(f"Recording {number} names no known agent.")
        if not isinstance(item["output"], dict) or set(item) - {"agent", "output"}:
            raise _script_invalid(
                f"Recording {number}: `output` must be an object, beside `agent` only."
            )
        call = {"name": TOOLS_BY_AGENT[agent].name, "input": item["output"]}
        item = {"agent": agent, "tool_calls": [call]}
    errors = recording_errors(item)
    if errors:
        raise _script_invalid(f"Recording {number}: {'; '.join(errors[:3])}.")
    return item


def _depth_over(data: Any, limit: int) -> bool:
    """Whether `data` nests deeper than `limit` (iteratively: a deep script must not recurse)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        if isinstance(value, dict | list):
            stack.extend((child, depth + 1) for child in children)
    return False


def _unstorable(data: Any) -> bool:
    """Whether a string or key anywhere in `data` holds NUL or a lone surrogate."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and _UNSTORABLE.search(value):
            return True
    return False


def _script_invalid(detail: str) -> ApplicationError:
    return ApplicationError(ErrorCode.VALIDATION, detail, fields={"script": [detail]})


@transaction.atomic
def test_client_for(counselor: Any) -> Any:
    """The counselor's test client, created on first use."""
    profile = (
        UserProfile.objects.select_for_update()
        .select_related("user")
        .filter(sandbox_counselor=counselor)
        .first()
    )
    if profile is not None:
        return profile.user
    user = User(username=f"sandbox-{counselor.pk}", first_name="Test client")
    user.set_unusable_password()
    user.save()
    user.groups.add(Group.objects.get_or_create(name=Role.CLIENT)[0])
    name = f"Test client of {counselor.get_full_name() or counselor.get_username()}"
    UserProfile.objects.create(user=user, display_name=name[:80], sandbox_counselor=counselor)
    return user


@transaction.atomic
def sandbox_start(
    *,
    counselor: Any,
    agent_key: str | None = None,
    custom_agent_id: int | None = None,
    flow: str | None = None,
    cbt_focus: str = "",
    locale: str = "en",
    is_minor: bool = False,
    provider: str = SandboxSession.Provider.OFFLINE,
    script: list[dict[str, Any]] | None = None,
) -> AskSession:
    """Start a test session that `counselor` plays. A test client has one active session at a
    time (the database says so), so an unfinished earlier test session is closed first."""
    if provider == SandboxSession.Provider.ANTHROPIC and not anthropic_available():
        raise ApplicationError(ErrorCode.VALIDATION, "Anthropic is not configured here.")
    client = test_client_for(counselor)
    # The profile is the test client's own: the sandbox form sets who it pretends to be.
    UserProfile.objects.filter(user=client).update(locale=locale, is_minor=is_minor)
    _previous_close(client, counselor)
    session = session_create(
        owner=client,
        actor=counselor,
        session_type=SessionType.GENERAL,
        active_agent_key=agent_key,
        custom_agent_id=custom_agent_id,
        cbt_focus=cbt_focus,
        flow=flow or None,
    )
    SandboxSession.objects.create(
        session=session, counselor=counselor, provider=provider, script=script or []
    )
    return session


def _previous_close(client: Any, counselor: Any) -> None:
    # Locked: two starts at once must not both find the old session open.
    previous = AskSession.objects.select_for_update().filter(
        user=client, status=AskSession.Status.ACTIVE
    )
    for session in previous:
        now = timezone.now()
        session.status = AskSession.Status.CLOSED_ABNORMALLY
        session.termination_reason = AskSession.TerminationReason.KILLED
        session.ended_at = now
        session.save(update_fields=["status", "termination_reason", "ended_at", "updated_at"])
        event_append(
            session=session,
            type=EventType.SESSION_CLOSED_ABNORMALLY,
            payload={"reason": "killed", "why": "replaced by a new sandbox session"},
            actor="counselor",
            actor_user=counselor,
        )


@contextmanager
def providers_for(session_id: Any) -> Iterator[None]:
    """Every model call inside the block goes to the sandbox session's chosen provider; a real
    session (no sandbox row) keeps the binding table. Never hold a transaction around it."""
    sandbox = SandboxSession.objects.filter(session_id=session_id).first()
    if sandbox is None:
        yield
        return
    if sandbox.provider == SandboxSession.Provider.SCRIPTED:
        with _scripted(sandbox):
            yield
        return
    with providers_replaced(lambda agent: _provider(sandbox.provider, agent)):
        yield


def _provider(name: str, agent: str) -> Provider:
    if name == SandboxSession.Provider.OFFLINE:
        return get_provider("offline", model=OFFLINE_MODEL)
    binding = binding_for_agent(agent)
    model = binding.model if binding.provider == "anthropic" else ANTHROPIC_FALLBACK_MODEL
    return get_provider("anthropic", model=model)


@contextmanager
def _scripted(sandbox: SandboxSession) -> Iterator[None]:
    start = sandbox.script_position
    script = ScriptedProvider(sandbox.script[start:])
    try:
        with providers_replaced(lambda agent: script.bound_to("scripted")):
            yield
    finally:
        used = len(sandbox.script) - start - script.remaining
        # Conditional: a turn that raced this one and moved the position first wins, so no
        # recording is counted twice (the counselor plays alone; this is belt and braces).
        SandboxSession.objects.filter(pk=sandbox.pk, script_position=start).update(
            script_position=start + used
        )
