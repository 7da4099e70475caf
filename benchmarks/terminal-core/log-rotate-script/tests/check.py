import gzip
import os
import shutil
import stat
import subprocess
import sys
import tempfile

FAILS = []
SCRIPT = "/app/rotate.sh"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def run(*args):
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=60)


if not (os.path.isfile(SCRIPT) and os.access(SCRIPT, os.X_OK)):
    check(False, "/app/rotate.sh exists and is executable")
    sys.exit(1)

d = tempfile.mkdtemp()
log = os.path.join(d, "my app.log")  # a space in the path
with open(log, "w") as f:
    f.write("gen1\n" * 100)
os.chmod(log, 0o640)
ino = os.stat(log).st_ino
fh = open(log, "a")  # the "application" keeps the log open

r = run(log)
check(r.returncode == 0, f"first rotation exits 0 ({r.stderr[-200:]!r})")
check(os.stat(log).st_ino == ino and os.path.getsize(log) == 0, "log truncated in place (same inode, size 0)")
check(stat.S_IMODE(os.stat(log).st_mode) == 0o640, "log keeps its permissions")
with gzip.open(log + ".1.gz", "rt") if os.path.exists(log + ".1.gz") else open(os.devnull) as g:
    check(g.read() == "gen1\n" * 100, "log.1.gz holds the rotated content")

for gen in range(2, 9):
    fh.write(f"gen{gen}\n" * (50 + gen))
    fh.flush()
    r = run("-k", "3", log)
    check(r.returncode == 0, f"rotation {gen} with -k 3 exits 0")
rotated = sorted(f for f in os.listdir(d) if f != "my app.log")
check(rotated == ["my app.log.1.gz", "my app.log.2.gz", "my app.log.3.gz"], f"only KEEP=3 rotated files kept ({rotated})")
for n, gen in ((1, 8), (2, 7), (3, 6)):
    p = f"{log}.{n}.gz"
    if os.path.exists(p):
        with gzip.open(p, "rt") as g:
            check(g.read() == f"gen{gen}\n" * (50 + gen), f"{os.path.basename(p)} holds generation {gen}")
check(os.stat(log).st_ino == ino, "still the same inode after many rotations")

# appending after truncation works for the open handle (O_APPEND) and the file is not sparse-garbage
fh.write("after\n")
fh.flush()
check(open(log).read() == "after\n", "application can keep writing to the truncated log")
fh.close()

# min size: small log is not rotated
r = run("-s", "1000", log)
check(r.returncode == 0 and open(log).read() == "after\n", "log below MINSIZE is left alone, exit 0")
check(sorted(f for f in os.listdir(d) if f != "my app.log") == rotated, "no rotation below MINSIZE")
# empty log with default min size
open(log, "w").close()
r = run(log)
check(r.returncode == 0 and sorted(os.listdir(d)) == sorted(rotated + ["my app.log"]), "empty log: nothing happens")

# default KEEP is 5
d2 = tempfile.mkdtemp()
log2 = os.path.join(d2, "svc.log")
for gen in range(1, 8):
    with open(log2, "a") as f:
        f.write(f"g{gen}\n")
    run(log2)
check(sorted(os.listdir(d2)) == ["svc.log"] + [f"svc.log.{n}.gz" for n in range(1, 6)], f"default KEEP=5 ({sorted(os.listdir(d2))})")
with gzip.open(log2 + ".5.gz", "rt") as g:
    check(g.read() == "g3\n", "svc.log.5.gz is the 5th newest")
# gaps and unrelated files
open(os.path.join(d2, "svc.log.old"), "w").close()
os.remove(log2 + ".2.gz")
with open(log2, "w") as f:
    f.write("g8\n")
run("-k", "10", log2)
got = sorted(os.listdir(d2))
check(got == ["svc.log", "svc.log.1.gz", "svc.log.2.gz", "svc.log.4.gz", "svc.log.5.gz", "svc.log.6.gz", "svc.log.old"],
      f"existing numbers shift by one, unrelated files untouched ({got})")

# errors
for args, code, label in [((os.path.join(d, "missing.log"),), 1, "missing file"), ((d,), 1, "directory"),
                          ((), 2, "no LOGFILE"), ((log, log), 2, "two LOGFILEs"), (("-x", log), 2, "unknown option"),
                          (("-k", "abc", log), 2, "invalid KEEP"), (("-k", "0", log), 2, "KEEP of 0"), (("-k",), 2, "missing value")]:
    r = run(*args)
    check(r.returncode == code and r.stderr.strip() != "", f"{label}: exit {code} with a message (got {r.returncode})")

# the real log in the image
r = run("-k", "2", "/app/logs/app.log")
check(r.returncode == 0 and os.path.getsize("/app/logs/app.log") == 0 and os.path.exists("/app/logs/app.log.1.gz"),
      "rotates /app/logs/app.log")
shutil.rmtree(d, ignore_errors=True)
shutil.rmtree(d2, ignore_errors=True)
sys.exit(1 if FAILS else 0)
