"""CLI start-up: median and p95 wall time of `adaptive-skill --help` (and `evolve --help`) over N runs.

    python benchmarks/perf/bench_cli.py [--runs 30] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path


def measure(argv: list[str], runs: int) -> dict[str, float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        samples.append(time.perf_counter() - started)
    samples.sort()
    return {"median_s": round(statistics.median(samples), 4),
            "p95_s": round(samples[min(len(samples) - 1, int(0.95 * len(samples)))], 4),
            "min_s": round(samples[0], 4), "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    results = {
        "python -c pass (interpreter floor)": measure([sys.executable, "-c", "pass"], args.runs),
        "adaptive-skill --help": measure([str(bin_dir / "adaptive-skill"), "--help"], args.runs),
        "evolve --help": measure([str(bin_dir / "evolve"), "--help"], args.runs),
    }
    width = max(map(len, results))
    print(f"{'command':<{width}}  median    p95")
    for name, r in results.items():
        print(f"{name:<{width}}  {r['median_s'] * 1000:5.0f} ms {r['p95_s'] * 1000:5.0f} ms")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
