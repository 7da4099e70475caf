"""How precise is the label-free success estimate? The plain judge and each lever, side by side.

    python benchmarks/probes/estimate_probe.py --out DIR [--seed 2] [--hot 2] [--temperature 1.0]
        [--task ID ...] [--model M]
    python benchmarks/probes/estimate_probe.py --out DIR --summary   # the figures again, from DIR

The agent, model and seed workspace of the learning-curve benchmark (run.py's defaults, label-free):
every train task of split --seed is attempted once as the evolve batch attempts it (the agent's own
temperature, 0) and --hot more times at --temperature with explore's sampling seeds, as explore
passes do (without a reflect note). Every attempt keeps its final state (sandbox/state.py). Then,
label-free, each attempt is estimated by
  plain     the judge on the compressed trajectory (what the engine has used so far);
  state     the same judge, also shown what read-only checks of the final state printed: the checks
            are written by the judge's model from the instruction alone, once per task, and run on a
            copy of each attempt's state in a fresh container (observe/checks.py);
and each with agreement across a task's attempts: an attempt counts as passed only when its
fingerprint (what the checks printed; or the hash of the files it left) is shared by another of the
task's attempts. Only then are the tests' results read, to measure each estimate: precision and
recall at the judge's threshold, the best recall at precision >= 0.90 (the threshold chosen on these
same attempts, so an optimistic figure), AUROC, and the seconds each costs per attempt.

Everything is written under DIR (attempts.jsonl: one compact row per attempt, the raw record of the
figures; results.json) and reused on a re-run: finished attempts, verdicts (the judge's cache), the
checks of each task and their runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # reflect_probe, a sibling
sys.path.insert(0, str(HERE.parent / "evolution"))  # run.py, the learning-curve benchmark
sys.path.insert(0, str(HERE.parents[1]))

import run as bench  # noqa: E402
from reflect_probe import train_split, wilson  # noqa: E402

from adaptive_skill.errors import UserError  # noqa: E402
from adaptive_skill.files import read_json, write_json_atomic, write_text_atomic  # noqa: E402

THRESHOLD = 7.0
PRECISION_TARGET = 0.90


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, type=Path, help="output directory (re-run with it to resume)")
    p.add_argument("--seed", type=int, default=2, help="the split whose train tasks are tried (default 2)")
    p.add_argument("--hot", type=int, default=2, help="attempts per task at --temperature (default 2)")
    p.add_argument("--temperature", type=float, default=1.0, help="of the hot attempts (default 1.0, explore's)")
    p.add_argument("--task", action="append", default=[], metavar="ID", help="these train tasks only (repeatable)")
    p.add_argument("--model", default=bench.DEFAULT_MODEL, help=f"every role (default {bench.DEFAULT_MODEL})")
    p.add_argument("--summary", action="store_true", help="only summarise what DIR holds")
    p.add_argument("--state-only", action="store_true",
                   help="after the attempts (or on DIR's rows, with --summary): one more verdict per attempt, the "
                        "judge shown the checks of the final state and not the record (the state_only estimate)")
    return p.parse_args(argv)


# -- measuring -------------------------------------------------------------------------------------


def confusion(predicted: list[bool], labels: list[bool]) -> dict:
    tp = sum(p and y for p, y in zip(predicted, labels, strict=True))
    fp = sum(p and not y for p, y in zip(predicted, labels, strict=True))
    fn = sum(not p and y for p, y in zip(predicted, labels, strict=True))
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    return {"tp": tp, "fp": fp, "fn": fn, "tn": len(labels) - tp - fp - fn,
            "precision": precision, "precision_interval": wilson(tp, tp + fp) if tp + fp else None,
            "recall": recall, "recall_interval": wilson(tp, tp + fn) if tp + fn else None}


def best_at_precision(scores: list[float], labels: list[bool], target: float = PRECISION_TARGET) -> dict | None:
    """The lowest threshold whose precision reaches `target` (the most recall), chosen on these rows."""
    for threshold in sorted(set(scores)):
        row = confusion([s >= threshold for s in scores], labels)
        if row["precision"] is not None and row["precision"] >= target and row["tp"] >= 1:
            return {"threshold": threshold, **row}
    return None


def support(rows: list[dict], key: str) -> list[int]:
    """For each row, how many attempts of its task share its fingerprint `key` (itself included;
    1 for a row without one)."""
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        if row.get(key):
            counts[(row["task"], row[key])] = counts.get((row["task"], row[key]), 0) + 1
    return [counts.get((row["task"], row[key]), 1) if row.get(key) else 1 for row in rows]


def estimates(rows: list[dict]) -> dict:
    """Every estimate of `rows` (those with both verdicts), against the tests."""
    from adaptive_skill.observe.calibration import auroc

    rows = [r for r in rows if r.get("plain") is not None and r.get("state") is not None]
    labels = [bool(r["passed"]) for r in rows]
    attempts = max((r["attempt"] for r in rows), default=0) + 1
    out = {"attempts": len(rows), "passed": sum(labels), "tasks": len({r["task"] for r in rows}),
           "per_task": attempts, "estimates": {}}
    judges = ["plain", "state", "both"]  # both: the lower of the two verdicts (each must pass)
    if rows and all(r.get("state_only") is not None for r in rows):
        judges.append("state_only")
    for judge in judges:
        scores = [min(float(r["plain"]), float(r["state"])) if judge == "both" else float(r[judge]) for r in rows]
        out["estimates"][judge] = {"auroc": auroc(scores, labels),
                                   "at_threshold": confusion([s >= THRESHOLD for s in scores], labels),
                                   "best": best_at_precision(scores, labels)}
        for finger in ("checks", "files"):
            agreed = support(rows, f"{finger}_fingerprint")
            # ranked by agreement first, then the judge: an attempt nobody else's state matched ranks last
            ranked = [s + 11 * (a >= 2) for s, a in zip(scores, agreed, strict=True)]
            out["estimates"][f"{judge}+agree-{finger}"] = {
                "auroc": auroc(ranked, labels),
                "at_threshold": confusion([s >= THRESHOLD and a >= 2 for s, a in zip(scores, agreed, strict=True)],
                                          labels),
                "best": best_at_precision(ranked, labels)}
    return out


def costs(rows: list[dict]) -> dict:
    def median(key: str) -> float | None:
        values = [r[key] for r in rows if r.get(key) is not None]
        return round(statistics.median(values), 2) if values else None

    return {key: median(key) for key in ("agent_sec", "state_sec", "plain_sec", "checks_sec", "state_judge_sec",
                                         "state_only_sec")} | {
        "plan_sec_per_task": median("plan_sec")}


# -- running ---------------------------------------------------------------------------------------


def probe(args: argparse.Namespace) -> list[dict]:
    from adaptive_skill.engine import explore_seed
    from adaptive_skill.harness.agents import build_agent
    from adaptive_skill.harness.batch import run_batch
    from adaptive_skill.harness.providers import make_provider
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.observe.checks import Checker
    from adaptive_skill.observe.judge import Judge

    if args.hot < 0 or not 0 < args.temperature <= 2:
        raise UserError("--hot must be 0 or more and --temperature above 0 and at most 2")
    out = args.out.resolve()
    s, config, train = train_split(out, args.seed, args.model)
    unknown = sorted(set(args.task) - {t.id for t in train})
    if unknown:
        raise UserError(f"--task: not a train task of split {args.seed}: {', '.join(unknown)}")
    tasks = [t for t in train if not args.task or t.id in args.task]
    settings = {"seed": args.seed, "hot": args.hot, "temperature": args.temperature, "model": args.model,
                "tasks": [t.id for t in tasks]}
    saved = read_json(out / "settings.json", None)
    if saved is not None and saved != settings:
        raise UserError(f"{out / 'settings.json'}: this directory was run with other settings; use another --out")
    write_json_atomic(out / "settings.json", settings)
    provider = make_provider(config.sandbox)
    accounting = Accounting(config.limits)
    judge_llm = make_llm(config.models.judge, accounting, role="judge")
    judge = Judge(judge_llm, config.judge, out / "cache" / "verdicts")
    checker = Checker(judge_llm, out / "cache" / "checks")

    passes = [(0, None, None)] + [(i + 1, args.temperature, explore_seed(config.seed, 1, i)) for i in range(args.hot)]
    plans: dict = {}
    rows: list[dict] = []
    for index, temperature, seed in passes:  # each pass estimated before the next: rows grow as it goes
        c = config.model_copy(deep=True)
        if temperature is not None:
            c.models.agent.temperature, c.models.agent.seed = temperature, seed
        folder = out / f"a{index}"
        agent = build_agent("llm", c, workspace=bench.SEED_WORKSPACE, trajectories_dir=folder / "trajectories",
                            llm=make_llm(c.models.agent, accounting, role="agent"))
        print(f"[{time.strftime('%H:%M:%S')}] attempt {index}: {len(tasks)} task(s)", flush=True)
        run_batch(tasks, agent, provider, folder / "results", workers=1, state_dir=folder / "state")
        print(f"[{time.strftime('%H:%M:%S')}] estimates of attempt {index}", flush=True)
        for task in tasks:
            if task.id not in plans:
                started = time.monotonic()
                plan = checker.plan(task.instruction)
                plans[task.id] = (plan, None if plan.cached else round(time.monotonic() - started, 2))
            row = _estimate(task, folder, index, plans[task.id], checker, judge, provider)
            if row is not None:
                rows.append(row)
                _write_rows(out, rows)
    return rows


def _estimate(task, folder: Path, index: int, planned, checker, judge, provider) -> dict | None:
    """One attempt's row: both verdicts (the plain one first: the one with checks extends its question,
    so an embedded judge reuses the prompt it just read), the checks, the fingerprints, the seconds."""
    from adaptive_skill.observe.checks import CheckedState

    result = read_json(folder / "results" / f"{task.id}.json", None)
    if result is None or not result.get("trajectory_path"):
        return None
    trajectory = read_json(Path(result["trajectory_path"]), None)
    plan, plan_sec = planned
    checked_path = folder / "checks" / f"{task.id}.json"
    stored = read_json(checked_path, None)
    if stored is not None:
        checked = CheckedState.from_dict(stored)
    else:
        checked = checker.run(provider, task, folder / "state" / task.id, plan.commands)
        write_json_atomic(checked_path, checked.to_dict())
    timed, verdicts = {}, {}
    for name, evidence in (("plain", None), ("state", checked.evidence())):
        if name == "state" and evidence is None:  # nothing was checked: the estimate is the plain judge's
            timed[name], verdicts[name] = None, verdicts["plain"]
            continue
        started = time.monotonic()
        item = judge.judge_many([_item(task, trajectory, evidence)], workers=1)[0]
        timed[name] = None if getattr(item, "cached", False) else round(time.monotonic() - started, 2)
        verdicts[name] = item.score if getattr(item, "status", "") == "ok" else None
    state = read_json(folder / "state" / task.id / "state.json", {}) or {}
    durations = result.get("durations", {})
    return {"task": task.id, "category": task.category, "attempt": index, "passed": bool(result["passed"]),
            "plain": verdicts["plain"], "state": verdicts["state"], "checks": plan.commands,
            "checks_error": checked.error, "checks_fingerprint": checked.fingerprint(),
            "files_fingerprint": state.get("digest"), "agent_sec": durations.get("agent"),
            "state_sec": durations.get("state"), "plan_sec": plan_sec,
            "checks_sec": checked.seconds if stored is None else stored.get("seconds"),
            "plain_sec": timed["plain"], "state_judge_sec": timed["state"]}


HIDDEN = "(not shown: judge by the final state below)"


def state_only(out: Path, rows: list[dict], model: str) -> list[dict]:
    """One more verdict per row: the judge shown the instruction and the checks' output, not the record
    (where nothing was checked, the plain verdict stands). Written into the rows as it goes."""
    from adaptive_skill.llm import Accounting, make_llm
    from adaptive_skill.observe.checks import CheckedState
    from adaptive_skill.observe.judge import Judge, JudgeItem
    from adaptive_skill.tasks.loader import load_suite

    s = bench.settings(bench.parse_args(["--out", str(out), "--model", model]))
    config = bench.build_config(s, out)
    tasks = {t.id: t for t in load_suite(Path(s["suite"]))}
    judge = Judge(make_llm(config.models.judge, Accounting(config.limits), role="judge"), config.judge,
                  out / "cache" / "verdicts")
    print(f"[{time.strftime('%H:%M:%S')}] state-only verdicts of {len(rows)} attempts", flush=True)
    for row in rows:
        if row.get("state_only") is not None:
            continue
        stored = read_json(out / f"a{row['attempt']}" / "checks" / f"{row['task']}.json", None)
        evidence = CheckedState.from_dict(stored).evidence() if stored else None
        if evidence is None:
            row["state_only"], row["state_only_sec"] = row["plain"], None
        else:
            task = tasks[row["task"]]
            started = time.monotonic()
            item = judge.judge_many([JudgeItem(task.instruction, [], task.id, HIDDEN, evidence)], workers=1)[0]
            row["state_only_sec"] = None if getattr(item, "cached", False) else round(time.monotonic() - started, 2)
            row["state_only"] = item.score if getattr(item, "status", "") == "ok" else row["plain"]
        _write_rows(out, rows)
    return rows


def refresh_files(out: Path, rows: list[dict]) -> list[dict]:
    """Each row's fingerprints computed again by the current code from its kept tars and checks (the
    files digest gained modes and owners, the checks' lost listing times and hashes, after the first
    rows of 2026-12-02 were written); rows whose tars and checks are not here keep theirs."""
    from adaptive_skill.observe.checks import CheckedState
    from adaptive_skill.sandbox.state import load_state, state_digest

    for row in rows:
        folder = out / f"a{row['attempt']}" / "state" / row["task"]
        state = load_state(folder)
        if state is not None and state.roots and (folder / state.roots[0].tar).is_file():
            row["files_fingerprint"] = state_digest(folder, state)
        checked = read_json(out / f"a{row['attempt']}" / "checks" / f"{row['task']}.json", None)
        if isinstance(checked, dict):  # the fingerprint lost listing times and hashes on 2026-12-02
            row["checks_fingerprint"] = CheckedState.from_dict(checked).fingerprint()
    return rows


def _item(task, trajectory, evidence: str | None):
    from adaptive_skill.observe.judge import JudgeItem

    return JudgeItem(task.instruction, trajectory, task.id, evidence=evidence)


def _write_rows(out: Path, rows: list[dict]) -> None:
    write_text_atomic(out / "attempts.jsonl", "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))


def _fmt(value: float | None, pct: bool = True) -> str:
    if value is None:
        return "-"
    return f"{value:.0%}" if pct else f"{value:.2f}"


def report(rows: list[dict]) -> tuple[dict, str]:
    summary = {**estimates(rows), "costs": costs(rows)}
    lines = [f"{summary['attempts']} attempts of {summary['tasks']} tasks ({summary['per_task']} per task), "
             f"{summary['passed']} passed by the tests",
             "| estimate | AUROC | precision @7 | recall @7 | best recall at precision >= 0.90 (threshold) |",
             "| --- | --- | --- | --- | --- |"]
    for name, e in summary["estimates"].items():
        at = e["at_threshold"]
        interval = at["precision_interval"]
        best = e["best"]
        best_text = (f"{_fmt(best['recall'])} ({best['tp']}/{best['tp'] + best['fp']} precise; {best['threshold']:g})"
                     if best else "none")
        lines.append(f"| {name} | {_fmt(e['auroc'], False)} | {_fmt(at['precision'])} "
                     f"[{_fmt(interval[0]) if interval else '-'}, {_fmt(interval[1]) if interval else '-'}] "
                     f"({at['tp']}/{at['tp'] + at['fp']}) | {_fmt(at['recall'])} ({at['tp']}/{at['tp'] + at['fn']}) | "
                     f"{best_text} |")
    lines.append("median seconds: " + ", ".join(f"{k} {v}" for k, v in summary["costs"].items()))
    return summary, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out = args.out.resolve()
    try:
        if args.summary:
            path = out / "attempts.jsonl"
            if not path.is_file():
                raise UserError(f"{path}: no such file (run the probe first)")
            rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        else:
            rows = probe(args)
        rows = refresh_files(out, rows)
        _write_rows(out, rows)
        if args.state_only:
            rows = state_only(out, rows, args.model)
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    summary, table = report(rows)
    write_json_atomic(out / "results.json", summary)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
