"""The learning-curve benchmark: does evolution help the embedded model on terminal-easy?

    python benchmarks/evolution/run.py --out DIR [--quick] [--cycles N] [--repeats K] [--model M]

Measures the holdout pass rate (the verifier's reward) of
  (a) the seed workspace (workspace/),
  (b) the hand-written expert workspace (benchmarks/evolution/expert-workspace/, same max_skills and
      body limit): the headroom,
  (c) every accepted tag evo-1.. of an `evolve` run of N cycles, the model in every role,
each over the same holdout split, K repeats: repeat r samples at gating.temperature with the gate's
seed of round r (engine.gate_seed), the same for every workspace, so the scores are paired by task
and by repeat. results.json, results.md (a table) and curve.html (the page) go to DIR.

The work is the product's `adaptive-skill curve` (adaptive_skill/curve, docs/curve.md): this script
keeps the flags every run since run 3 was started with, turns them into the same config
(build_config; configs/curve-split2.yaml is run 24's) and keeps each output directory's settings
(state.json) resuming as before.

Resumable: everything lives under DIR. The evolve run is DIR/runs/evolve (the engine's --resume);
each evaluation is written through AdaptiveSkillEngine.evaluate_holdout into that run's per-workspace
round cache (runs/evolve/baselines/<hash>/gate-<key>/r<repeat>), whose finished attempts are reused,
and which the gate itself reuses: the seed's repeats are cycle 1's gate baseline rounds. Finished parts
are recorded in DIR/state.json. Re-running the same command skips what is done; other settings with
the same DIR are refused. Which parts run is not a setting: --no-expert, --no-evolve and --workspace
choose parts, and a run re-run with another choice keeps the parts it has and adds the new ones (the
expert added to a run measured first without it; `--no-evolve --workspace DIR` measures the headroom
of a split and a shipped workspace on it, paired with the seed, with no evolve run).

Sizing. Attempts, with H holdout tasks (40 of 80 at holdout_ratio 0.5, the default since run 7; 12 at
0.15 before), K=2 repeats, N cycles, batch 4, gate rounds 2:
  seed   H*K = 80                (shared with cycle 1's gate baseline)
  expert H*K = 80
  evolve N * batch 4 (with their verdicts), plus the mutated side H*2 = 80 for every cycle whose
         evolver changed something
  tags   none: an accepted candidate's gate rounds become its round cache, which the next gate's
         baseline and the tag's evaluation reuse
Holdout attempts are not judged (gating.judge_check false; --judge-check judges them too).
Measured 2026-11-26/27 (runs 7 and 8 in docs/log/results-runs.md; Qwen2.5-Coder-1.5B, 6 steps, temperature
0.3, the best-matching skill in the prompt, quiet 2-core VM, 2 threads): 17-26 s per holdout attempt
(failures run all 6 steps; the expert's longer prompt costs more), so seed and expert take 22-27 +
26-35 min and a gated cycle 28-31 min: one cycle, the default, took 76 min (run 8); each further
gated cycle adds up to 31 min. The gate's error rates at 40 tasks and 2 rounds: benchmarks/perf/bench_gating.py
--fixed-rounds 2 --tasks 40 (docs/results.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from adaptive_skill import curve  # noqa: E402
from adaptive_skill.config import EvolveConfig  # noqa: E402
from adaptive_skill.curve.summary import cycle_evidence  # noqa: E402,F401  (replace_check, tests)
from adaptive_skill.errors import UserError  # noqa: E402

DEFAULT_MODEL = "local/qwen2.5-coder-1.5b"
SEED_WORKSPACE = ROOT / "workspace"
EXPERT_WORKSPACE = HERE / "expert-workspace"
SUITE = ROOT / "benchmarks" / "terminal-easy"
RUN_ID = "evolve"
# The expert's steps are the 1.5B's slips on the train tasks of this split (seed 0, ratio 0.5: runs 10
# and 12). On another split some holdout tasks are among them: the expert was written from those.
EXPERT_SPLIT = {"seed": 0, "holdout_ratio": 0.5}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, type=Path, help="output directory (re-run with the same one to resume)")
    p.add_argument("--quick", action="store_true", help="smoke check: 2 holdout tasks, 1 repeat, 1 cycle, 3 steps")
    p.add_argument("--cycles", type=int, default=None,
                   help="evolve cycles (default 1, to fit 2 hours; each more costs about 30 min)")
    p.add_argument("--repeats", type=int, default=None, help="seeded repeats per workspace (default 2; --quick 1)")
    p.add_argument("--model", default=DEFAULT_MODEL, help=f"model in every role (default {DEFAULT_MODEL})")
    p.add_argument("--max-steps", type=int, default=None, help="agent steps per attempt (default 6; --quick 3)")
    p.add_argument("--temperature", type=float, default=0.3,
                   help="sampling temperature of the evaluation and gate rounds (default 0.3; must be > 0, "
                        "or the seeded repeats of the embedded model are identical)")
    p.add_argument("--evolver", choices=["structured", "single", "team", "distill"], default="structured",
                   help="evolver.mode (default structured: one schema-bound skill per cycle, for small models; "
                        "distill: the batch's passed attempts' worked commands, no model)")
    p.add_argument("--no-expert", action="store_true",
                   help="do not evaluate the expert workspace (its 80 attempts, ~40 min): no headroom in the "
                        "results; for a run whose settings an earlier run measured the expert at. The same "
                        "command again without it adds the expert to the finished run")
    p.add_argument("--no-evolve", action="store_true",
                   help="no evolve run: only the seed, the expert (unless --no-expert) and each --workspace, on "
                        "the same holdout with the same seeds (the headroom of a split, ~90 min at 40 tasks)")
    p.add_argument("--workspace", type=Path, action="append", default=[], metavar="DIR",
                   help="also evaluate this workspace (e.g. benchmarks/evolution/evolved-workspace), after the "
                        "expert, paired with the seed like every row; repeatable")
    p.add_argument("--batch-size", type=int, default=None, metavar="N",
                   help="train tasks a cycle solves (default 4; --quick 2)")
    p.add_argument("--explore", type=int, default=None, metavar="N",
                   help="explore.passes: each cycle, up to N more attempts of the batch's failed tasks at "
                        "--explore-temperature until one passes (the judge's pass; default 0)")
    p.add_argument("--explore-temperature", type=float, default=1.0, metavar="T",
                   help="explore.temperature (default 1.0)")
    p.add_argument("--explore-reflect", action="store_true",
                   help="explore.reflect: each explore attempt is told what the task's attempt before it did "
                        "wrong (its failed commands and their errors); needs --explore")
    p.add_argument("--explore-agree", action="store_true",
                   help="explore.agree: label-free, a task counts as passed only when the judge passes an "
                        "attempt and another attempt of it left the same files (every batch task is attempted "
                        "again; needs --explore and no --labels)")
    p.add_argument("--seed", type=int, default=0, help="run seed: holdout split, sampling seeds, bootstrap")
    p.add_argument("--gate-rounds", type=int, default=None,
                   help="holdout rounds of every gate decision (default 2; --quick 1): the sequential rule cut "
                        "at this many rounds, whose error rates benchmarks/perf/bench_gating.py --fixed-rounds N "
                        "measures")
    p.add_argument("--labels", action="store_true",
                   help="trajectory_only: false: the evolver sees the verifier's pass/fail on its batch (the "
                        "labelled curve; the gap to the default label-free one is what the judge costs)")
    p.add_argument("--skill-in-prompt", type=int, default=300, metavar="TOKENS",
                   help="skill_in_prompt_tokens: the best-matching skill's body in the agent's prompt (default "
                        "300: the 1.5B reads no skill by itself, docs/log/results-runs.md, run 5; "
                        "0 leaves it to read_skill)")
    p.add_argument("--holdout-ratio", type=float, default=0.5,
                   help="share of the suite held out for the gate and the curve (default 0.5: 40 of 80 tasks)")
    p.add_argument("--judge-check", action="store_true",
                   help="also judge every verifier-scored holdout attempt (gating.judge_check; off by default: "
                        "it doubles a holdout attempt's cost, and the curve and the gate use the verifier)")
    p.add_argument("--check-before-submit", action="store_true",
                   help="models.agent.check_before_submit: the agent's first submit of an attempt is answered "
                        "with a request to look at its result first "
                        "(docs/log/results-runs.md, run 8's one-command habit)")
    p.add_argument("--show-before-submit", action="store_true",
                   help="models.agent.show_before_submit: the agent's first submit of an attempt is answered "
                        "with what its commands wrote (each redirected or tee'd file: ls -ld and its first lines)")
    p.add_argument("--evolver-samples", type=int, default=None, metavar="N",
                   help="evolver.samples: up to N questions a cycle until a reply passes the rules, the evolver "
                        "sampling at temperature 0.7 from seed 0 (default: one "
                        "question at the model's temperature 0)")
    p.add_argument("--suite", type=Path, default=SUITE, help="task suite (default benchmarks/terminal-easy)")
    return p.parse_args(argv)


def settings(args: argparse.Namespace) -> dict:
    quick = args.quick
    return {"model": args.model, "quick": quick, "seed": args.seed, "suite": str(args.suite.resolve()),
            "cycles": args.cycles or 1, "repeats": args.repeats or (1 if quick else 2),
            "max_steps": args.max_steps or (3 if quick else 6), "holdout_tasks": 2 if quick else None,
            "temperature": args.temperature, "evolver": args.evolver,
            "gate_rounds": args.gate_rounds or (1 if quick else 2), "labels": args.labels,
            "skill_in_prompt": args.skill_in_prompt, "holdout_ratio": args.holdout_ratio,
            "judge_check": args.judge_check,
            # only when set: the directories of earlier runs keep their settings and resume
            **({"check_before_submit": True} if args.check_before_submit else {}),
            **({"show_before_submit": True} if args.show_before_submit else {}),
            **({"evolver_samples": args.evolver_samples} if args.evolver_samples else {}),
            **({"batch_size": args.batch_size} if args.batch_size else {}),
            **({"explore": args.explore, "explore_temperature": args.explore_temperature} if args.explore else {}),
            **({"explore_reflect": True} if args.explore_reflect else {}),
            **({"explore_agree": True} if args.explore_agree else {})}


def chosen_parts(args: argparse.Namespace) -> dict:
    """Which parts a command asks for: not a setting (the same DIR takes another choice and keeps
    what it has)."""
    from adaptive_skill.workspace import Workspace

    workspaces = []
    for path in args.workspace:
        Workspace(path.resolve()).require()  # one line naming the directory when it is not one
        workspaces.append(str(path.resolve()))
    if len(set(workspaces)) != len(workspaces):
        raise UserError("--workspace: the same directory twice")
    return {"evolve": not args.no_evolve, "expert": not args.no_expert, "workspaces": workspaces}


def build_config(s: dict, out: Path) -> EvolveConfig:
    model = s["model"]
    quick = s["quick"]
    gate_rounds = s["gate_rounds"]
    # Token limits that never cut a reply: the agent's grammar bounds fit 4096 (docs/llm.md), the
    # judge's longest reply under its schema 1024 (observe/judge.py, reply_max_chars).
    agent = {"model": model, "max_tokens": 4096, "check_before_submit": s.get("check_before_submit", False),
             "show_before_submit": s.get("show_before_submit", False)}
    samples = s.get("evolver_samples", 1)
    # Sampling evolver questions at temperature 0 would ask the same question N times.
    evolver = {"model": model, "max_tokens": 1024, **({"temperature": 0.7, "seed": 0} if samples > 1 else {})}
    roles = {"agent": agent, "judge": {"model": model, "max_tokens": 1024}, "evolver": evolver,
             "proposer": {"model": model, "max_tokens": 512, "temperature": 0.7}, "embedder": {"model": "lexical"}}
    return EvolveConfig.model_validate({
        "max_skills": 5, "batch_size": s.get("batch_size", 2 if quick else 4), "holdout_ratio": s["holdout_ratio"],
        "max_cycles": s["cycles"],
        "seed": s["seed"], "workers": 1, "trajectory_only": not s["labels"],
        "skill_in_prompt_tokens": s["skill_in_prompt"],
        "paths": {"workspace": str(SEED_WORKSPACE), "suite": s["suite"], "runs_dir": str(out / "runs")},
        "models": roles, "limits": {"max_steps": s["max_steps"]},
        "gating": {"min_rounds": gate_rounds, "max_rounds": gate_rounds,
                   "temperature": s["temperature"], "judge_check": s["judge_check"]},
        "evolver": {"mode": s["evolver"], "max_turns": 2 if quick else 6, "samples": samples},
        "explore": {"passes": s.get("explore", 0), "temperature": s.get("explore_temperature", 1.0),
                    "reflect": s.get("explore_reflect", False), "agree": s.get("explore_agree", False)},
        # which parts run (evolve, expert, workspaces) is chosen per command: Bench sets them
        "curve": {"repeats": s["repeats"], "holdout_tasks": s["holdout_tasks"], "expert": str(EXPERT_WORKSPACE),
                  "expert_written_from": EXPERT_SPLIT}})


def check_model(model: str) -> None:
    """An embedded model this install does not know fails here, in one line, before any work."""
    if not model.startswith("local/") or model.endswith(".gguf"):
        return
    from adaptive_skill.llm.local import MODELS

    name = model.removeprefix("local/")
    if name not in MODELS:
        raise UserError(f"--model {model}: not an embedded model of this install (known: "
                        f"{', '.join('local/' + m for m in sorted(MODELS))}, or local/PATH.gguf)")


class Bench(curve.Bench):
    """The product's curve (adaptive_skill.curve.Bench) on the config of run.py's settings `s`, which
    state.json records and compares, and which results.json shows."""

    def __init__(self, out: Path, s: dict, chosen: dict | None = None):
        chosen = chosen or {"evolve": True, "expert": True, "workspaces": []}
        config = build_config(s, out)
        config.curve.evolve = chosen["evolve"]
        config.curve.expert = EXPERT_WORKSPACE if chosen["expert"] else None
        config.curve.workspaces = [Path(p) for p in chosen["workspaces"]]
        super().__init__(out, config, s, shown=s, name="bench")
        self.chosen = chosen


def summarise(state: dict, run_dir: Path, engine, s: dict) -> dict:
    """results.json of a run.py directory (adaptive_skill.curve.summarise with the expert's split)."""
    return curve.summarise(state, run_dir, engine, s, expert_split=EXPERT_SPLIT)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return guarded(lambda: start(args), args.out)


def start(args: argparse.Namespace) -> None:
    s = settings(args)
    if min(s["cycles"], s["repeats"], s["max_steps"]) < 1:
        raise UserError("--cycles, --repeats and --max-steps must be at least 1")
    if not 0 < s["holdout_ratio"] < 1:
        raise UserError("--holdout-ratio must be between 0 and 1")
    if s["skill_in_prompt"] < 0:
        raise UserError("--skill-in-prompt must be 0 (off) or a number of tokens")
    if not 0 < s["temperature"] <= 2:
        raise UserError("--temperature must be above 0 (at 0 the repeats are identical) and at most 2")
    if args.batch_size is not None and args.batch_size < 1:
        raise UserError("--batch-size must be at least 1")
    if not 0 <= (args.explore or 0) <= 10 or not 0 < args.explore_temperature <= 2:
        raise UserError("--explore must be 0 to 10 and --explore-temperature above 0 and at most 2")
    if args.explore_reflect and not args.explore:
        raise UserError("--explore-reflect needs --explore N: it changes what the explore attempts are told")
    if args.explore_agree and (not args.explore or args.labels):
        raise UserError("--explore-agree needs --explore N and no --labels: it is the label-free estimate's vote")
    chosen = chosen_parts(args)
    check_model(s["model"])
    Bench(args.out.resolve(), s, chosen).run()


def guarded(work, out: Path) -> int:
    """Run a benchmark's `work`: a user error is one line and its exit code, an interrupt says how to
    resume (130), 0 when it finished."""
    try:
        work()
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(f"interrupted: run the same command again to resume from {out}", file=sys.stderr)
        return 130
    return 0

if __name__ == "__main__":
    sys.exit(main())
