"""Websocket routes. The live session streams arrive with the realtime work (SPEC §8)."""

from __future__ import annotations

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
