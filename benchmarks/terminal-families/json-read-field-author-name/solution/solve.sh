#!/bin/bash
set -e
python3 - <<'PY'
import json
d = json.load(open('/home/dev/project/package.json'))
open('/home/dev/author.txt', 'w').write(d["author"]["name"] + '\n')
PY
