"""The vault export (seed session-design §11.4): a scheduled job writes consenting clients'
closed sessions as Markdown, idempotently, in folders no agent and no database row names."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

import pytest
import time_machine
from django.urls import reverse

from sessions_app.jobs import markdown_export
from sessions_app.models import AskSession, UserProfile
from tests import factories
from tests.sessions_app.lifecycle_support import converse, database_columns_containing

pytestmark = pytest.mark.django_db

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
CONSENT = reverse("sessions:profile-vault-consent")


@pytest.fixture
def root(tmp_path, settings):
    settings.VAULT_EXPORT_DIR = tmp_path / "vault"
    return settings.VAULT_EXPORT_DIR


@pytest.fixture
def consenting(alice, api_as):
    """Alice, who granted the export from her app."""
    with time_machine.travel(datetime(2026, 3, 1, 9, 0, tzinfo=BERLIN), tick=False):
        assert api_as(alice).put(CONSENT).status_code == 200
    return alice


def closed(user, at: datetime, title: str = "", **fields) -> AskSession:
    session = factories.AskSessionFactory(
        user=user,
        created_at=at,
        session_title=title,
        session_summary=f"Summary of {title or 'the day'}.",
        key_insights=[f"Insight of {title or 'the day'}"],
        **fields,
    )
    converse(session, [("What weighed on you today?", f"The {title or 'day'} itself")])
    session.refresh_from_db()
    return session


def files_of(folder) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.md"))
    }


def test_each_closed_session_becomes_a_markdown_file_beside_the_clients_profile(
    root, consenting, charlie
):
    closed(consenting, datetime(2026, 3, 5, 18, 0, tzinfo=BERLIN), "Work stress")
    factories.ActiveSessionFactory(user=consenting)  # still open: not exported yet
    closed(charlie, datetime(2026, 3, 5, 18, 0, tzinfo=BERLIN), "Not consented")

    report = markdown_export.vault_export()

    folder = root / markdown_export.vault_folder_name(consenting.pk)
    assert [p.name for p in root.iterdir()] == [folder.name]  # charlie never opted in
    files = files_of(folder)
    assert sorted(files) == ["profile.md", "sessions/2026-03-05.md"]
    page = files["sessions/2026-03-05.md"]
    assert page.startswith("# 2026-03-05 · Work stress\n")
    assert "- Date: 2026-03-05 18:00 (Europe/Berlin)" in page
    assert "**What weighed on you today?**\n\n> The Work stress itself" in page
    assert "## Insight\n\n- Insight of Work stress" in page
    assert "## Summary\n\nSummary of Work stress." in page
    assert "- Schedule: Thursday at 18:00 (Europe/Berlin)" in files["profile.md"]
    assert report.counts == {"clients": 1, "written": 2, "unchanged": 0, "removed": 0}


def test_two_sessions_on_one_day_are_told_apart_by_their_order(root, consenting):
    evening = closed(consenting, datetime(2026, 3, 5, 21, 0, tzinfo=BERLIN), "Evening")
    closed(consenting, datetime(2026, 3, 5, 8, 0, tzinfo=BERLIN), "Morning")
    # 00:30 in Berlin is still the 5th in UTC: the day is the client's own.
    closed(consenting, datetime(2026, 3, 6, 0, 30, tzinfo=BERLIN), "Night")
    markdown_export.vault_export()
    files = files_of(root / markdown_export.vault_folder_name(consenting.pk))
    assert "Morning" in files["sessions/2026-03-05.md"]
    assert "Evening" in files["sessions/2026-03-05-2.md"]
    assert "Night" in files["sessions/2026-03-06.md"]
    AskSession.objects.filter(pk=evening.pk).update(session_title="Evening, renamed")
    markdown_export.vault_export()
    assert (
        "Evening, renamed"
        in files_of(root / markdown_export.vault_folder_name(consenting.pk))[
            "sessions/2026-03-05-2.md"
        ]
    )


def test_a_second_run_rewrites_nothing_and_adds_no_file(root, consenting):
    closed(consenting, datetime(2026, 3, 5, 18, 0, tzinfo=BERLIN), "Work")
    closed(consenting, datetime(2026, 3, 12, 18, 0, tzinfo=BERLIN), "Home")
    markdown_export.vault_export()
    folder = root / markdown_export.vault_folder_name(consenting.pk)
    before = {path: path.stat().st_mtime_ns for path in folder.rglob("*")}

    report = markdown_export.vault_export()

    assert report.counts == {"clients": 1, "written": 0, "unchanged": 3, "removed": 0}
    assert {path: path.stat().st_mtime_ns for path in folder.rglob("*")} == before


def test_deleted_sessions_and_withdrawn_consent_take_their_files_with_them(
    root, consenting, api_as
):
    closed(consenting, datetime(2026, 3, 5, 18, 0, tzinfo=BERLIN), "Kept")
    gone = closed(consenting, datetime(2026, 3, 12, 18, 0, tzinfo=BERLIN), "Deleted")
    markdown_export.vault_export()
    folder = root / markdown_export.vault_folder_name(consenting.pk)
    (root / "notes-of-someone-else").mkdir()  # not a folder this job names: left alone

    AskSession.objects.filter(pk=gone.pk).update(is_deleted=True)
    assert markdown_export.vault_export().counts["removed"] == 1
    assert sorted(files_of(folder)) == ["profile.md", "sessions/2026-03-05.md"]

    assert api_as(consenting).delete(CONSENT).status_code == 200
    assert markdown_export.vault_export().counts["removed"] == 1
    assert [p.name for p in root.iterdir()] == ["notes-of-someone-else"]


def test_consent_without_a_recorded_time_exports_nothing(root, alice):
    UserProfile.objects.filter(user=alice).update(vault_export_consent=True)
    closed(alice, datetime(2026, 3, 5, 18, 0, tzinfo=BERLIN), "Work")
    assert markdown_export.vault_export().counts["clients"] == 0
    assert not root.exists()


def test_the_folder_is_opaque_and_no_path_reaches_the_database(root, consenting, charlie):
    closed(consenting, datetime(2026, 3, 5, 18, 0, tzinfo=BERLIN), "Work")
    markdown_export.vault_export()
    name = markdown_export.vault_folder_name(consenting.pk)
    assert markdown_export.FOLDER_RE.fullmatch(name)
    assert consenting.username not in name
    assert (
        name
        == markdown_export.vault_folder_name(consenting.pk)
        != markdown_export.vault_folder_name(charlie.pk)
    )
    assert database_columns_containing(str(root)) == []
    assert database_columns_containing(name) == []
