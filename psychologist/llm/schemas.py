"""Validation of a forced tool's input on receipt, against the tool's JSON schema.

The tools themselves belong to their agents: the dialogue's in
`sessions_app.engine.agents.schemas`, the psychologist's in `psychologist.schemas`.
"""

from __future__ import annotations

from typing import Any

import jsonschema

from psychologist.llm.types import LLMOutputInvalid, LLMResponse, ToolSpec


def tool_input_errors(spec: ToolSpec, data: Any) -> list[str]:
    """Every schema violation of `data`, as short messages that can go back to the model."""
    validator = jsonschema.Draft202012Validator(spec.input_schema)
    errors = sorted(validator.iter_errors(data), key=lambda error: list(error.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors]


def check_forced_tool(*, spec: ToolSpec, response: LLMResponse) -> None:
    """Raise `LLMOutputInvalid` unless the response called `spec` with schema-valid input."""
    data = response.tool_input(spec.name)
    if data is None:
        raise LLMOutputInvalid(f"the model did not call {spec.name}", response=response)
    errors = tool_input_errors(spec, data)
    if errors:
        raise LLMOutputInvalid(f"{spec.name}: " + "; ".join(errors[:5]), response=response)
