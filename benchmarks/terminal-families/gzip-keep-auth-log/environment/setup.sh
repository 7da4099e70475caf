#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /root/audit/auth.log)"
python3 - <<'PY'
text = "".join(
    f"Jun  {1 + i // 500} 0{i % 10}:{i % 60:02d}:00 host sshd[{1000 + i}]: "
    f"{'Accepted publickey' if i % 4 else 'Failed password'} for user{i % 9} from 192.0.2.{i % 250}\n"
    for i in range(2500))
with open('/root/audit/auth.log', "w") as f:
    f.write(text)
PY
