"""factory-boy factories for every model; every test builds its data through these."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from psychologist.models import (
    Analysis,
    AnalysisRequest,
    ClinicalRule,
    Hypothesis,
    HypothesisEvidence,
)
from sessions_app.engine.selectors import template_for
from sessions_app.models import (
    AgentOrigin,
    AskAgent,
    AskMessage,
    AskSession,
    CaseloadAssignment,
    Notification,
    SessionEvent,
    Task,
    UserProfile,
    Workline,
)
from sessions_app.roles import Role


def _role(default: Role | None) -> factory.PostGeneration:
    def join(user: object, create: bool, extracted: str | None, **kwargs: object) -> None:
        if create and (extracted or default):
            # get_or_create: transactional (PostgreSQL race) tests flush the migration's groups.
            group, _ = Group.objects.get_or_create(name=extracted or default)
            user.groups.add(group)

    return factory.PostGeneration(join)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("pw-for-tests-1")

    # UserFactory(role="counselor") joins that group; the subclasses below set a default.
    role = _role(None)


class ClientFactory(UserFactory):
    role = _role(Role.CLIENT)


class CounselorFactory(UserFactory):
    role = _role(Role.COUNSELOR)
    is_staff = True


class OpsFactory(UserFactory):
    role = _role(Role.OPS)
    is_staff = True


class ServiceFactory(UserFactory):
    role = _role(Role.SERVICE)


class UserProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = UserProfile
        django_get_or_create = ("user",)

    user = factory.SubFactory(ClientFactory)
    time_zone = "Europe/Berlin"
    schedule_weekdays = factory.LazyFunction(lambda: [4])
    schedule_time = factory.LazyFunction(lambda: timezone.datetime(2026, 1, 1, 18, 0).time())


def on_duty_counselor(username: str, **fields: object) -> object:
    """A counselor on duty: alerted about every crisis, whoever's caseload it is in."""
    counselor = CounselorFactory(username=username, **fields)
    UserProfileFactory(user=counselor, on_duty=True)
    return counselor


class AskAgentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AskAgent

    key = "cbt_specialist"
    name = "CBT specialist"
    persona = "A calm cognitive-behavioural guide"
    version = "2026.11"
    origin = AgentOrigin.SYSTEM_DEFAULT
    external_agent_id = "agt_cbt_default"


class CustomAgentFactory(AskAgentFactory):
    key = "custom_role"
    name = factory.Sequence(lambda n: f"Custom guide {n}")
    origin = AgentOrigin.USER_CUSTOM
    owner = factory.SubFactory(ClientFactory)


class AskSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AskSession

    user = factory.SubFactory(ClientFactory)
    session_title = factory.Sequence(lambda n: f"Session {n}")
    status = AskSession.Status.COMPLETED


class ActiveSessionFactory(AskSessionFactory):
    status = AskSession.Status.ACTIVE


class CrisisSessionFactory(AskSessionFactory):
    session_type = AskSession.SessionType.CRISIS_INTERVENTION
    active_agent_key = "crisis_interventionist"
    initial_risk_level = "L3"
    intervention_triggered = True


class WorklineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Workline

    session = factory.SubFactory(AskSessionFactory)
    name = factory.Sequence(lambda n: f"Workline {n}")


class AskMessageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AskMessage

    session = factory.SubFactory(AskSessionFactory)
    role = AskMessage.Role.CLIENT
    kind = AskMessage.Kind.ANSWER
    text = factory.Sequence(lambda n: f"Answer number {n}")


class SessionEventFactory(factory.django.DjangoModelFactory):
    """Goes through the event service, the only writer of events."""

    class Meta:
        model = SessionEvent

    session = factory.SubFactory(AskSessionFactory)
    type = "session.created"
    payload = factory.LazyFunction(dict)
    actor = "system"

    @classmethod
    def _create(cls, model_class: type, *args: object, **kwargs: object) -> SessionEvent:
        from sessions_app.events import event_append

        return event_append(**kwargs)


class CaseloadAssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CaseloadAssignment

    counselor = factory.SubFactory(CounselorFactory)
    client = factory.SubFactory(ClientFactory)


class NotificationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Notification

    user = factory.SubFactory(ClientFactory)
    kind = Notification.Kind.RESUME_SESSION
    payload = factory.LazyFunction(lambda: {"title": "Shall we come back?"})


class TaskFactory(factory.django.DjangoModelFactory):
    """A thought record proposed by a closed session of the task's client."""

    class Meta:
        model = Task

    session = factory.SubFactory(AskSessionFactory)
    user = factory.SelfAttribute("session.user")
    position = factory.Sequence(lambda n: n + 1)
    kind = Task.Kind.THOUGHT_RECORD
    title = "A thought record for one hard moment"
    instructions = "Write down the situation, the thought and the emotion."
    template = factory.LazyFunction(lambda: template_for("thought_record"))
    due_date = factory.LazyFunction(lambda: timezone.localdate() + timezone.timedelta(days=3))


class AnalysisRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AnalysisRequest

    session = factory.SubFactory(AskSessionFactory)
    status = AnalysisRequest.Status.DONE
    attempts = 1


class AnalysisFactory(factory.django.DjangoModelFactory):
    """A concluded analysis, as the offline engine would have recorded it."""

    class Meta:
        model = Analysis

    session = factory.SubFactory(AskSessionFactory)
    request = factory.SubFactory(AnalysisRequestFactory, session=factory.SelfAttribute("..session"))
    tier = Analysis.Tier.LIGHT
    agent = "psychologist-light"
    provider = "offline"
    model = "offline-rules-v1"
    triggered_by = Analysis.TriggeredBy.AUTO
    termination_cause = "graceful"
    iterations = 1


class HypothesisFactory(factory.django.DjangoModelFactory):
    """A proposed hypothesis citing one event of its session (or the events passed as
    `evidence=[...]`)."""

    class Meta:
        model = Hypothesis
        skip_postgeneration_save = True

    analysis = factory.SubFactory(AnalysisFactory)
    session = factory.SelfAttribute("analysis.session")
    target = Hypothesis.Target.CLIENT
    statement = factory.Sequence(lambda n: f"The client avoids topic number {n}.")
    confidence = 60

    @factory.post_generation
    def evidence(self, create: bool, extracted: list[SessionEvent] | None, **kwargs: object):
        if not create:
            return
        events = extracted or [SessionEventFactory(session=self.session, type="answer.received")]
        for event in events:
            HypothesisEvidence.objects.create(hypothesis=self, event=event)


class ClinicalRuleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClinicalRule

    title = factory.Sequence(lambda n: f"Rule {n}")
    text = "Cite the events that support every hypothesis."
