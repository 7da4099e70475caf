#!/bin/bash
set -e
mkdir -p /root/work/ping-stats/src/ping_stats
cat > /root/work/ping-stats/pyproject.toml <<'EOF'
[project]
name = "ping-stats"
version = "1.4.2"
EOF
echo '__version__ = "1.4.2"' > /root/work/ping-stats/src/ping_stats/__init__.py
