"""Load the built-in flows (reflection_session, scheduler, crisis) from sessions_app/flows/*.json,
so that every environment has them. Re-running `manage.py load_flows` on the same files is a
no-op; editing them in admin afterwards is expected."""

from django.db import migrations


def load_builtin(apps, schema_editor):
    from sessions_app.engine.flow_files import FlowModels, builtin_flow_paths, flow_files_load

    models = FlowModels(
        flow=apps.get_model("sessions_app", "Flow"),
        step=apps.get_model("sessions_app", "FlowStep"),
        guard=apps.get_model("sessions_app", "FlowGuard"),
    )
    flow_files_load(builtin_flow_paths(), models=models)


class Migration(migrations.Migration):

    dependencies = [
        ("sessions_app", "0006_flows"),
    ]

    operations = [
        migrations.RunPython(load_builtin, migrations.RunPython.noop),
    ]
