"""A client's profile locale is one of the languages Naisei speaks: en, ru or zh (issue 16).

Rows written before the check are folded to their primary subtag first (`ru-RU` → `ru`,
`zh-Hans` → `zh`); anything else becomes `en`, the default.
"""

from django.db import migrations, models
from django.db.models import Q

KNOWN = ["en", "ru", "zh"]


def fold_locales(apps, schema_editor):
    UserProfile = apps.get_model("sessions_app", "UserProfile")
    for profile in UserProfile.objects.exclude(locale__in=KNOWN).only("pk", "locale"):
        primary = (profile.locale or "").split("-")[0].split("_")[0].lower()
        profile.locale = primary if primary in KNOWN else "en"
        profile.save(update_fields=["locale"])


class Migration(migrations.Migration):
    dependencies = [
        ("sessions_app", "0013_event_log_refuses_truncate"),
    ]

    operations = [
        migrations.RunPython(fold_locales, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="userprofile",
            name="locale",
            field=models.CharField(
                choices=[("en", "English"), ("ru", "Русский"), ("zh", "中文")],
                default="en",
                max_length=8,
            ),
        ),
        migrations.AddConstraint(
            model_name="userprofile",
            constraint=models.CheckConstraint(
                condition=Q(locale__in=KNOWN), name="profile_locale_known"
            ),
        ),
    ]
