#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/app/docs'
files = {'index.md': 'sample index.md\n', 'changelog.markdown': 'sample changelog.markdown\n', 'guide/intro.md': 'sample guide/intro.md\n', 'guide/setup.mdx': 'sample guide/setup.mdx\n', 'guide/advanced/tuning.md': 'sample guide/advanced/tuning.md\n', 'api/README': 'sample api/README\n', 'api/v1/endpoints.md': 'sample api/v1/endpoints.md\n', 'api/v1/schema.json': 'sample api/v1/schema.json\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /app/markdown_files.txt)"
