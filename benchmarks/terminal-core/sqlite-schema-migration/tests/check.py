import sqlite3
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


# expected data, recomputed from the original seed
orig = sqlite3.connect(":memory:")
orig.executescript(open("/tests/seed.sql").read())
exp_users, exp_tags, exp_posts, exp_orphans, by_email = [], set(), [], [], {}
for uid, full, email, created, active, tags in orig.execute("SELECT * FROM users ORDER BY id"):
    first, _, last = full.partition(" ")
    d, m, y = created.split("/")
    em = email.strip().lower()
    by_email[em] = uid
    exp_users.append((uid, first, last, em, f"{y}-{m}-{d}", "active" if active == 1 else "disabled"))
    exp_tags |= {(uid, t.strip().lower()) for t in (tags or "").split(",") if t.strip()}
for pid, em, title in orig.execute("SELECT * FROM posts ORDER BY id"):
    uid = by_email.get(em.strip().lower())
    if uid is None:
        exp_orphans.append((pid, em, title))
    else:
        exp_posts.append((pid, uid, title))

db = sqlite3.connect("/app/app.db")
db.execute("PRAGMA foreign_keys = ON")
tables = sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"))
check(tables == ["orphan_posts", "posts", "user_tags", "users"], f"exactly the v2 tables ({tables})")
check(db.execute("PRAGMA user_version").fetchone()[0] == 2, "user_version is 2")
check(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "integrity_check ok")
check(db.execute("PRAGMA foreign_key_check").fetchall() == [], "foreign_key_check clean")


def cols(t):
    # (name, type, notnull, default, pk)
    return [(r[1], r[2].upper(), r[3], r[4], r[5]) for r in db.execute(f"PRAGMA table_info({t})")]


check(cols("users") == [("id", "INTEGER", 0, None, 1), ("first_name", "TEXT", 1, None, 0),
                        ("last_name", "TEXT", 1, None, 0), ("email", "TEXT", 1, None, 0),
                        ("created_at", "TEXT", 1, None, 0), ("status", "TEXT", 1, "'active'", 0)],
      f"users columns ({cols('users')})")
check(cols("user_tags") == [("user_id", "INTEGER", 1, None, 1), ("tag", "TEXT", 1, None, 2)],
      f"user_tags columns ({cols('user_tags')})")
check(cols("posts") == [("id", "INTEGER", 0, None, 1), ("user_id", "INTEGER", 1, None, 0), ("title", "TEXT", 1, None, 0)],
      f"posts columns ({cols('posts')})")
check([c[:2] for c in cols("orphan_posts")] == [("id", "INTEGER"), ("user_email", "TEXT"), ("title", "TEXT")],
      "orphan_posts columns")
fk_tags = [(r[2], r[3], r[4], r[6]) for r in db.execute("PRAGMA foreign_key_list(user_tags)")]
check(fk_tags == [("users", "user_id", "id", "CASCADE")], f"user_tags FK with ON DELETE CASCADE ({fk_tags})")
fk_posts = [(r[2], r[3], r[4]) for r in db.execute("PRAGMA foreign_key_list(posts)")]
check(fk_posts == [("users", "user_id", "id")], f"posts FK to users ({fk_posts})")
idx = [r for r in db.execute("PRAGMA index_list(posts)") if r[1] == "posts_user_id_idx"]
check(bool(idx) and [r[2] for r in db.execute("PRAGMA index_info(posts_user_id_idx)")] == ["user_id"],
      "index posts_user_id_idx on posts(user_id)")

check(db.execute("SELECT * FROM users ORDER BY id").fetchall() == exp_users, "users data converted correctly")
got_tags = set(db.execute("SELECT user_id, tag FROM user_tags").fetchall())
check(got_tags == exp_tags, f"user_tags data ({len(got_tags)} rows, expected {len(exp_tags)})")
check(db.execute("SELECT * FROM posts ORDER BY id").fetchall() == exp_posts, "posts mapped to user ids")
check(db.execute("SELECT * FROM orphan_posts ORDER BY id").fetchall() == exp_orphans, "orphan posts moved unchanged")

# constraints behave
try:
    with db:
        db.execute("INSERT INTO users (id, first_name, last_name, email, created_at) VALUES (1000, 'A', 'B', 'new@x.org', '2024-01-01')")
    check(db.execute("SELECT status FROM users WHERE id = 1000").fetchone() == ("active",), "status defaults to 'active'")
except sqlite3.Error as exc:
    check(False, f"insert with default status works: {exc}")
for sql, label in [
    ("INSERT INTO users (first_name, last_name, email, created_at) VALUES ('A', 'B', 'new@x.org', '2024-01-01')", "email UNIQUE"),
    ("INSERT INTO users (first_name, last_name, email, created_at, status) VALUES ('A', 'B', 'z@x.org', '2024-01-01', 'gone')", "status CHECK"),
    ("INSERT INTO users (first_name, last_name, email) VALUES ('A', 'B', 'y@x.org')", "created_at NOT NULL"),
    ("INSERT INTO posts (user_id, title) VALUES (99999, 't')", "posts.user_id FK"),
    ("INSERT INTO user_tags VALUES (1000, 'x'), (1000, 'x')", "user_tags primary key"),
]:
    try:
        with db:
            db.execute(sql)
        check(False, f"{label} enforced")
    except sqlite3.IntegrityError:
        check(True, f"{label} enforced")
with db:
    db.execute("INSERT INTO user_tags VALUES (1000, 'tmp')")
    db.execute("DELETE FROM users WHERE id = 1000")
check(db.execute("SELECT COUNT(*) FROM user_tags WHERE user_id = 1000").fetchone()[0] == 0, "tags cascade on user delete")
db.rollback()
sys.exit(1 if FAILS else 0)
