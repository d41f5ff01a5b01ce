"""QUALITY R7: `manage.py check --deploy` with production settings reports nothing at all."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_deploy_check_passes_with_zero_warnings_in_production():
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "NAISEI_", "SECURE_", "DATABASE_URL", "REDIS_URL"))
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "NAISEI_PRODUCTION": "1",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "naisei.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://naisei.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
