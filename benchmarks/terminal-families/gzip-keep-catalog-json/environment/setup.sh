#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/data/catalog.json)"
python3 - <<'PY'
import json
text = json.dumps({"items": [{"sku": f"SKU-{i:05d}", "stock": i % 40, "tags": ["a", "b"][: i % 3]}
                             for i in range(800)]}, indent=2) + "\n"
with open('/app/data/catalog.json', "w") as f:
    f.write(text)
PY
