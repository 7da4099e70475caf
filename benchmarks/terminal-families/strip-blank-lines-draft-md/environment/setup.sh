#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/writer/draft.md)"
python3 - <<'PY'
with open('/home/writer/draft.md', 'w') as f:
    f.write('# Chapter 3\n\n   \nThe train left at noon.\n\t\nNobody on the platform waved.\n\n\n  > a quoted letter\n    \n## Notes\n \n- check the timetable\n')
PY
mkdir -p "$(dirname /home/writer/draft_tight.md)"
