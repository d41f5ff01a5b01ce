"""`manage.py run_scenarios` (issue 5): the shipped scenarios pass; a mismatch fails the run."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

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
