#!/bin/bash
cd /app/libcalc
export FILTER_BRANCH_SQUELCH_WARNING=1
git filter-branch -f --env-filter '
if [ "$GIT_AUTHOR_EMAIL" = "jane@old-corp.example" ]; then GIT_AUTHOR_EMAIL="jane.roe@newco.example"; fi
if [ "$GIT_COMMITTER_EMAIL" = "jane@old-corp.example" ]; then GIT_COMMITTER_EMAIL="jane.roe@newco.example"; fi
' --tag-name-filter cat -- --all
git for-each-ref --format='%(refname)' refs/original/ | xargs -r -n1 git update-ref -d
git checkout -q main
