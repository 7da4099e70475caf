#!/bin/bash
set -e
cd /app/repo
git add -- README.md
git commit -q -m 'Update README'
