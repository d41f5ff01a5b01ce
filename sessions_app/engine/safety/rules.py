"""The records the patterns modules are written in: a rule with its name and its examples, and a
negative (an excusing pattern) with its name.

A rule's `matches` are lines it must find and its `spares` lines it must not find (or that a
negative excuses); the detector checks both when it loads, so a pattern edit that breaks its own
example fails at import with the rule's id. Ids read `<language>.<category>.<what it says>`
(`en.passive.wish_i_was_dead`): a finding carries its rule's id, so a false alarm is traced to one
record in one step."""

from __future__ import annotations

from dataclasses import dataclass

# Flags a rule may carry: "plan" (an explicit plan: L4 on its own), "support" (counts only next
# to another finding).
FLAGS = frozenset({"plan", "support"})


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    category: str
    pattern: str
    flags: tuple[str, ...] = ()
    matches: tuple[str, ...] = ()
    spares: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Negative:
    """Words that excuse a finding inside their own span (an idiom, a device, someone else)."""

    id: str
    kind: str
    pattern: str
