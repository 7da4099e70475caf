#!/bin/bash
set -e
mkdir -p /srv/projects/invoice-gen/src/invoice_gen
cat > /srv/projects/invoice-gen/pyproject.toml <<'EOF'
[project]
name = "invoice-gen"
version = "1.0.0"
EOF
echo '__version__ = "1.0.0"' > /srv/projects/invoice-gen/src/invoice_gen/__init__.py
