import hashlib
import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


EXPECTED = "13 192.168.5.20\n12 2001:db8::1f\n11 10.0.1.138\n11 10.0.2.247\n10 10.0.0.36\n"
out = "/app/top_error_ips.txt"
check(os.path.isfile(out), f"{out} exists")
if os.path.isfile(out):
    got = open(out).read()
    print("got:\n" + got)
    check(got == EXPECTED, "exact expected content")
    check([l.strip() for l in got.strip().splitlines()] == EXPECTED.strip().splitlines(),
          "lines match (ignoring surrounding whitespace)")
    check(got.endswith("\n"), "ends with newline")
log_sha = hashlib.sha256(open("/app/logs/access.log", "rb").read()).hexdigest()
check(log_sha == "8df19489e76b40f58f9c0fe6e100d1960d94902bf3ffc7b5260a538b0aeee914", "access.log unchanged")
sys.exit(1 if FAILS else 0)
