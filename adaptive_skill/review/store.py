"""Ratings in the run directory: one SQLite file, RUN/reviews.sqlite, in WAL mode with
synchronous=FULL and one transaction per rating, so a rating the page has confirmed survives a
crash of the server or of the machine. Nothing is ever updated or deleted: rating an item again
adds a row, and the latest row per item and rater is the one that counts."""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adaptive_skill.errors import UserError

DB_NAME = "reviews.sqlite"
SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    item TEXT NOT NULL,        -- the item's key (docs/review.md)
    kind TEXT NOT NULL,        -- trajectory | mutation | task
    rater TEXT NOT NULL,
    created_at REAL NOT NULL,  -- Unix time
    answers TEXT NOT NULL      -- JSON object: question name -> answer
);
CREATE INDEX IF NOT EXISTS ratings_item ON ratings (item, rater);
"""


@dataclass(frozen=True)
class Rating:
    item: str
    kind: str
    rater: str
    answers: dict[str, Any]
    created_at: float = field(default_factory=time.time)
    id: int | None = None


class RatingStore:
    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def in_run(cls, run_root: Path) -> RatingStore:
        """The run's store, created on first use; a run directory we cannot write to is one clear line."""
        store = cls(Path(run_root) / DB_NAME)
        try:
            with closing(store._connect()) as db, db:
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            raise UserError(f"{store.path}: cannot open the ratings database ({exc})") from None
        return store

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30)
        db.execute("PRAGMA journal_mode = WAL")  # readers (report, engine) never block a rating
        db.execute("PRAGMA synchronous = FULL")  # a committed rating is on disk, WAL or not
        return db

    def add(self, rating: Rating) -> Rating:
        with closing(self._connect()) as db, db:  # `with db` commits (or rolls back) this one rating
            cursor = db.execute("INSERT INTO ratings (item, kind, rater, created_at, answers) VALUES (?, ?, ?, ?, ?)",
                                (rating.item, rating.kind, rating.rater, rating.created_at,
                                 json.dumps(rating.answers, ensure_ascii=False, sort_keys=True)))
        return Rating(rating.item, rating.kind, rating.rater, rating.answers, rating.created_at, cursor.lastrowid)

    def all(self) -> list[Rating]:
        with closing(self._connect()) as db:
            return _rows(db)


def read_ratings(run_root: Path) -> list[Rating]:
    """Every rating of a run, for readers (report, engine, export): [] when nobody rated yet. Opened
    read-only, so reading never creates the file."""
    path = Path(run_root) / DB_NAME
    if not path.is_file():
        return []
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)) as db:
            return _rows(db)
    except sqlite3.Error as exc:
        raise UserError(f"{path}: cannot read the ratings ({exc})") from None


def latest(ratings: list[Rating]) -> dict[tuple[str, str], Rating]:
    """(item, rater) -> that rater's latest rating of the item."""
    found: dict[tuple[str, str], Rating] = {}
    for rating in sorted(ratings, key=lambda r: (r.created_at, r.id or 0)):
        found[(rating.item, rating.rater)] = rating
    return found


def by_item(ratings: list[Rating]) -> dict[str, list[Rating]]:
    """item -> the latest rating of each rater who rated it."""
    found: dict[str, list[Rating]] = {}
    for (item, _), rating in sorted(latest(ratings).items()):
        found.setdefault(item, []).append(rating)
    return found


def _rows(db: sqlite3.Connection) -> list[Rating]:
    rows = db.execute("SELECT id, item, kind, rater, created_at, answers FROM ratings ORDER BY id").fetchall()
    return [Rating(item, kind, rater, json.loads(answers), created_at, ident)
            for ident, item, kind, rater, created_at, answers in rows]
