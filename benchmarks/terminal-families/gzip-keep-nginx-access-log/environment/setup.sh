#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /var/log/nginx/access.log.1)"
python3 - <<'PY'
text = "".join(
    f'10.0.{i % 7}.{i % 200} - - [01/Jun/2024:10:{i // 60 % 60:02d}:{i % 60:02d} +0000] '
    f'"GET /api/items/{i} HTTP/1.1" {200 if i % 13 else 404} {512 + i * 3} "-" "curl/8.4"\n'
    for i in range(1500))
with open('/var/log/nginx/access.log.1', "w") as f:
    f.write(text)
PY
