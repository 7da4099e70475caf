import base64
import fnmatch
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time

FAILS = []
CLIENT = "/app/kvdump.py"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


spec = json.load(open("/tests/hidden_data.json"))


def expected(pattern):
    out = {}
    for k, v in spec["values"].items():
        if k in spec["missing"] or not fnmatch.fnmatchcase(k, pattern):
            continue
        b = base64.b64decode(v)
        try:
            out[k] = b.decode("utf-8")
        except UnicodeDecodeError:
            out[k] = {"base64": base64.b64encode(b).decode()}
    return out


def client(*args):
    return subprocess.run([sys.executable, CLIENT, *args], capture_output=True, text=True, timeout=90)


if not os.path.isfile(CLIENT):
    check(False, "/app/kvdump.py exists")
    sys.exit(1)

port = 7391
password = "pw-" + secrets.token_hex(6)
srv = subprocess.Popen([sys.executable, "/tests/kvserver.py", "--port", str(port), "--password", password,
                        "--data", "/tests/hidden_data.json"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       start_new_session=True)
try:
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    for pattern, label in (("*", "all keys"), ("user:*", "MATCH user:*"), ("cfg:00[0-4]*", "MATCH with a class")):
        out = f"/tmp/dump_{abs(hash(pattern))}.json"
        args = ["--port", str(port), "--password", password, "--out", out]
        if pattern != "*":
            args += ["--match", pattern]
        try:
            r = client(*args)
        except subprocess.TimeoutExpired:
            check(False, f"{label}: client finished in time")
            continue
        try:
            got = json.load(open(out))
        except Exception as exc:  # noqa: BLE001
            got = None
            print("   stderr:", r.stderr[-500:], exc)
        want = expected(pattern)
        ok = r.returncode == 0 and got == want
        if not ok and isinstance(got, dict):
            print(f"   {len(got)} keys vs {len(want)} expected; missing {sorted(set(want) - set(got))[:5]}, "
                  f"extra {sorted(set(got) - set(want))[:5]}, "
                  f"wrong {[k for k in want if k in got and got[k] != want[k]][:5]}")
        check(ok, f"{label}: dump matches the server's data ({len(want)} keys)")

    r = client("--port", str(port), "--password", "wrong", "--out", "/tmp/dump_bad.json")
    check(r.returncode == 3 and not os.path.exists("/tmp/dump_bad.json"), f"wrong password -> exit 3, no file (rc={r.returncode})")
finally:
    os.killpg(srv.pid, signal.SIGTERM)
    srv.wait(timeout=5)
r = client("--port", "7392", "--password", password, "--out", "/tmp/dump_none.json")
check(r.returncode == 4 and not os.path.exists("/tmp/dump_none.json"), f"no server -> exit 4, no file (rc={r.returncode})")
sys.exit(1 if FAILS else 0)
