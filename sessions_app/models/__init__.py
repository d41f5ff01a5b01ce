"""Sessions, messages, worklines, events and the people around them (SPEC §2), one module a
concern. `AskSession` mirrors the `ask_sessions` collection of the schema field for field; engine
state sits on top of it. Constraints live in the database so that bad data is refused there,
whatever path it came by.
"""

from sessions_app.models.base import (
    CONVERSATION_VARIABLE_KEY_MAX,
    CONVERSATION_VARIABLE_VALUE_MAX,
    SESSION_MESSAGES_MAX,
    SESSION_SUMMARY_MAX,
    SESSION_TITLE_MAX,
    RiskLevel,
    default_modality_flags,
    in_choices,
    validate_conversation_variables,
    validate_modality_flags,
    validate_string_list,
    validate_timezone,
    validate_voice_config,
)
from sessions_app.models.events import (
    AppendOnlyError,
    SessionEvent,
    SessionEventQuerySet,
)
from sessions_app.models.flows import (
    FLOW_CODE_MAX,
    Flow,
    FlowGuard,
    FlowStep,
)
from sessions_app.models.idempotency import (
    IdempotencyRecord,
)
from sessions_app.models.notifications import (
    Notification,
    NotificationKind,
)
from sessions_app.models.people import (
    CaseloadAssignment,
    UserProfile,
    profile_zone,
)
from sessions_app.models.safety import (
    CrisisResource,
    ResourceLanguage,
)
from sessions_app.models.sandbox import (
    SandboxProvider,
    SandboxSession,
)
from sessions_app.models.sessions import (
    AgentKey,
    AgentOrigin,
    AskAgent,
    AskMessage,
    AskSession,
    AskSessionQuerySet,
    CbtFocus,
    MessageKind,
    MessageRole,
    Modality,
    Phase,
    SessionStatus,
    SessionType,
    SpinOffProposal,
    TerminationReason,
    TriggerSource,
    Workline,
    WorklineStatus,
)
from sessions_app.models.tasks import (
    OPEN_STATUSES,
    RATING_MAX,
    TASK_TRANSITIONS,
    Task,
    TaskKind,
    TaskQuerySet,
    TaskStatus,
)

__all__ = [
    "CONVERSATION_VARIABLE_KEY_MAX",
    "CONVERSATION_VARIABLE_VALUE_MAX",
    "FLOW_CODE_MAX",
    "OPEN_STATUSES",
    "RATING_MAX",
    "SESSION_MESSAGES_MAX",
    "SESSION_SUMMARY_MAX",
    "SESSION_TITLE_MAX",
    "TASK_TRANSITIONS",
    "AgentKey",
    "AgentOrigin",
    "AppendOnlyError",
    "AskAgent",
    "AskMessage",
    "AskSession",
    "AskSessionQuerySet",
    "CaseloadAssignment",
    "CbtFocus",
    "CrisisResource",
    "Flow",
    "FlowGuard",
    "FlowStep",
    "IdempotencyRecord",
    "MessageKind",
    "MessageRole",
    "Modality",
    "Notification",
    "NotificationKind",
    "Phase",
    "ResourceLanguage",
    "RiskLevel",
    "SandboxProvider",
    "SandboxSession",
    "SessionEvent",
    "SessionEventQuerySet",
    "SessionStatus",
    "SessionType",
    "SpinOffProposal",
    "Task",
    "TaskKind",
    "TaskQuerySet",
    "TaskStatus",
    "TerminationReason",
    "TriggerSource",
    "UserProfile",
    "Workline",
    "WorklineStatus",
    "default_modality_flags",
    "in_choices",
    "profile_zone",
    "validate_conversation_variables",
    "validate_modality_flags",
    "validate_string_list",
    "validate_timezone",
    "validate_voice_config",
]
