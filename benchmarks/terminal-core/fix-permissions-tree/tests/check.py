import os
import pwd
import grp
import stat
import sys

FAILS = []
S = "/app/site"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


www_u, www_g = pwd.getpwnam("www").pw_uid, grp.getgrnam("www").gr_gid

EXPECTED = {  # path -> (uid, gid, mode) ; "D" marks directories
    ".": ("www", 0o755, "D"),
    "public": ("www", 0o755, "D"),
    "public/css": ("www", 0o755, "D"),
    "public/img": ("www", 0o755, "D"),
    "public/docs 2024": ("www", 0o755, "D"),
    "bin": ("www", 0o755, "D"),
    "config": ("www", 0o750, "D"),
    "uploads": ("www", 0o2775, "D"),
    "uploads/tmp": ("www", 0o2775, "D"),
    "logs": ("www", 0o755, "D"),
    "public/index.html": ("www", 0o644, "F"),
    "public/css/site.css": ("www", 0o644, "F"),
    "public/img/logo.png": ("www", 0o644, "F"),
    "public/docs 2024/annual report.txt": ("www", 0o644, "F"),
    "bin/deploy.sh": ("www", 0o755, "F"),
    "bin/backup.sh": ("www", 0o755, "F"),
    "bin/README": ("www", 0o644, "F"),
    "config/secrets.env": ("root", 0o640, "F"),
    "config/app.ini": ("www", 0o640, "F"),
    "uploads/tmp/file.bin": ("www", 0o644, "F"),
    "logs/access.log": ("www", 0o644, "F"),
}
CONTENT = {"config/secrets.env": "DB_PASSWORD=hunter2\n", "bin/deploy.sh": "#!/bin/sh\necho deploy\n",
           "public/index.html": "<h1>hi</h1>\n"}

seen = set()
for root, dirs, files in os.walk(S):
    for n in dirs + files:
        seen.add(os.path.relpath(os.path.join(root, n), S))
check(seen == (set(EXPECTED) - {"."}) | {"public/passwd-link", "public/config-link"},
      f"nothing added/removed/renamed ({sorted(seen ^ ((set(EXPECTED) - {'.'}) | {'public/passwd-link', 'public/config-link'}))})")

for rel, (owner, mode, kind) in EXPECTED.items():
    p = os.path.normpath(os.path.join(S, rel))
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        check(False, f"{rel} exists")
        continue
    want_uid = 0 if owner == "root" else www_u
    check(st.st_uid == want_uid and st.st_gid == www_g, f"{rel}: owner {owner}:www (got {st.st_uid}:{st.st_gid})")
    check(stat.S_IMODE(st.st_mode) == mode, f"{rel}: mode {oct(mode)} (got {oct(stat.S_IMODE(st.st_mode))})")
    check(stat.S_ISDIR(st.st_mode) == (kind == "D"), f"{rel}: still a {'directory' if kind == 'D' else 'file'}")
for rel, c in CONTENT.items():
    check(open(os.path.join(S, rel)).read() == c, f"{rel}: content unchanged")

check(os.path.islink(S + "/public/passwd-link") and os.readlink(S + "/public/passwd-link") == "/etc/passwd",
      "symlink passwd-link kept")
check(os.path.islink(S + "/public/config-link") and os.readlink(S + "/public/config-link") == "../config",
      "symlink config-link kept")
st = os.stat("/etc/passwd")
check(st.st_uid == 0 and st.st_gid == 0 and stat.S_IMODE(st.st_mode) == 0o644, "/etc/passwd untouched (root:root 644)")
sys.exit(1 if FAILS else 0)
