#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/notes.txt)"
python3 - <<'PY'
with open('/app/notes.txt', 'w') as f:
    f.write('shopping list\n\n  milk\n   \n\tbread\n\t\n\n  \t  \neggs\ncoffee beans\n \nbutter\n')
PY
mkdir -p "$(dirname /app/notes_clean.txt)"
