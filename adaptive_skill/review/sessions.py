"""Who is rating: a session per browser, made when a person gives a rater name, kept in memory
(a restarted server asks for the name again; ratings are in the database, not here). The cookie
holds only a random session id; every form carries the session's own token, which a page of
another origin cannot read."""

from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass

COOKIE = "review_session"
RATER_NAME = re.compile(r"^[\w][\w .@-]{0,39}$")


@dataclass(frozen=True)
class Session:
    rater: str
    token: str


class Sessions:
    def __init__(self):
        self._lock = threading.Lock()
        self._by_id: dict[str, Session] = {}

    def create(self, rater: str) -> tuple[str, Session]:
        session_id, session = secrets.token_urlsafe(24), Session(rater, secrets.token_urlsafe(24))
        with self._lock:
            self._by_id[session_id] = session
        return session_id, session

    def get(self, session_id: str | None) -> Session | None:
        with self._lock:
            return self._by_id.get(session_id or "")

    def drop(self, session_id: str | None) -> None:
        with self._lock:
            self._by_id.pop(session_id or "", None)


def valid_rater(name: str) -> str | None:
    """The name, tidied, if it can be a rater's name (shown on pages and in exports); else None."""
    name = " ".join(name.split())
    return name if RATER_NAME.match(name) else None
