"""The application `bench/load.py` serves: the project's ASGI app plus the floor it is timed
against on the same server — a trivial authenticated GET and a one-row authenticated POST, both
through the same DRF stack (knox token, JSON, the throttles) as the real endpoints.

Settings: the test settings (fast password hasher, high throttle rates, the offline engine),
except that django-q tasks are queued as in production rather than run inside the request.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench._load_settings")

from django.core.asgi import get_asgi_application

django_app = get_asgi_application()

from django.db import connection, transaction  # noqa: E402
from django.urls import path  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

from config import asgi, urls  # noqa: E402
from sessions_app.api.base import WriteThrottle  # noqa: E402

FLOOR_TABLE = "bench_load_floor"


class FloorGet(APIView):
    def get(self, request: Request) -> Response:
        return Response({"user": request.user.pk})


class FloorPost(APIView):
    throttle_classes = [WriteThrottle]

    def post(self, request: Request) -> Response:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {FLOOR_TABLE} (user_id, body) VALUES (%s, %s) RETURNING id",
                [request.user.pk, str(request.data.get("text", ""))[:200]],
            )
            row_id = cursor.fetchone()[0]
        return Response({"id": row_id}, status=201)


urls.urlpatterns += [
    path("bench/floor", FloorGet.as_view()),
    path("bench/floor-post", FloorPost.as_view()),
]
application = asgi.application
