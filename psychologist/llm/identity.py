"""What a model provider may learn of who is behind a call (SPEC §7): an opaque id, a keyed hash
that is stable per client and the same for every agent that speaks about them."""

from __future__ import annotations

from django.utils.crypto import salted_hmac


def opaque_user_id(user_id: int | str) -> str:
    return salted_hmac("naisei.llm.user", str(user_id), algorithm="sha256").hexdigest()[:24]
