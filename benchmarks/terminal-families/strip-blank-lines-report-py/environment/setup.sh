#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/tools/report.py)"
python3 - <<'PY'
with open('/app/tools/report.py', 'w') as f:
    f.write('import sys\n\n\ndef main(args):\n    total = 0\n    \n    for name in args:\n        \n        total += len(name)\n\t\n    print(total)\n\n\nif __name__ == "__main__":\n    main(sys.argv[1:])\n')
PY
mkdir -p "$(dirname /app/tools/report_compact.py)"
