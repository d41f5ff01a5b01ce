"""`bench/load.py`'s server settings: the test settings, with tasks queued as in production."""

from __future__ import annotations

from tests.settings import *  # noqa: F403
from tests.settings import Q_CLUSTER

Q_CLUSTER = {**Q_CLUSTER, "sync": False}
