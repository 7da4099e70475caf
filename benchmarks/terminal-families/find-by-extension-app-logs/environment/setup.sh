#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/srv/app'
files = {'server.log': 'sample server.log\n', 'server.log.1': 'sample server.log.1\n', 'catalog': 'sample catalog\n', 'worker/worker.log': 'sample worker/worker.log\n', 'worker/worker.log.2': 'sample worker/worker.log.2\n', 'worker/.session.log': 'sample worker/.session.log\n', 'archive/2024/05/server.log': 'sample archive/2024/05/server.log\n', 'archive/2024/05/notes.txt': 'sample archive/2024/05/notes.txt\n', 'blog/post.md': 'sample blog/post.md\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /tmp/log_files.txt)"
