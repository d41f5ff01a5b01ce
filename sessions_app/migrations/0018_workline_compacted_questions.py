from django.db import migrations, models


class Migration(migrations.Migration):
    """The questions asked on a workline's path up to its compaction summary, kept with it."""

    dependencies = [
        ("sessions_app", "0001_squashed_0017_lean_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="workline",
            name="compacted_questions",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
