"""`manage.py psychologist_demo`: the ADR's acceptance criterion, shown.

Closes three sessions of one client — a short one normally, a short one killed, a long one by
an error — the way the engine closes them (status, reason, close event and the analysis request
in one transaction), runs each analysis, and prints the tier, the binding, the metered cost and
the hypotheses with the events they cite. It uses whatever provider is bound (the offline engine
unless ANTHROPIC_API_KEY is set). The queued tasks that a running worker picks up afterwards find
the analyses already there and skip the LLM: the idempotency pre-check at work.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from psychologist.analysis import analysis_perform
from psychologist.models import Analysis
from psychologist.services import analysis_request
from sessions_app.events import EventType, event_append
from sessions_app.models import AskMessage, AskSession, UserProfile
from sessions_app.roles import Role

DEMO_CLIENT = "psychologist-demo"
STORIES: list[tuple[str, str | None, list[str]]] = [
    (
        "closed normally",
        None,
        [
            "I went for a walk after work and felt calmer.",
            "Talking to my sister helped, we laughed a lot.",
            "I think I can try the breathing exercise tomorrow.",
        ],
    ),
    (
        "killed",
        AskSession.TerminationReason.KILLED,
        [
            "Work has been heavy, the deadline keeps moving.",
            "I feel sad when I think about how little time I have for myself.",
            "I'm tired, can we stop soon?",
        ],
    ),
    (
        "ended by an error",
        AskSession.TerminationReason.ERROR,
        [
            f"Answer {n}: the week was ordinary, some good moments, some stress at work."
            for n in range(1, 11)
        ],
    ),
]


class Command(BaseCommand):
    help = "Close three demo sessions (normal, killed, error) and show their analyses."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--client", default="", help="A client's username (default: new).")

    def handle(self, *args: Any, client: str = "", **options: Any) -> None:
        user = self.client(client)
        for title, reason, answers in STORIES:
            session = self.session_closed(user, reason, answers)
            request = session.analysis_requests.get()
            # With Q_SYNC the close already ran it; then this run finds it there and skips.
            analysis_perform(request_id=request.pk)
            self.show(title, session, Analysis.objects.current().filter(session=session).first())

    def client(self, username: str) -> Any:
        users = get_user_model().objects
        if username:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(f"No user {username!r}.")
        else:
            user, _ = users.get_or_create(username=DEMO_CLIENT)
            user.groups.add(Group.objects.get_or_create(name=Role.CLIENT)[0])
            UserProfile.objects.get_or_create(user=user)
        if AskSession.objects.filter(user=user, status=AskSession.Status.ACTIVE).exists():
            raise CommandError(f"{user.username} has an active session; close it first.")
        return user

    @transaction.atomic
    def session_closed(self, user: Any, reason: str | None, answers: list[str]) -> AskSession:
        session = AskSession.objects.create(user=user, session_title="Psychologist demo")
        event_append(
            session=session, type=EventType.SESSION_CREATED, actor="client", actor_user=user
        )
        for number, text in enumerate(answers, 1):
            for role, kind, body, event_type in (
                ("narrator", "question_card", f"Question {number}?", EventType.CARD_DEALT),
                ("client", "answer", text, EventType.ANSWER_RECEIVED),
            ):
                message = AskMessage.objects.create(
                    session=session, role=role, kind=kind, text=body
                )
                payload = {"message_id": message.pk}
                event_append(session=session, type=event_type, payload=payload, actor=role)
        abnormal = reason is not None
        session.status = (
            AskSession.Status.CLOSED_ABNORMALLY if abnormal else AskSession.Status.COMPLETED
        )
        session.termination_reason, session.ended_at = reason, timezone.now()
        session.save(update_fields=["status", "termination_reason", "ended_at", "updated_at"])
        close = EventType.SESSION_CLOSED_ABNORMALLY if abnormal else EventType.SESSION_CLOSED
        event_append(session=session, type=close, payload={"termination_reason": reason})
        analysis_request(session=session)
        return session

    def show(self, title: str, session: AskSession, analysis: Analysis | None) -> None:
        events = session.events.exclude(type__startswith="psychologist.").count()
        self.stdout.write(self.style.MIGRATE_HEADING(f"Session {session.pk} — {title}"))
        if analysis is None:
            failed = session.events.filter(type=EventType.PSYCHOLOGIST_ANALYSIS_FAILED).last()
            reason = failed.payload["reason"] if failed else "skipped"
            self.stdout.write(self.style.ERROR(f"  no analysis: {reason}"))
            return
        self.stdout.write(
            f"  {events} events → {analysis.tier} tier, {analysis.provider}:{analysis.model}, "
            f"{analysis.iterations} iteration(s), {analysis.cost_micro_usd} micro-USD"
        )
        for hypothesis in analysis.hypotheses.order_by("position"):
            cited = ", ".join(
                f"#{e.event.seq} {e.event.type}"
                for e in hypothesis.evidence.select_related("event")
            )
            self.stdout.write(
                f"  [{hypothesis.target} {hypothesis.confidence}%] {hypothesis.statement}"
            )
            self.stdout.write(f"      evidence: {cited}")
            if hypothesis.termination_analysis:
                self.stdout.write(f"      termination: {hypothesis.termination_analysis}")
