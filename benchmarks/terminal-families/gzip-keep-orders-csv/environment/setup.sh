#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /data/exports/orders-2024-05.csv)"
python3 - <<'PY'
text = "order_id,customer,amount,currency\n" + "".join(
    f"{10000 + i},cust-{i % 97:03d},{(i * 37) % 500 + 0.99:.2f},EUR\n" for i in range(2000))
with open('/data/exports/orders-2024-05.csv', "w") as f:
    f.write(text)
PY
