"""The finished parts of a curve -> results.json: each workspace's pass rate, its paired difference
with the seed and its share of the expert's headroom, every interval bootstrapped by task (seeded);
per cycle of the evolve run, what the evolver wrote and the gate's evidence; what each part cost.

The schema is the one benchmarks/evolution/run.py has written since run 3; readers of older files
(the page, results.md) rely on it."""

from __future__ import annotations

import math
from pathlib import Path

from adaptive_skill.curve.stats import LEVEL, RESAMPLES, bootstrap_mean, headroom_share, paired_difference, pass_rate
from adaptive_skill.engine.records import GateResult
from adaptive_skill.files import read_json

UNMEASURED = {"share": None, "low": None, "high": None, "note": "expert not evaluated"}


def summarise(state: dict, run_dir: Path, engine, s: dict, *, expert_split: dict | None = None,
              rounds: dict | None = None) -> dict:
    """results.json from state.json's parts (interrupted ones left out). `s`: the settings shown
    (their `seed` seeds every bootstrap); `expert_split`: {seed, holdout_ratio} of the split whose
    train tasks the expert was written from (None: no rows on the tasks it was not written from);
    `rounds`: {first, gate_rounds}, the gate rounds whose seeds the repeats sampled with from `first`
    on, and how many rounds each gate took: results.json says whether a tag's figures are the rounds
    that accepted it (`fresh` false) or seeds no gate saw. `provenance`: each part's sessions (code,
    machine, load; curve/provenance.py), absent from parts recorded before they were kept."""
    from adaptive_skill.llm.accounting import read_journal

    journal = read_journal(run_dir / "costs.jsonl") if (run_dir / "costs.jsonl").exists() else []
    parts = {key: part for key, part in state["parts"].items() if part.get("done")}  # not an interrupted one
    seed_scores = parts["seed"]["scores"]
    expert_scores = parts["expert"]["scores"] if "expert" in parts else None  # no expert: no headroom
    seed = s["seed"]

    def cost(record: dict) -> dict:
        windows = record.get("windows", [])
        lines = [e for e in journal if any(a <= e.get("ts", 0) <= b for a, b in windows)]
        return {"wall_sec": round(sum(b - a for a, b in windows), 1),
                "prompt_tokens": sum(e.get("prompt_tokens", 0) for e in lines),
                "completion_tokens": sum(e.get("completion_tokens", 0) for e in lines), "llm_calls": len(lines)}

    def row(label: str, key: str, cycle: int | None) -> dict:
        scores = parts[key]["scores"]
        return {"label": label, "cycle": cycle, "pass_rate": pass_rate(scores, seed=seed).to_dict(),
                "vs_seed": paired_difference(scores, seed_scores, seed=seed).to_dict(),
                "headroom_share": UNMEASURED if expert_scores is None else
                headroom_share(scores, seed_scores, expert_scores, seed=seed),
                "attempts": sum(len(v) for v in scores.values()), **cost(parts[key]), "scores": scores}

    unseen = None if expert_scores is None or expert_split is None else expert_unseen(engine, parts, seed,
                                                                                       expert_split)
    evolved = parts.get("evolve")  # None: no evolve run
    tags = evolved["accepted"] if evolved else []
    cycles = cycle_evidence(run_dir, engine, seed=seed) if evolved else []
    curve = [row("seed (evo-0)", "seed", 0)] + [
        row(tag, f"tag:{tag}", engine.repo.tag_info(tag).metrics.get("cycle")) for tag in tags]
    return {"settings": s, "holdout": [t.id for t in engine.holdout], "run": str(run_dir),
            "bootstrap": {"unit": "task (paired; repeats averaged within a task)", "resamples": RESAMPLES,
                          "level": LEVEL, "seed": seed},
            "seed": curve[0], "expert": None if expert_scores is None else row("expert", "expert", None),
            "curve": curve, "cycles": cycles, "expert_unseen": unseen,
            "twins": twin_rows(parts, seed, engine.train, engine.holdout),
            "workspaces": [row(Path(key.split(":", 1)[1]).name, key, None) | {"path": key.split(":", 1)[1]}
                           for key in parts if key.startswith("workspace:")],
            "evolve": None if evolved is None else {"status": evolved["status"], "accepted": tags, **cost(evolved)},
            **({"provenance": provenance} if (provenance := {key: part["sessions"] for key, part in parts.items()
                                                             if part.get("sessions")}) else {}),
            **({} if rounds is None else {"rounds": {**rounds, "fresh": rounds["first"] >= rounds["gate_rounds"]}})}


