#!/usr/bin/env python3
"""The seed's pass rate per family, from the result files of `adaptive-skill run --agent llm` runs.

    python benchmarks/terminal-families/rates.py benchmarks/terminal-families/_seed/r0.jsonl.gz

Each argument is a run directory holding results/<task>.json (as `run --out DIR` writes them) or a
kept compact record of one (attempts.jsonl.gz, adaptive_skill/curve/attempts.py). Prints one row per
family: its category, the attempts the tests passed of those made, the rate with its 95% Wilson
interval, and whether the rate lies in the band where a family can teach something (15-85%: a
family the seed always passes or always fails teaches nothing). Several runs pool their attempts;
with `--latest`, a task's attempt in a later run replaces its attempts in the earlier ones (for a
family whose instances changed and were measured again:

    python benchmarks/terminal-families/rates.py --latest _seed/r0.jsonl.gz _seed/r1.jsonl.gz

gives r1's rates for the families r1 ran and r0's for the others). `--check FILE` exits 1 when FILE
(the suite's README) does not hold the table exactly, so the table there is re-derived, not typed.
Imports nothing of adaptive_skill.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOW, HIGH = 0.15, 0.85


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def results(run: Path) -> dict[str, bool]:
    """task -> passed, from a run directory (results/<task>.json) or a kept compact record
    (attempts.jsonl.gz, as adaptive_skill/curve/attempts.py writes it)."""
    if run.suffix == ".gz":
        with gzip.open(run, "rt", encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.strip()]
        rows = [{"task_id": r["task"], "passed": r["passed"], "failure_mode": r.get("failure_mode")} for r in rows]
    else:
        rows = [json.loads(path.read_text()) for path in sorted((run / "results").glob("*.json"))]
    out = {}
    for data in rows:
        if data.get("failure_mode") in ("build_error", "sandbox_error", "interrupted"):
            continue  # not an attempt of the model's: the machine failed it
        out[data["task_id"]] = bool(data.get("passed"))
    return out


def table(runs: list[Path], latest: bool = False, measured: bool = False) -> str:
    families = tomllib.loads((HERE / "families.toml").read_text())["families"]
    categories = {}
    for task_toml in HERE.glob("*/task.toml"):
        meta = tomllib.loads(task_toml.read_text()).get("metadata", {})
        categories[task_toml.parent.name] = meta.get("category", "")
    seen = [results(run) for run in runs]
    if latest:
        merged: dict[str, bool] = {}
        for one in seen:
            merged.update(one)
        seen = [merged]
    rows = ["| family | category | passed / attempts | rate [95% CI] | 15-85% |", "|---|---|---:|---|:---:|"]
    total = [0, 0]
    inside = 0
    for name, members in sorted(families.items()):
        outcomes = [one[t] for one in seen for t in members if t in one]
        hits, n = sum(outcomes), len(outcomes)
        if measured and not n:
            continue
        total[0] += hits
        total[1] += n
        low, high = wilson(hits, n)
        ok = n > 0 and LOW <= hits / n <= HIGH
        inside += ok
        rate = f"{hits / n:.0%} [{low:.0%}, {high:.0%}]" if n else "-"
        rows.append(f"| {name} | {categories.get(members[0], '')} | {hits} / {n} | {rate} | {'yes' if ok else 'no'} |")
    low, high = wilson(*total)
    shown = len(rows) - 2 if measured else len(families)
    rows.append(f"| all | | {total[0]} / {total[1]} | {total[0] / max(total[1], 1):.0%} [{low:.0%}, {high:.0%}] "
                f"| {inside} of {shown} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run directories (each with results/)")
    parser.add_argument("--latest", action="store_true",
                        help="a task's attempt in a later run replaces its attempts in earlier ones")
    parser.add_argument("--measured", action="store_true", help="only the families the runs attempted")
    parser.add_argument("--check", type=Path, metavar="FILE", help="exit 1 unless FILE holds the table exactly")
    args = parser.parse_args(argv)
    text = table(args.runs, latest=args.latest, measured=args.measured)
    if args.check:
        if text not in args.check.read_text():
            print(f"{args.check}: does not hold the table these runs give:\n{text}")
            return 1
        print(f"{args.check} holds the table")
        return 0
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
