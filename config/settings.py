"""Naisei settings, driven by the environment (SPEC §10).

Zero configuration gives the embedded setup: SQLite, the in-memory channel layer, django-q's ORM
broker and the offline LLM engine. Production sets DATABASE_URL, REDIS_URL, ANTHROPIC_API_KEY,
SECRET_KEY and ALLOWED_HOSTS. Every helper below raises ImproperlyConfigured on a bad value
rather than guessing.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)

# Production hardens cookies and transport and refuses the development secret.
PRODUCTION = env_bool("NAISEI_PRODUCTION", False)

_DEV_SECRET = "naisei-insecure-development-key-never-use-in-production-0123456789"
SECRET_KEY = env_str("SECRET_KEY") or ("" if PRODUCTION else _DEV_SECRET)
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when NAISEI_PRODUCTION is on")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "django_q",
    "django_htmx",
    "channels",
    "axes",
    "sessions_app",
    "psychologist",
    "insights",
    # Swagger UI's static files, served by us (SPECTACULAR_SETTINGS).
    "drf_spectacular_sidecar",
]

MIDDLEWARE = [
    # First: at most REQUESTS_RUNNING requests of a process run at a time, the rest wait.
    "sessions_app.edge.running.RequestsRunningMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Every answer under /api/ is the caller's own: no cache keeps it (413 and 503 included).
    "sessions_app.edge.caching.ApiNoStoreMiddleware",
    # Before sessions, CSRF and auth: an oversized request is refused before anything reads it.
    "sessions_app.edge.limits.RequestLimitsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's documented order).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "sessions_app.edge.limits.DatabaseUnavailableMiddleware",
    # Last of those that act, as django-axes asks: it turns a locked-out sign-in into the
    # lockout answer.
    "axes.middleware.AxesMiddleware",
    # Sync-only, after all of them: under ASGI the chain above runs in the request's thread
    # instead of hopping between the event loop and the thread at every middleware.
    "config.middleware.OneThreadMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "config.asgi.application"

# --- Database -------------------------------------------------------------------------------
# SQLite by default; DATABASE_URL takes any URL dj-database-url understands (postgres:// through
# psycopg 3, sqlite:////abs/path.sqlite3, ...).
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    try:
        _db = dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from None
else:
    _db = {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}

# The django-q cluster forks its pusher, workers and monitor from one process: a pool's threads
# and sockets must not cross a fork (the children would share one connection's protocol state).
# It runs unpooled whatever DB_POOL says, a connection per process.
_FORKS = len(sys.argv) > 1 and sys.argv[1] == "qcluster"
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the django-q worker write to one file: WAL lets readers run beside a
    # writer, IMMEDIATE transactions take the write lock up front instead of failing half-way.
    _db.setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
elif _db["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True) and not _FORKS:
    # A bounded pool per process (psycopg_pool through Django): however many requests arrive,
    # one process holds at most DB_POOL_MAX_SIZE connections, so N processes × that stays under
    # PostgreSQL's max_connections. A request that waits longer than DB_POOL_TIMEOUT seconds for
    # a connection gets 503 E_UNAVAILABLE with Retry-After (the pool's timeout is an
    # OperationalError, sessions_app.api.errors), never a 500. The pool replaces persistent
    # connections: Django returns each request's connection to it when the request ends.
    if _db.get("CONN_MAX_AGE"):
        raise ImproperlyConfigured("DB_CONN_MAX_AGE must be 0 with DB_POOL on")
    _pool_min = env_int("DB_POOL_MIN_SIZE", 2, minimum=0)
    _pool_max = env_int("DB_POOL_MAX_SIZE", 10, minimum=1)
    if _pool_min > _pool_max:
        raise ImproperlyConfigured("DB_POOL_MIN_SIZE must not exceed DB_POOL_MAX_SIZE")
    _db.setdefault("OPTIONS", {})["pool"] = {
        "min_size": _pool_min,
        "max_size": _pool_max,
        "timeout": env_int("DB_POOL_TIMEOUT", 30, minimum=1),
    }
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -------------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
# The layer: `core` (one list push per watcher channel) or `pubsub` (one publish per group
# message, which Redis fans out to the subscribed processes: QUALITY P5, bench/realtime.py times
# both side by side; `make serve-prod` runs it). Every process of a deployment, web and worker,
# must use the same one. The pub/sub layer lives in one event loop per process, which an ASGI
# server has; sync code outside one (the worker, commands) gets a short-lived loop per push.
_CHANNEL_LAYERS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
_channel_layer = env_str("CHANNEL_LAYER", "core")
if _channel_layer not in _CHANNEL_LAYERS:
    raise ImproperlyConfigured("CHANNEL_LAYER must be pubsub or core")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": _CHANNEL_LAYERS[_channel_layer],
            # Every web process of one deployment shares the prefix: a push from one reaches
            # the watchers of all of them.
            "CONFIG": {"hosts": [REDIS_URL], "prefix": env_str("CHANNEL_PREFIX", "asgi")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- django-q2 ------------------------------------------------------------------------------
# Always the ORM broker on the main database (SPEC §10): a task enqueued inside a transaction
# commits or rolls back with the data, and a task whose worker dies is redelivered.
# timeout < retry, bounded attempts, no catch-up.
Q_CLUSTER = {
    "name": "naisei",
    "orm": "default",
    "workers": env_int("Q_WORKERS", 2, minimum=1),
    "timeout": env_int("Q_TIMEOUT", 300, minimum=1),
    "retry": env_int("Q_RETRY", 360, minimum=2),
    "max_attempts": env_int("Q_MAX_ATTEMPTS", 3, minimum=1),
    "catch_up": False,
    "save_limit": 1000,
    "label": "Tasks",
    "sync": env_bool("Q_SYNC", False),
    # How long an idle cluster sleeps before it looks for a task again: a batch waits on average
    # half of it before a worker picks it up (QUALITY P8), at the cost of a one-row query this
    # often while idle.
    "poll": env_int("Q_POLL_MS", 20, minimum=5) / 1000,
}
if Q_CLUSTER["timeout"] >= Q_CLUSTER["retry"]:
    raise ImproperlyConfigured("Q_TIMEOUT must be smaller than Q_RETRY")
# Make a completed batch in the worker, off the answer's request (SPEC §3). Off by default only
# without Redis: the in-memory channel layer lives in one process, so the worker's pushes could
# not reach the web process's watchers, and the zero-configuration setup makes each batch in
# the answer's request instead (the offline engine takes milliseconds).
BATCH_OFF_REQUEST = env_bool("BATCH_OFF_REQUEST", bool(REDIS_URL))
# A batch's run claims it for this long; a worker that dies lets the claim run out and the
# sweeper hands the batch out again (SPEC §3 One turn). Longer than any batch's model calls.
BATCH_LEASE_SECONDS = env_int("BATCH_LEASE_SECONDS", 120, minimum=1)
# Runs of one batch before the client gets the fallback card instead.
BATCH_MAX_ATTEMPTS = env_int("BATCH_MAX_ATTEMPTS", 3, minimum=1)
# A worker killed mid-task is redelivered without django-q counting the attempt (django-q2's
# issue #327), so an analysis request counts its own runs and gives up after this many.
PSYCHOLOGIST_MAX_ATTEMPTS = env_int("PSYCHOLOGIST_MAX_ATTEMPTS", 3, minimum=1)

# --- Background jobs and the data lifecycle (SPEC §7) ---------------------------------------
# An active session idle this long is closed as abandoned (completed_partial).
SESSION_ABANDON_AFTER = timedelta(hours=env_int("SESSION_ABANDON_AFTER_HOURS", 20, minimum=1))
# A crisis alert nobody claimed after this many minutes escalates to ops; after twice that, to
# every counselor on duty (SPEC §3, QUALITY C2).
CRISIS_ESCALATION_AFTER = timedelta(minutes=env_int("CRISIS_ESCALATION_MINUTES", 5, minimum=1))
# After this many scheduled sessions missed in a row a client gets one reactivation message.
REACTIVATION_AFTER_MISSED = env_int("REACTIVATION_AFTER_MISSED", 3, minimum=1)
# A session started this close to a scheduled slot (either side) counts as keeping it.
SCHEDULE_ATTENDANCE_WINDOW = timedelta(
    hours=env_int("SCHEDULE_ATTENDANCE_WINDOW_HOURS", 12, minimum=1)
)
# CBT homework: an open task expires this many days after its due date; its reminder
# goes out on the due date at this local hour unless the client has a usual time of its own.
TASK_EXPIRY_GRACE = timedelta(days=env_int("TASK_EXPIRY_GRACE_DAYS", 3, minimum=0))
TASK_REMINDER_HOUR = min(23, env_int("TASK_REMINDER_HOUR", 10, minimum=0))
# How long session content is kept before it is anonymised; statistics stay.
RETENTION_GENERAL = timedelta(days=env_int("RETENTION_GENERAL_DAYS", 183, minimum=1))
RETENTION_CRISIS = timedelta(days=env_int("RETENTION_CRISIS_DAYS", 730, minimum=1))
# Notifications also go out by email (Django's email backend) to users with an address.
NOTIFICATION_EMAIL = env_bool("NOTIFICATION_EMAIL", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Naisei <no-reply@naisei.invalid>")
# Django 6.1 mailers: the console in development, SMTP in production (EMAIL_* options).
_DEFAULT_MAILER = "smtp.EmailBackend" if PRODUCTION else "console.EmailBackend"
_MAILER = env_str("EMAIL_BACKEND", f"django.core.mail.backends.{_DEFAULT_MAILER}")
MAILERS = {
    "default": {
        "BACKEND": _MAILER,
        # The EMAIL_* options are read (and checked) only for SMTP.
        "OPTIONS": {
            "host": env_str("EMAIL_HOST", "localhost"),
            "port": env_int("EMAIL_PORT", 25, minimum=1),
            "username": env_str("EMAIL_HOST_USER"),
            "password": env_str("EMAIL_HOST_PASSWORD"),
            "use_tls": env_bool("EMAIL_USE_TLS", False),
        }
        if _MAILER.endswith("smtp.EmailBackend")
        else {},
    }
}
# Opt-in Markdown export of a client's sessions; git-ignored by default. Agents never see it.
VAULT_EXPORT_DIR = Path(env_str("VAULT_EXPORT_DIR") or BASE_DIR / "vault")

# --- LLM ------------------------------------------------------------------------------------
ANTHROPIC_API_KEY = env_str("ANTHROPIC_API_KEY")
ANTHROPIC_BASE_URL = env_str("ANTHROPIC_BASE_URL")
LLM_PROVIDER = env_str("LLM_PROVIDER") or ("anthropic" if ANTHROPIC_API_KEY else "offline")
if LLM_PROVIDER not in {"anthropic", "offline", "scripted"}:
    raise ImproperlyConfigured("LLM_PROVIDER must be anthropic, offline or scripted")
if LLM_PROVIDER == "anthropic" and not ANTHROPIC_API_KEY:
    raise ImproperlyConfigured("LLM_PROVIDER=anthropic needs ANTHROPIC_API_KEY")
# The SDK retries 408/409/429/5xx and connection errors itself with backoff; these bound it.
ANTHROPIC_MAX_RETRIES = env_int("ANTHROPIC_MAX_RETRIES", 2)
ANTHROPIC_TIMEOUT_SECONDS = env_int("ANTHROPIC_TIMEOUT_SECONDS", 60, minimum=1)
# The safety model check waits this long per attempt, and retries once; then the local layers
# alone stand (the client's words are stored before it is asked).
LLM_SAFETY_TIMEOUT_SECONDS = env_int("LLM_SAFETY_TIMEOUT_SECONDS", 4, minimum=1)

# Which provider and model serve each agent. The admin-editable ModelBinding table overrides
# these per agent; this is what an empty table (a fresh install) falls back to.
_ANTHROPIC_MODELS = {
    "analyst": "claude-sonnet-4-6",
    "narrator": "claude-haiku-4-5",
    "summarizer": "claude-haiku-4-5",
    "psychologist": "claude-opus-4-6",
    "psychologist-light": "claude-haiku-4-5",
    "safety": "claude-haiku-4-5",  # one more opinion on every client message: small and fast
}
_PROVIDER_MODEL = {"offline": "offline-rules-v1", "scripted": "scripted"}
LLM_BINDINGS = {
    agent: {
        "provider": LLM_PROVIDER,
        "model": model if LLM_PROVIDER == "anthropic" else _PROVIDER_MODEL[LLM_PROVIDER],
    }
    for agent, model in _ANTHROPIC_MODELS.items()
}

# What each model costs is data: the ModelPrice table in admin, over the defaults in
# psychologist/llm/prices.py.

# Input budget for a materialized prompt (SPEC §5): past it, older turns are compacted.
LLM_CONTEXT_BUDGET_TOKENS = env_int("LLM_CONTEXT_BUDGET_TOKENS", 6000, minimum=200)

# Crisis resources per language and region live in the database (sessions_app.CrisisResource,
# edited by ops in admin; sessions_app's migration loads the first ones).

# --- Auth, REST -----------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The staff's sign-in page (counselors and ops); clients and services use API tokens.
# django-axes first: it refuses a locked-out account or address before a password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "pages:home"
LOGOUT_REDIRECT_URL = "login"

# How many proxies we run in front of the app, each appending to X-Forwarded-For. 0 (the
# default): the header is ignored, the socket's address is the client. N: the Nth address from
# the right (sessions_app.edge.addresses). Never more than the proxies that really exist: every
# entry left of them is written by the client.
TRUSTED_PROXY_HOPS = env_int("TRUSTED_PROXY_HOPS", 0)

# Every API view answers errors as {"code", "detail"} (sessions_app.api.errors); throttle rates
# are per scope and come from the environment, so production can tune them without a release.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First, so an unauthenticated request gets 401 with `WWW-Authenticate: Token`.
        "sessions_app.api.plugins.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["sessions_app.api.plugins.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["sessions_app.api.plugins.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "sessions_app.api.base.ApiSchema",
    "EXCEPTION_HANDLER": "sessions_app.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "login": env_str("THROTTLE_LOGIN", "10/min"),
        "write": env_str("THROTTLE_WRITE", "120/min"),
        "export": env_str("THROTTLE_EXPORT", "5/hour"),
    },
    "NUM_PROXIES": TRUSTED_PROXY_HOPS,
}
# --- The edge: client addresses, request limits, login lockout (QUALITY R11) ---------------
# Bigger bodies, more fields or more files answer 413 E_PAYLOAD_TOO_LARGE on every route.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("REQUEST_MAX_BODY_BYTES", 2_621_440, minimum=1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env_int("REQUEST_MAX_FIELDS", 1000, minimum=1)
DATA_UPLOAD_MAX_NUMBER_FILES = env_int("REQUEST_MAX_FILES", 20, minimum=1)
# Staff and token sign-ins (django-axes, sessions_app.edge.lockout): after LOGIN_FAILURE_LIMIT
# failures for one account from one address, that account is locked *from that address* for
# LOGIN_LOCKOUT_MINUTES, even with the right password; after LOGIN_ADDRESS_FAILURE_LIMIT failures
# from one address across accounts, the address is. Failures are audited in admin (Axes).
# Password hashes are slow on purpose; a burst of sign-ins checks this many at a time per
# process (about one per core) and queues the rest, so the burst cannot starve other requests.
PASSWORD_CHECKS_CONCURRENT = env_int(
    "PASSWORD_CHECKS_CONCURRENT", max(1, os.cpu_count() or 1), minimum=1
)
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20, minimum=1)
# One combination: the account and the address together (a list inside the list), not either.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "sessions_app.edge.lockout.LockoutHandler"
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_CLIENT_IP_CALLABLE = "sessions_app.edge.addresses.client_address"
AXES_LOCKOUT_CALLABLE = "sessions_app.edge.lockout.lockout_response"

# Requests running at a time per process (sessions_app.edge.running): enough to keep the
# process busy while some wait on PostgreSQL; more only share its one Python thread at a time
# between them. One waiting on a model's network call or a password hash gives its slot back.
REQUESTS_RUNNING = env_int("REQUESTS_RUNNING", 4, minimum=1)

# Knox stores only a hash of each token; tokens expire after KNOX_TOKEN_TTL_HOURS.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env_int("KNOX_TOKEN_TTL_HOURS", 10, minimum=1)),
    "AUTO_REFRESH": False,
}
# Bounds per user: a sign-in beyond TOKENS_PER_USER revokes the oldest token (and closes its
# websockets); a websocket beyond WEBSOCKETS_PER_USER closes the oldest one (code 4429).
TOKENS_PER_USER = env_int("TOKENS_PER_USER", 10, minimum=1)
WEBSOCKETS_PER_USER = env_int("WEBSOCKETS_PER_USER", 20, minimum=1)
# A logout or a revoked token closes its websockets at once (a broadcast); this periodic check
# of every open websocket's token or browser session is the backstop (a lost broadcast, a token
# deleted in admin, a browser session flushed). An expiring token closes when it expires.
WEBSOCKET_CREDENTIALS_CHECK_SECONDS = env_int("WEBSOCKET_CREDENTIALS_CHECK_SECONDS", 30, minimum=1)
# A session followed over HTTP (`…/stream`, `…/state?wait=`): a quiet stream sends a comment
# line this often, so that proxies and mobile networks keep it open; both look at the database
# this often too, in case a push was lost (the channel layer is at-most-once).
STREAM_HEARTBEAT_SECONDS = env_int("STREAM_HEARTBEAT_SECONDS", 15, minimum=1)
STREAM_POLL_SECONDS = env_int("STREAM_POLL_SECONDS", 5, minimum=1)
# How long a stored Idempotency-Key response is replayed (SPEC §9).
IDEMPOTENCY_KEY_TTL = timedelta(hours=env_int("IDEMPOTENCY_KEY_TTL_HOURS", 24, minimum=1))

# The OpenAPI document's description, Markdown kept beside the settings; the errors any request
# may get are appended to it from their codes (sessions_app.api.base.any_request_errors).
API_DESCRIPTION = (BASE_DIR / "config" / "api.md").read_text(encoding="utf-8")

SPECTACULAR_SETTINGS = {
    "TITLE": "Naisei API",
    "DESCRIPTION": API_DESCRIPTION,
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "sessions_app.api.base.any_request_errors",
    ],
    "ENUM_NAME_OVERRIDES": {
        "RiskLevelEnum": "sessions_app.models.RiskLevel",
        "AgentOriginEnum": "sessions_app.models.AgentOrigin",
        "HypothesisStatusEnum": "psychologist.models.HypothesisStatus",
        "HypothesisTargetEnum": "psychologist.models.HypothesisTarget",
        "AnalysisRequestStatusEnum": "psychologist.models.AnalysisRequest.Status",
        "TaskStatusEnum": "sessions_app.models.TaskStatus",
        "TaskKindEnum": "sessions_app.models.TaskKind",
    },
    # The docs page serves Swagger UI from our own static files (drf-spectacular-sidecar, in
    # INSTALLED_APPS), never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Cache: throttle counters must be shared by every web process --------------------------
if REDIS_URL:
    # Short socket timeouts: an unreachable Redis must fail a throttle open quickly, not hang it.
    CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- I18N, static ---------------------------------------------------------------------------
# Staff pages follow the language switcher's cookie, else Accept-Language (LocaleMiddleware);
# catalogs live in locale/ and are compiled by `make install`, never committed.
USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT") or BASE_DIR / "media")

# --- Logging: structured, and never message text (QUALITY R8) ------------------------------
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "kv": {"format": "ts=%(asctime)s level=%(levelname)s logger=%(name)s msg=%(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "kv"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # The SDK logs whole request bodies (message text) at DEBUG: pinned above it, so that
        # LOG_LEVEL=DEBUG can never leak a client's words. Its retry notices stay at INFO.
        "anthropic": {"level": "INFO"},
        "httpx2": {"level": "WARNING"},
        "httpcore2": {"level": "WARNING"},
    },
}

# --- Browser security (QUALITY R7) -----------------------------------------------------------
# Our pages load only our own scripts and styles (no inline code, no CDN); htmx and its
# websocket extension are static files of django-htmx. 'self' covers the page's own ws:/wss:
# origin for the live updates. The API docs page relaxes this for itself (config.urls).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers probe over plain HTTP inside the network.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
