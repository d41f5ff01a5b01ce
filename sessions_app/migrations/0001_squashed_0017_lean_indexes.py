"""Naisei's schema and its starting data, squashed from migrations 0001-0017 (2026-12-01).

A database that applied 0001_initial … 0017_lean_indexes takes this one as applied (`replaces`);
a new one runs it alone. After the tables, the data every environment needs:

- the four role groups of SPEC §1, named as §9 says;
- on PostgreSQL, the event log refusing UPDATE, DELETE and TRUNCATE (QUALITY R5). The one
  exception is the audited anonymisation path (SPEC §7): inside its transaction it sets
  `naisei.event_redaction = 'on'` (SET LOCAL), and then only `payload` may change. TRUNCATE is
  let through only on a connection started with `naisei.event_log_truncate = on` — the test
  suite's, whose transactional tests empty every table between tests; nothing in the product
  sets it;
- the built-in flows (reflection_session, scheduler, crisis) from sessions_app/flows/*.json
  (`manage.py load_flows` on the same files is a no-op; editing them in admin is expected);
- the background jobs' django-q schedules, from the table in `sessions_app.jobs.schedules`
  (idempotent, matched by name; `manage.py ensure_schedules` applies a changed table);
- the crisis lines of sessions_app/data/crisis_lines.json;
- on PostgreSQL, a fifth of each page of ask_sessions and of the worklines kept free (P7): every
  answer rewrites one row of each, and with none of the columns it rewrites indexed, PostgreSQL
  updates them in place (HOT) when the page has room.
"""

import json
from pathlib import Path

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
import sessions_app.models.base
import sessions_app.models.people
import uuid
from django.conf import settings
from django.db import migrations, models

ROLES = ("client", "counselor", "ops", "service")

CRISIS_LINES = Path(__file__).resolve().parents[1] / "data" / "crisis_lines.json"

