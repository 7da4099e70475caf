import http.client
import json
import os
import signal
import subprocess
import sys
import time

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def start():
    p = subprocess.Popen(["bash", "/app/serve.sh"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    for _ in range(60):
        try:
            c = http.client.HTTPConnection("127.0.0.1", 8080, timeout=2)
            c.request("GET", "/health")
            c.getresponse().read()
            return p
        except OSError:
            time.sleep(0.25)
    return p


def stop(p):
    try:
        os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
    time.sleep(0.3)


def req(method, path, body=None, raw=None):
    c = http.client.HTTPConnection("127.0.0.1", 8080, timeout=5)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": "application/json"} if data is not None else {}
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse()
    payload = r.read()
    try:
        parsed = json.loads(payload) if payload else None
    except ValueError:
        parsed = ("<invalid json>", payload[:100])
    return r.status, r.getheader("Content-Type") or "", parsed, payload


if not os.path.isfile("/app/serve.sh"):
    check(False, "/app/serve.sh exists")
    sys.exit(1)
if os.path.exists("/app/data/notes.json"):
    os.remove("/app/data/notes.json")  # start from an empty store

p = start()
try:
    st, ct, js, _ = req("GET", "/health")
    check(st == 200 and js == {"status": "ok"} and ct.startswith("application/json"), f"GET /health ({st} {js})")
    st, ct, js, _ = req("GET", "/notes")
    check(st == 200 and js == [], f"empty list at first ({st} {js})")
    created = []
    for text in ["buy milk", "call Ana ☎", "x" * 3000]:
        st, ct, js, _ = req("POST", "/notes", {"text": text})
        created.append(js)
        check(st == 201 and ct.startswith("application/json") and js == {"id": len(created), "text": text},
              f"POST /notes -> 201 id {len(created)} ({st} {str(js)[:80]})")
    for raw, label in [(b"{not json", "invalid JSON"), (b"[1,2]", "not an object"), (b"{}", "missing text"),
                       (b'{"text": 5}', "non-string text"), (b'{"text": ""}', "empty text")]:
        st, ct, js, _ = req("POST", "/notes", raw=raw)
        check(st == 400 and isinstance(js, dict) and isinstance(js.get("error"), str) and ct.startswith(
            "application/json"), f"POST {label} -> 400 with error JSON ({st} {js})")
    st, _, js, _ = req("GET", "/notes/2")
    check(st == 200 and js == {"id": 2, "text": "call Ana ☎"}, f"GET /notes/2 ({st} {js})")
    st, _, js, body = req("DELETE", "/notes/2")
    check(st == 204 and body == b"", f"DELETE /notes/2 -> 204 empty ({st} {body[:50]!r})")
    st, _, js, _ = req("DELETE", "/notes/2")
    check(st == 404, f"DELETE again -> 404 ({st})")
    st, _, js, _ = req("GET", "/notes/2")
    check(st == 404 and isinstance(js, dict) and "error" in js, f"GET deleted note -> 404 ({st})")
    st, _, js, _ = req("GET", "/notes/abc")
    check(st == 404, f"GET /notes/abc -> 404 ({st})")
    st, _, js, _ = req("GET", "/nothing-here")
    check(st == 404 and isinstance(js, dict) and "error" in js, f"unknown path -> 404 JSON ({st} {js})")
    st, _, js, _ = req("POST", "/notes", {"text": "fourth"})
    check(st == 201 and js == {"id": 4, "text": "fourth"}, f"ids are not reused ({js})")
    st, _, js, _ = req("GET", "/notes")
    want = [{"id": 1, "text": "buy milk"}, {"id": 3, "text": "x" * 3000}, {"id": 4, "text": "fourth"}]
    check(st == 200 and js == want, "GET /notes lists remaining notes sorted by id")
finally:
    stop(p)

p = start()
try:
    st, _, js, _ = req("GET", "/notes")
    check(st == 200 and js == want, f"notes persist across a restart ({str(js)[:120]})")
    st, _, js, _ = req("POST", "/notes", {"text": "after restart"})
    check(st == 201 and js == {"id": 5, "text": "after restart"}, f"id counter persists across restart ({js})")
    st, _, js, _ = req("DELETE", "/notes/4")
    check(st == 204, "delete after restart")
finally:
    stop(p)
check(os.path.isfile("/app/data/notes.json"), "/app/data/notes.json used for storage")
sys.exit(1 if FAILS else 0)
