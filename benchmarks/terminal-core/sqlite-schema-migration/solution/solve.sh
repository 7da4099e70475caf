#!/bin/bash
set -e
python3 - <<'P'
import sqlite3
db = sqlite3.connect("/app/app.db")
db.execute("PRAGMA foreign_keys = OFF")
old_users = db.execute("SELECT id, full_name, email, created, active, tags FROM users").fetchall()
old_posts = db.execute("SELECT id, user_email, title FROM posts").fetchall()
with db:
    db.executescript("""
    ALTER TABLE users RENAME TO users_v1;
    ALTER TABLE posts RENAME TO posts_v1;
    CREATE TABLE users (
      id         INTEGER PRIMARY KEY,
      first_name TEXT NOT NULL,
      last_name  TEXT NOT NULL,
      email      TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled'))
    );
    CREATE TABLE user_tags (
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      tag     TEXT NOT NULL,
      PRIMARY KEY (user_id, tag)
    );
    CREATE TABLE posts (
      id      INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id),
      title   TEXT NOT NULL
    );
    CREATE TABLE orphan_posts (
      id         INTEGER PRIMARY KEY,
      user_email TEXT,
      title      TEXT
    );
    CREATE INDEX posts_user_id_idx ON posts(user_id);
    """)
    by_email = {}
    for uid, full, email, created, active, tags in old_users:
        first, _, last = full.partition(" ")
        em = email.strip().lower()
        d, m, y = created.split("/")
        db.execute("INSERT INTO users VALUES (?, ?, ?, ?, ?, ?)",
                   (uid, first, last, em, f"{y}-{m}-{d}", "active" if active == 1 else "disabled"))
        by_email[em] = uid
        for t in sorted({t.strip().lower() for t in (tags or "").split(",")} - {""}):
            db.execute("INSERT INTO user_tags VALUES (?, ?)", (uid, t))
    for pid, em, title in old_posts:
        uid = by_email.get(em.strip().lower())
        if uid is None:
            db.execute("INSERT INTO orphan_posts VALUES (?, ?, ?)", (pid, em, title))
        else:
            db.execute("INSERT INTO posts VALUES (?, ?, ?)", (pid, uid, title))
    db.executescript("DROP TABLE users_v1; DROP TABLE posts_v1;")
db.execute("PRAGMA user_version = 2")
db.commit()
db.execute("VACUUM")
P
