#!/bin/bash
set -e
mkdir -p /app/api && cd /app/api
git init -q -b main
N=0
commit() {
  N=$((N+1))
  d=$(date -u -d "2024-02-01 10:00:00 UTC + $N hours" +%Y-%m-%dT%H:%M:%S+00:00)
  GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q -a -m "$1"
}
cat > handlers.py <<'P'
MAX_BODY = 4096


def validate(payload):
    if "id" not in payload:
        raise ValueError("missing id")
    return payload


def render(obj):
    return str(obj)
P
echo "2.0.0" > VERSION
echo "# api" > README.md
git add -A && commit "Initial API"
git checkout -q -b release/2.1
echo "2.1.0" > VERSION
sed -i 's/^MAX_BODY = 4096$/MAX_BODY = 1024/' handlers.py
commit "Release 2.1: smaller body limit"
git checkout -q main
echo "3.0.0-dev" > VERSION
commit "Start 3.0 development"
python3 - <<'P'
s = open("handlers.py").read()
s = s.replace('MAX_BODY = 4096\n', 'MAX_BODY = 8192\n')
open("handlers.py", "w").write(s)
P
commit "Raise body limit for 3.0"
python3 - <<'P'
s = open("handlers.py").read()
s = s.replace('def validate(payload):\n', 'def validate(payload):\n    if not payload:\n        raise ValueError("empty payload")\n')
s = s.replace('MAX_BODY = 8192\n', 'MAX_BODY = 8192\nMIN_BODY = 1\n')
open("handlers.py", "w").write(s)
P
commit "fix: reject empty payloads

Backport: release/2.1"
echo "Docs for 3.0" >> README.md
commit "docs: describe 3.0 API"
python3 - <<'P'
s = open("handlers.py").read()
s = s.replace('    return str(obj)\n', '    return repr(obj)\n')
open("handlers.py", "w").write(s)
P
commit "fix: render with repr

Backport: release/2.0"
cat >> handlers.py <<'P'


def health():
    return {"ok": True}
P
commit "feat: health handler"
python3 - <<'P'
s = open("handlers.py").read()
s = s.replace('raise ValueError("missing id")', 'raise ValueError("missing field: id")')
open("handlers.py", "w").write(s)
P
commit "fix: clearer error for missing id

Reported-by: QA
Backport: release/2.1"
echo "More docs" >> README.md
commit "docs: more"
