"""QUALITY R11 through a real server: a body over `REQUEST_MAX_BODY_BYTES` gets
`413 E_PAYLOAD_TOO_LARGE` where its bytes arrive — a declared `Content-Length` before any byte
of the body is read, a chunked body once the limit is passed — on the dev server (daphne) and
the production one (uvicorn), instead of being spooled to disk in full first."""

from __future__ import annotations

import http.client
import json
import select
import socket
from urllib.parse import urlsplit

import pytest

from tests.server import daphne, database_url, uvicorn

pytestmark = pytest.mark.usefixtures("transactional_db")

LIMIT = 65_536
SENT_AT_MOST = 64 * 2**20  # what the client offers: a server that reads it all is wrong
CHUNK = b"x" * 65_536
SERVERS = {"daphne": daphne, "uvicorn": uvicorn}


def offer(base: str, *, chunked: bool) -> tuple[bytes, int]:
    """POST an endless anonymous body to the login endpoint; the response and the body bytes
    the server took before it answered."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        framing = "Transfer-Encoding: chunked" if chunked else "Content-Length: 314572800"
        head = f"POST /api/auth/token HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        head += f"Content-Type: application/json\r\n{framing}\r\n\r\n"
        sock.sendall(head.encode())
        sock.settimeout(3)
        sent = 0
        while sent < SENT_AT_MOST and not select.select([sock], [], [], 0)[0]:
            piece = b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK) if chunked else CHUNK
            try:
                sock.sendall(piece)
            except OSError:  # the server stopped reading (a full window) or closed
                break
            sent += len(CHUNK)
        sock.settimeout(10)
        response = b""
        try:
            while data := sock.recv(65_536):
                response += data
                if b"\r\n\r\n" in response and response.rstrip().endswith(b"}"):
                    break
        except OSError:
            pass
        return response, sent


def small_chunked_login(base: str) -> tuple[int, dict]:
    """A chunked body under the limit goes on to the view (which answers as it does: DRF reads
    a body without Content-Length as empty, hence E_VALIDATION rather than a login)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    pieces = iter([b'{"username": "nobody", ', b'"password": "not-this-one"}'])
    headers = {"Content-Type": "application/json"}
    connection.request("POST", "/api/auth/token", pieces, headers, encode_chunked=True)
    response = connection.getresponse()
    return response.status, json.loads(response.read())


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("server", list(SERVERS))
def test_an_oversized_body_is_refused_where_it_arrives_not_read_in_full(server, chunked):
    env = {"REQUEST_MAX_BODY_BYTES": str(LIMIT)}
    with SERVERS[server](db_url=database_url(), log_name=f"body-{server}.log", env=env) as base:
        response, sent = offer(base, chunked=chunked)
        status, answer = small_chunked_login(base)
    assert (status, answer["code"]) == (400, "E_VALIDATION")
    head, _, body = response.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == b"413", response[:300]
    assert json.loads(body)["code"] == "E_PAYLOAD_TOO_LARGE"
    # Kernel buffers on both sides hold a few MB; a server that read everything took 64.
    assert sent < 16 * 2**20, f"{sent} bytes taken before the 413"
