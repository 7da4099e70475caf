import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def listeners():
    """(ip, port) pairs in LISTEN state from /proc/net/tcp and tcp6."""
    out = []
    for fn in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = open(fn).read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            f = row.split()
            if f[3] != "0A":
                continue
            addr, port = f[1].split(":")
            out.append((addr, int(port, 16)))
    return out


proc = subprocess.Popen(["bash", "/app/service/start.sh"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        start_new_session=True)
try:
    body = None
    for _ in range(50):
        try:
            with urllib.request.urlopen("http://127.0.0.1:9090/status", timeout=2) as r:
                status, body = r.status, r.read()
            break
        except Exception:  # noqa: BLE001
            time.sleep(0.2)
    check(body is not None, "service answers on 127.0.0.1:9090")
    if body is not None:
        check(status == 200, "GET /status returns 200")
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        check(data == {"service": "inventory", "ok": True}, f"body is the expected JSON (got {body[:200]!r})")
    ls = [lp for lp in listeners() if lp[1] == 9090]
    print("listeners on 9090:", ls)
    check(ls == [("0100007F", 9090)], "bound to 127.0.0.1 only (not 0.0.0.0 / ::)")
    try:
        with urllib.request.urlopen("http://127.0.0.1:9090/nope", timeout=2) as r:
            code = r.status
    except urllib.error.HTTPError as e:
        code = e.code
    except Exception:  # noqa: BLE001
        code = None
    check(code == 404, "unknown path still returns 404 (server.py behaviour kept)")
finally:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        out = proc.communicate(timeout=5)[0]
        print("service output:", out.decode(errors="replace")[:500])
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
sys.exit(1 if FAILS else 0)
