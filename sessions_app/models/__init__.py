"""Sessions, messages, worklines, events and the people around them (SPEC §2), one module a
concern. `AskSession` mirrors the `ask_sessions` collection of the schema field for field; engine
state sits on top of it. Constraints live in the database so that bad data is refused there,
whatever path it came by.
"""

from sessions_app.models import (
    base,
    events,
    flows,
    idempotency,
    notifications,
    people,
    safety,
    sandbox,
    sessions,
    sockets,
    tasks,
)
from sessions_app.models.base import *  # noqa: F403
from sessions_app.models.events import *  # noqa: F403
from sessions_app.models.flows import *  # noqa: F403
from sessions_app.models.idempotency import *  # noqa: F403
from sessions_app.models.notifications import *  # noqa: F403
from sessions_app.models.people import *  # noqa: F403
from sessions_app.models.safety import *  # noqa: F403
from sessions_app.models.sandbox import *  # noqa: F403
from sessions_app.models.sessions import *  # noqa: F403
from sessions_app.models.sockets import *  # noqa: F403
from sessions_app.models.tasks import *  # noqa: F403

__all__ = [
    *base.__all__,
    *events.__all__,
    *flows.__all__,
    *idempotency.__all__,
    *notifications.__all__,
    *people.__all__,
    *safety.__all__,
    *sandbox.__all__,
    *sessions.__all__,
    *sockets.__all__,
    *tasks.__all__,
]
