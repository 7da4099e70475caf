#!/bin/bash
set -e
cd /app
git config --global user.name 'Lea Roth'
git config --global user.email lea@api.example
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-10-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Lea Roth' -c user.email=lea@api.example commit -q "$@"
}
mkdir -p /app/api
git init -q /app/api
cd /app/api
mkdir -p api
printf '%s' '' > api/__init__.py
mkdir -p api
printf '%s' 'ROUTES = []
' > api/app.py
git add -A && commit -m 'Create API skeleton'
mkdir -p api
printf '%s' 'TOKENS = set()


def check(token):
    return token in TOKENS
' > api/auth.py
git add -A && commit -m 'Add token auth'
git checkout -q -b hotfix
mkdir -p api
printf '%s' 'TOKENS = set()


def check(token):
    return bool(token) and token in TOKENS
' > api/auth.py
git add -A && commit -m 'Reject empty API tokens'
git checkout -q main
mkdir -p api
printf '%s' 'PER_MINUTE = 60
' > api/limits.py
git add -A && commit -m 'Add rate limiting'
printf '%s' '# API

At most 60 requests a minute per token.
' > README.md
git add -A && commit -m 'Document the rate limits'
