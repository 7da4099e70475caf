#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/opt/deploy/hooks'
files = {'run-all': 'run-all: sample content\n', 'pre/01-check': 'pre/01-check: sample content\n', 'post/02-restart': 'post/02-restart: sample content\n', 'post/notify/slack': 'post/notify/slack: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 644 /opt/deploy/hooks/run-all
chmod 644 /opt/deploy/hooks/pre/01-check
chmod 600 /opt/deploy/hooks/post/02-restart
chmod 666 /opt/deploy/hooks/post/notify/slack
mkdir -p /opt/deploy/hooks/post/notify
chmod 755 /opt/deploy/hooks/post/notify
mkdir -p /opt/deploy/hooks/pre
chmod 755 /opt/deploy/hooks/pre
mkdir -p /opt/deploy/hooks/post
chmod 755 /opt/deploy/hooks/post
mkdir -p /opt/deploy/hooks
chmod 755 /opt/deploy/hooks
