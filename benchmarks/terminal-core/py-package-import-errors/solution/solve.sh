#!/bin/bash
cd /app/src/inventory
# report.py: relative import of utils, and no import of models at module level (it was circular)
python3 - <<'P'
s = open("report.py").read()
s = s.replace("from utils import money\n\nfrom .models import Item\n", "from .utils import money\n")
open("report.py", "w").write(s)
P
cat > __main__.py <<'M'
import sys

from .cli import main

sys.exit(main())
M
