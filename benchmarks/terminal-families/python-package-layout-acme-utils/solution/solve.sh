#!/bin/bash
set -e
mkdir -p /app/libs/acme-utils/acme_utils
cat > /app/libs/acme-utils/pyproject.toml <<'EOF'
[project]
name = "acme-utils"
version = "2024.6.0"
EOF
echo '__version__ = "2024.6.0"' > /app/libs/acme-utils/acme_utils/__init__.py
