#!/bin/bash
set -e
git config --global user.name "Dana Dev"
git config --global user.email "dana@example.com"
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-04-%02dT09:00:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -C /app/repo commit -q "$@"
}
git init -q /app/repo
cd /app/repo
printf '# Inventory\n\nTracks what is in stock.\n' > README.md
git add README.md && commit -m "Initial commit"
printf 'apples: 3\npears: 5\n' > stock.yml
git add stock.yml && commit -m "Add stock list"
git branch develop
git checkout -q develop
printf 'plums: 2\n' >> stock.yml
git add stock.yml && commit -m "Add plums"
git checkout -q main
printf 'apples: 4\npears: 5\n' > stock.yml
git add stock.yml && commit -m "Restock apples"
