#!/bin/bash
set -e
printf '# Release notes\n\n- faster startup\n' > /app/draft.md
