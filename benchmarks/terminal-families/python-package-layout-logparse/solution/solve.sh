#!/bin/bash
set -e
mkdir -p /home/dev/code/py-logparse/logparse
cat > /home/dev/code/py-logparse/pyproject.toml <<'EOF'
[project]
name = "py-logparse"
version = "2.1.0"
EOF
echo '__version__ = "2.1.0"' > /home/dev/code/py-logparse/logparse/__init__.py
