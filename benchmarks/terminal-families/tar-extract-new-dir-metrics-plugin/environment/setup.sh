#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /opt/downloads/metrics-plugin-0.9.tgz)"
python3 - <<'PY'
import os
base = '/tmp/build-metrics-plugin/metrics-plugin'
files = {'plugin.json': '{\n  "name": "metrics-plugin",\n  "version": "0.9.0",\n  "entry": "main.py"\n}\n', 'main.py': "def register(app):\n    app.add_route('/metrics', lambda: 'ok')\n", 'templates/panel.html': '<div class="panel">{{ value }}</div>\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
tar -czf /opt/downloads/metrics-plugin-0.9.tgz -C /tmp/build-metrics-plugin metrics-plugin
rm -rf /tmp/build-metrics-plugin
