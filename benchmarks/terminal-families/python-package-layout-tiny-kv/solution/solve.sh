#!/bin/bash
set -e
mkdir -p /app/tools/tiny-kv/tinykv
cat > /app/tools/tiny-kv/pyproject.toml <<'EOF'
[project]
name = "tiny-kv"
version = "0.5.0"
EOF
echo '__version__ = "0.5.0"' > /app/tools/tiny-kv/tinykv/__init__.py
