"""uvicorn's HTTP/1.1 protocol (h11) with TCP_NODELAY set on every connection.

asyncio turns Nagle's algorithm off only for sockets whose `proto` is IPPROTO_TCP. uvicorn binds
the listening socket itself when it runs several worker processes (`--workers N`), with
`proto` 0, so the connections accepted from it keep Nagle on: a response written as two segments
(the headers, then the body) waits for the client's delayed ACK — about 40 ms added to every
request (bench/load.py: the floor GET at 1 client, 48 ms p50 with two processes against 5 ms with
one). `make serve-prod` selects this protocol with `--http config.uvicorn_http:H11NoDelayProtocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

from uvicorn.protocols.http.h11_impl import H11Protocol


class H11NoDelayProtocol(H11Protocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # A socket closed meanwhile: the connection fails on its own.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
