#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/dev/app/requirements.txt)"
python3 - <<'PY'
with open('/home/dev/app/requirements.txt', 'w') as f:
    f.write('# web\nflask==3.0.2\n    \ngunicorn==21.2.0\n\n# data\n  \t\npandas==2.2.1\nnumpy==1.26.4\n \n\n# tests\npytest==8.1.1\n\t\n')
PY
mkdir -p "$(dirname /home/dev/app/requirements.min.txt)"
