"""Lever 4 of issue 51, evidence in the trajectory: does an attempt that ends by showing its result
make the label-free judge more precise?

    adaptive-skill run --suite benchmarks/terminal-easy --agent llm --estimate \\
        --config configs/curve-split2-labelfree.yaml --set models.agent.show_before_submit=true \\
        --workers 1 --out RUN --task ... (split 2's 40 train tasks)
    python benchmarks/probes/show_probe.py --export RUN --out ROWS.jsonl
    python benchmarks/probes/show_probe.py --summary ROWS.jsonl \\
        --against benchmarks/evolution/results/curve-26/votes.jsonl

`models.agent.show_before_submit` holds the agent's first submit and answers it with what its
commands wrote (`ls -ld` and the first lines of each file a redirection named), so the record the
judge reads ends with the result itself. The run attempts split 2's train tasks as run 26's batch
did (same config, the agent at temperature 0, the seed workspace), with the option on, and has the
judge estimate each attempt from its record (`--estimate`). The export keeps one compact row per
attempt: the judge's score, the tests' result (read only here, afterwards), whether a submit was
held (by the show, or as too early), and whether the show printed files (a held submit's output).
The summary sets the judge's precision and recall beside the same judge's on run 26's batch
attempts of the same tasks (its votes.jsonl, attempt 0), and counts the tasks whose tests' result
or verdict changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent / "evolution"))  # vote_precision, a records tool

from vote_precision import THRESHOLD, wilson  # noqa: E402

from adaptive_skill.files import read_json  # noqa: E402


def export(run: Path) -> list[dict]:
    """One row per estimated attempt of `run` (an `adaptive-skill run --estimate` directory)."""
    rows = []
    for path in sorted((run / "estimates").glob("*.json")):
        estimate = read_json(path, None) or {}
        trajectory = read_json(run / "trajectories" / path.name, None) or {}
        steps = trajectory.get("steps") or []
        submits = [s for s in steps if isinstance(s, dict) and s.get("tool") == "submit"]
        # a held submit carries the reason it was held (agent/loop.py); one the show held, what it printed
        held = [s for s in submits if s.get("error")]
        rows.append({"task": path.stem, "score": estimate.get("score"), "tests": estimate.get("tests_passed"),
                     "held": bool(held), "shown": any(s.get("output") for s in held), "steps": len(steps)})
    return rows


def confusion(pairs: list[tuple[bool, bool]]) -> dict:
    tp = sum(p and y for p, y in pairs)
    fp = sum(p and not y for p, y in pairs)
    fn = sum(not p and y for p, y in pairs)
    return {"n": len(pairs), "passed_by_tests": tp + fn, "tp": tp, "fp": fp, "fn": fn,
            "precision": round(tp / (tp + fp), 3) if tp + fp else None, "precision_interval": wilson(tp, tp + fp),
            "recall": round(tp / (tp + fn), 3) if tp + fn else None}


def summary(rows: list[dict], against: list[dict]) -> dict:
    """The judge on the shown attempts and on the baseline's batch attempts of the same tasks."""
    from adaptive_skill.observe.calibration import auroc

    base = {r["task"]: r for r in against if r.get("kind") == "attempt" and r.get("cycle") == 1
            and r.get("attempt") == 0}
    shown = {r["task"]: r for r in rows if r["tests"] is not None and r["score"] is not None}
    tasks = sorted(set(shown) & {t for t, r in base.items() if r.get("tests") is not None
                                 and r.get("score") is not None})

    def side(get: dict) -> dict:
        scores = [float(get[t]["score"]) for t in tasks]
        labels = [bool(get[t]["tests"]) for t in tasks]
        return {**confusion([(s >= THRESHOLD, y) for s, y in zip(scores, labels, strict=True)]),
                "auroc": auroc(scores, labels)}

    return {"tasks": len(tasks), "held": sum(1 for t in tasks if shown[t]["held"]),
            "shown_files": sum(1 for t in tasks if shown[t].get("shown")),
            "shown": side(shown), "baseline": side(base),
            "tests_changed": [t for t in tasks if bool(shown[t]["tests"]) != bool(base[t]["tests"])],
            "verdict_changed": [t for t in tasks if (float(shown[t]["score"]) >= THRESHOLD)
                                != (float(base[t]["score"]) >= THRESHOLD)],
            "wrong_passes": {"shown": [t for t in tasks if float(shown[t]["score"]) >= THRESHOLD
                                       and not shown[t]["tests"]],
                             "baseline": [t for t in tasks if float(base[t]["score"]) >= THRESHOLD
                                          and not base[t]["tests"]]}}


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--export", type=Path, metavar="RUN", help="an `adaptive-skill run --estimate` directory")
    p.add_argument("--out", type=Path, help="with --export: the rows file to write")
    p.add_argument("--summary", type=Path, metavar="ROWS", help="the rows to summarise")
    p.add_argument("--against", type=Path, help="with --summary: the baseline run's votes.jsonl")
    args = p.parse_args(argv)
    try:
        if args.export:
            if not (args.export / "estimates").is_dir() or args.out is None:
                raise ValueError(f"--export {args.export}: no estimates/ there (run with --estimate), or no --out")
            rows = export(args.export)
            args.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
            print(f"{args.out}: {len(rows)} attempt(s)")
            return 0
        if args.summary and args.against:
            print(json.dumps(summary(_rows(args.summary), _rows(args.against)), indent=1))
            return 0
        raise ValueError("give --export RUN --out ROWS, or --summary ROWS --against VOTES")
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
