"""Django's Redis cache with one connection pool and one client per process.

Django keeps a cache object per context, and under ASGI every request runs in a context of its
own: each request built a new `RedisCache`, with it a new connection pool — a new TCP connection
to Redis and its handshake — and then a new `redis.Redis` client for every operation (building
one fills its table of response callbacks). The throttle alone reads and writes the cache on
every POST. Here every `RedisCache` of one location and options in a process shares one client
object, and that client one pool: redis-py clients are thread-safe (a command takes a
connection from the pool for its duration).
"""

from __future__ import annotations

import threading
from functools import cached_property
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients: dict[tuple[Any, ...], SharedRedisCacheClient] = {}
_clients_lock = threading.Lock()


class SharedRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._redis.get(id(pool))
        if client is None:
            with _clients_lock:
                client = self._redis.setdefault(id(pool), self._client(connection_pool=pool))
        return client

    def _get_connection_pool(self, write: bool) -> Any:
        with _clients_lock:  # one pool per server, even when two threads ask first at once
            return super()._get_connection_pool(write)


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self) -> SharedRedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = SharedRedisCacheClient(self._servers, **self._options)
        return client
