#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/dev/docs/README.md)"
cat > /home/dev/docs/README.md <<'__END_OF_FILE__'
# Quarry

Quarry is a small task runner. Install Quarry with pip and run it from your project.

## Usage

Write a tasks file, then run Quarry: Quarry reads the file and runs each task in order.
When Quarry fails, the exit status tells which task broke.
__END_OF_FILE__
