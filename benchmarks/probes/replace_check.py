"""A gated cycle's candidate, written and placed again by the code as it is now, evaluated where that
changes what the agent is shown: what a change of the distilling evolver or of the skill placed in
the prompt does, without a whole run.

    python benchmarks/probes/replace_check.py --out DIR [--cycle N] [--controls K] [--repeats K] [--dry-run]
        [--placed-before category|words]

DIR is a run.py --out directory whose cycle N (default 1) ran the distilling evolver. When the
cycle was not gated (the run stopped after its evolve phase), every holdout task is run, and the
new workspace is paired with the seed only.
The evolver is run again, with no model, on that cycle's observations and the workspace the cycle
started from (the seed's, evo-0, for cycle 1): the same entries, in the form and with the metadata
the code writes now (without the gate's memory of rejected entries, which would leave out the
cycle's own; the script says whether the entries came out the same). Then, for every holdout task,
the skill text the prompt would get (agent/inline.py, given the task's category as the agent gives
it) is compared with what the gated candidate placed (by the task's category, as runs after run 21
placed skills; `--placed-before words` for a run whose code placed by words alone, run 20's and
21's). Only the tasks whose placed text differs are run again, with the same seeded repeats as
the gate; on the others the prompt is the same, so the gate's own attempts stand for them (the
seeded embedded model repeats a prompt exactly: with --seed 0 the seed's rounds reproduced task for
task across runs, docs/log/results-runs.md, run 20). --controls K also runs K of the
unchanged tasks again, the first in name order, and says how many repeats reproduced: the check of
that assumption.

Prints per changed task the skill placed before and now and the scores, then the paired interval of
the new workspace against the seed and against the gated candidate over all holdout tasks, and
writes DIR/replace-check-<cycle>.json. --dry-run stops before any attempt (no model, seconds).
Resumable: finished attempts are reused.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "evolution"))  # run.py, the learning-curve benchmark

import run as curve  # noqa: E402

from adaptive_skill.agent.inline import best_skill  # noqa: E402
from adaptive_skill.curve.stats import bootstrap_mean  # noqa: E402
from adaptive_skill.errors import UserError  # noqa: E402
from adaptive_skill.evolve.distill import DistillEvolver, entries_of  # noqa: E402
from adaptive_skill.files import read_json, write_json_atomic  # noqa: E402


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, type=Path, help="a run.py --out directory with a gated distill cycle")
    p.add_argument("--cycle", type=int, default=1, help="the gated cycle (default 1)")
    p.add_argument("--controls", type=int, default=4, help="unchanged tasks also run again (default 4)")
    p.add_argument("--repeats", type=int, default=None,
                   help="the first K of the gate's seeded rounds (default all of them)")
    p.add_argument("--dry-run", action="store_true", help="show what changes; run no attempt")
    p.add_argument("--placed-before", choices=["category", "words"], default="category",
                   help="how the run's own code placed the gated candidate's skills (default category; words for "
                        "runs 20 and 21)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return curve.guarded(lambda: start(args), args.out)


def placed(workspace: Path, instruction: str, category: str, memory) -> tuple[str | None, str]:
    """(skill name, text) the prompt gets for this task from the workspace; (None, "") for none."""
    from adaptive_skill.workspace import Workspace

    skills = Workspace(workspace).skills(require_verification=False, max_body_chars=10**9)
    inline = best_skill(skills, instruction, budget_tokens=memory.skill_tokens, embedder=memory.embedder,
                        count_tokens=memory.count_tokens, category=category)
    return (inline.name, inline.text()) if inline else (None, "")


def gate_scores(engine, workspace: Path, rounds_dir: Path, repeats: int, label: str) -> dict[str, list]:
    scores: dict[str, list] = {t.id: [] for t in engine.holdout}
    for r in range(repeats):
        held = engine.evaluate_holdout(workspace, rounds_dir, f"{label} repeat {r + 1}/{repeats}", r)
        for task in scores:
            scores[task].append(held.scores.get(task))
    return scores


def _mean(values: list) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def start(args: argparse.Namespace) -> None:
    from adaptive_skill.harness.agents import memory_options
    from adaptive_skill.workspace import Workspace

    out = args.out.resolve()
    state = read_json(out / "state.json", None)
    if not isinstance(state, dict) or "settings" not in state:
        raise UserError(f"{out / 'state.json'}: not a run.py --out directory")
    s = state["settings"]
    bench = curve.Bench(out, s)
    engine = bench.open_engine()
    cycle_dir = engine.run_dir.cycle_dir(args.cycle)
    evolve, gate = read_json(cycle_dir / "evolve.json", None) or {}, read_json(cycle_dir / "gate.json", None) or {}
    if not evolve.get("candidate"):
        raise UserError(f"{cycle_dir}: cycle {args.cycle} has no candidate (its evolve phase wrote nothing, or has "
                        "not finished)")
    was_gated = bool(gate.get("gated"))
    if "seed" not in state.get("parts", {}):
        raise UserError(f"{out}: run.py has not evaluated the seed here")
    if engine.config.evolver.mode != "distill":
        raise UserError(f"{out}: the run's evolver is {engine.config.evolver.mode!r}; this re-runs the distilling one")
    repeats = int(gate.get("rounds") or s["repeats"])
    if args.repeats is not None:
        if not 1 <= args.repeats <= repeats:
            raise UserError(f"--repeats: 1 to {repeats} (the rounds this run has for the seed and the gate)")
        repeats = args.repeats
    start_ref = "evo-0" if args.cycle == 1 else f"{evolve['candidate']}~1"
    memory = memory_options(engine.config, Workspace(engine.run_dir.workspace))
    with tempfile.TemporaryDirectory(prefix="replace-check-") as scratch:
        scratch = Path(scratch)
        before = engine.repo.export(evolve["candidate"], scratch / "gated")
        now = engine.repo.export(start_ref, scratch / "now")
        # run=None: the gate's memory of rejected entries would leave out this cycle's own entries
        outcome = DistillEvolver(engine.config, run=None).evolve(
            now, cycle_dir / "observations", scratch / "evolve", task_id=f"replace-check-{args.cycle}")
        keys = {p.name: {e.key() for e in entries_of((p / "SKILL.md").read_text())}
                for p in (before / "skills").iterdir() if (p / "SKILL.md").is_file()}
        again = {p.name: {e.key() for e in entries_of((p / "SKILL.md").read_text())}
                 for p in (now / "skills").iterdir() if (p / "SKILL.md").is_file()}
        same_entries = keys == again
        bench.log(f"re-distilled: {outcome.summary}; the same entries as the gated candidate: {same_entries}")
        changed, unchanged, rows = [], [], {}
        for task in engine.holdout:
            old = placed(before, task.instruction, task.category if args.placed_before == "category" else "", memory)
            new = placed(now, task.instruction, task.category, memory)
            rows[task.id] = {"category": task.category, "before": old[0], "now": new[0], "changed": old[1] != new[1]}
            (changed if old[1] != new[1] else unchanged).append(task)
        bench.log(f"the placed text changes for {len(changed)} of {len(engine.holdout)} holdout tasks")
        for task in changed:
            row = rows[task.id]
            bench.log(f"  {task.id:28s} [{row['category']}] {row['before'] or '(none)'} -> {row['now'] or '(none)'}")
        if args.dry_run:
            return
        from adaptive_skill.evolve.rules import workspace_hash

        seed_ws = engine.repo.export("evo-0", scratch / "seed")
        seed_rounds = out / state["parts"]["seed"]["attempts_dir"]  # run.py's seed part, the gate's baseline
        seed = gate_scores(engine, seed_ws, seed_rounds, repeats, "seed (cached)")
        if was_gated:
            gated = gate_scores(engine, before, cycle_dir / "gate-mutated", repeats, "gated candidate (cached)")
            controls = unchanged[:max(0, args.controls)]
            rerun = changed + controls
        else:  # no gate ran (the run was stopped before it): every task, nothing to pair with but the seed
            bench.log("cycle not gated: the re-written candidate runs every holdout task")
            gated, controls, rerun = {}, [], list(engine.holdout)
        rounds_dir = out / "replace-check" / f"cycle-{args.cycle}" / workspace_hash(now)[:16]
        engine.holdout = rerun  # the gate's rounds, on these tasks only
        fresh = gate_scores(engine, now, rounds_dir, repeats, "re-placed candidate")
        reproduced = sum(1 for t in controls for a, b in zip(fresh[t.id], gated[t.id], strict=True) if a == b)
        bench.log(f"controls: {reproduced} of {len(controls) * repeats} repeats of unchanged tasks reproduced")
        scores = {t: (fresh[t] if t in fresh and (rows[t]["changed"] or not was_gated) else gated[t]) for t in seed}
        for task in changed:
            bench.log(f"  {task.id:28s} seed {seed[task.id]} gated {gated.get(task.id)} now {fresh[task.id]}")

        def paired(a: dict, b: dict) -> dict:
            diffs = [ma - mb for t in sorted(a) if (ma := _mean(a[t])) is not None and (mb := _mean(b[t])) is not None]
            return bootstrap_mean(diffs, seed=s["seed"]).to_dict()

        summary = {"cycle": args.cycle, "same_entries": same_entries, "rows": rows, "seed": seed, "gated": gated,
                   "fresh": fresh, "controls": {"tasks": [t.id for t in controls], "reproduced": reproduced,
                                                "repeats": len(controls) * repeats},
                   "vs_seed": paired(scores, seed)}
        if was_gated:
            summary.update(vs_gated=paired(scores, gated), gated_vs_seed=paired(gated, seed))
        write_json_atomic(out / f"replace-check-{args.cycle}.json", summary)
        for key in ("gated_vs_seed", "vs_seed", "vs_gated") if was_gated else ("vs_seed",):
            d = summary[key]
            bench.log(f"{key}: {100 * d['mean']:+.1f} [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}] points "
                      f"over {d['n']} tasks")
        shutil.rmtree(scratch / "evolve", ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
