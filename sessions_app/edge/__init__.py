"""The edge of the app: what every request meets before a view — the client's address behind
proxies, request size limits, the staff login lockout's answer, database outages — and the
health endpoints that say which dependency is down (QUALITY R10, R11)."""
