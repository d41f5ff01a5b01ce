"""On PostgreSQL the database itself refuses UPDATE and DELETE of session events (QUALITY R5).

The one exception is the audited anonymisation path (SPEC §7): inside its transaction it sets
`naisei.event_redaction = 'on'` (SET LOCAL), and then only `payload` may change.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION naisei_session_event_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND coalesce(current_setting('naisei.event_redaction', true), '') = 'on'
       AND NEW.id = OLD.id AND NEW.session_id = OLD.session_id AND NEW.seq = OLD.seq
       AND NEW.type = OLD.type AND NEW.actor = OLD.actor
       AND NEW.created_at = OLD.created_at THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'session events are append-only: %% refused on sessions_app_sessionevent', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER session_event_append_only
    BEFORE UPDATE OR DELETE ON sessions_app_sessionevent
    FOR EACH ROW EXECUTE FUNCTION naisei_session_event_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS session_event_append_only ON sessions_app_sessionevent;
DROP FUNCTION IF EXISTS naisei_session_event_append_only();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0002_role_groups")]

    operations = [migrations.RunPython(install, uninstall)]
