#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/usr/local/lib/jdk-17'
files = {'VERSION': 'jdk-17\n', 'bin/run': '#!/bin/sh\necho running jdk-17\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
python3 - <<'PY'
import os
base = '/usr/local/lib/jdk-21'
files = {'VERSION': 'jdk-21\n', 'bin/run': '#!/bin/sh\necho running jdk-21\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p /usr/local
ln -s /usr/local/lib/jdk-17 /usr/local/java
