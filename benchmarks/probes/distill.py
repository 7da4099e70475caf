"""Skills distilled from the agent's own passed attempts: can the 1.5B's successes teach it?

    python benchmarks/probes/distill.py --out DIR [--repeats K] [--train-rounds K] [--explore N]

The evolver probe (docs/llm.md) found that the 1.5B evolver knows no fix it has not been shown; the
agent itself, sampling, sometimes does the right thing. This measures the mechanical alternative to
an evolver that writes advice: run the seed workspace over the train split (K seeded passes,
--train-rounds), keep the attempts that passed, and write their working commands into at most
`max_skills` skills, one per task category (the suite's own metadata), each the worked commands of
the passed tasks of that category, its description the words of their instructions (what the best-
matching-skill-in-the-prompt ranking, skill_in_prompt_tokens, matches on). No model writes anything:
the skills are the agent's own commands.

--explore N adds N passes, at a higher temperature (--explore-temperature, default 1.0), over the
train tasks no pass has passed: the agent's failures recur at the evaluation's 0.3 (run 15), so its
0.3 trajectories never hold their fix; a hotter sample might.

Then evaluate that workspace over the holdout split exactly as the learning-curve benchmark
evaluates a workspace (run.py: same settings, the same seeded repeats), paired by task with the
seed's.

"passed" is the verifier's: the labelled upper bound of this lever (a label-free product would keep
the judge's passes, which include wrong ones; not built, since the upper bound showed no gain,
docs/log/results-runs.md, run 15). Parts are resumable and shared with run.py when DIR is one of its --out
directories with the same settings (the seed's holdout rounds are then reused, not re-run).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "evolution"))  # run.py, the learning-curve benchmark

import run as curve  # noqa: E402  (sets sys.path for the package too)

from adaptive_skill.curve.stats import paired_difference, pass_rate  # noqa: E402
from adaptive_skill.errors import UserError  # noqa: E402
from adaptive_skill.evolve.distill import (  # noqa: E402
    BODY_CHARS,
    Passed,
    first_sentence,
    plan_skills,
    write_skill,
)
from adaptive_skill.files import write_json_atomic  # noqa: E402
from adaptive_skill.trajectory.worked import worked_commands  # noqa: E402


def distill(passed: list[tuple[str, str, str, list[str]]], seed_workspace: Path, out: Path,
            max_skills: int) -> dict[str, list[str]]:
    """A workspace at `out`: the seed's prompts and memory, and the skills the distilling evolver
    (adaptive_skill/evolve/distill.py) writes from the passed (task, category, instruction, commands)
    into an empty library: one per category, the categories with the most passed tasks first."""
    found = [Passed.of(task, category, first_sentence(instruction), commands, False)
             for task, category, instruction, commands in passed if commands and first_sentence(instruction)]
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(seed_workspace, out, ignore=shutil.ignore_patterns("skills"))
    (out / "skills").mkdir()
    plan = plan_skills(out, found, max_skills, BODY_CHARS)
    for name, entries in plan.skills.items():
        write_skill(out / "skills" / name, name, plan.categories[name], entries)
    return plan.new


def _outcomes(results) -> dict:
    """A pass's record (a resumable part): per task, whether the verifier passed it and its trajectory."""
    return {"results": {r.task_id: {"passed": bool(r.passed), "trajectory": r.trajectory_path} for r in results}}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, type=Path, help="output directory (a run.py --out directory is fine)")
    p.add_argument("--repeats", type=int, default=2, help="holdout repeats per workspace (default 2, as run.py)")
    p.add_argument("--train-rounds", type=int, default=1, metavar="K",
                   help="passes over the train split, each with its own sampling seed (the gate's rounds 0..K-1); "
                        "a task counts as passed when any pass did, with the commands of the first that did "
                        "(default 1)")
    p.add_argument("--explore", type=int, default=0, metavar="N",
                   help="then N more passes over the train tasks no pass has passed yet, sampled at "
                        "--explore-temperature with the next rounds' seeds (default 0: none)")
    p.add_argument("--explore-temperature", type=float, default=1.0, metavar="T",
                   help="the agent's sampling temperature in the --explore passes (default 1.0)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return curve.guarded(lambda: start(args), args.out)


def start(args: argparse.Namespace) -> None:
    if args.repeats < 1 or args.train_rounds < 1:
        raise UserError("--repeats and --train-rounds must be at least 1")
    if args.explore < 0 or not 0 < args.explore_temperature <= 2:
        raise UserError("--explore must be 0 or more and --explore-temperature above 0 and at most 2")
    s = curve.settings(curve.parse_args(["--out", str(args.out), "--repeats", str(args.repeats)]))
    bench = curve.Bench(args.out.resolve(), s)
    args.out.mkdir(parents=True, exist_ok=True)
    engine = bench.open_engine()
    bench.log(f"{len(engine.train)} train tasks, {len(engine.holdout)} holdout tasks x {s['repeats']} repeats")
    with tempfile.TemporaryDirectory(prefix="distill-") as scratch:
        seed_ws = engine.repo.export("evo-0", Path(scratch) / "evo-0")
        key = "train-r0" if args.train_rounds == 1 else f"train-best-of-{args.train_rounds}"
        train_out = args.out.resolve() / "distill" / "train"
        tasks = {t.id: t for t in engine.train}
        chosen: dict[str, str | None] = {}  # task -> trajectory of its first passed attempt
        for round_index in range(args.train_rounds):
            def train(round_index: int = round_index) -> dict:
                results = engine.attempt_tasks(engine.train, seed_ws, train_out,
                                               f"train {round_index + 1}/{args.train_rounds}, seed workspace",
                                               round_index)
                return _outcomes(results)

            trained = bench.part(f"train-r{round_index}", train)["results"]
            passes = sorted(t for t, r in trained.items() if r["passed"])
            bench.log(f"train pass {round_index + 1}: {len(passes)}/{len(trained)} passed (verifier)")
            for task_id in passes:
                chosen.setdefault(task_id, trained[task_id]["trajectory"])
        passed_ids = sorted(chosen)
        bench.log(f"train: {len(passed_ids)}/{len(tasks)} passed in at least one of {args.train_rounds} pass(es)")
        t = args.explore_temperature
        for n in range(args.explore):
            round_index = args.train_rounds + n
            todo = [task for task in engine.train if task.id not in chosen]
            if not todo:
                break

            def explore(round_index: int = round_index, todo: list = todo, n: int = n) -> dict:
                results = engine.attempt_tasks(todo, seed_ws, train_out,
                                               f"explore {n + 1}/{args.explore} at temperature {t:g}, "
                                               f"{len(todo)} unpassed train tasks", round_index, temperature=t)
                return _outcomes(results)

            explored = bench.part(f"explore-t{t:g}-r{round_index}", explore)["results"]
            found = sorted(task_id for task_id, r in explored.items() if r["passed"])
            bench.log(f"explore {n + 1}: {len(found)}/{len(explored)} unpassed tasks passed"
                      + (f" ({', '.join(found)})" if found else ""))
            for task_id in found:
                chosen.setdefault(task_id, explored[task_id]["trajectory"])
        if args.explore:
            key += f"-explore-{args.explore}-t{t:g}"
            passed_ids = sorted(chosen)
            bench.log(f"train after exploring: {len(passed_ids)}/{len(tasks)} passed")
        passed = [(t, tasks[t].category or "", tasks[t].instruction,
                   worked_commands(Path(chosen[t])) if chosen[t] else []) for t in passed_ids]
        ws = args.out.resolve() / "distill" / f"workspace-verifier-{key}"
        written = distill(passed, seed_ws, ws, engine.config.max_skills)
        for name, from_tasks in written.items():
            bench.log(f"skill {name}: from {', '.join(from_tasks)}")
        bench.part("seed", lambda: bench.evaluate("(a) seed", seed_ws))
        label = f"distilled-verifier-{key}"
        done = bench.part(label, lambda: bench.evaluate(f"(d) {label}", ws))
    seed_scores, scores = bench.state["parts"]["seed"]["scores"], done["scores"]
    rate, base = pass_rate(scores, seed=s["seed"]), pass_rate(seed_scores, seed=s["seed"])
    diff = paired_difference(scores, seed_scores, seed=s["seed"])
    summary = {"seed": base.to_dict(), "distilled": rate.to_dict(), "vs_seed": diff.to_dict(),
               "skills": written, "train_passed": passed_ids, "by": "verifier",
               "explore": {"passes": args.explore, "temperature": args.explore_temperature}}
    write_json_atomic(args.out / f"{label}.json", summary)
    bench.log(f"seed {curve._pct(base.mean)} [{curve._pct(base.low)}, {curve._pct(base.high)}]; "
              f"distilled {curve._pct(rate.mean)} [{curve._pct(rate.low)}, {curve._pct(rate.high)}]; "
              f"paired {100 * diff.mean:+.0f} [{100 * diff.low:+.0f}, {100 * diff.high:+.0f}] points")

if __name__ == "__main__":
    sys.exit(main())
