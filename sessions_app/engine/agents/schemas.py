"""The dialogue agents' structured-output tools (Analyst, Narrator, Summarizer): the contract
every provider honours. `psychologist.llm.schemas` validates a forced tool's input on receipt.
"""

from __future__ import annotations

from psychologist.llm.types import ToolSpec

ANALYST_TOOL = "analyst_output"
NARRATOR_TOOL = "narrator_output"
SUMMARY_TOOL = "summary_output"

SUMMARY_MAX_CHARS = 1000

_STRING_LIST = {"type": "array", "items": {"type": "string"}}

ANALYST_OUTPUT = ToolSpec(
    name=ANALYST_TOOL,
    description=(
        "Report the analysis of the client's latest answers: the next 1-2 questions in the "
        "third person, the observation, risk, pacing, mood and the proposed flow move."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "questions": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "observation": {"type": ["string", "null"]},
            "crisis_signal": {"type": "boolean"},
            "suggested_insight": {"type": ["string", "null"]},
            "session_complete": {"type": "boolean"},
            "mood_delta": {"enum": ["declining", "stable", "improving"]},
            "state_after": {"type": "string"},
            "slots_updated": {"type": "object"},
            # On a step that shows the agent's reply as written (a booking flow): the words
            # for the client, second person, instead of questions for the Narrator.
            "reply": {"type": ["string", "null"]},
        },
        "required": [
            "questions",
            "crisis_signal",
            "session_complete",
            "mood_delta",
            "state_after",
            "slots_updated",
        ],
        "additionalProperties": False,
    },
)

NARRATOR_OUTPUT = ToolSpec(
    name=NARRATOR_TOOL,
    description="Return the question cards, the insight and the closing line for the client.",
    input_schema={
        "type": "object",
        "properties": {
            "cards": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "integer", "minimum": 1},
                        "text": {"type": "string", "minLength": 1},
                        "type": {"enum": ["open"]},
                    },
                    "required": ["id", "text", "type"],
                    "additionalProperties": False,
                },
                "maxItems": 2,
            },
            "insight": {"type": ["string", "null"]},
            "closing_line": {"type": ["string", "null"]},
        },
        "required": ["cards"],
        "additionalProperties": False,
    },
)

# CBT homework the closing may propose: 0-2 tasks that fit the session's focus and
# what the client said; none in a crisis. The engine adds the template and the due date.
TASK_KINDS = (
    "thought_record",
    "behavioral_experiment",
    "activity_scheduling",
    "exposure_step",
    "relaxation",
    "custom",
)
_TASK_PROPOSAL = {
    "type": "object",
    "properties": {
        "kind": {"enum": list(TASK_KINDS)},
        "title": {"type": "string", "minLength": 1, "maxLength": 120},
        "instructions": {"type": "string", "maxLength": 1200},
    },
    "required": ["kind", "title", "instructions"],
    "additionalProperties": False,
}

SUMMARY_OUTPUT = ToolSpec(
    name=SUMMARY_TOOL,
    description=(
        "Summarise the whole session for the record, and optionally propose 0-2 small CBT "
        "homework tasks for the client (never in a crisis)."
    ),
    input_schema={
        "type": "object",
        "properties": {
            "summary": {"type": "string", "maxLength": SUMMARY_MAX_CHARS},
            "key_insights": _STRING_LIST,
            "cbt_techniques_used": _STRING_LIST,
            "tasks": {"type": "array", "items": _TASK_PROPOSAL, "maxItems": 2},
        },
        "required": ["summary", "key_insights", "cbt_techniques_used"],
        "additionalProperties": False,
    },
)

# What a plain-text Analyst's `STATE_JSON` line may leave out (SPEC §4: it need hold only the
# move). Risk is not lost by the default: the safety net reads every client text on its own.
ANALYST_DEFAULTS = {
    "observation": None,
    "crisis_signal": False,
    "suggested_insight": None,
    "session_complete": False,
    "mood_delta": "stable",
}

TOOLS_BY_AGENT = {
    "analyst": ANALYST_OUTPUT,
    "narrator": NARRATOR_OUTPUT,
    "summarizer": SUMMARY_OUTPUT,
}
