"""A client's profile locale is a language tag in one of the languages Naisei speaks — en, ru or
zh — its region kept, because the crisis lines are the region's (issue 16).

Rows written before the check are normalized first (`ru_RU` → `ru-RU`, `zh-Hant-TW` → `zh-TW`,
`zh-Hans` → `zh`); a tag of another language, or none, becomes `en`, the default.
"""

import re

from django.db import migrations, models
from django.db.models import Q

import sessions_app.models.people

LANGUAGES = ("en", "ru", "zh")
TAG = re.compile(r"^([a-z]{2,3})(?:-[a-z]{4})?(?:-([a-z]{2}|[0-9]{3}))?$", re.IGNORECASE)


def fold(locale):
    # Frozen here rather than imported: a migration must not change when the model's code does.
    match = TAG.match((locale or "").replace("_", "-"))
    if match is None or match[1].lower() not in LANGUAGES:
        return "en"
    return f"{match[1].lower()}-{match[2].upper()}" if match[2] else match[1].lower()


def fold_locales(apps, schema_editor):
    UserProfile = apps.get_model("sessions_app", "UserProfile")
    for profile in UserProfile.objects.only("pk", "locale"):
        folded = fold(profile.locale)
        if folded != profile.locale:
            UserProfile.objects.filter(pk=profile.pk).update(locale=folded)


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
                default="en",
                max_length=8,
                validators=[sessions_app.models.people.validate_locale],
            ),
        ),
        migrations.AddConstraint(
            model_name="userprofile",
            constraint=models.CheckConstraint(
                condition=Q(locale__in=LANGUAGES)
                | Q(locale__startswith="en-")
                | Q(locale__startswith="ru-")
                | Q(locale__startswith="zh-"),
                name="profile_locale_known",
            ),
        ),
    ]