def twin_rows(parts: dict, seed: int, train, holdout) -> dict | None:
    """Every row again on the holdout tasks with a twin in the train pool (a member of the same
    declared family, tasks/split.holdout_twins: recall of a sibling's command) and on the others (a
    lesson that carries over), each paired with the seed; None when no holdout task has a twin."""
    from adaptive_skill.tasks import holdout_twins

    twins, others = holdout_twins(train, holdout)
    if not twins:
        return None
    keys = ["seed"] + [key for key in parts if key.startswith(("tag:", "workspace:"))] + (
        ["expert"] if "expert" in parts else [])
    labels = {"seed": "seed (evo-0)", "expert": "expert"}

    def on(key: str, tasks) -> dict:
        scores = {k: v for k, v in parts[key]["scores"].items() if k in tasks}
        seed_scores = {k: v for k, v in parts["seed"]["scores"].items() if k in tasks}
        return {"pass_rate": pass_rate(scores, seed=seed).to_dict(),
                "vs_seed": paired_difference(scores, seed_scores, seed=seed).to_dict()}

    return {"twins": twins, "others": others, "rows": [
        {"label": labels.get(key) or key.split(":", 1)[1].rsplit("/", 1)[-1],
         "on_twins": on(key, set(twins)), "on_others": on(key, set(others))} for key in keys]}


def twins_of(results: dict) -> dict | None:
    """twin_rows for a results.json written before it had them, from its rows and its suite's
    declared families (None when the suite is gone or declares none)."""
    from adaptive_skill.tasks import TaskError, scan_suite

    try:
        suite = scan_suite(Path(results["settings"]["suite"])).tasks
    except (TaskError, OSError, KeyError):
        return None
    holdout = set(results["holdout"])
    parts = {"seed": results["seed"]}
    parts.update({f"tag:{row['label']}": row for row in results["curve"][1:]})
    parts.update({f"workspace:{row['path']}": row for row in results.get("workspaces") or []})
    if results.get("expert"):
        parts["expert"] = results["expert"]
    return twin_rows(parts, results["settings"]["seed"], [t for t in suite if t.id not in holdout],
                     [t for t in suite if t.id in holdout])


def expert_unseen(engine, parts: dict, seed: int, split: dict) -> dict | None:
    """The rows again on the holdout tasks the expert was not written from (outside the train tasks
    of `split`), each paired with the seed and with its headroom share there; None when there are no
    others (a run on the expert's own split)."""
    from adaptive_skill.tasks import split_suite

    written_from = {t.id for t in split_suite(engine.suite, split["holdout_ratio"], split["seed"])[0]}
    tasks = {t.id for t in engine.holdout if t.id not in written_from}
    if len(tasks) == len(engine.holdout):
        return None

    def only(key: str) -> dict:
        return {k: v for k, v in parts[key]["scores"].items() if k in tasks}

    seed_scores, expert_scores = only("seed"), only("expert")
    keys = ["seed", "expert"] + [key for key in parts if key.startswith(("tag:", "workspace:"))]
    labels = {"seed": "seed (evo-0)", "expert": "expert"}
    return {"tasks": [t.id for t in engine.holdout if t.id in tasks], "rows": [
        {"label": labels.get(key) or Path(key.split(":", 1)[1]).name,
         "pass_rate": pass_rate(only(key), seed=seed).to_dict(),
         "vs_seed": paired_difference(only(key), seed_scores, seed=seed).to_dict(),
         "headroom_share": headroom_share(only(key), seed_scores, expert_scores, seed=seed)} for key in keys]}


