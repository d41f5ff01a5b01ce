"""What the sessions app tells the apps built on it, so that it never imports them.

`session_closed(sender=AskSession, session=...)` is sent inside the transaction that closes a
session (completed, or closed as abandoned): a receiver's writes commit or roll back with the
close. The psychologist queues its analysis on it.
"""

from __future__ import annotations

from django.dispatch import Signal

session_closed = Signal()
