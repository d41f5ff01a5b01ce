"""A starting set of clinical rules; the clinical team edits them in admin."""

from django.db import migrations

RULES = [
    (
        "Describe, never diagnose",
        "Hypotheses describe observable patterns in this session. Never name a disorder or a "
        "diagnosis, and never speculate beyond what the cited events show.",
    ),
    (
        "Risk first",
        "Any sign of self-harm, suicide or acute distress gets its own client hypothesis with "
        "high confidence, citing the events where it appeared, whatever else the session held.",
    ),
    (
        "Fatigue is information",
        "A client asking to stop or saying they are tired is a signal about pacing or load, "
        "not resistance. Say where in the session it appeared.",
    ),
    (
        "Judge the agents by their effect",
        "A hypothesis about the analyst or the narrator names what the client experienced (a "
        "repeated question, a blocked card, a change of tone) and the events that show it.",
    ),
]


def add_rules(apps, schema_editor):
    ClinicalRule = apps.get_model("psychologist", "ClinicalRule")
    for position, (title, text) in enumerate(RULES, 1):
        ClinicalRule.objects.get_or_create(title=title, defaults={"text": text, "position": position})


def remove_rules(apps, schema_editor):
    apps.get_model("psychologist", "ClinicalRule").objects.filter(
        title__in=[title for title, _ in RULES]
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("psychologist", "0003_analyses_hypotheses_rules")]

    operations = [migrations.RunPython(add_rules, remove_rules)]
