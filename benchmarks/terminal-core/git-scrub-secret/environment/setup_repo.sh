#!/bin/bash
set -e
SECRET=sk_live_51Hx9QmZ7a2Kc8Vt0PqRn3LwY
mkdir -p /app/payments && cd /app/payments
git init -q -b main
N=0
commit() {
  N=$((N+1))
  d=$(date -u -d "2024-04-01 09:00:00 UTC + $N hours" +%Y-%m-%dT%H:%M:%S+00:00)
  GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q -m "$1"
}
mkdir -p config scripts tests
cat > app.py <<'P'
from config import settings


def charge(amount_cents):
    return {"amount": amount_cents, "key_set": bool(settings.PAYMENT_KEY)}
P
cat > config/__init__.py <<'P'
P
cat > config/settings.py <<'P'
DEBUG = False
CURRENCY = "EUR"
PAYMENT_KEY = ""
P
git add -A && commit "Initial payments service"
echo "# payments" > README.md && git add -A && commit "Add README"
sed -i "s/^PAYMENT_KEY = \"\"$/PAYMENT_KEY = \"$SECRET\"/" config/settings.py
git add -A && commit "Configure live payment key"
cat > tests/test_app.py <<'P'
TEST_KEY = "sk_test_00000000000000000000000"


def test_charge():
    import app
    assert app.charge(100)["amount"] == 100
P
git add -A && commit "Add tests"
git checkout -q -b feature/webhooks
cat > scripts/replay_webhook.sh <<P
#!/bin/sh
# replay a webhook locally
curl -u $SECRET: http://localhost:8000/webhook -d @"\$1"
P
git add -A && commit "Add webhook replay script"
echo "def handle(event): return event['type']" > webhooks.py
git add -A && commit "Add webhook handler"
git checkout -q main
echo "Set PAYMENT_KEY in the environment." >> README.md && git add -A && commit "Document configuration"
cat > config/settings.py <<'P'
import os

DEBUG = False
CURRENCY = "EUR"
PAYMENT_KEY = os.environ.get("PAYMENT_KEY", "")
P
git add -A && commit "Read payment key from the environment (was $SECRET)"
echo "- moved key out of the code" > CHANGELOG.md && git add -A && commit "Add changelog"
git tag -a v0.9 -m "Release 0.9"
git checkout -q feature/webhooks
GIT_AUTHOR_DATE=2024-04-02T00:00:00+00:00 GIT_COMMITTER_DATE=2024-04-02T00:00:00+00:00 git merge -q --no-ff main -m "Merge main into feature/webhooks"
git checkout -q main
echo "DEBUG = True" > config/local.py && git add -A && commit "Add local override"
git gc -q
