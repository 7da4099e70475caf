#!/bin/bash
set -e
mkdir -p /data/pkg/csv-merge/csv_merge
cat > /data/pkg/csv-merge/pyproject.toml <<'EOF'
[project]
name = "csv-merge"
version = "0.12.0"
EOF
echo '__version__ = "0.12.0"' > /data/pkg/csv-merge/csv_merge/__init__.py
