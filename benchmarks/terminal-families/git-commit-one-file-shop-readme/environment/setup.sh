#!/bin/bash
set -e
cd /app
git config --global user.name 'Dana Dev'
git config --global user.email dana@example.com
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-03-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Dana Dev' -c user.email=dana@example.com commit -q "$@"
}
mkdir -p /app/repo
git init -q /app/repo
cd /app/repo
printf '%s' '# Shop

A small web shop.
' > README.md
git add -A && commit -m 'Initial commit'
mkdir -p src
printf '%s' 'def total(items):
    return sum(items)
' > src/cart.py
git add -A && commit -m 'Add cart total'
mkdir -p src
printf '%s' 'def login(user):
    return user is not None
' > src/auth.py
git add -A && commit -m 'Add login check'
mkdir -p src
printf '%s' 'def total(items):
    return round(sum(items), 2)
' > src/cart.py
git add -A && commit -m 'Fix rounding in invoice totals' -m 'Totals were off by a cent for some carts.'
printf '%s' '# Shop

A small web shop.

Run it with `make run`.
' > README.md
mkdir -p src
printf '%s' 'def total(items):
    return round(sum(items), 2)  # TODO: currency
' > src/cart.py
printf '%s' 'temporary notes
' > scratch.txt
