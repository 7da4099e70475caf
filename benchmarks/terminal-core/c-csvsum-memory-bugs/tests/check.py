import os
import random
import shutil
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def expected(data: bytes):
    totals, skipped = {}, 0
    lines = data.split(b"\n")
    for ln in lines:
        ln = ln.split(b"\r")[0]
        if not ln:
            continue
        if b"," not in ln:
            skipped += 1
            continue
        name, amt = ln.split(b",", 1)
        totals[name] = totals.get(name, 0) + round(float(amt) * 100)
    out = b"".join(n + b" " + ("%.2f" % (c / 100)).encode() + b"\n" for n, c in sorted(totals.items()))
    return out, f"skipped {skipped}"


def amount(rng):
    c = rng.randint(-50000, 200000)
    s = "-" if c < 0 else ""
    c = abs(c)
    return f"{s}{c // 100}.{c % 100:02d}" if rng.random() < 0.7 else f"{s}{c // 100}"


def make_cases():
    rng = random.Random(4242)
    cases = {}
    cases["sample"] = b"alice,10.50\nbob,3\nalice,-2.25\ncarol,7.10\n\nnot a record\nbob,0.05\n"
    # many names sharing long prefixes (truncation would merge them)
    names = [f"customer-account-{i:04d}" for i in range(300)] + ["x" * 900, "x" * 901, "y" * 17, "y" * 16]
    rows = []
    for _ in range(3000):
        rows.append(f"{rng.choice(names)},{amount(rng)}")
        if rng.random() < 0.02:
            rows.append("garbage line without separator " + "z" * rng.randint(0, 1500))
        if rng.random() < 0.02:
            rows.append("")
    cases["many"] = ("\n".join(rows) + "\n").encode()
    cases["crlf_no_final_newline"] = b"b,1.10\r\na,2\r\nb,-0.10\r\n\r\nnope\r\na,0.01"
    cases["empty"] = b""
    long_name = "L" * 1000
    cases["long_lines"] = (f"{long_name},5.55\n{long_name},4.45\n" + "q" * 1999 + "\n" + "s,1\n").encode()
    return cases


src = "/app/csvsum/csvsum.c"
check(os.path.isfile(src), "csvsum.c exists")
r = subprocess.run(["make", "-B"], cwd="/app/csvsum", capture_output=True, text=True)
check(r.returncode == 0 and os.access("/app/csvsum/csvsum", os.X_OK), "make builds /app/csvsum/csvsum")
tmp = tempfile.mkdtemp()
asan_bin = os.path.join(tmp, "csvsum_asan")
r = subprocess.run(["gcc", "-g", "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    "-o", asan_bin, src], capture_output=True, text=True)
check(r.returncode == 0, "builds with AddressSanitizer/UBSan" + ("" if r.returncode == 0 else ": " + r.stderr[-800:]))

env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0", UBSAN_OPTIONS="halt_on_error=1")
for name, data in make_cases().items():
    path = os.path.join(tmp, name + ".csv")
    with open(path, "wb") as f:
        f.write(data)
    want_out, want_err = expected(data)
    for label, exe in (("make build", "/app/csvsum/csvsum"), ("asan build", asan_bin)):
        if not os.path.exists(exe):
            check(False, f"{name} [{label}]: binary missing")
            continue
        try:
            p = subprocess.run([exe, path], capture_output=True, timeout=60, env=env)
        except subprocess.TimeoutExpired:
            check(False, f"{name} [{label}]: timed out")
            continue
        ok = p.returncode == 0 and p.stdout == want_out and p.stderr.decode(errors="replace").strip() == want_err
        if not ok:
            print(f"   rc={p.returncode} stderr={p.stderr[-600:]!r}")
            print(f"   got  {p.stdout[:300]!r}\n   want {want_out[:300]!r}")
        check(ok, f"{name} [{label}]: correct output, 'skipped' count and exit code")
shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if FAILS else 0)
