"""The project's ASGI application plus static files, for the browser tests' daphne.

In production a web server or CDN-less static host serves /static/; here daphne must, since the
pages load htmx, its websocket extension and our CSS from there.
"""

from __future__ import annotations

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from config.asgi import application as naisei

application = ASGIStaticFilesHandler(naisei)
