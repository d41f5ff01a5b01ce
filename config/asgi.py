"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne).

Websockets pass `WebsocketAuthMiddleware` (sessions_app.realtime.auth): a connection presenting a
knox token (as a subprotocol) is authenticated by it alone and needs no Origin header — native
mobile clients send none; every other connection is a browser's, must come from an allowed
origin, and is authenticated by its session cookie.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs the app registry)

from sessions_app.edge.limits import BodyLimitMiddleware, daphne_body_limit  # noqa: E402
from sessions_app.engine.safety import learned  # noqa: E402
from sessions_app.engine.services import language_tools_warm  # noqa: E402
from sessions_app.realtime.auth import WebsocketAuthMiddleware  # noqa: E402
from sessions_app.realtime.routing import websocket_urlpatterns  # noqa: E402

# A server process loads the language tools and the safety net's encoder before it accepts a
# connection, not during its first client's answer (jieba's dictionary alone takes half a
# second, the encoder one and a half).
language_tools_warm()
learned.warm()

# A body over the limit is refused as it arrives, not spooled to disk first (sessions_app.edge).
daphne_body_limit()
application = ProtocolTypeRouter(
    {
        "http": BodyLimitMiddleware(django_asgi_app),
        "websocket": WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns)),
    }
)
