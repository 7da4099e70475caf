import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

FAILS = []
SCRIPT = "/app/bin/archive.sh"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def run(*args, cwd=None):
    r = subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, timeout=60, cwd=cwd)
    return r.returncode, r.stdout, r.stderr


check(os.path.isfile(SCRIPT) and os.access(SCRIPT, os.X_OK), "archive.sh exists and is executable")
if not os.path.isfile(SCRIPT):
    sys.exit(1)

tmp = tempfile.mkdtemp()
src = os.path.join(tmp, "data set")  # a space in the path
files = {
    "a.txt": "alpha\n", "b.log": "log\n", ".hidden": "h\n", "sub/c.txt": "charlie\n",
    "sub/deep/d.log": "dlog\n", "sub/deep/e.md": "# e\n", "with space.txt": "sp\n", "keep.log.bak": "bak\n",
    "sub/.env": "SECRET\n",
}
for rel, content in files.items():
    p = os.path.join(src, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(content)
os.makedirs(os.path.join(src, "empty-dir"))
out = os.path.join(tmp, "out", "nested")


def members(path):
    with tarfile.open(path, "r:gz") as t:
        return {m.name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}


# -h
rc, so, se = run("-h")
check(rc == 0 and so.startswith("usage:"), "-h prints usage and exits 0")

# dry run
rc, so, se = run("-n", "-x", "*.log", "-o", out, src)
want = sorted([k for k in files if not k.endswith(".log")], key=str.encode)
check(rc == 0 and so.splitlines() == want, f"dry run lists files sorted, *.log excluded (got {so.splitlines()})")
check(not os.path.exists(os.path.join(tmp, "out")), "dry run creates nothing")

# first archive
rc, so, se = run("-o", out, "-x", "*.log", "-x", ".env", src)
exp_path = os.path.join(out, "data set-1.tar.gz")
check(rc == 0 and so == exp_path + "\n", f"prints the archive path ({so!r}, rc={rc}, err={se[-300:]!r})")
if os.path.isfile(exp_path):
    got = members(exp_path)
    want = {"data set/" + k: v for k, v in files.items() if not k.endswith(".log") and not k.endswith(".env")}
    check(got == want, f"archive has the right members and contents (got {sorted(got)})")
else:
    check(False, "archive data set-1.tar.gz created")

# numbering: next after the highest existing
open(os.path.join(out, "data set-7.tar.gz"), "w").close()
open(os.path.join(out, "data set-x.tar.gz"), "w").close()
open(os.path.join(out, "data set-10.tar"), "w").close()
rc, so, se = run("-o", out, src + "/")
exp8 = os.path.join(out, "data set-8.tar.gz")
check(rc == 0 and so.strip() == exp8, f"numbering continues after the highest (got {so.strip()!r})")
if os.path.isfile(exp8):
    check(members(exp8) == {"data set/" + k: v for k, v in files.items()}, "no -x: every file archived")

# default OUTDIR
shutil.rmtree("/app/archives", ignore_errors=True)
rc, so, se = run("/app/projects/webshop")
check(rc == 0 and so == "/app/archives/webshop-1.tar.gz\n", f"default OUTDIR /app/archives ({so!r})")
if os.path.isfile("/app/archives/webshop-1.tar.gz"):
    check(sorted(members("/app/archives/webshop-1.tar.gz")) == sorted(
        ["webshop/.cache/blob.tmp", "webshop/.env", "webshop/README.md", "webshop/src/debug.log",
         "webshop/src/main.py", "webshop/src/static/site.css"]), "webshop archive members")
rc, so, se = run("/app/projects/webshop")
check(rc == 0 and so == "/app/archives/webshop-2.tar.gz\n", "second run gives webshop-2")

# relative SRC and OUTDIR
rc, so, se = run("-o", "rel-out", "webshop", cwd="/app/projects")
check(rc == 0 and so == "rel-out/webshop-1.tar.gz\n" and os.path.isfile("/app/projects/rel-out/webshop-1.tar.gz"),
      f"relative paths work ({so!r})")
shutil.rmtree("/app/projects/rel-out", ignore_errors=True)

# errors
before = sorted(os.listdir(out))
for args, code, label in [
    (["-q", src], 2, "unknown option"),
    (["-o"], 2, "option missing its argument"),
    ([], 2, "no SRC_DIR"),
    ([src, src], 2, "two positional arguments"),
    (["-o", out, os.path.join(tmp, "missing")], 3, "missing SRC_DIR"),
    (["-o", out, os.path.join(src, "a.txt")], 3, "SRC_DIR is a file"),
]:
    rc, so, se = run(*args)
    ok = rc == code and so == "" and se.strip() != "" and (code != 2 or "usage:" in se)
    check(ok, f"{label}: exit {code}, message on stderr only (got rc={rc}, out={so!r}, err={se[-200:]!r})")
check(sorted(os.listdir(out)) == before, "errors create no archive")
shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if FAILS else 0)
