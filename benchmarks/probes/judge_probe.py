"""The judge probe: the judge's verdicts on labelled attempts against the verifier's labels.

    python benchmarks/probes/judge_probe.py DIR [DIR ...] [--model M] [--max-tokens T] [--json out.json]

DIR is a directory of attempts with their verifier results: an agent probe's output
(benchmarks/probes/agent_probe.py: DIR/seed-N/trajectories and results), or any tree holding
`trajectories/<task>.json` beside `results/<task>.json` (an `adaptive-skill run --agent llm --out`).
Each attempt is judged afresh (no cache) exactly as the engine judges it (observe/judge.py, the
configured categories and threshold), and the figures are the engine's own calibration
(observe/calibration.py): accuracy at the pass threshold, AUROC, judge errors, plus the median
seconds per verdict and the prompt and reply sizes. It prints one line per attempt (label, score,
outcome) and the totals; docs/llm.md ("The judge") has the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SUITE = ROOT / "benchmarks" / "terminal-easy"


def attempts(dirs: list[Path]) -> list[tuple[str, Path, bool]]:
    """(task id, trajectory file, verifier passed) of every attempt with a result under `dirs`."""
    found = []
    for root in dirs:
        for trajectory in sorted(root.rglob("trajectories/*.json")):
            result_path = trajectory.parent.parent / "results" / trajectory.name
            try:
                result = json.loads(result_path.read_text())
            except (OSError, ValueError):
                continue
            if result.get("failure_mode") not in (None, "unresolved"):
                continue  # not a verdict on the agent's work (sandbox, build or verifier errors)
            found.append((result.get("task_id") or trajectory.stem, trajectory, bool(result.get("passed"))))
    return found


def main(argv: list[str] | None = None) -> int:
    from adaptive_skill.config import EvolveConfig, ModelConfig
    from adaptive_skill.llm import Accounting
    from adaptive_skill.llm.factory import make_llm
    from adaptive_skill.observe.calibration import metrics
    from adaptive_skill.observe.judge import Judge, JudgeFailure
    from adaptive_skill.tasks.loader import load_suite

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dirs", nargs="+", type=Path)
    p.add_argument("--model", default="local/qwen2.5-coder-1.5b")
    p.add_argument("--max-tokens", type=int, default=1024)
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    config = EvolveConfig()
    tasks = {t.id: t for t in load_suite(SUITE)}
    llm = make_llm(ModelConfig(model=args.model, max_tokens=args.max_tokens), Accounting(), "judge")
    judge = Judge(llm, config.judge)
    threshold = config.judge.pass_threshold
    rows = []
    for task_id, path, passed in attempts(args.dirs):
        if task_id not in tasks:
            continue
        started = time.monotonic()
        verdict = judge.judge(tasks[task_id].instruction, json.loads(path.read_text()), task_id=task_id)
        seconds = time.monotonic() - started
        error = isinstance(verdict, JudgeFailure)
        row = {"task": task_id, "file": str(path), "passed": passed, "seconds": round(seconds, 1),
               "score": None if error else verdict.score, "error": verdict.reason if error else None,
               "outcome": None if error else verdict.outcome,
               "failure_reason": None if error else verdict.failure_reason}
        rows.append(row)
        shown = "ERROR " + row["error"][:100] if error else f"{verdict.score:4g}  {verdict.outcome[:110]}"
        print(f"{'PASS' if passed else 'fail'} {task_id:28} {seconds:5.1f}s {shown}", flush=True)
    judged = [r for r in rows if r["score"] is not None]
    figures = metrics([r["score"] for r in judged], [r["passed"] for r in judged], threshold)
    summary = {"model": args.model, "max_tokens": args.max_tokens, "attempts": len(rows),
               "judge_errors": len(rows) - len(judged), "threshold": threshold,
               "accuracy": figures["accuracy"], "auroc": figures["auroc"], "base_rate": figures["base_rate"],
               "median_verdict_sec": round(statistics.median(r["seconds"] for r in rows), 1) if rows else None,
               "scores_when_passed": sorted(r["score"] for r in judged if r["passed"]),
               "scores_when_failed": sorted(r["score"] for r in judged if not r["passed"])}
    print(json.dumps(summary))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
