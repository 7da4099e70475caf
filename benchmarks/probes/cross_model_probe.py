"""Agreement across models: does a second, different model's attempt confirm the judge's passes
better than a second attempt of the same model?

    python benchmarks/probes/cross_model_probe.py --run RUN_DIR --rows ROWS.jsonl --out DIR \\
        [--model local/qwen2.5-coder-0.5b]
    python benchmarks/probes/cross_model_probe.py --rows ROWS.jsonl --out DIR --summary

Two attempts of the 1.5B that make the same mistake agree (run 25: seven tasks), so explore's vote
cannot see them. A model of another size errs otherwise; when its attempt leaves the same files as
the 1.5B's, the two are less likely to be wrong together. This probe measures that, label-free:
`--model` (default the 0.5B) attempts each train task of cycle 1 of an evolve run once, as the
batch attempted it (the run's config, its seed workspace evo-0, the agent's temperature), and its
final files are hashed as the engine hashes them (sandbox/state.py). ROWS is the run's export by
vote_precision.py (`--run RUN --out ROWS`): the batch's judge scores, digests, untouched digests and,
read only afterwards, the tests. The summary gives, per task, the precision and recall of:
  judge        the judge passes the batch's attempt;
  vote         the run's own count (explore.agree: the judge, and another attempt of the 1.5B);
  cross        the judge passes the batch's attempt and the other model's attempt left the same files;
  cross-only   the two models left the same files, no judge;
  vote+cross   the run's count, confirmed by the other model too.
A task's untouched files agree with nothing. DIR/attempts.jsonl keeps one row per attempt of the
other model (its digest and, for the summary only, its tests); a re-run reuses finished attempts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent / "evolution"))  # vote_precision, a records tool

from vote_precision import THRESHOLD, wilson  # noqa: E402

from adaptive_skill.files import read_json, write_text_atomic  # noqa: E402

DEFAULT_MODEL = "local/qwen2.5-coder-0.5b"


def attempt(run: Path, rows: list[dict], out: Path, model: str) -> list[dict]:
    """The other model's attempt of each batch task of cycle 1 (finished ones reused)."""
    from adaptive_skill.config import load_config
    from adaptive_skill.harness.agents import build_agent
    from adaptive_skill.harness.batch import run_batch
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.observe.agreement import state_digest_of
    from adaptive_skill.tasks import load_task
    from adaptive_skill.versioning import WorkspaceRepo

    config = load_config(run / "config.yaml")
    config.models.agent.model = model
    workspace = out / "workspace"
    if not workspace.is_dir():
        WorkspaceRepo.open(run / "workspace").export("evo-0", workspace)
    tasks = [load_task(config.paths.suite / r["task"]) for r in rows
             if r["kind"] == "attempt" and r["cycle"] == 1 and r["attempt"] == 0]
    agent = build_agent("llm", config, workspace=workspace, trajectories_dir=out / "trajectories",
                        llm=make_llm(config.models.agent, Accounting(config.limits), role="agent"))
    print(f"[{time.strftime('%H:%M:%S')}] {model}: {len(tasks)} task(s)", flush=True)
    run_batch(tasks, agent, make_provider(config.sandbox), out / "results", workers=1, state_dir=out / "state")
    kept = []
    for task in tasks:
        result = read_json(out / "results" / f"{task.id}.json", None) or {}
        kept.append({"task": task.id, "model": model, "digest": state_digest_of(out / "state" / task.id),
                     "tests": None if result.get("failure_mode") == "unverified" else bool(result.get("passed")),
                     "agent_sec": (result.get("durations") or {}).get("agent")})
    write_text_atomic(out / "attempts.jsonl", "".join(json.dumps(r, sort_keys=True) + "\n" for r in kept))
    return kept


def summary(rows: list[dict], other: list[dict]) -> dict:
    """Per task of cycle 1: each estimate's precision (Wilson 95%) and recall. A counted task is right
    when the attempt it counts passed its tests (the batch's, except for the run's vote, which may
    count an explore attempt); recall is over the tasks that attempt of the 1.5B could pass."""
    attempts = [r for r in rows if r["kind"] == "attempt" and r["cycle"] == 1 and r["tests"] is not None]
    groups: dict[str, list[dict]] = {}
    for r in attempts:
        groups.setdefault(r["task"], []).append(r)
    theirs = {r["task"]: r for r in other}
    lines: dict[str, list[tuple[bool, bool]]] = {k: [] for k in ("judge", "vote", "cross", "cross-only",
                                                                 "vote+cross")}
    for task, group in sorted(groups.items()):
        batch = next((r for r in group if r["attempt"] == 0), None)
        if batch is None:
            continue
        untouched = batch.get("untouched")
        judged = (batch["score"] or 0) >= THRESHOLD
        same = bool(batch["digest"]) and batch["digest"] != untouched and (theirs.get(task) or {}).get(
            "digest") == batch["digest"]
        counted = next((r for r in group if r["counted"]), None)
        passable = any(r["tests"] for r in group)
        lines["judge"].append((judged, batch["tests"]))
        lines["vote"].append((counted is not None, counted["tests"] if counted else passable))
        lines["cross"].append((judged and same, batch["tests"]))
        lines["cross-only"].append((same, batch["tests"]))
        lines["vote+cross"].append((counted is not None and counted["attempt"] == 0 and same,
                                    batch["tests"]))

    def table(pairs: list[tuple[bool, bool]]) -> dict:
        tp = sum(p and y for p, y in pairs)
        fp = sum(p and not y for p, y in pairs)
        fn = sum(not p and y for p, y in pairs)
        return {"counted": tp + fp, "tp": tp, "fp": fp, "fn": fn,
                "precision": round(tp / (tp + fp), 3) if tp + fp else None,
                "precision_interval": wilson(tp, tp + fp), "recall": round(tp / (tp + fn), 3) if tp + fn else None,
                "wrong": None}

    out = {"tasks": len(lines["judge"]), "other_model": sorted({r["model"] for r in other}),
           "other_passed_by_tests": sum(1 for r in other if r["tests"]),
           "estimates": {k: table(v) for k, v in lines.items()}}
    wrong_cross = sorted(t for t, g in groups.items()
                         if (b := next((r for r in g if r["attempt"] == 0), None)) and not b["tests"]
                         and b["digest"] and b["digest"] != b.get("untouched")
                         and (theirs.get(t) or {}).get("digest") == b["digest"])
    out["estimates"]["cross-only"]["wrong"] = wrong_cross
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--run", type=Path, help="the evolve run whose cycle-1 batch is attempted again")
    p.add_argument("--rows", type=Path, required=True, help="the run's rows (vote_precision.py --run RUN --out ROWS)")
    p.add_argument("--out", type=Path, required=True, help="where the other model's attempts go (resumable)")
    p.add_argument("--model", default=DEFAULT_MODEL, help=f"the other model (default {DEFAULT_MODEL})")
    p.add_argument("--summary", action="store_true", help="only print the table from ROWS and DIR")
    args = p.parse_args(argv)
    try:
        rows = [json.loads(line) for line in args.rows.read_text().splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        print(f"error: {args.rows}: {exc}", file=sys.stderr)
        return 2
    if args.summary:
        other = [json.loads(line) for line in (args.out / "attempts.jsonl").read_text().splitlines() if line.strip()]
    else:
        if args.run is None or not (args.run / "config.yaml").is_file():
            print(f"error: --run {args.run}: not an evolve run directory (no config.yaml)", file=sys.stderr)
            return 2
        other = attempt(args.run, rows, args.out, args.model)
    print(json.dumps(summary(rows, other), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
