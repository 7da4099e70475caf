import grp
import os
import pwd
import stat
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def shadow():
    out = {}
    for line in open("/etc/shadow"):
        f = line.rstrip("\n").split(":")
        out[f[0]] = f[1]
    return out


GROUPS = {"developers": 2001, "ops": 2002, "auditors": 2003, "deploy": 999}
for g, gid in GROUPS.items():
    try:
        check(grp.getgrnam(g).gr_gid == gid, f"group {g} has GID {gid}")
    except KeyError:
        check(False, f"group {g} exists")

USERS = {
    "alice": (1501, "developers", {"ops"}, "/bin/bash", "/home/alice", 0o750),
    "bob": (1502, "developers", set(), "/bin/bash", "/home/bob", 0o750),
    "carol": (1503, "ops", {"developers", "auditors"}, "/bin/sh", "/srv/carol", 0o750),
    "deploy": (999, "deploy", set(), "/usr/sbin/nologin", "/var/lib/deploy", 0o700),
}
all_groups = grp.getgrall()
for u, (uid, pg, sup, shell, home, mode) in USERS.items():
    try:
        pw = pwd.getpwnam(u)
    except KeyError:
        check(False, f"user {u} exists")
        continue
    check(pw.pw_uid == uid, f"{u}: UID {uid} (got {pw.pw_uid})")
    check(pw.pw_gid == GROUPS[pg], f"{u}: primary group {pg}")
    got_sup = {g.gr_name for g in all_groups if u in g.gr_mem}
    check(got_sup == sup, f"{u}: supplementary groups {sorted(sup)} (got {sorted(got_sup)})")
    check(pw.pw_shell == shell, f"{u}: shell {shell} (got {pw.pw_shell})")
    check(pw.pw_dir == home, f"{u}: home {home} (got {pw.pw_dir})")
    if os.path.isdir(home):
        st = os.stat(home)
        check(st.st_uid == uid and st.st_gid == GROUPS[pg], f"{u}: {home} owned by {u}:{pg}")
        check(stat.S_IMODE(st.st_mode) == mode, f"{u}: {home} mode {oct(mode)} (got {oct(stat.S_IMODE(st.st_mode))})")
    else:
        check(False, f"{u}: {home} exists")

sh = shadow()
check(sh.get("deploy", "").startswith("!"), "deploy password locked")
try:
    pwd.getpwnam("legacy")
    check(False, "user legacy removed")
except KeyError:
    check(True, "user legacy removed")
check("legacy" not in {g.gr_name for g in all_groups}, "group legacy removed")
check(not os.path.exists("/home/legacy"), "/home/legacy removed")
try:
    pw = pwd.getpwnam("intern")
    check(pw.pw_uid == 1401, "intern kept with UID 1401")
    check(pw.pw_shell == "/usr/sbin/nologin", "intern shell is nologin")
    h = sh.get("intern", "")
    check(h.startswith("!") and h[1:].startswith("$") and len(h) > 20, "intern locked, hash kept behind '!'")
except KeyError:
    check(False, "user intern kept")

if os.path.isdir("/srv/shared"):
    st = os.stat("/srv/shared")
    check(st.st_uid == 0 and st.st_gid == 2001, "/srv/shared owned by root:developers")
    check(stat.S_IMODE(st.st_mode) == 0o2770, f"/srv/shared mode 2770 (got {oct(stat.S_IMODE(st.st_mode))})")
else:
    check(False, "/srv/shared exists")
sys.exit(1 if FAILS else 0)
