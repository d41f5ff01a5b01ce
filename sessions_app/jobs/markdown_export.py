"""The vault export (seed session-design §11.4): a scheduled job, not an agent, writes each
consenting client's closed sessions as Markdown into VAULT_EXPORT_DIR.

    VAULT_EXPORT_DIR/client-<opaque>/profile.md
    VAULT_EXPORT_DIR/client-<opaque>/sessions/YYYY-MM-DD.md   (-2, -3 … for more on one day)

Only this module knows the paths: nothing here is written to the database, an event or a log line,
so no agent can ever read them back. The folder name is an HMAC of the client's id, never its
username. A run rewrites the same files from the database, so it is idempotent: unchanged files
are left alone. The folder mirrors what the database still holds — it sits on the server, so
retention applies to it too: a deleted or anonymised session's file goes, and so does the whole
folder of a client who withdrew consent. The client grants and withdraws consent over REST
(`PUT`/`DELETE /api/profile/vault-consent`, `services.vault_consent_set`).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.utils.crypto import salted_hmac

from sessions_app.jobs.lifecycle import JobReport
from sessions_app.models import AskSession, UserProfile, profile_zone
from sessions_app.selectors import session_transcript

FOLDER_RE = re.compile(r"client-[0-9a-f]{16}")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def vault_folder_name(user_id: int) -> str:
    return (
        "client-"
        + salted_hmac("naisei.vault.folder", str(user_id), algorithm="sha256").hexdigest()[:16]
    )


def vault_export(*, root: Path | None = None) -> JobReport:
    root = Path(root or settings.VAULT_EXPORT_DIR)
    consenting = UserProfile.objects.filter(
        vault_export_consent=True, vault_export_consented_at__isnull=False
    ).order_by("pk")
    counts = {"clients": 0, "written": 0, "unchanged": 0, "removed": 0}
    folders = set()
    for profile in consenting:
        folder = root / vault_folder_name(profile.user_id)
        folders.add(folder.name)
        _folder_sync(folder, client_files(profile), counts)
        counts["clients"] += 1
    counts["removed"] += _withdrawn_remove(root, keep=folders)
    template = (
        "exported {clients} clients: {written} files written, {unchanged} unchanged, "
        "{removed} removed"
    )
    return JobReport("vault", template, counts)


def client_files(profile: UserProfile) -> dict[str, str]:
    """Every file of the client's folder: relative path → Markdown."""
    zone = profile_zone(profile)
    sessions = list(
        AskSession.objects.filter(user_id=profile.user_id, is_deleted=False)
        .filter(anonymised_at__isnull=True)
        .exclude(status=AskSession.Status.ACTIVE)
        .select_related("active_workline")
        .order_by("created_at", "pk")
    )
    files: dict[str, str] = {"profile.md": profile_markdown(profile, len(sessions))}
    seen: dict[str, int] = {}
    for session in sessions:
        # Ordered by (created_at, id), so a day's second session is always the `-2` one.
        day = session.created_at.astimezone(zone).date().isoformat()
        seen[day] = seen.get(day, 0) + 1
        name = day if seen[day] == 1 else f"{day}-{seen[day]}"
        files[f"sessions/{name}.md"] = session_markdown(
            session, session.created_at.astimezone(zone)
        )
    return files


def session_markdown(session: AskSession, started: datetime) -> str:
    transcript = session_transcript(session)
    topic = session.session_title or transcript.topic or session.get_session_type_display()
    lines = [
        f"# {started:%Y-%m-%d} · {topic}",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M} ({getattr(started.tzinfo, 'key', 'UTC')})",
        f"- Type: {session.get_session_type_display()}",
        f"- Status: {session.get_status_display()}",
        "",
        "## Questions and answers",
        "",
    ]
    for question, answer in transcript.pairs:
        lines += [f"**{question.strip()}**", "", *_quoted(answer), ""]
    if not transcript.pairs:
        lines += ["(none answered)", ""]
    insights = list(session.key_insights) or transcript.insights
    lines += ["## Insight", "", *[f"- {item}" for item in insights or ["(none)"]], ""]
    lines += ["## Summary", "", session.session_summary or "(none)", ""]
    if transcript.notes:
        lines += ["## One last thing", "", *[f"- {note}" for note in transcript.notes], ""]
    return "\n".join(lines)


def _quoted(text: str) -> list[str]:
    return [f"> {line}".rstrip() for line in (text.strip() or "…").splitlines()]


def profile_markdown(profile: UserProfile, exported: int) -> str:
    schedule = "not set"
    if profile.schedule_weekdays and profile.schedule_time:
        days = ", ".join(WEEKDAYS[d - 1] for d in sorted(profile.schedule_weekdays) if 1 <= d <= 7)
        schedule = f"{days} at {profile.schedule_time:%H:%M}"
    usual = profile.typical_activity_time
    lines = [
        "# Profile",
        "",
        f"- Sessions: {profile.session_count} ({exported} in this folder)",
        f"- Schedule: {schedule} ({profile.time_zone})",
        f"- Usual time of day: {usual:%H:%M}" if usual else "- Usual time of day: not known yet",
        "",
        "## Observed patterns",
        "",
        *_entries(profile.observed_patterns),
        "",
        "## Accepted hypotheses",
        "",
        *_entries(profile.accepted_hypotheses),
        "",
    ]
    return "\n".join(lines)


def _entries(items: list) -> list[str]:
    texts = []
    for item in items or []:
        text = UserProfile.entry_text(item)
        if text:
            texts.append(f"- {text}")
    return texts or ["- (none yet)"]


def _folder_sync(folder: Path, files: dict[str, str], counts: dict[str, int]) -> None:
    for relative, content in files.items():
        path = folder / relative
        if path.is_file() and path.read_text(encoding="utf-8") == content:
            counts["unchanged"] += 1
            continue
        _write_atomically(path, content)
        counts["written"] += 1
    for stale in sorted((folder / "sessions").glob("*.md")):
        if f"sessions/{stale.name}" not in files:
            stale.unlink(missing_ok=True)
            counts["removed"] += 1


def _write_atomically(path: Path, content: str) -> None:
    """A reader (a vault sync) never sees half a file, and concurrent runs never share a temp."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=".tmp-", suffix=".md", delete=False
    ) as temp:
        temp.write(content)
    os.replace(temp.name, path)


def _withdrawn_remove(root: Path, *, keep: set[str]) -> int:
    """Remove the folders of clients who withdrew; only folders this job names are touched."""
    if not root.is_dir():
        return 0
    removed = 0
    for child in sorted(root.iterdir()):
        if child.is_dir() and FOLDER_RE.fullmatch(child.name) and child.name not in keep:
            shutil.rmtree(child, ignore_errors=True)
            removed += 1
    return removed
