"""Register the background jobs' django-q schedules on migrate: no admin clicks (SPEC §7).

It applies the current table in `sessions_app.jobs.schedules` (idempotent, matched by name); after the
table changes, `manage.py ensure_schedules` or a new migration calling the same function applies
it again.
"""

from django.db import migrations


def register(apps, schema_editor):
    from sessions_app.jobs.schedules import schedules_ensure

    schedules_ensure(schedule_model=apps.get_model("django_q", "Schedule"))


def unregister(apps, schema_editor):
    from sessions_app.jobs.schedules import PREFIX

    apps.get_model("django_q", "Schedule").objects.filter(name__startswith=PREFIX).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("sessions_app", "0008_session_anonymised_at"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(register, unregister)]
