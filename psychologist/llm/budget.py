"""Token budgets: a deterministic estimate and middle truncation (SPEC §3: a summary covers the
WHOLE dialogue — the beginning sets the topic, the end holds where the client arrived — so when
it does not fit, the middle goes, never the end)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """About four characters per token: cheap, deterministic, close enough for budgets."""
    return -(-len(text) // CHARS_PER_TOKEN)


def truncate_middle(
    items: Sequence[str],
    *,
    budget_tokens: int,
    marker: Callable[[int], str] = lambda omitted: f"[… {omitted} omitted …]",
) -> list[str]:
    """Keep items from both ends within `budget_tokens`, replacing the omitted middle by one
    `marker(count)` line. Items are taken alternately from the start and the end, so both the
    opening and the ending survive however small the budget."""
    if sum(estimate_tokens(item) for item in items) <= budget_tokens:
        return list(items)
    head: list[str] = []
    tail: list[str] = []
    left, right = 0, len(items) - 1
    spent = estimate_tokens(marker(len(items)))
    take_head = True
    while left <= right:
        index = left if take_head else right
        cost = estimate_tokens(items[index])
        if spent + cost > budget_tokens:
            break
        spent += cost
        if take_head:
            head.append(items[left])
            left += 1
        else:
            tail.insert(0, items[right])
            right -= 1
        take_head = not take_head
    omitted = right - left + 1
    return [*head, marker(omitted), *tail] if omitted else [*head, *tail]


def clip_middle(text: str, *, max_chars: int, ellipsis: str = " … ") -> str:
    """Cut characters out of the middle of `text` so that it fits in `max_chars`."""
    if len(text) <= max_chars:
        return text
    keep = max_chars - len(ellipsis)
    head = keep * 2 // 5
    return text[:head].rstrip() + ellipsis + text[len(text) - (keep - head) :].lstrip()
