import hashlib
import os
import sys

FAILS = []


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


FILES = {
    "a.csv": b"id,value\n3,gamma\n1,alpha\n",
    "b.csv": b"id,value\r\n10,kappa\r\n2,beta\r\n",
    "c.csv": b"id,value\n7,eta\n12,mu",
    "d.csv": b'id,value\n5,epsilon\n11,"lambda, the eleventh"\n',
    "loose.csv": b"id,value\n4,delta\n",
}
MERGED = (b'id,value\n1,alpha\n2,beta\n3,gamma\n4,delta\n5,epsilon\n7,eta\n10,kappa\n'
          b'11,"lambda, the eleventh"\n12,mu\n')

d = "/app/records"
got = sorted(os.listdir(d)) if os.path.isdir(d) else None
check(got == sorted(FILES), f"/app/records holds exactly the CSV files ({got})")
for name, content in FILES.items():
    p = os.path.join(d, name)
    check(os.path.isfile(p) and open(p, "rb").read() == content, f"{name} copied byte-for-byte")
p = "/app/all_records.csv"
data = open(p, "rb").read() if os.path.isfile(p) else None
print("merged:", data)
check(data == MERGED, "all_records.csv merged, sorted, quoted and normalised")
try:
    import tarfile
    with tarfile.open("/app/incoming/delivery.tar.gz") as t:
        names = sorted(m.name for m in t.getmembers() if m.isfile())
except Exception as exc:  # noqa: BLE001
    names = [repr(exc)]
check(names == ["docs/readme.txt", "images/logo.png", "payload.zip"], f"delivery archive left in place ({names})")
sys.exit(1 if FAILS else 0)
