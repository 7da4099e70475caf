#!/bin/bash
cd /app/webapp
git checkout -q main
git merge --no-ff feature/rate-limit -m "Merge branch 'feature/rate-limit'" || true
cat > config.py <<'P'
DEBUG = False
TIMEOUT = 45
RETRIES = 3
ALLOWED_HOSTS = ["example.com", "api.example.com", "www.example.com"]
LOG_LEVEL = "INFO"
RATE_LIMIT_PER_MINUTE = 120
RATE_LIMIT_BURST = 20
P
cat > CHANGELOG.md <<'P'
# Changelog

## Unreleased
- Serve the API from api.example.com
- Add token-bucket rate limiting

## 1.0.0
- First release
P
git add config.py CHANGELOG.md
git -c core.editor=true commit -q --no-edit
