#!/bin/bash
set -e
cd /app
git config --global user.name 'Tom Berg'
git config --global user.email tom@docs.example
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-06-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Tom Berg' -c user.email=tom@docs.example commit -q "$@"
}
mkdir -p /home/dev/docs
git init -q /home/dev/docs
cd /home/dev/docs
printf '%s' '# Handbook

How we work.
' > README.md
git add -A && commit -m 'Start the handbook'
printf '%s' '# Onboarding

1. Get a laptop
2. Read the handbook
' > onboarding.md
git add -A && commit -m 'docs: add onboarding checklist'
printf '%s' '# Backups

Nightly dumps are kept for 30 days.
' > backup.md
git add -A && commit -m 'docs: describe the backup policy' -m 'Reviewed by ops.

Refs: OPS-112'
mkdir -p /home/dev
