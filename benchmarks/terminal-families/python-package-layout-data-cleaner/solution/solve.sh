#!/bin/bash
set -e
mkdir -p /opt/build/data-cleaner/src/data_cleaner
cat > /opt/build/data-cleaner/pyproject.toml <<'EOF'
[project]
name = "data-cleaner"
version = "0.0.1"
EOF
echo '__version__ = "0.0.1"' > /opt/build/data-cleaner/src/data_cleaner/__init__.py
