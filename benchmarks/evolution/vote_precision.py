"""How right the label-free estimate of an evolve run was, read against the tests afterwards.

    python benchmarks/evolution/vote_precision.py --run RUN_DIR --out ROWS.jsonl   # export
    python benchmarks/evolution/vote_precision.py --summary ROWS.jsonl             # the table
    ... --run RUN_DIR --out ROWS.jsonl --capture-untouched DIR   # also each task's untouched files

--capture-untouched (a run made before the engine kept them): each train task's files as a fresh
container of its image holds them, captured into DIR (Docker), their digest on the task's rows; the
summary then also re-applies the vote with the rule that untouched files agree with nothing.

An evolve run keeps every train attempt's test result apart from what evolution reads (the
verifier runs on every attempt; with trajectory_only no phase reads it). This script reads them
only afterwards. Export: one compact row per train attempt (cycle, task, attempt: 0 the batch's,
k the explore pass's; the judge's score; the digest of the files it left; whether its tests passed;
whether the run counted it as the task's pass), and one row per distilled entry. Summary: the
precision (Wilson 95% interval) and recall of the judge alone on the batch, of the run's own
estimate (explore.agree's vote, else the judge) per task, and how many distilled entries came from
an attempt the tests failed; with explore.confirm_model, one row per task the vote counted (the other
model's digest, whether it left the counted attempt's files, its own tests) and how many right and
wrong counts it kept. The rows are small and are what docs/results.md keeps per run."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.engine.phase_explore import confirm_dir  # noqa: E402
from adaptive_skill.files import read_json  # noqa: E402

THRESHOLD = 7.0  # judge.pass_threshold of every documented run


def wilson(k: int, n: int, z: float = 1.96) -> list[float] | None:
    if not n:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def _tests(results_dir: Path, task: str) -> bool | None:
    data = read_json(results_dir / f"{task}.json", None)
    if not isinstance(data, dict) or data.get("failure_mode") == "unverified":
        return None
    return bool(data.get("passed"))


def untouched_digest(cycle_dir: Path, task: str, capture: Path | None) -> str | None:
    """The task's files before any attempt: kept by the engine (explore/untouched), else captured
    into `capture` from a fresh container of the task's image (the suite of the run's config)."""
    from adaptive_skill.sandbox.state import load_state

    kept = load_state(cycle_dir / "explore" / "untouched" / task)
    if kept is None and capture is not None:
        from adaptive_skill.config import load_config
        from adaptive_skill.harness.providers import make_provider
        from adaptive_skill.sandbox.state import capture_initial_state
        from adaptive_skill.tasks import load_task

        config = load_config(cycle_dir.parents[1] / "config.yaml")
        kept = capture_initial_state(make_provider(config.sandbox), load_task(config.paths.suite / task),
                                     capture / task)
    return None if kept is None or kept.error else kept.digest


def export(run: Path, capture: Path | None = None) -> list[dict]:
    """Every train attempt of every cycle of `run`, with its test result, and the distilled entries."""
    rows: list[dict] = []
    for cycle_dir in sorted((run / "cycles").glob("[0-9]*")):
        cycle = int(cycle_dir.name)
        observed = read_json(cycle_dir / "observe.json", None) or {}
        explored = read_json(cycle_dir / "explore.json", None) or {}
        agreed = explored.get("agreed")
        for item in observed.get("items", []):
            task = item["task"]
            verdict = item.get("verdict") or {}
            state = read_json(cycle_dir / "solve" / "state" / task / "state.json", None) or {}
            rows.append({"kind": "attempt", "cycle": cycle, "task": task, "attempt": 0,
                         "score": verdict.get("score"), "digest": state.get("digest"),
                         "untouched": untouched_digest(cycle_dir, task, capture),
                         "tests": _tests(cycle_dir / "solve" / "results", task),
                         "counted": agreed.get(task) == 0 if agreed is not None else
                         (verdict.get("score") or 0) >= THRESHOLD})
        for attempt in explored.get("attempts", []):
            task, k = attempt["task"], attempt["attempt"]
            rows.append({"kind": "attempt", "cycle": cycle, "task": task, "attempt": k,
                         "score": attempt.get("score"), "digest": attempt.get("digest"),
                         "tests": _tests(cycle_dir / "explore" / f"p{k}" / "results", task),
                         "counted": agreed.get(task) == k if agreed is not None else bool(attempt.get("passed"))})
        # explore.confirm_model: the other model's attempt of each task the vote counted (agreed.json)
        for agreed_file in sorted((cycle_dir / "observations").glob("*/agreed.json")):
            confirmed = (read_json(agreed_file, None) or {}).get("confirmed")
            if not isinstance(confirmed, dict):
                continue
            task, model = agreed_file.parent.name, str(confirmed.get("model"))
            folder = confirm_dir(cycle_dir, model)
            rows.append({"kind": "confirm", "cycle": cycle, "task": task, "model": model,
                         "digest": confirmed.get("digest"), "same": bool(confirmed.get("same")),
                         "tests": _tests(folder / "results", task)})
        distilled = read_json(cycle_dir / "evolve" / "distill.json", None) or {}
        for entry in distilled.get("passed", []):
            rows.append({"kind": "distilled", "cycle": cycle, "task": entry.get("task"),
                         "explored": entry.get("explored"), "commands": entry.get("commands")})
    return rows


def _vote_hit(group: list[dict]) -> dict | None:
    """The attempt row explore.agree's vote counts among one task's rows (untouched files agreeing
    with nothing), before any other model's confirmation; None when it counts none."""
    from adaptive_skill.observe.agreement import Vote, agreed

    untouched = next((r.get("untouched") for r in group if r["attempt"] == 0), None)
    hit = agreed([Vote(r["attempt"], r["score"], r["digest"]) for r in group], THRESHOLD, untouched)
    return next(r for r in group if r["attempt"] == hit.attempt) if hit else None


