import hashlib
import os
import subprocess
import sys
import time

FAILS = []
D = "/app/calc"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def run(*cmd, inp=None):
    r = subprocess.run(list(cmd), cwd=D, input=inp, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


SOURCES = {
    "src/main.c": "313bbd41e18c134abbef723599a742779465a826232f45fa121e56f9dfa80e6b", "src/ops.c": "33b2b4fb8dedd6a889e52b762985d06f7e4f98cf843bb84b21b90899d6b651f1", "src/parse.c": "34ea79c75ea7160310fff31d86b44633cc8b9d10a7f3c11ca55db198fa6fe0e8",
    "include/ops.h": "781213c78a49cd56bb44d171d22af4cf282b7955514752caf7053efeb46e9719", "include/parse.h": "e47d4b780e8889dc58c34a83bb9d81e7e3d87ab036a58f3d017518e7f2a0c9e1",
    "tests/cases.txt": "921e5184c6e2fecd1edfb764c874cb06808edf353283cd031ffa10e40230876b", "tests/expected.txt": "3870a05a021ae1a790701f687a791b8d49c2554396c5439d52e51502f2dfad47",
}
for rel, h in SOURCES.items():
    p = os.path.join(D, rel)
    ok = os.path.isfile(p) and hashlib.sha256(open(p, "rb").read()).hexdigest() == h
    check(ok, f"{rel} unchanged")

rc, out, err = run("make", "clean")
check(rc == 0, "make clean succeeds")
rc, out, err = run("make")
print(out[-1500:], err[-1500:])
check(rc == 0, "make succeeds from a clean tree")
check(os.access(os.path.join(D, "bin/calc"), os.X_OK), "bin/calc built")
objs = sorted(f for f in os.listdir(os.path.join(D, "build")) if f.endswith(".o")) if os.path.isdir(
    os.path.join(D, "build")) else []
check(objs == ["main.o", "ops.o", "parse.o"], f"objects in build/ ({objs})")

cases = "mul 6 7\nhypot 5 12\npow 3 4\nlog10 0.001\nsub 1 1.25\nnope 3 3\nlog10 -1\ndiv 9 3\n\n# comment\nadd 1\n"
want = "42\n13\n81\n-3\n-0.25\nerror\nerror\n3\n1\n"
rc, out, _ = run("./bin/calc", inp=cases)
check(out == want and rc == 1, f"calculator works (got {out!r}, rc {rc})")
rc, out, _ = run("./bin/calc", "--version")
check(out == "calc 1.4\n", "calc --version")
rc, out, err = run("make", "test")
check(rc == 0, "make test passes")
rc, _, _ = run("make", "-q")
check(rc == 0, "make -q: up to date right after a build")


def age_everything():
    base = time.time() - 1000
    for root, _, files in os.walk(D):
        for f in files:
            p = os.path.join(root, f)
            t = base if (p.endswith((".c", ".h", "Makefile", ".txt"))) else base + 500
            os.utime(p, (t, t))
    return base + 500


def rebuilt_after(header, expect):
    t_art = age_everything()
    now = time.time()
    os.utime(os.path.join(D, header), (now, now))
    rc, _, _ = run("make", "-q")
    check(rc != 0, f"make -q notices that {header} changed")
    rc, out, err = run("make")
    check(rc == 0, f"make after touching {header}")
    got = sorted(o for o in ("main.o", "ops.o", "parse.o")
                 if os.path.getmtime(os.path.join(D, "build", o)) > t_art + 1)
    check(got == expect, f"after touching {header}: rebuilt {got}, expected {expect}")
    check(os.path.getmtime(os.path.join(D, "bin/calc")) > t_art + 1, f"after touching {header}: relinked")
    rc, _, _ = run("make", "-q")
    check(rc == 0, f"up to date again after rebuilding for {header}")


if not FAILS:
    rebuilt_after("include/ops.h", ["main.o", "ops.o"])
    rebuilt_after("include/parse.h", ["main.o", "parse.o"])
    rebuilt_after("src/ops.c", ["ops.o"])
    rc, _, _ = run("make", "clean")
    check(rc == 0 and not os.path.exists(os.path.join(D, "build")) and not os.path.exists(os.path.join(D, "bin")),
          "make clean removes build/ and bin/")
sys.exit(1 if FAILS else 0)
