"""On PostgreSQL the database itself refuses TRUNCATE of the session events too (QUALITY R5).

0003's row-level trigger covers UPDATE and DELETE; TRUNCATE fires no row triggers, so it gets a
statement-level one. The only way around it is a connection started with
`naisei.event_log_truncate = on` — the test suite's, whose transactional tests empty every table
between tests (Django's flush is one TRUNCATE); nothing in the product sets it.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION naisei_session_event_no_truncate() RETURNS trigger AS $$
BEGIN
    IF coalesce(current_setting('naisei.event_log_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'session events are append-only: TRUNCATE refused on sessions_app_sessionevent'
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER session_event_no_truncate
    BEFORE TRUNCATE ON sessions_app_sessionevent
    FOR EACH STATEMENT EXECUTE FUNCTION naisei_session_event_no_truncate();
"""

DROP = """
DROP TRIGGER IF EXISTS session_event_no_truncate ON sessions_app_sessionevent;
DROP FUNCTION IF EXISTS naisei_session_event_no_truncate();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0012_crisis_resources_review_alerts")]

    operations = [migrations.RunPython(install, uninstall)]
