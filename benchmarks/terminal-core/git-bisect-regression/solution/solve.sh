#!/bin/bash
cd /app/statkit
cat > /tmp/bisect-check.sh <<'S'
#!/bin/bash
python3 -c 'import stats' 2>/dev/null || exit 125   # untestable commit: skip it
python3 -c 'import stats, sys; sys.exit(0 if stats.median([10, 20]) == 15 and stats.median([4, 1, 3, 2]) == 2.5 else 1)'
S
git bisect start main v1.0 >/dev/null
git bisect run bash /tmp/bisect-check.sh >/tmp/bisect.log 2>&1
bad=$(git rev-parse refs/bisect/bad)
git bisect reset >/dev/null 2>&1
echo "$bad" > /app/first_bad.txt
git checkout -q -b hotfix main
git revert --no-edit "$bad"
git checkout -q main