def cycle_evidence(run_dir: Path, engine, *, seed: int = 0) -> list[dict]:
    """Per cycle of the evolve run: what the evolver wrote (each SKILL.md it added or changed, as
    committed in the candidate) and the gate's decision with its evidence, with the paired interval
    of its per-task differences (candidate - the gate's baseline, tasks in name order, bootstrapped
    like the curve): a rejected candidate is never evaluated as a tag, and this is its interval."""
    cycles = []
    for folder in sorted((run_dir / "cycles").glob("[0-9]*")):
        evolve, gate, commit = (read_json(folder / f"{name}.json", None) or {} for name in ("evolve", "gate", "commit"))
        changes = evolve.get("changes") or {}
        skills = {}
        candidate = evolve.get("candidate")
        for path in [*changes.get("added", []), *changes.get("modified", [])]:
            if candidate and path.endswith("SKILL.md"):
                try:
                    skills[path] = engine.repo.read_file(candidate, path)
                except Exception as exc:  # a missing file in a torn run: say so, keep the rest
                    skills[path] = f"(unreadable: {exc})"
        per_task = gate.get("per_task") or []
        paired = None
        better = worse = same = 0
        try:  # the gate's own count of tasks moved and differences (one home: GateResult)
            if gate.get("gated"):
                result = GateResult.from_dict(gate)
                better, worse, same = result.moved()
                if diffs := sorted(result.differences()):
                    paired = bootstrap_mean([d for _, d in diffs], seed=seed).to_dict()
        except (KeyError, TypeError, ValueError):  # a torn or odd gate.json
            better, worse, same, paired = 0, 0, 0, None
        cycles.append({
            "cycle": int(folder.name), "evolver": evolve.get("summary") or evolve.get("skipped"),
            "status": (evolve.get("details") or {}).get("status"), "skills": skills,
            "gated": gate.get("gated", False), "accepted": gate.get("accepted"), "reason": gate.get("reason"),
            "rounds": gate.get("rounds"), "rollouts": gate.get("rollouts"), "delta": gate.get("delta"),
            # gating.skill_max_rounds: the skills' own rounds after the whole ones (their attempts are in rollouts)
            **({"skill_rounds": len(gate["skill_round_scores"])}
               if isinstance(gate.get("skill_round_scores"), list) and gate["skill_round_scores"] else {}),
            "mutated_mean": gate.get("mutated_mean"), "baseline_mean": gate.get("baseline_mean"),
            "tasks_better": better, "tasks_worse": worse, "tasks_same": same, "per_task": per_task,
            "vs_baseline": paired,
            "tag": commit.get("tag"),
            # gating.per_skill: which of `skills` the tag holds (the others were dropped, with reasons in gate.json)
            **({"skills_kept": gate.get("kept_skills") or [], "skills_dropped": gate.get("dropped_skills")}
               if gate.get("dropped_skills") else {}),
            # each changed skill's own decision (gating.per_skill), and what the pruned library places untried
            **({"skill_decisions": [_skill_row(row) for row in gate["skills"] if isinstance(row, dict)]}
               if isinstance(gate.get("skills"), list) and gate["skills"] else {}),
            **({"untried_placements": {str(k): str(v) for k, v in commit["untried_placements"].items()}}
               if isinstance(commit.get("untried_placements"), dict) else {}),
            "judge_check": {k: (gate.get("judge_check") or {}).get(k) for k in ("n", "agreement", "auroc")}})
    return cycles


def _skill_row(row: dict) -> dict:
    """One skill's decision as the curve keeps it: how many holdout tasks it was placed for, its mean
    paired difference there (0-1) and the verdict with its reason."""
    statistic = row.get("statistic") if isinstance(row.get("statistic"), dict) else {}
    delta = statistic.get("delta")
    number = isinstance(delta, int | float) and not isinstance(delta, bool) and math.isfinite(delta)
    tasks = row.get("tasks")
    return {"skill": str(row.get("skill")), "tasks": len(tasks) if isinstance(tasks, list) else 0,
            "delta": delta if number else None, "verdict": str(row.get("verdict")),
            "reason": str(row.get("reason") or "")}
