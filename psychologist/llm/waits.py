"""What the caller's process does while a provider waits on the network.

A server request gives its running slot back meanwhile (the sessions app's `edge.running` sets
`network_waits` for each request), so a model's seconds of waiting do not keep the process's
other requests from running. Elsewhere (the worker, scripts) nothing happens.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from contextvars import ContextVar

network_waits: ContextVar[Callable[[], AbstractContextManager[object]]] = ContextVar(
    "llm_network_waits", default=nullcontext
)
