#!/bin/bash
set -e
export GIT_AUTHOR_DATE="2024-03-01T09:00:00+00:00" GIT_COMMITTER_DATE="2024-03-01T09:00:00+00:00"
mkdir -p /app/webapp && cd /app/webapp
git init -q -b main
cat > config.py <<'P'
DEBUG = False
TIMEOUT = 30
RETRIES = 3
ALLOWED_HOSTS = ["example.com"]
LOG_LEVEL = "INFO"
P
cat > CHANGELOG.md <<'P'
# Changelog

## Unreleased

## 1.0.0
- First release
P
git add . && git commit -q -m "Initial config"
git checkout -q -b feature/rate-limit
cat > config.py <<'P'
DEBUG = False
TIMEOUT = 60
RETRIES = 3
ALLOWED_HOSTS = ["example.com", "www.example.com"]
LOG_LEVEL = "INFO"
RATE_LIMIT_PER_MINUTE = 120
RATE_LIMIT_BURST = 20
P
cat > ratelimit.py <<'P'
import time

from config import RATE_LIMIT_BURST, RATE_LIMIT_PER_MINUTE


class TokenBucket:
    def __init__(self, rate=RATE_LIMIT_PER_MINUTE / 60, burst=RATE_LIMIT_BURST):
        self.rate, self.burst, self.tokens, self.t = rate, burst, burst, time.monotonic()

    def allow(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
P
sed -i 's/^## Unreleased$/## Unreleased\n- Add token-bucket rate limiting/' CHANGELOG.md
git add . && git commit -q -m "Add rate limiting"
git checkout -q main
export GIT_AUTHOR_DATE="2024-03-02T09:00:00+00:00" GIT_COMMITTER_DATE="2024-03-02T09:00:00+00:00"
sed -i 's/^TIMEOUT = 30$/TIMEOUT = 45/; s/^ALLOWED_HOSTS = .*/ALLOWED_HOSTS = ["example.com", "api.example.com"]/' config.py
sed -i 's/^## Unreleased$/## Unreleased\n- Serve the API from api.example.com/' CHANGELOG.md
git commit -q -am "Serve API host, raise timeout"
