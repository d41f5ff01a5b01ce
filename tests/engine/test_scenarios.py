"""`manage.py run_scenarios`: the shipped scenarios pass; a mismatch fails the run."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

SCENARIOS = sorted(str(p) for p in Path(__file__).parents[2].joinpath("scenarios").glob("*.json"))


def test_the_shipped_scenarios_cover_every_built_in_flow_and_guard():
    text = " ".join(Path(p).read_text() for p in SCENARIOS)
    for name in ("reflection_session", "scheduler", "crisis"):
        assert name in text
    for guard in ("require_guardian_consent", "require_safety_plan"):
        assert guard in text


def test_the_shipped_scenarios_pass():
    out = StringIO()
    call_command("run_scenarios", *SCENARIOS, "--use-database", stdout=out)
    assert out.getvalue().strip().endswith(" passed, 0 failed")


def test_a_scenario_that_expects_the_wrong_step_fails_the_run(tmp_path):
    scenario = json.loads(Path(SCENARIOS[0]).read_text())
    scenario["turns"][0]["expect"]["step"] = "closing"
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(scenario))
    out = StringIO()
    with pytest.raises(CommandError, match="failed"):
        call_command("run_scenarios", str(path), "--use-database", stdout=out)
    assert "✗" in out.getvalue()


BOOKING = str(Path(__file__).parents[2] / "scenarios" / "clinic_booking_guard.json")


def _run_changed(tmp_path: Path, change: Any) -> str:
    scenario = json.loads(Path(BOOKING).read_text())
    change(scenario["turns"][0]["expect"])
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(scenario))
    out = StringIO()
    with pytest.raises(CommandError, match="1 scenario check"):
        call_command("run_scenarios", str(path), "--use-database", stdout=out)
    return out.getvalue()


def test_the_booking_scenario_is_a_plain_text_flow_with_a_guard_and_only_the_move():
    scenario = json.loads(Path(BOOKING).read_text())
    assert scenario["flow"]["reply_as_written"] is True
    for turn in scenario["turns"]:
        [item] = turn["model"]
        move = json.loads(item["text"].rsplit("STATE_JSON:", 1)[1])
        assert set(move) == {"state_after", "slots_updated"}
    first = scenario["turns"][0]["expect"]
    assert first["event_payloads"][0]["payload"]["guard"] == "child_needs_guardian_consent"
    assert scenario["turns"][1]["expect"]["pending_guard"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda e: e["shown"].update(contains="a text nobody wrote"), "shown"),
        (lambda e: e["shown"].update(excludes="Matthew"), "shown"),
        (lambda e: e.update(shown={"regex": "^Booked"}), "shown"),
        (lambda e: e["slots_exact"].pop("doctor"), "slots_exact"),
        (lambda e: e["slots_exact"].update(extra=1), "slots_exact"),
        (
            lambda e: e["event_payloads"][0]["payload"].update(missing_slots=["guardian_name"]),
            "event_payloads",
        ),
        (
            lambda e: e["event_payloads"][0]["payload"].update(guard="another_guard"),
            "event_payloads",
        ),
        (lambda e: e["event_payloads"][0].update(type="transition.applied"), "event_payloads"),
    ],
)
def test_a_wrong_shown_text_payload_or_exact_slots_fails_the_run(tmp_path, change, field):
    out = _run_changed(tmp_path, change)
    [failed] = [line for line in out.splitlines() if line.rstrip().endswith("✗")]
    assert f" {field} " in failed


def test_the_subset_slots_check_ignores_other_slots_and_exact_does_not(tmp_path):
    scenario = json.loads(Path(BOOKING).read_text())
    expect = scenario["turns"][0]["expect"]
    expect["slots"] = {"patient": "Matthew", "guardian_name": None}
    path = tmp_path / "subset.json"
    path.write_text(json.dumps(scenario))
    out = StringIO()
    call_command("run_scenarios", str(path), "--use-database", stdout=out)
    assert out.getvalue().strip().endswith(" passed, 0 failed")
