#!/bin/bash
set -e
mkdir -p /app/statkit && cd /app/statkit
git init -q -b main
N=0
commit() {
  N=$((N+1))
  export GIT_AUTHOR_DATE="2024-01-01T00:00:00+00:00 +$((N*3600))" 
  d=$(date -u -d "2024-01-01 00:00:00 UTC + $N hours" +%Y-%m-%dT%H:%M:%S+00:00)
  export GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d
  git add -A && git commit -q -m "$1"
}
cat > stats.py <<'P'
"""statkit: small statistics helpers."""


def mean(values):
    values = list(values)
    if not values:
        raise ValueError("mean of empty data")
    return sum(values) / len(values)


def median(values):
    data = sorted(values)
    n = len(data)
    if n == 0:
        raise ValueError("median of empty data")
    mid = n // 2
    if n % 2:
        return data[mid]
    return (data[mid - 1] + data[mid]) / 2
P
cat > test_stats.py <<'P'
import unittest

import stats


class StatsTest(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(stats.mean([1, 2, 3, 4]), 2.5)

    def test_median_odd(self):
        self.assertEqual(stats.median([5, 1, 3]), 3)

    def test_median_even(self):
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)


if __name__ == "__main__":
    unittest.main()
P
echo "# statkit" > README.md
commit "Initial statkit with mean and median"
for i in $(seq 2 4); do echo "- note $i" >> README.md; commit "Docs: usage note $i"; done
git tag v1.0
for i in $(seq 5 24); do
  case $((i % 3)) in
    0) echo "- change $i" >> CHANGELOG.md; commit "Changelog entry $i" ;;
    1) echo "def fmt_$i(x):" >> formatting.py; echo "    return f\"{x:.${i}f}\"" >> formatting.py; echo >> formatting.py; commit "Add formatter fmt_$i" ;;
    2) echo "Example $i: median([1, 2, 3]) == 2" >> README.md; commit "Docs: example $i" ;;
  esac
done
# two broken commits (syntax error), each fixed by the next commit
sed -i 's/^def mean(values):$/def mean(values) -> float/' stats.py
commit "Add return type hints (WIP)"
sed -i 's/^def mean(values) -> float$/def mean(values) -> float:/' stats.py
commit "Fix syntax of type hints"
for i in $(seq 27 29); do echo "- change $i" >> CHANGELOG.md; commit "Changelog entry $i"; done
sed -i 's/^    values = list(values)$/    values = list(values/' stats.py
commit "Accept any iterable in mean (WIP)"
for i in $(seq 31 34); do echo "- change $i" >> CHANGELOG.md; commit "Changelog entry $i"; done
sed -i 's/^    values = list(values$/    values = list(values)/' stats.py
commit "Fix unbalanced parenthesis in mean"
echo "Example 36" >> README.md; commit "Docs: example 36"
python3 - <<'P'
s = open("stats.py").read()
s = s.replace("""    mid = n // 2
    if n % 2:
        return data[mid]
    return (data[mid - 1] + data[mid]) / 2""", """    mid = n // 2
    if n % 2:
        return data[mid]
    lo, hi = data[mid - 1:mid + 1] if n > 2 else data
    return (lo + hi) / 2 if n > 2 else data[mid]""")
open("stats.py", "w").write(s)
P
commit "Simplify median for even-sized data"
for i in $(seq 38 49); do
  case $((i % 2)) in
    0) echo "- change $i" >> CHANGELOG.md; commit "Changelog entry $i" ;;
    1) echo "def fmt_$i(x):" >> formatting.py; echo "    return str(x).rjust($i)" >> formatting.py; echo >> formatting.py; commit "Add formatter fmt_$i" ;;
  esac
done
python3 - <<'P'
s = open("stats.py").read()
s = s.replace("""

def median(values):""", """

def percentile(values, p):
    data = sorted(values)
    if not data:
        raise ValueError("percentile of empty data")
    k = (len(data) - 1) * p / 100
    f = int(k)
    c = min(f + 1, len(data) - 1)
    return data[f] + (data[c] - data[f]) * (k - f)


def median(values):""")
open("stats.py", "w").write(s)
P
commit "Add percentile"
for i in $(seq 51 58); do echo "- change $i" >> CHANGELOG.md; commit "Changelog entry $i"; done