EVENT_LOG_APPEND_ONLY = """
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

EVENT_LOG_WRITABLE = """
DROP TRIGGER IF EXISTS session_event_no_truncate ON sessions_app_sessionevent;
DROP FUNCTION IF EXISTS naisei_session_event_no_truncate();
DROP TRIGGER IF EXISTS session_event_append_only ON sessions_app_sessionevent;
DROP FUNCTION IF EXISTS naisei_session_event_append_only();
"""


def on_postgresql(*statements: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for statement in statements:
                schema_editor.execute(statement)

    return run


def fillfactor(percent: int) -> list[str]:
    return [
        f"ALTER TABLE {table} SET (fillfactor = {percent})"
        for table in ("ask_sessions", "sessions_app_workline")
    ]


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


def load_builtin_flows(apps, schema_editor):
    from sessions_app.engine.services import FlowModels, builtin_flow_paths, flow_files_load

    models = FlowModels(
        flow=apps.get_model("sessions_app", "Flow"),
        step=apps.get_model("sessions_app", "FlowStep"),
        guard=apps.get_model("sessions_app", "FlowGuard"),
    )
    flow_files_load(builtin_flow_paths(), models=models)


def register_schedules(apps, schema_editor):
    from sessions_app.jobs.schedules import schedules_ensure

    schedules_ensure(schedule_model=apps.get_model("django_q", "Schedule"))


def unregister_schedules(apps, schema_editor):
    from sessions_app.jobs.schedules import PREFIX

    apps.get_model("django_q", "Schedule").objects.filter(name__startswith=PREFIX).delete()


def load_crisis_lines(apps, schema_editor):
    resource = apps.get_model("sessions_app", "CrisisResource")
    lines = json.loads(CRISIS_LINES.read_text(encoding="utf-8"))["lines"]
    resource.objects.bulk_create(
        resource(position=position, **line) for position, line in enumerate(lines)
    )


class Migration(migrations.Migration):
    initial = True

    replaces = [
        ("sessions_app", "0001_initial"),
        ("sessions_app", "0002_role_groups"),
        ("sessions_app", "0003_event_log_append_only"),
        ("sessions_app", "0004_idempotency_record"),
        ("sessions_app", "0005_graph_compaction_spin_off"),
        ("sessions_app", "0006_flows"),
        ("sessions_app", "0007_builtin_flows"),
        ("sessions_app", "0008_session_anonymised_at"),
        ("sessions_app", "0009_job_schedules"),
        ("sessions_app", "0010_sandbox"),
        ("sessions_app", "0011_counselor_workspace"),
        ("sessions_app", "0012_crisis_resources_review_alerts"),
        ("sessions_app", "0013_event_log_refuses_truncate"),
        ("sessions_app", "0014_profile_locale_known"),
        ("sessions_app", "0015_flow_reply_as_written"),
        ("sessions_app", "0016_task"),
        ("sessions_app", "0017_lean_indexes"),
    ]

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='AskSession',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('dify_conversation_id', models.UUIDField(default=uuid.uuid4, unique=True)),
                ('session_title', models.CharField(blank=True, default='', max_length=60)),
                ('session_type', models.CharField(choices=[('general', 'General'), ('cbt_guided', 'CBT guided'), ('crisis_intervention', 'Crisis intervention'), ('follow_up', 'Follow-up')], default='general', max_length=24)),
                ('trigger_source', models.CharField(choices=[('mood_checkin', 'Mood check-in'), ('journal_negative', 'Negative journal entry'), ('treehole_risk', 'Treehole risk'), ('manual_trigger', 'Manual'), ('scheduled_checkin', 'Scheduled check-in')], default='manual_trigger', max_length=24)),
                ('active_agent_key', models.CharField(choices=[('cbt_specialist', 'CBT specialist'), ('emotion_advisor', 'Emotion advisor'), ('behavior_coach', 'Behavior coach'), ('crisis_interventionist', 'Crisis interventionist'), ('custom_role', 'Custom role')], default='cbt_specialist', max_length=24)),
                ('agent_origin', models.CharField(choices=[('system_default', 'System default'), ('org_template', 'Organisation template'), ('user_custom', 'User custom')], default='system_default', max_length=20)),
                ('agent_snapshot', models.JSONField(blank=True, default=dict)),
                ('conversation_variables', models.JSONField(blank=True, default=dict, validators=[sessions_app.models.base.validate_conversation_variables])),
                ('modality_flags', models.JSONField(default=sessions_app.models.base.default_modality_flags, validators=[sessions_app.models.base.validate_modality_flags])),
                ('voice_config', models.JSONField(blank=True, default=dict, validators=[sessions_app.models.base.validate_voice_config])),
                ('cbt_focus', models.CharField(blank=True, choices=[('cognitive_restructuring', 'Cognitive restructuring'), ('behavioral_activation', 'Behavioral activation'), ('emotion_regulation', 'Emotion regulation'), ('problem_solving', 'Problem solving')], default='', max_length=32)),
                ('initial_risk_level', models.CharField(choices=[('L0', 'L0 · no risk'), ('L1', 'L1 · general attention'), ('L2', 'L2 · needs attention'), ('L3', 'L3 · needs intervention'), ('L4', 'L4 · acute crisis')], default='L0', max_length=2)),
                ('final_risk_level', models.CharField(blank=True, choices=[('L0', 'L0 · no risk'), ('L1', 'L1 · general attention'), ('L2', 'L2 · needs attention'), ('L3', 'L3 · needs intervention'), ('L4', 'L4 · acute crisis')], max_length=2, null=True)),
                ('session_summary', models.TextField(blank=True, default='', max_length=1000)),
                ('key_insights', models.JSONField(blank=True, default=list, validators=[sessions_app.models.base.validate_string_list])),
                ('cbt_techniques_used', models.JSONField(blank=True, default=list, validators=[sessions_app.models.base.validate_string_list])),
                ('generated_task_ids', models.JSONField(blank=True, default=list)),
                ('handoff_reason', models.CharField(blank=True, default='', max_length=200)),
                ('handoff_time', models.DateTimeField(blank=True, null=True)),
                ('alerted_at', models.DateTimeField(blank=True, null=True)),
                ('alert_escalations', models.PositiveSmallIntegerField(default=0)),
                ('counselor_speaking_since', models.DateTimeField(blank=True, null=True)),
                ('title_by_client', models.BooleanField(default=False)),
                ('satisfaction_score', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('follow_up_needed', models.BooleanField(default=False)),
                ('follow_up_at', models.DateTimeField(blank=True, null=True)),
                ('message_count', models.PositiveIntegerField(default=0)),
                ('audio_message_count', models.PositiveIntegerField(default=0)),
                ('attachment_count', models.PositiveIntegerField(default=0)),
                ('duration_seconds', models.PositiveIntegerField(blank=True, null=True)),
                ('intervention_triggered', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('ended_at', models.DateTimeField(blank=True, null=True)),
                ('is_deleted', models.BooleanField(default=False)),
                ('deleted_at', models.DateTimeField(blank=True, null=True)),
                ('anonymised_at', models.DateTimeField(blank=True, editable=False, null=True)),
                ('status', models.CharField(choices=[('active', 'Active'), ('completed', 'Completed'), ('completed_partial', 'Completed (partial)'), ('closed_abnormally', 'Closed abnormally')], default='active', max_length=20)),
                ('phase', models.CharField(choices=[('intro', 'Intro'), ('questionnaire', 'Questionnaire'), ('dialogue', 'Dialogue'), ('insight', 'Insight'), ('closing', 'Closing')], default='intro', max_length=16)),
                ('turn_count', models.PositiveIntegerField(default=0)),
                ('ready_to_close', models.BooleanField(default=False)),
                ('termination_reason', models.CharField(blank=True, choices=[('abandoned_timeout', 'Abandoned (idle timeout)'), ('heartbeat_timeout', 'Heartbeat timeout'), ('killed', 'Killed'), ('error', 'Error')], max_length=20, null=True)),
                ('last_activity_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('locale', models.CharField(default='en', max_length=8)),
                ('current_intent_code', models.CharField(default='reflection_session', max_length=40)),
                ('current_step_code', models.CharField(default='intro', max_length=40)),
                ('slots', models.JSONField(blank=True, default=dict)),
                ('handoff_count', models.PositiveIntegerField(default=0)),
                ('soft_insertion_count', models.PositiveIntegerField(default=0)),
                ('suspended_intent', models.CharField(blank=True, default='', max_length=40)),
                ('resumable_step_code', models.CharField(blank=True, default='', max_length=40)),
                ('resumable_slots', models.JSONField(blank=True, default=dict)),
                ('event_seq', models.PositiveIntegerField(default=0, editable=False)),
            ],
            options={
                'db_table': 'ask_sessions',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Flow',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.SlugField(max_length=40, unique=True)),
                ('name', models.CharField(max_length=80)),
                ('description', models.TextField(blank=True, default='')),
                ('reply_as_written', models.BooleanField(default=False, help_text="Show the agent's reply to the client as written, not as question cards.")),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ['code'],
            },
        ),
        migrations.CreateModel(
            name='AskAgent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(choices=[('cbt_specialist', 'CBT specialist'), ('emotion_advisor', 'Emotion advisor'), ('behavior_coach', 'Behavior coach'), ('crisis_interventionist', 'Crisis interventionist'), ('custom_role', 'Custom role')], default='custom_role', max_length=40)),
                ('name', models.CharField(max_length=80)),
                ('persona', models.TextField(blank=True, default='')),
                ('version', models.CharField(default='1', max_length=40)),
                ('origin', models.CharField(choices=[('system_default', 'System default'), ('org_template', 'Organisation template'), ('user_custom', 'User custom')], default='system_default', max_length=20)),
                ('external_agent_id', models.CharField(blank=True, default='', max_length=80)),
                ('prompt_overrides', models.JSONField(blank=True, default=dict)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('owner', models.ForeignKey(blank=True, help_text='The client who owns a user_custom agent.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='custom_agents', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'ask_agents',
                'ordering': ['name', 'id'],
            },
        ),
        migrations.CreateModel(
            name='SandboxSession',
            fields=[
                ('session', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='sandbox', serialize=False, to='sessions_app.asksession')),
                ('provider', models.CharField(choices=[('offline', 'Offline engine'), ('anthropic', 'Anthropic'), ('scripted', 'Scripted')], default='offline', max_length=10)),
                ('script', models.JSONField(blank=True, default=list)),
                ('script_position', models.PositiveIntegerField(default=0)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.AddField(
            model_name='asksession',
            name='custom_agent',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='sessions', to='sessions_app.askagent'),
        ),
        migrations.AddField(
            model_name='asksession',
            name='handoff_counselor',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='handed_off_sessions', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='asksession',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ask_sessions', to=settings.AUTH_USER_MODEL),
        ),
        migrations.CreateModel(
            name='AskMessage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('client', 'Client'), ('analyst', 'Analyst'), ('narrator', 'Narrator'), ('counselor', 'Counselor'), ('system', 'System')], max_length=10)),
                ('kind', models.CharField(choices=[('intro', 'Intro'), ('hook', 'Hook'), ('topic', 'Topic'), ('question_card', 'Question card'), ('answer', 'Answer'), ('recap', 'Recap'), ('analysis', 'Analyst output'), ('insight', 'Insight'), ('completion', 'Completion card'), ('closing', 'Closing line'), ('last_thing', 'One last thing'), ('note', 'Note'), ('reply', 'Reply'), ('marker', 'Marker'), ('crisis_resources', 'Crisis resources'), ('text', 'Free text')], max_length=20)),
                ('text', models.TextField(blank=True, default='')),
                ('payload', models.JSONField(blank=True, default=dict)),
                ('modality', models.CharField(choices=[('text', 'Text'), ('audio', 'Audio'), ('file', 'File')], default='text', max_length=5)),
                ('attachment', models.FileField(blank=True, default='', upload_to='attachments/%Y/%m/')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('parent', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='children', to='sessions_app.askmessage')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='messages', to='sessions_app.asksession')),
            ],
            options={
                'db_table': 'ask_messages',
                'ordering': ['created_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='CaseloadAssignment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('client', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='counselors', to=settings.AUTH_USER_MODEL)),
                ('counselor', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='caseload', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='CrisisResource',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('language', models.CharField(choices=[('en', 'English'), ('ru', 'Russian'), ('zh', 'Chinese')], max_length=2)),
                ('region', models.CharField(blank=True, default='', max_length=2, validators=[django.core.validators.RegexValidator('^[A-Z]{2}$', 'An ISO 3166 code in capitals: US, GB, HK…')])),
                ('name', models.CharField(max_length=120)),
                ('contact', models.CharField(max_length=200)),
                ('emergency', models.BooleanField(default=False)),
                ('position', models.PositiveSmallIntegerField(default=0)),
                ('active', models.BooleanField(default=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ['language', 'region', '-emergency', 'position', 'id'],
                'indexes': [models.Index(fields=['language', 'region'], name='crisis_resource_lang_idx')],
                'constraints': [models.CheckConstraint(condition=models.Q(('language__in', ['en', 'ru', 'zh'])), name='crisis_resource_language_valid'), models.CheckConstraint(condition=models.Q(('region', ''), ('region__length', 2), _connector='OR'), name='crisis_resource_region_iso')],
            },
        ),
        migrations.CreateModel(
            name='FlowStep',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.SlugField(max_length=40)),
                ('order', models.PositiveSmallIntegerField(default=0)),
                ('allowed_next', models.JSONField(blank=True, default=list, validators=[sessions_app.models.base.validate_string_list])),
                ('prompt_fragment', models.TextField(blank=True, default='')),
                ('reply_as_written', models.BooleanField(blank=True, default=None, help_text="Empty: as the flow says. Yes/No: this step shows the agent's reply as written / as question cards.", null=True)),
                ('flow', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='steps', to='sessions_app.flow')),
            ],
            options={
                'ordering': ['flow', 'order', 'id'],
            },
        ),
        migrations.CreateModel(
            name='FlowGuard',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.SlugField(max_length=40)),
                ('description', models.CharField(blank=True, default='', max_length=200)),
                ('trigger_slot', models.CharField(max_length=30)),
                ('trigger_value', models.JSONField(help_text='JSON: true, a string or a number.')),
                ('required_slots', models.JSONField(default=list, validators=[sessions_app.models.base.validate_string_list])),
                ('step', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='guards', to='sessions_app.flowstep')),
            ],
            options={
                'ordering': ['step', 'id'],
            },
        ),
        migrations.CreateModel(
            name='IdempotencyRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=255)),
                ('fingerprint', models.CharField(max_length=64)),
                ('response_status', models.PositiveSmallIntegerField(null=True)),
                ('response_body', models.JSONField(null=True)),
                ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='idempotency_records', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='Notification',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('resume_session', 'Resume session'), ('reactivation', 'Reactivation'), ('follow_up', 'Follow-up due'), ('crisis_alert', 'Crisis alert'), ('schedule_changed', 'Schedule changed'), ('review_needed', 'Human review needed'), ('task_reminder', 'Homework reminder')], max_length=20)),
                ('payload', models.JSONField(blank=True, default=dict)),
                ('dedupe_key', models.CharField(blank=True, default='', max_length=120)),
                ('scheduled_for', models.DateTimeField(default=django.utils.timezone.now)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('read_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('session', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='notifications', to='sessions_app.asksession')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-scheduled_for', '-id'],
            },
        ),
        migrations.CreateModel(
            name='SessionEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField()),
                ('type', models.CharField(max_length=64)),
                ('payload', models.JSONField(blank=True, default=dict)),
                ('actor', models.CharField(default='system', max_length=40)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('actor_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='events', to='sessions_app.asksession')),
            ],
            options={
                'ordering': ['session', 'seq'],
            },
        ),
        migrations.CreateModel(
            name='Task',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('position', models.PositiveSmallIntegerField(default=1)),
                ('kind', models.CharField(choices=[('thought_record', 'Thought record'), ('behavioral_experiment', 'Behavioral experiment'), ('activity_scheduling', 'Activity scheduling'), ('exposure_step', 'Exposure step'), ('relaxation', 'Relaxation'), ('custom', 'Custom')], max_length=24)),
                ('title', models.CharField(max_length=120)),
                ('instructions', models.TextField(blank=True, default='', max_length=1200)),
                ('template', models.JSONField(blank=True, default=list)),
                ('due_date', models.DateField()),
                ('status', models.CharField(choices=[('proposed', 'Proposed'), ('accepted', 'Accepted'), ('done', 'Done'), ('skipped', 'Skipped'), ('expired', 'Expired')], default='proposed', max_length=10)),
                ('entries', models.JSONField(blank=True, default=dict)),
                ('completion_note', models.TextField(blank=True, default='', max_length=2000)),
                ('rating_before', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('rating_after', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('accepted_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, help_text='Done, skipped, expired.', null=True)),
                ('review_message', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='sessions_app.askmessage')),
                ('review_session', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='reviewed_tasks', to='sessions_app.asksession')),
                ('session', models.ForeignKey(help_text='Proposed in.', on_delete=django.db.models.deletion.PROTECT, related_name='tasks', to='sessions_app.asksession')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tasks', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'tasks',
                'ordering': ['-created_at', 'position'],
            },
        ),
        migrations.CreateModel(
            name='UserProfile',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('display_name', models.CharField(blank=True, default='', max_length=80)),
                ('locale', models.CharField(default='en', max_length=8, validators=[sessions_app.models.people.validate_locale])),
                ('observed_patterns', models.JSONField(blank=True, default=list)),
                ('accepted_hypotheses', models.JSONField(blank=True, default=list)),
                ('session_count', models.PositiveIntegerField(default=0)),
                ('schedule_weekdays', models.JSONField(blank=True, default=list)),
                ('schedule_time', models.TimeField(blank=True, null=True)),
                ('time_zone', models.CharField(default='UTC', max_length=64, validators=[sessions_app.models.base.validate_timezone])),
                ('typical_activity_time', models.TimeField(blank=True, null=True)),
                ('missed_in_row', models.PositiveIntegerField(default=0)),
                ('is_minor', models.BooleanField(default=False)),
                ('on_duty', models.BooleanField(default=False, help_text='Counselors only: receives live crisis alerts.')),
                ('vault_export_consent', models.BooleanField(default=False)),
                ('vault_export_consented_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('sandbox_counselor', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='sandbox_client_profile', to=settings.AUTH_USER_MODEL)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='profile', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='Workline',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=80)),
                ('status', models.CharField(choices=[('active', 'Active'), ('parked', 'Parked'), ('closed', 'Closed')], default='active', max_length=8)),
                ('compaction_summary', models.TextField(blank=True, default='')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('compacted_through', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='sessions_app.askmessage')),
                ('head', models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='sessions_app.askmessage')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='worklines', to='sessions_app.asksession')),
            ],
            options={
                'ordering': ['created_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='SpinOffProposal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('new_workline_name', models.CharField(blank=True, default='', max_length=80)),
                ('status', models.CharField(choices=[('proposed', 'Proposed'), ('agreed', 'Agreed'), ('declined', 'Declined')], default='proposed', max_length=8)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('decided_at', models.DateTimeField(blank=True, null=True)),
                ('from_message', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='sessions_app.askmessage')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='spin_offs', to='sessions_app.asksession')),
                ('to_message', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='sessions_app.askmessage')),
                ('source', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='sessions_app.workline')),
                ('target', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='sessions_app.workline')),
            ],
            options={
                'ordering': ['created_at', 'id'],
            },
        ),
        migrations.AddField(
            model_name='asksession',
            name='active_workline',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='sessions_app.workline'),
        ),
        migrations.AddField(
            model_name='askmessage',
            name='workline',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='messages', to='sessions_app.workline'),
        ),
        migrations.AddConstraint(
            model_name='askagent',
            constraint=models.CheckConstraint(condition=models.Q(('key__in', ['cbt_specialist', 'emotion_advisor', 'behavior_coach', 'crisis_interventionist', 'custom_role'])), name='ask_agent_key_valid'),
        ),
        migrations.AddConstraint(
            model_name='askagent',
            constraint=models.CheckConstraint(condition=models.Q(('origin__in', ['system_default', 'org_template', 'user_custom'])), name='ask_agent_origin_valid'),
        ),
        migrations.AddConstraint(
            model_name='askagent',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('origin', 'user_custom'), ('owner__isnull', False)), models.Q(models.Q(('origin', 'user_custom'), _negated=True), ('owner__isnull', True)), _connector='OR'), name='ask_agent_owner_matches_origin'),
        ),
        migrations.AddField(
            model_name='sandboxsession',
            name='counselor',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sandbox_sessions', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='caseloadassignment',
            constraint=models.UniqueConstraint(fields=('counselor', 'client'), name='caseload_unique_pair'),
        ),
        migrations.AddConstraint(
            model_name='caseloadassignment',
            constraint=models.CheckConstraint(condition=models.Q(('counselor', models.F('client')), _negated=True), name='caseload_not_self'),
        ),
        migrations.AddConstraint(
            model_name='flowstep',
            constraint=models.UniqueConstraint(fields=('flow', 'code'), name='flow_step_code_unique'),
        ),
        migrations.AddConstraint(
            model_name='flowguard',
            constraint=models.UniqueConstraint(fields=('step', 'code'), name='flow_guard_code_unique'),
        ),
        migrations.AddConstraint(
            model_name='flowguard',
            constraint=models.CheckConstraint(condition=models.Q(('trigger_slot', ''), _negated=True), name='flow_guard_trigger_slot_set'),
        ),
        migrations.AddConstraint(
            model_name='idempotencyrecord',
            constraint=models.UniqueConstraint(fields=('user', 'key'), name='idempotency_key_per_user'),
        ),
        migrations.AddIndex(
            model_name='notification',
            index=models.Index(fields=['user', '-scheduled_for'], name='notification_inbox_idx'),
        ),
        migrations.AddIndex(
            model_name='notification',
            index=models.Index(condition=models.Q(('sent_at__isnull', True)), fields=['scheduled_for'], name='notification_due_idx'),
        ),
        migrations.AddConstraint(
            model_name='notification',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['resume_session', 'reactivation', 'follow_up', 'crisis_alert', 'schedule_changed', 'review_needed', 'task_reminder'])), name='notification_kind_valid'),
        ),
        migrations.AddConstraint(
            model_name='notification',
            constraint=models.UniqueConstraint(condition=models.Q(('dedupe_key', ''), _negated=True), fields=('user', 'kind', 'dedupe_key'), name='notification_dedupe'),
        ),
        migrations.AddIndex(
            model_name='sessionevent',
            index=models.Index(fields=['type', 'created_at'], name='session_event_type_idx'),
        ),
        migrations.AddConstraint(
            model_name='sessionevent',
            constraint=models.UniqueConstraint(fields=('session', 'seq'), name='session_event_seq_unique'),
        ),
        migrations.AddConstraint(
            model_name='sessionevent',
            constraint=models.CheckConstraint(condition=models.Q(('seq__gte', 1)), name='session_event_seq_positive'),
        ),
        migrations.AddIndex(
            model_name='task',
            index=models.Index(fields=['user', 'status', '-created_at'], name='task_user_status_idx'),
        ),
        migrations.AddIndex(
            model_name='task',
            index=models.Index(condition=models.Q(('status__in', ['proposed', 'accepted'])), fields=['due_date'], name='task_open_due_idx'),
        ),
        migrations.AddConstraint(
            model_name='task',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['thought_record', 'behavioral_experiment', 'activity_scheduling', 'exposure_step', 'relaxation', 'custom'])), name='task_kind_valid'),
        ),
        migrations.AddConstraint(
            model_name='task',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['proposed', 'accepted', 'done', 'skipped', 'expired'])), name='task_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='task',
            constraint=models.CheckConstraint(condition=models.Q(('rating_before__isnull', True), models.Q(('rating_before__gte', 0), ('rating_before__lte', 100)), _connector='OR'), name='task_rb_0_100'),
        ),
        migrations.AddConstraint(
            model_name='task',
            constraint=models.CheckConstraint(condition=models.Q(('rating_after__isnull', True), models.Q(('rating_after__gte', 0), ('rating_after__lte', 100)), _connector='OR'), name='task_ra_0_100'),
        ),
        migrations.AddConstraint(
            model_name='task',
            constraint=models.UniqueConstraint(fields=('session', 'position'), name='task_session_position'),
        ),
        migrations.AddConstraint(
            model_name='userprofile',
            constraint=models.CheckConstraint(condition=models.Q(('locale__in', ('en', 'ru', 'zh')), ('locale__startswith', 'en-'), ('locale__startswith', 'ru-'), ('locale__startswith', 'zh-'), _connector='OR'), name='profile_locale_known'),
        ),
        migrations.AddConstraint(
            model_name='workline',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['active', 'parked', 'closed'])), name='workline_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='workline',
            constraint=models.UniqueConstraint(fields=('session', 'name'), name='workline_name_per_session'),
        ),
        migrations.AddConstraint(
            model_name='workline',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'active')), fields=('session',), name='workline_one_active'),
        ),
        migrations.AddConstraint(
            model_name='spinoffproposal',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['proposed', 'agreed', 'declined'])), name='spin_off_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='spinoffproposal',
            constraint=models.CheckConstraint(condition=models.Q(('target__isnull', False), models.Q(('new_workline_name', ''), _negated=True), _connector='OR'), name='spin_off_has_target'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['session_type'], name='ask_sess_type_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['trigger_source'], name='ask_sess_trigger_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['active_agent_key'], name='ask_sess_agent_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['initial_risk_level'], name='ask_sess_risk_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['final_risk_level'], name='ask_sess_final_risk_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['user', '-updated_at'], name='ask_sess_user_updated_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['trigger_source', '-created_at'], name='ask_sess_trigger_created_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['initial_risk_level', '-created_at'], name='ask_sess_risk_created_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['-created_at', 'is_deleted'], name='ask_sess_created_deleted_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['active_agent_key', '-created_at'], name='ask_sess_agent_created_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['custom_agent', '-updated_at'], name='ask_sess_custom_updated_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(fields=['user', '-created_at', '-id'], name='ask_sess_user_history_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(condition=models.Q(('status', 'active')), fields=['last_activity_at'], name='ask_sess_active_idle_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(condition=models.Q(('follow_up_needed', True)), fields=['follow_up_at'], name='ask_sess_follow_up_due_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(condition=models.Q(('anonymised_at__isnull', True)), fields=['created_at'], name='ask_sess_retention_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(condition=models.Q(('anonymised_at__isnull', True), ('is_deleted', True)), fields=['deleted_at'], name='ask_sess_deleted_pending_idx'),
        ),
        migrations.AddIndex(
            model_name='asksession',
            index=models.Index(condition=models.Q(('alerted_at__isnull', False), ('handoff_counselor__isnull', True), ('status', 'active')), fields=['alerted_at'], name='ask_sess_unclaimed_alert_idx'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'active')), fields=('user',), name='ask_sess_one_active_per_user'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('session_type__in', ['general', 'cbt_guided', 'crisis_intervention', 'follow_up'])), name='ask_sess_type_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('trigger_source__in', ['mood_checkin', 'journal_negative', 'treehole_risk', 'manual_trigger', 'scheduled_checkin'])), name='ask_sess_trigger_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('active_agent_key__in', ['cbt_specialist', 'emotion_advisor', 'behavior_coach', 'crisis_interventionist', 'custom_role'])), name='ask_sess_agent_key_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('agent_origin__in', ['system_default', 'org_template', 'user_custom'])), name='ask_sess_agent_origin_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('cbt_focus', ''), ('cbt_focus__in', ['cognitive_restructuring', 'behavioral_activation', 'emotion_regulation', 'problem_solving']), _connector='OR'), name='ask_sess_cbt_focus_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('initial_risk_level__in', ['L0', 'L1', 'L2', 'L3', 'L4'])), name='ask_sess_initial_risk_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('final_risk_level__isnull', True), ('final_risk_level__in', ['L0', 'L1', 'L2', 'L3', 'L4']), _connector='OR'), name='ask_sess_final_risk_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['active', 'completed', 'completed_partial', 'closed_abnormally'])), name='ask_sess_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('phase__in', ['intro', 'questionnaire', 'dialogue', 'insight', 'closing'])), name='ask_sess_phase_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('termination_reason__isnull', True), ('termination_reason__in', ['abandoned_timeout', 'heartbeat_timeout', 'killed', 'error']), _connector='OR'), name='ask_sess_termination_valid'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('session_title__length__lte', 60)), name='ask_sess_title_len'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('session_summary__length__lte', 1000)), name='ask_sess_summary_len'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('satisfaction_score__isnull', True), models.Q(('satisfaction_score__gte', 1), ('satisfaction_score__lte', 5)), _connector='OR'), name='ask_sess_satisfaction_1_5'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('handoff_counselor__isnull', True), ('handoff_time__isnull', True)), models.Q(('handoff_counselor__isnull', False), ('handoff_time__isnull', False)), _connector='OR'), name='ask_sess_handoff_complete'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('custom_agent__isnull', False), models.Q(('agent_origin', 'user_custom'), _negated=True), _connector='OR'), name='ask_sess_user_custom_has_agent'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('counselor_speaking_since__isnull', True), ('handoff_counselor__isnull', False), _connector='OR'), name='ask_sess_speaker_is_holder'),
        ),
        migrations.AddConstraint(
            model_name='asksession',
            constraint=models.CheckConstraint(condition=models.Q(('alert_escalations__lte', 2)), name='ask_sess_alert_escalations_0_2'),
        ),
        migrations.AddIndex(
            model_name='askmessage',
            index=models.Index(fields=['session', 'created_at', 'id'], name='ask_msg_session_time_idx'),
        ),
        migrations.AddConstraint(
            model_name='askmessage',
            constraint=models.CheckConstraint(condition=models.Q(('role__in', ['client', 'analyst', 'narrator', 'counselor', 'system'])), name='ask_msg_role_valid'),
        ),
        migrations.AddConstraint(
            model_name='askmessage',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['intro', 'hook', 'topic', 'question_card', 'answer', 'recap', 'analysis', 'insight', 'completion', 'closing', 'last_thing', 'note', 'reply', 'marker', 'crisis_resources', 'text'])), name='ask_msg_kind_valid'),
        ),
        migrations.AddConstraint(
            model_name='askmessage',
            constraint=models.CheckConstraint(condition=models.Q(('modality__in', ['text', 'audio', 'file'])), name='ask_msg_modality_valid'),
        ),
        migrations.AddConstraint(
            model_name='askmessage',
            constraint=models.CheckConstraint(condition=models.Q(('parent', models.F('id')), _negated=True), name='ask_msg_not_own_parent'),
        ),
        migrations.AddIndex(
            model_name='sandboxsession',
            index=models.Index(fields=['counselor', '-created_at'], name='sandbox_counselor_idx'),
        ),
        migrations.AddConstraint(
            model_name='sandboxsession',
            constraint=models.CheckConstraint(condition=models.Q(('provider__in', ['offline', 'anthropic', 'scripted'])), name='sandbox_provider_valid'),
        ),
        migrations.RunPython(create_groups, remove_groups),
        migrations.RunPython(
            on_postgresql(EVENT_LOG_APPEND_ONLY), on_postgresql(EVENT_LOG_WRITABLE)
        ),
        migrations.RunPython(load_builtin_flows, migrations.RunPython.noop),
        migrations.RunPython(register_schedules, unregister_schedules),
        migrations.RunPython(load_crisis_lines, migrations.RunPython.noop),
        migrations.RunPython(on_postgresql(*fillfactor(80)), on_postgresql(*fillfactor(100))),
    ]
