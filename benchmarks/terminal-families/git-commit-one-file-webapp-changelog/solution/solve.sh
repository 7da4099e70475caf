#!/bin/bash
set -e
cd /app/webapp
git add -- docs/CHANGELOG.md
git commit -q -m 'Add changelog'
