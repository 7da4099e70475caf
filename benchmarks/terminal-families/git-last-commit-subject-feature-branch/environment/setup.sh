#!/bin/bash
set -e
cd /app
git config --global user.name 'Mia Chen'
git config --global user.email mia@web.example
git config --global init.defaultBranch main
n=0
commit() {
  n=$((n + 1))
  local d; d=$(printf '2024-05-%02dT09:30:00+0000' "$n")
  GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git -c user.name='Mia Chen' -c user.email=mia@web.example commit -q "$@"
}
mkdir -p /app/webapp
git init -q /app/webapp
cd /app/webapp
printf '%s' '<h1>Welcome</h1>
' > index.html
printf '%s' 'print('"'"'serving on :8000'"'"')
' > app.py
git add -A && commit -m 'Initial commit'
printf '%s' '<p>Our product, explained.</p>
' > landing.html
git add -A && commit -m 'Add landing page'
git checkout -q -b feature/search
printf '%s' 'def search(q):
    return []
' > search.py
git add -A && commit -m 'Add search endpoint'
printf '%s' '<h1>Welcome</h1>
<form action="/search"><input name="q"></form>
' > index.html
git add -A && commit -m 'Add search box to header' -m 'The box posts to /search.'
git checkout -q main
printf '%s' '<footer>(c) 2024 Example Ltd</footer>
' > footer.html
git add -A && commit -m 'Add footer'
mkdir -p /app
