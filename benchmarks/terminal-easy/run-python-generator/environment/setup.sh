#!/bin/bash
set -e
cat > /app/gen.py <<'EOF'
with open("/app/squares.txt", "w") as f:
    f.write("\n".join(str(i * i) for i in range(1, 8)) + "\n")
EOF
