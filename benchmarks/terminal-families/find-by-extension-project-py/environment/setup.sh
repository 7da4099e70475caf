#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/home/dev/project'
files = {'setup.py': 'sample setup.py\n', 'app/__init__.py': 'sample app/__init__.py\n', 'app/models.py': 'sample app/models.py\n', 'app/__pycache__/models.cpython-311.pyc': 'sample app/__pycache__/models.cpython-311.pyc\n', 'app/api/routes.py': 'sample app/api/routes.py\n', 'app/api/routes.pyi': 'sample app/api/routes.pyi\n', 'app/py.typed': 'sample app/py.typed\n', 'tests/test_models.py': 'sample tests/test_models.py\n', 'tests/data.json': 'sample tests/data.json\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /home/dev/python_files.txt)"
