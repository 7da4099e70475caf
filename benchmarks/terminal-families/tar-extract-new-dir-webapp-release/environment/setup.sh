#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/dist/webapp-2.3.0.tar.gz)"
python3 - <<'PY'
import os
base = '/tmp/build-webapp-release/webapp-2.3.0'
files = {'README.md': '# webapp 2.3.0\n\nRun `bin/start` to launch the service.\n', 'bin/start': '#!/bin/sh\nexec python3 -m webapp --port 8080\n', 'config/app.ini': '[server]\nport = 8080\nworkers = 4\n\n[db]\npath = /var/lib/webapp/app.db\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
tar -czf /app/dist/webapp-2.3.0.tar.gz -C /tmp/build-webapp-release webapp-2.3.0
rm -rf /tmp/build-webapp-release
