#!/bin/bash
set -e
mkdir -p /app/pkgs/weather-tools/weather_tools
cat > /app/pkgs/weather-tools/pyproject.toml <<'EOF'
[project]
name = "weather-tools"
version = "0.3.1"
EOF
echo '__version__ = "0.3.1"' > /app/pkgs/weather-tools/weather_tools/__init__.py
