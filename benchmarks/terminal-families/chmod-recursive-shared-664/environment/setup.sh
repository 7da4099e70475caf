#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/home/team/shared'
files = {'README.md': 'README.md: sample content\n', 'docs/plan.md': 'docs/plan.md: sample content\n', 'docs/specs/api.md': 'docs/specs/api.md: sample content\n', 'media/banner.png': 'media/banner.png: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 644 /home/team/shared/README.md
chmod 600 /home/team/shared/docs/plan.md
chmod 640 /home/team/shared/docs/specs/api.md
chmod 644 /home/team/shared/media/banner.png
mkdir -p /home/team/shared/docs/specs
chmod 775 /home/team/shared/docs/specs
mkdir -p /home/team/shared/docs
chmod 770 /home/team/shared/docs
mkdir -p /home/team/shared/media
chmod 770 /home/team/shared/media
mkdir -p /home/team/shared
chmod 775 /home/team/shared
