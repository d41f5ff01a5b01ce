"""The psychologist's tables and a starting set of clinical rules (the clinical team edits them in
admin), squashed from migrations 0001-0004 (2026-12-01): a database that applied those takes
this one as applied (`replaces`); a new one runs it alone."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

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
    initial = True

    replaces = [
        ("psychologist", "0001_llm_bindings_and_calls"),
        ("psychologist", "0002_analysis_request"),
        ("psychologist", "0003_analyses_hypotheses_rules"),
        ("psychologist", "0004_default_clinical_rules"),
    ]

    dependencies = [
        ("sessions_app", "0001_squashed_0017_lean_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ClinicalRule',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('title', models.CharField(max_length=120)),
                ('text', models.TextField()),
                ('active', models.BooleanField(default=True)),
                ('position', models.PositiveSmallIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ['position', 'id'],
            },
        ),
        migrations.CreateModel(
            name='AnalysisRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('triggered_by', models.CharField(choices=[('auto', 'Session close'), ('manual', 'Manual reanalyse')], default='auto', max_length=8)),
                ('status', models.CharField(choices=[('pending', 'Pending'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='pending', max_length=8)),
                ('attempts', models.PositiveIntegerField(default=0)),
                ('last_error', models.CharField(blank=True, default='', max_length=200)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='analysis_requests', to='sessions_app.asksession')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Analysis',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('tier', models.CharField(choices=[('light', 'Light'), ('heavy', 'Heavy')], max_length=8)),
                ('agent', models.CharField(choices=[('analyst', 'Analyst'), ('narrator', 'Narrator'), ('summarizer', 'Summarizer'), ('psychologist', 'Psychologist (heavy)'), ('psychologist-light', 'Psychologist (light)')], max_length=24)),
                ('provider', models.CharField(choices=[('anthropic', 'Anthropic'), ('offline', 'Offline engine'), ('scripted', 'Scripted replay')], max_length=16)),
                ('model', models.CharField(max_length=80)),
                ('triggered_by', models.CharField(choices=[('auto', 'Session close'), ('manual', 'Manual reanalyse')], max_length=8)),
                ('termination_cause', models.CharField(choices=[('graceful', 'Graceful close'), ('abandoned_timeout', 'Abandoned (idle timeout)'), ('heartbeat_timeout', 'Heartbeat timeout'), ('killed', 'Killed'), ('error', 'Error')], max_length=20)),
                ('superseded', models.BooleanField(default=False)),
                ('superseded_at', models.DateTimeField(blank=True, null=True)),
                ('iterations', models.PositiveSmallIntegerField(default=0)),
                ('input_tokens', models.PositiveIntegerField(default=0)),
                ('output_tokens', models.PositiveIntegerField(default=0)),
                ('cache_read_tokens', models.PositiveIntegerField(default=0)),
                ('cache_write_tokens', models.PositiveIntegerField(default=0)),
                ('cost_micro_usd', models.PositiveBigIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='analyses', to='sessions_app.asksession')),
                ('request', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='analysis', to='psychologist.analysisrequest')),
            ],
            options={
                'verbose_name_plural': 'analyses',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Hypothesis',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField(default=0)),
                ('target', models.CharField(choices=[('client', 'Client'), ('analyst', 'Analyst'), ('narrator', 'Narrator'), ('flow', 'Flow')], max_length=10)),
                ('statement', models.TextField()),
                ('confidence', models.PositiveSmallIntegerField()),
                ('termination_analysis', models.TextField(blank=True, default='')),
                ('status', models.CharField(choices=[('proposed', 'Proposed'), ('accepted', 'Accepted'), ('dismissed', 'Dismissed')], default='proposed', max_length=10)),
                ('decided_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('analysis', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hypotheses', to='psychologist.analysis')),
                ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hypotheses', to='sessions_app.asksession')),
            ],
            options={
                'verbose_name_plural': 'hypotheses',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='HypothesisEvidence',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='sessions_app.sessionevent')),
                ('hypothesis', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evidence', to='psychologist.hypothesis')),
            ],
            options={
                'verbose_name_plural': 'hypothesis evidence',
                'ordering': ['hypothesis', 'event'],
            },
        ),
        migrations.CreateModel(
            name='LLMCall',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('agent', models.CharField(choices=[('analyst', 'Analyst'), ('narrator', 'Narrator'), ('summarizer', 'Summarizer'), ('psychologist', 'Psychologist (heavy)'), ('psychologist-light', 'Psychologist (light)')], max_length=24)),
                ('provider', models.CharField(choices=[('anthropic', 'Anthropic'), ('offline', 'Offline engine'), ('scripted', 'Scripted replay')], max_length=16)),
                ('model', models.CharField(max_length=80)),
                ('input_tokens', models.PositiveIntegerField(default=0)),
                ('output_tokens', models.PositiveIntegerField(default=0)),
                ('cache_read_tokens', models.PositiveIntegerField(default=0)),
                ('cache_write_tokens', models.PositiveIntegerField(default=0)),
                ('cost_micro_usd', models.PositiveBigIntegerField(default=0)),
                ('latency_ms', models.PositiveIntegerField(default=0)),
                ('stop_reason', models.CharField(blank=True, default='', max_length=40)),
                ('ok', models.BooleanField(default=True)),
                ('error_code', models.CharField(blank=True, default='', max_length=40)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('session', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='llm_calls', to='sessions_app.asksession')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='ModelBinding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('agent', models.CharField(choices=[('analyst', 'Analyst'), ('narrator', 'Narrator'), ('summarizer', 'Summarizer'), ('psychologist', 'Psychologist (heavy)'), ('psychologist-light', 'Psychologist (light)')], max_length=24, unique=True)),
                ('provider', models.CharField(choices=[('anthropic', 'Anthropic'), ('offline', 'Offline engine'), ('scripted', 'Scripted replay')], max_length=16)),
                ('model', models.CharField(max_length=80)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ['agent'],
                'constraints': [models.CheckConstraint(condition=models.Q(('agent__in', ['analyst', 'narrator', 'summarizer', 'psychologist', 'psychologist-light'])), name='model_binding_agent_valid'), models.CheckConstraint(condition=models.Q(('provider__in', ['anthropic', 'offline', 'scripted'])), name='model_binding_provider_valid')],
            },
        ),
        migrations.AddIndex(
            model_name='analysisrequest',
            index=models.Index(fields=['session', '-created_at'], name='analysis_req_session_idx'),
        ),
        migrations.AddConstraint(
            model_name='analysisrequest',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['pending', 'running', 'done', 'failed'])), name='analysis_request_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='analysisrequest',
            constraint=models.CheckConstraint(condition=models.Q(('triggered_by__in', ['auto', 'manual'])), name='analysis_request_trigger_valid'),
        ),
        migrations.AddIndex(
            model_name='analysis',
            index=models.Index(fields=['session', '-created_at'], name='analysis_session_idx'),
        ),
        migrations.AddConstraint(
            model_name='analysis',
            constraint=models.UniqueConstraint(condition=models.Q(('superseded', False)), fields=('session',), name='analysis_one_current_per_session'),
        ),
        migrations.AddConstraint(
            model_name='analysis',
            constraint=models.CheckConstraint(condition=models.Q(('tier__in', ['light', 'heavy'])), name='analysis_tier_valid'),
        ),
        migrations.AddConstraint(
            model_name='analysis',
            constraint=models.CheckConstraint(condition=models.Q(('termination_cause__in', ['graceful', 'abandoned_timeout', 'heartbeat_timeout', 'killed', 'error'])), name='analysis_termination_cause_valid'),
        ),
        migrations.AddConstraint(
            model_name='analysis',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('superseded', False), ('superseded_at__isnull', True)), models.Q(('superseded', True), ('superseded_at__isnull', False)), _connector='OR'), name='analysis_superseded_at_iff_superseded'),
        ),
        migrations.AddIndex(
            model_name='hypothesis',
            index=models.Index(fields=['session', '-created_at'], name='hypothesis_session_idx'),
        ),
        migrations.AddIndex(
            model_name='hypothesis',
            index=models.Index(fields=['status', '-created_at'], name='hypothesis_status_idx'),
        ),
        migrations.AddConstraint(
            model_name='hypothesis',
            constraint=models.CheckConstraint(condition=models.Q(('confidence__gte', 0), ('confidence__lte', 100)), name='hypothesis_confidence_0_100'),
        ),
        migrations.AddConstraint(
            model_name='hypothesis',
            constraint=models.CheckConstraint(condition=models.Q(('target__in', ['client', 'analyst', 'narrator', 'flow'])), name='hypothesis_target_valid'),
        ),
        migrations.AddConstraint(
            model_name='hypothesis',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['proposed', 'accepted', 'dismissed'])), name='hypothesis_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='hypothesis',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('decided_at__isnull', True), ('status', 'proposed')), models.Q(models.Q(('status', 'proposed'), _negated=True), ('decided_at__isnull', False)), _connector='OR'), name='hypothesis_decided_at_iff_decided'),
        ),
        migrations.AddConstraint(
            model_name='hypothesisevidence',
            constraint=models.UniqueConstraint(fields=('hypothesis', 'event'), name='evidence_unique_event'),
        ),
        migrations.AddIndex(
            model_name='llmcall',
            index=models.Index(fields=['session', 'created_at'], name='llm_call_session_idx'),
        ),
        migrations.AddIndex(
            model_name='llmcall',
            index=models.Index(fields=['agent', '-created_at'], name='llm_call_agent_idx'),
        ),
        migrations.AddConstraint(
            model_name='llmcall',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('error_code', ''), ('ok', True)), models.Q(('ok', False), models.Q(('error_code', ''), _negated=True)), _connector='OR'), name='llm_call_error_code_iff_failed'),
        ),
        migrations.RunPython(add_rules, remove_rules),
    ]
