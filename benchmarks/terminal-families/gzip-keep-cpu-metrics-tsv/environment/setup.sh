#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /opt/metrics/cpu.tsv)"
python3 - <<'PY'
text = "ts\thost\tcpu_pct\n" + "".join(
    f"{1717200000 + i * 60}\tnode-{i % 4}\t{(i * 7919) % 1000 / 10:.1f}\n" for i in range(3000))
with open('/opt/metrics/cpu.tsv', "w") as f:
    f.write(text)
PY
