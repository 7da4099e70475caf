#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/data/archive/2019'
files = {'manifest.txt': 'manifest.txt: sample content\n', 'jan/events.log': 'jan/events.log: sample content\n', 'feb/events.log': 'feb/events.log: sample content\n', 'feb/raw/dump.bin': 'feb/raw/dump.bin: sample content\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
chmod 644 /data/archive/2019/manifest.txt
chmod 664 /data/archive/2019/jan/events.log
chmod 600 /data/archive/2019/feb/events.log
chmod 644 /data/archive/2019/feb/raw/dump.bin
mkdir -p /data/archive/2019/feb/raw
chmod 711 /data/archive/2019/feb/raw
mkdir -p /data/archive/2019/jan
chmod 711 /data/archive/2019/jan
mkdir -p /data/archive/2019/feb
chmod 755 /data/archive/2019/feb
mkdir -p /data/archive/2019
chmod 755 /data/archive/2019
