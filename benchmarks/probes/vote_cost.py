"""What the vote and the judge each buy, and what each costs, on two attempts of every task.

    python benchmarks/probes/vote_cost.py --first R0 --second R1 --untouched DIR --out ROWS.jsonl
    python benchmarks/probes/vote_cost.py --summary ROWS.jsonl

R0 and R1 are two `adaptive-skill run --agent llm --keep-state` runs over the same tasks (R0 also
with `--estimate`: the judge's verdict on each of its attempts, and the seconds it took). DIR holds
each task's untouched files (captured here, in Docker, where missing). Export: one row per task, its
two attempts' digests, whether the second attempt's files are those of the first, whether the
first's change is a near no-op (observe/agreement.near_noop), the judge's score of the first, its
tests' result, the seconds of each attempt and of the verdict. Summary: per rule (the judge alone;
agreement alone; the judge and agreement, the engine's rule), the tasks it counts, how many of those
the tests passed (precision, Wilson 95%), the recall against the first attempts the tests passed, and
the seconds spent per counted task (the second attempt for agreement, the verdict for the judge).
The tests are read only here, afterwards."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "evolution"))  # vote_precision, a records tool

from vote_precision import wilson  # noqa: E402

from adaptive_skill.files import read_json  # noqa: E402

THRESHOLD = 7.0  # judge.pass_threshold


def export(first: Path, second: Path, untouched: Path, suite: Path) -> list[dict]:
    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.observe.agreement import state_digest_of, trivial_change
    from adaptive_skill.sandbox.state import capture_initial_state
    from adaptive_skill.tasks import load_suite

    tasks = {t.id: t for t in load_suite(suite)}
    provider = None
    rows = []
    for path in sorted((first / "results").glob("*.json")):
        a = read_json(path, {})
        b = read_json(second / "results" / path.name, None)
        task = tasks.get(a.get("task_id"))
        if task is None or not isinstance(b, dict):
            continue
        if not (untouched / task.id / "state.json").is_file():
            provider = provider or make_provider(EvolveConfig().sandbox)
            capture_initial_state(provider, task, untouched / task.id)
        first_state, second_state = first / "state" / task.id, second / "state" / task.id
        estimate = read_json(first / "estimates" / f"{task.id}.json", {}) or {}
        rows.append({
            "task": task.id, "family": task.family,
            "digest": [state_digest_of(first_state), state_digest_of(second_state)],
            "untouched": state_digest_of(untouched / task.id),
            "trivial": trivial_change(first_state, untouched / task.id, task.instruction),
            "score": estimate.get("score"), "tests": [bool(a.get("passed")), bool(b.get("passed"))],
            "seconds": {"first": round(sum((a.get("durations") or {}).values()), 3),
                        "second": round(sum((b.get("durations") or {}).values()), 3),
                        "judge": estimate.get("seconds")}})
    return rows


def summary(rows: list[dict]) -> dict:
    def agree(row):
        d0, d1 = row["digest"]
        return bool(d0) and d0 == d1 and d0 != row["untouched"] and not row["trivial"]

    def judged(row):
        return row["score"] is not None and row["score"] >= THRESHOLD

    rules = {"judge alone": judged, "agreement alone": agree, "judge and agreement": lambda r: judged(r) and agree(r)}
    cost = {"judge alone": ("judge",), "agreement alone": ("second",), "judge and agreement": ("judge", "second")}
    passed = sum(r["tests"][0] for r in rows)
    out = {"tasks": len(rows), "first attempts the tests passed": passed, "rules": {}}
    for name, rule in rules.items():
        counted = [r for r in rows if rule(r)]
        right = sum(r["tests"][0] for r in counted)
        seconds = sum((r["seconds"].get(part) or 0.0) for r in rows for part in cost[name])
        out["rules"][name] = {"counted": len(counted), "right": right,
                              "precision": round(right / len(counted), 3) if counted else None,
                              "precision_ci": wilson(right, len(counted)),
                              "recall": round(right / passed, 3) if passed else None,
                              "seconds_per_counted": round(seconds / len(counted), 1) if counted else None}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=Path)
    parser.add_argument("--second", type=Path)
    parser.add_argument("--untouched", type=Path)
    parser.add_argument("--suite", type=Path, default=ROOT / "benchmarks" / "terminal-families")
    parser.add_argument("--out", type=Path, help="write the rows here (JSON lines)")
    parser.add_argument("--summary", type=Path, metavar="ROWS", help="print the summary of kept rows")
    args = parser.parse_args(argv)
    if args.summary:
        rows = [json.loads(line) for line in args.summary.read_text().splitlines() if line.strip()]
    else:
        if not (args.first and args.second and args.untouched):
            parser.error("give --first, --second and --untouched, or --summary ROWS")
        rows = export(args.first, args.second, args.untouched, args.suite)
        if args.out:
            args.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    print(json.dumps(summary(rows), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