def summary(rows: list[dict]) -> dict:
    attempts = [r for r in rows if r["kind"] == "attempt" and r["tests"] is not None]
    batch = [r for r in attempts if r["attempt"] == 0]

    def table(predicted: list[bool], labels: list[bool]) -> dict:
        tp = sum(p and y for p, y in zip(predicted, labels, strict=True))
        fp = sum(p and not y for p, y in zip(predicted, labels, strict=True))
        fn = sum(not p and y for p, y in zip(predicted, labels, strict=True))
        return {"tp": tp, "fp": fp, "fn": fn, "precision": round(tp / (tp + fp), 3) if tp + fp else None,
                "precision_interval": wilson(tp, tp + fp), "recall": round(tp / (tp + fn), 3) if tp + fn else None}

    judge = table([(r["score"] or 0) >= THRESHOLD for r in batch], [r["tests"] for r in batch])
    # per task: counted as passed by the run; right when the counted attempt's tests passed; a task is
    # passable when any of its attempts passed its tests
    tasks: dict[tuple[int, str], list[dict]] = {}
    for r in attempts:
        tasks.setdefault((r["cycle"], r["task"]), []).append(r)
    counted = [next((r for r in group if r["counted"]), None) for group in tasks.values()]
    passable = [any(r["tests"] for r in group) for group in tasks.values()]
    estimate = table([c is not None for c in counted], [c["tests"] if c else p for c, p in zip(counted, passable,
                                                                                                strict=True)])
    right = {(r["cycle"], r["task"]): r["tests"] for r in attempts if r["counted"]}
    distilled = [r for r in rows if r["kind"] == "distilled"]
    wrong = [r["task"] for r in distilled if right.get((r["cycle"], r["task"])) is False]
    out = {}
    if any(r.get("untouched") for r in batch):  # the vote again, untouched files agreeing with nothing
        hits = [_vote_hit(group) for group in tasks.values()]
        out["vote_untouched_agrees_with_nothing"] = table(
            [h is not None for h in hits], [h["tests"] if h else p for h, p in zip(hits, passable, strict=True)])
        out["untouched_tasks"] = sorted(t for (_, t), g in tasks.items()
                                        if any(r["digest"] and r["digest"] == next(
                                            (x.get("untouched") for x in g if x["attempt"] == 0), None) for r in g))
    confirms = [r for r in rows if r["kind"] == "confirm"]
    if confirms:  # the vote's counts before the other model's attempts, and which of them it kept
        before = {}
        for c in confirms:
            hit = _vote_hit(tasks.get((c["cycle"], c["task"]), []))
            before[(c["cycle"], c["task"])] = hit["tests"] if hit else None
        out["confirm"] = {
            "model": sorted({c["model"] for c in confirms}), "vote_counted": len(confirms),
            "vote_counted_wrong": sum(v is False for v in before.values()),
            "kept": sum(c["same"] for c in confirms),
            "kept_wrong": sum(c["same"] and before[(c["cycle"], c["task"])] is False for c in confirms),
            "dropped_right": sum(not c["same"] and before[(c["cycle"], c["task"])] is True for c in confirms),
            "its_attempts_passed_by_tests": sum(bool(c["tests"]) for c in confirms)}
    return {"attempts": len(attempts), "batch": len(batch), "tasks": len(tasks),
            "batch_passed_by_tests": sum(r["tests"] for r in batch),
            "judge_on_batch": judge, "run_estimate_per_task": estimate, **out,
            "distilled": len(distilled), "distilled_from_a_failed_attempt": wrong}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--run", type=Path, help="an evolve run directory (runs/<id>) to export")
    p.add_argument("--out", type=Path, help="where the exported rows go (jsonl)")
    p.add_argument("--summary", type=Path, help="rows written by --out: print the table")
    p.add_argument("--capture-untouched", type=Path, metavar="DIR",
                   help="with --run: capture each task's untouched files into DIR (Docker) where the run kept none")
    args = p.parse_args(argv)
    if args.run:
        if not (args.run / "cycles").is_dir() or not args.out:
            print(f"error: {args.run}: not an evolve run directory (no cycles/), or no --out", file=sys.stderr)
            return 2
        rows = export(args.run, args.capture_untouched)
        args.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        print(f"wrote {len(rows)} rows to {args.out}")
    source = args.summary or args.out
    if not source or not source.is_file():
        print("error: give --run RUN --out ROWS.jsonl, or --summary ROWS.jsonl", file=sys.stderr)
        return 2
    rows = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    print(json.dumps(summary(rows), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
