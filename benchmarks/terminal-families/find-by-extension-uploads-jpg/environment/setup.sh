#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import os
base = '/var/www/uploads'
files = {'avatar.jpg': 'sample avatar.jpg\n', 'avatar.jpeg': 'sample avatar.jpeg\n', 'banner.png': 'sample banner.png\n', '2024/06/cat.jpg': 'sample 2024/06/cat.jpg\n', '2024/06/cat.jpg.txt': 'sample 2024/06/cat.jpg.txt\n', '2024/07/dog.jpg': 'sample 2024/07/dog.jpg\n', '2024/07/thumbs/dog.jpg': 'sample 2024/07/thumbs/dog.jpg\n', '2024/07/thumbs/index.html': 'sample 2024/07/thumbs/index.html\n'}
for rel, text in files.items():
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
PY
mkdir -p "$(dirname /root/jpg_paths.txt)"
