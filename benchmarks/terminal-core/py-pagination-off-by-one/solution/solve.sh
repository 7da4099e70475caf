#!/bin/bash
cd /app/pager
python3 - <<'P'
p = "pagination.py"
s = open(p).read()
s = s.replace("return self.number < self.total_pages - 1", "return self.number < self.total_pages")
s = s.replace("total_pages = max(1, len(items) // per_page)", "total_pages = max(1, -(-len(items) // per_page))")
s = s.replace("start = page * per_page", "start = (page - 1) * per_page")
open(p, "w").write(s)
P
python3 -m unittest -q
