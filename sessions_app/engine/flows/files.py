"""Flow files (SPEC §4): JSON in the format of `sessions_app/flows/flow.schema.json`.

`flow_files_load` validates every file completely before writing anything, then upserts all of
them in one transaction: a malformed file is reported by file and JSON path, and nothing is
half-loaded. The same code loads the built-in flows from a data migration (with the historical
models) and from `manage.py load_flows` (with the live ones).

`reply_as_written` (a boolean on the flow, and on a step to override it): the agent's own reply
is shown to the client as written — a booking or scheduling flow — instead of being rephrased
into the Narrator's question cards (`engine/cards/batch.py`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from django.db import transaction

FLOWS_DIR = Path(__file__).resolve().parents[2] / "flows"
SCHEMA_PATH = FLOWS_DIR / "flow.schema.json"
BUILTIN_FLOWS = ("reflection_session", "scheduler", "crisis")


class FlowFileError(ValueError):
    """A flow file that cannot be loaded; the message names the file and the field."""


@dataclass(frozen=True)
class FlowModels:
    """The three model classes to write with: live ones, or a migration's historical ones."""

    flow: Any
    step: Any
    guard: Any


def _schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _where(path: Any) -> str:
    return "/".join(str(part) for part in path) or "(root)"


def flow_file_parse(path: Path | str) -> dict[str, Any]:
    """The flow in `path`, validated against the schema and for consistency."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FlowFileError(f"{path}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise FlowFileError(f"{path}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    return flow_data_check(data, source=str(path))


def flow_data_check(data: Any, *, source: str = "flow") -> dict[str, Any]:
    validator = jsonschema.Draft202012Validator(_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise FlowFileError(f"{source}: {_where(first.absolute_path)}: {first.message}")
    codes = [step["code"] for step in data["steps"]]
    for index, step in enumerate(data["steps"]):
        if codes.count(step["code"]) > 1:
            raise FlowFileError(f"{source}: steps/{index}/code: {step['code']!r} is repeated")
        for n, target in enumerate(step["allowed_next"]):
            if target not in codes:
                raise FlowFileError(
                    f"{source}: steps/{index}/allowed_next/{n}: {target!r} is not a step of "
                    f"flow {data['code']!r}"
                )
        guard_codes = [guard["code"] for guard in step.get("guards", [])]
        for n, code in enumerate(guard_codes):
            if guard_codes.count(code) > 1:
                raise FlowFileError(f"{source}: steps/{index}/guards/{n}/code: {code!r} repeated")
    return data


def _step_order(step: dict[str, Any], index: int) -> int:
    return int(step.get("order", index + 1))


def _has_field(model: Any, name: str) -> bool:
    # A migration older than the field writes with historical models that lack it.
    return any(field.name == name for field in model._meta.get_fields())


def flow_upsert(data: dict[str, Any], *, models: FlowModels) -> Any:
    """Make the stored flow match `data`: steps and guards not in the file are removed."""
    defaults = {"name": data["name"], "description": data.get("description", "")}
    if _has_field(models.flow, "reply_as_written"):
        defaults["reply_as_written"] = bool(data.get("reply_as_written", False))
    flow, _ = models.flow.objects.update_or_create(code=data["code"], defaults=defaults)
    step_has_reply = _has_field(models.step, "reply_as_written")
    keep_steps = []
    for index, spec in enumerate(data["steps"]):
        step_defaults = {
            "order": _step_order(spec, index),
            "allowed_next": list(spec["allowed_next"]),
            "prompt_fragment": spec.get("prompt_fragment", ""),
        }
        if step_has_reply:
            step_defaults["reply_as_written"] = spec.get("reply_as_written")
        step, _ = models.step.objects.update_or_create(
            flow=flow, code=spec["code"], defaults=step_defaults
        )
        keep_steps.append(step.pk)
        keep_guards = []
        for guard in spec.get("guards", []):
            row, _ = models.guard.objects.update_or_create(
                step=step,
                code=guard["code"],
                defaults={
                    "description": guard.get("description", ""),
                    "trigger_slot": guard["trigger_slot"],
                    "trigger_value": guard["trigger_value"],
                    "required_slots": list(guard["required_slots"]),
                },
            )
            keep_guards.append(row.pk)
        models.guard.objects.filter(step=step).exclude(pk__in=keep_guards).delete()
    models.step.objects.filter(flow=flow).exclude(pk__in=keep_steps).delete()
    return flow


def flow_files_load(paths: list[Path | str], *, models: FlowModels | None = None) -> list[str]:
    """Validate every file, then upsert them all atomically. Returns the flow codes loaded."""
    parsed = [flow_file_parse(path) for path in paths]
    seen: dict[str, str] = {}
    for path, data in zip(paths, parsed, strict=True):
        if data["code"] in seen:
            other = seen[data["code"]]
            raise FlowFileError(f"{path}: code: flow {data['code']!r} is also in {other}")
        seen[data["code"]] = str(path)
    models = models or live_models()
    with transaction.atomic():
        for data in parsed:
            flow_upsert(data, models=models)
    return [data["code"] for data in parsed]


def flow_data_load(data: Any, *, source: str = "flow") -> Any:
    """Check one flow given as data and store it (an evaluation scenario's own flow)."""
    return flow_upsert(flow_data_check(data, source=source), models=live_models())


def builtin_flow_paths() -> list[Path]:
    return [FLOWS_DIR / f"{code}.json" for code in BUILTIN_FLOWS]


def live_models() -> FlowModels:
    from sessions_app.models import Flow, FlowGuard, FlowStep

    return FlowModels(flow=Flow, step=FlowStep, guard=FlowGuard)
