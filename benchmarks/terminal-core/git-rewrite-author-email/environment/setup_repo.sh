#!/bin/bash
set -e
mkdir -p /app/libcalc && cd /app/libcalc
git init -q -b main
n=0
commit() { # author-name author-email message file
  n=$((n+1))
  export GIT_AUTHOR_DATE="2023-0$(( (n % 9) + 1 ))-1${n: -1}T12:00:00+02:00" GIT_COMMITTER_DATE="2023-0$(( (n % 9) + 1 ))-1${n: -1}T12:30:00+02:00"
  export GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" GIT_COMMITTER_NAME="$1" GIT_COMMITTER_EMAIL="$2"
  echo "$3 ($n)" >> "$4"
  git add "$4" && git commit -q -m "$3"
}
commit "Jane Roe" jane@old-corp.example "Initial calculator" calc.py
commit "Sam Poe" sam@newco.example "Add README" README.md
commit "Jane Roe" jane@old-corp.example "Add subtraction" calc.py
commit "Jane Roe" jane@old-corp.example "Fix rounding" calc.py
GIT_COMMITTER_NAME="Build Bot" GIT_COMMITTER_EMAIL=build@newco.example git tag -a v1.0 -m "Version 1.0"
git checkout -q -b release/1.x
commit "Sam Poe" sam@newco.example "Backport fix" calc.py
commit "Jane Roe" jane@old-corp.example "Bump version to 1.0.1" VERSION
git checkout -q main
commit "Lee Noe" lee@newco.example "Add multiplication" calc.py
commit "Jane Roe" jane@old-corp.example "Document API" README.md
# a commit authored by Sam but committed by Jane (she applied his patch)
n=$((n+1))
GIT_AUTHOR_NAME="Sam Poe" GIT_AUTHOR_EMAIL=sam@newco.example GIT_COMMITTER_NAME="Jane Roe" GIT_COMMITTER_EMAIL=jane@old-corp.example \
GIT_AUTHOR_DATE="2023-10-01T08:00:00+00:00" GIT_COMMITTER_DATE="2023-10-02T08:00:00+00:00" \
  bash -c 'echo "division" >> calc.py && git commit -q -am "Add division"'
commit "Lee Noe" lee@newco.example "Add tests" test_calc.py
