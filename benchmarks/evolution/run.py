"""The learning-curve benchmark: does evolution help the embedded model on terminal-easy?

    python benchmarks/evolution/run.py --out DIR [--quick] [--cycles N] [--repeats K] [--model M]

Measures the holdout pass rate (the verifier's reward) of
  (a) the seed workspace (workspace/),
  (b) the hand-written expert workspace (benchmarks/evolution/expert-workspace/, same max_skills and
      body limit): the headroom,
  (c) every accepted tag evo-1.. of an `evolve` run of N cycles, the model in every role,
each over the same holdout split, K repeats: repeat r samples at gating.temperature with the gate's
seed of round r (engine.gate_seed), the same for every workspace, so the scores are paired by task
and by repeat. results.json, results.md (a table) and curve.png (the curve per cycle) go to DIR.

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
Measured 2026-11-26/27 (runs 7 and 8 in docs/results.md; Qwen2.5-Coder-1.5B, 6 steps, temperature
0.3, the best-matching skill in the prompt, quiet 2-core VM, 2 threads): 17-26 s per holdout attempt
(failures run all 6 steps; the expert's longer prompt costs more), so seed and expert take 22-27 +
26-35 min and a gated cycle 28-31 min: one cycle, the default, took 76 min (run 8); each further
gated cycle adds up to 31 min. The gate's error rates at 40 tasks and 2 rounds: benchmarks/perf/bench_gating.py
--fixed-rounds 2 --tasks 40 (docs/results.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from curve_stats import bootstrap_mean, headroom_share, paired_difference, pass_rate  # noqa: E402

from adaptive_skill.config import EvolveConfig  # noqa: E402
from adaptive_skill.errors import UserError  # noqa: E402
from adaptive_skill.files import read_json, write_json_atomic  # noqa: E402
from adaptive_skill.phases import GateResult  # noqa: E402

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
                        "300: the 1.5B reads no skill by itself, docs/results.md run 5; 0 leaves it to read_skill)")
    p.add_argument("--holdout-ratio", type=float, default=0.5,
                   help="share of the suite held out for the gate and the curve (default 0.5: 40 of 80 tasks)")
    p.add_argument("--judge-check", action="store_true",
                   help="also judge every verifier-scored holdout attempt (gating.judge_check; off by default: "
                        "it doubles a holdout attempt's cost, and the curve and the gate use the verifier)")
    p.add_argument("--check-before-submit", action="store_true",
                   help="models.agent.check_before_submit: the agent's first submit of an attempt is answered "
                        "with a request to look at its result first (docs/results.md, run 8's one-command habit)")
    p.add_argument("--show-before-submit", action="store_true",
                   help="models.agent.show_before_submit: the agent's first submit of an attempt is answered "
                        "with what its commands wrote (each redirected or tee'd file: ls -ld and its first lines)")
    p.add_argument("--evolver-samples", type=int, default=None, metavar="N",
                   help="evolver.samples: up to N questions a cycle until a reply passes the rules, the evolver "
                        "sampling at temperature 0.7 from seed 0, as in configs/quickstart.yaml (default: one "
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
                    "reflect": s.get("explore_reflect", False), "agree": s.get("explore_agree", False)}})


def check_model(model: str) -> None:
    """An embedded model this install does not know fails here, in one line, before any work."""
    if not model.startswith("local/") or model.endswith(".gguf"):
        return
    from adaptive_skill.llm.local import MODELS

    name = model.removeprefix("local/")
    if name not in MODELS:
        raise UserError(f"--model {model}: not an embedded model of this install (known: "
                        f"{', '.join('local/' + m for m in sorted(MODELS))}, or local/PATH.gguf)")


class Bench:
    def __init__(self, out: Path, s: dict, chosen: dict | None = None):
        self.out, self.s = out, s
        self.chosen = chosen or {"evolve": True, "expert": True, "workspaces": []}
        self.state_path = out / "state.json"
        self.state = read_json(self.state_path, None) or {"settings": s, "parts": {}}
        # Which parts run is not a setting; directories of runs before 2026-11-29 stored
        # --no-expert in their settings: dropped, so they resume with or without it.
        self.state["settings"].pop("expert", None)
        if self.state["settings"] != s:
            changed = sorted(k for k in s if self.state["settings"].get(k) != s[k])
            raise UserError(f"{self.state_path}: this directory was run with other settings ({', '.join(changed)}); "
                            "use another --out")
        self.config = build_config(s, out)
        self.engine = None

    def save(self) -> None:
        write_json_atomic(self.state_path, self.state)

    def log(self, line: str) -> None:
        print(f"[bench {time.strftime('%H:%M:%S')}] {line}", flush=True)

    # -- the engine --------------------------------------------------------------------------

    def open_engine(self):
        from adaptive_skill.engine import AdaptiveSkillEngine
        from adaptive_skill.runs import RunDir

        run_dir = self.out / "runs" / RUN_ID
        if not (run_dir / "config.yaml").exists():
            AdaptiveSkillEngine.start(self.config, run_id=RUN_ID)
        self.engine = AdaptiveSkillEngine(self.config, RunDir.open(run_dir))
        self._trim_holdout(self.engine)
        return self.engine

    def _trim_holdout(self, engine) -> None:
        if self.s["holdout_tasks"]:  # --quick: the first tasks of the same split
            engine.holdout = engine.holdout[: self.s["holdout_tasks"]]

    # -- parts -------------------------------------------------------------------------------

    def part(self, key: str, work) -> dict:
        """Run `work` unless recorded as done; time it and attribute the cost journal's lines of its
        time windows to it (windows add up across resumed sessions)."""
        done = self.state["parts"].get(key)
        if done and done.get("done"):
            self.log(f"{key}: done before, skipped")
            return done
        record = done or {"windows": []}
        self.state["parts"][key] = record
        start = time.time()
        try:
            record.update(work(), done=True)
        finally:  # an interrupted session's time and tokens still count when the part is resumed
            record["windows"].append([start, time.time()])
            self.save()
        return record

    def evaluate(self, label: str, workspace_dir: Path) -> dict:
        from adaptive_skill.evolve.rules import workspace_hash

        engine = self.engine
        rounds_dir = engine.holdout_rounds_dir(workspace_hash(workspace_dir))
        scores: dict[str, list[float | None]] = {t.id: [] for t in engine.holdout}
        for r in range(self.s["repeats"]):
            held = engine.evaluate_holdout(workspace_dir, rounds_dir, f"{label} repeat {r + 1}/{self.s['repeats']}", r)
            for task in scores:
                scores[task].append(held.scores.get(task))
            passed = sum(1 for v in held.scores.values() if v is not None and v >= 1.0)
            self.log(f"{label} repeat {r + 1}/{self.s['repeats']}: {passed}/{len(held.scores)} holdout tasks passed")
        rate = pass_rate(scores, seed=self.s["seed"])
        self.log(f"{label}: pass rate {_pct(rate.mean)} [{_pct(rate.low)}, {_pct(rate.high)}] over {rate.n} tasks")
        return {"scores": scores, "attempts_dir": str(rounds_dir.relative_to(self.out))}

    def evolve(self) -> dict:
        from adaptive_skill.engine import RESUMABLE, AdaptiveSkillEngine

        engine = AdaptiveSkillEngine.resume(self.config, self.out / "runs" / RUN_ID)
        self._trim_holdout(engine)
        status = engine.run()
        if status in RESUMABLE:  # a signal or the STOP file: not finished, not recorded as done
            raise UserError(f"evolve run {status}; run the same command again to resume")
        accepted = [t.name for t in engine.repo.tags() if t.name != "evo-0" and t.name.startswith("evo-")]
        self.log(f"evolve: {status}; accepted tags: {', '.join(accepted) or 'none'}")
        self.engine = engine
        return {"status": status, "accepted": accepted}

    def run(self) -> dict:
        self.out.mkdir(parents=True, exist_ok=True)
        engine = self.open_engine()
        self.log(f"{len(engine.holdout)} holdout tasks x {self.s['repeats']} repeats, {self.s['cycles']} cycle(s), "
                 f"model {self.s['model']}")
        with tempfile.TemporaryDirectory(prefix="evolution-bench-") as scratch:
            seed_ws = engine.repo.export("evo-0", Path(scratch) / "evo-0")
            self.part("seed", lambda: self.evaluate("(a) seed", seed_ws))
            if self.chosen["evolve"]:
                evolved = self.part("evolve", self.evolve)
                engine = self.engine  # the resumed engine when the evolve part ran in this session
                for tag in evolved["accepted"]:
                    tag_ws = engine.repo.export(tag, Path(scratch) / tag)
                    self.part(f"tag:{tag}", lambda tag=tag, ws=tag_ws: self.evaluate(f"(c) {tag}", ws))
            # The reference after: the curve (seed, cycles, tags) is what the run is for, and is
            # complete on disk before the expert's 80 attempts start.
            if self.chosen["expert"]:
                self.part("expert", lambda: self.evaluate("(b) expert", EXPERT_WORKSPACE))
            for path in self.chosen["workspaces"]:
                self.part(f"workspace:{path}", lambda path=path: self.evaluate(f"(d) {Path(path).name}", Path(path)))
        results = summarise(self.state, self.out / "runs" / RUN_ID, engine, self.s)
        write_json_atomic(self.out / "results.json", results)
        from report import write_report

        write_report(results, self.out)
        self.log(f"wrote {self.out / 'results.json'}, results.md, curve.png")
        return results


def summarise(state: dict, run_dir: Path, engine, s: dict) -> dict:
    from adaptive_skill.llm.accounting import read_journal

    journal = read_journal(run_dir / "costs.jsonl") if (run_dir / "costs.jsonl").exists() else []
    parts = {key: part for key, part in state["parts"].items() if part.get("done")}  # not an interrupted one
    seed_scores = parts["seed"]["scores"]
    expert_scores = parts["expert"]["scores"] if "expert" in parts else None  # --no-expert: no headroom
    unmeasured = {"share": None, "low": None, "high": None, "note": "expert not evaluated"}
    seed = s["seed"]

    def cost(record: dict) -> dict:
        windows = record.get("windows", [])
        lines = [e for e in journal if any(a <= e.get("ts", 0) <= b for a, b in windows)]
        return {"wall_sec": round(sum(b - a for a, b in windows), 1),
                "prompt_tokens": sum(e.get("prompt_tokens", 0) for e in lines),
                "completion_tokens": sum(e.get("completion_tokens", 0) for e in lines), "llm_calls": len(lines)}

    def row(label: str, key: str, cycle: int | None) -> dict:
        scores = parts[key]["scores"]
        out = {"label": label, "cycle": cycle, "pass_rate": pass_rate(scores, seed=seed).to_dict(),
               "vs_seed": paired_difference(scores, seed_scores, seed=seed).to_dict(),
               "headroom_share": unmeasured if expert_scores is None else
               headroom_share(scores, seed_scores, expert_scores, seed=seed),
               "attempts": sum(len(v) for v in scores.values()), **cost(parts[key]), "scores": scores}
        return out

    unseen = None if expert_scores is None else expert_unseen(engine, parts, seed)
    evolved = parts.get("evolve")  # None: --no-evolve
    tags = evolved["accepted"] if evolved else []
    cycles = cycle_evidence(run_dir, engine, seed=seed) if evolved else []
    curve = [row("seed (evo-0)", "seed", 0)] + [
        row(tag, f"tag:{tag}", engine.repo.tag_info(tag).metrics.get("cycle")) for tag in tags]
    return {"settings": s, "holdout": [t.id for t in engine.holdout], "run": str(run_dir),
            "bootstrap": {"unit": "task (paired; repeats averaged within a task)", "resamples": 2000,
                          "level": 0.95, "seed": seed},
            "seed": curve[0], "expert": None if expert_scores is None else row("expert", "expert", None),
            "curve": curve, "cycles": cycles, "expert_unseen": unseen,
            "workspaces": [row(Path(key.split(":", 1)[1]).name, key, None) | {"path": key.split(":", 1)[1]}
                           for key in parts if key.startswith("workspace:")],
            "evolve": None if evolved is None else {"status": evolved["status"], "accepted": tags, **cost(evolved)}}


def expert_unseen(engine, parts: dict, seed: int) -> dict | None:
    """The rows again on the holdout tasks the expert was not written from (outside the train tasks
    of EXPERT_SPLIT), each paired with the seed and with its headroom share there; None when there
    are no others (a run on the expert's own split)."""
    from adaptive_skill.tasks import split_suite

    written_from = {t.id for t in split_suite(engine.suite, EXPERT_SPLIT["holdout_ratio"], EXPERT_SPLIT["seed"])[0]}
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
            "mutated_mean": gate.get("mutated_mean"), "baseline_mean": gate.get("baseline_mean"),
            "tasks_better": better, "tasks_worse": worse, "tasks_same": same, "per_task": per_task,
            "vs_baseline": paired,
            "tag": commit.get("tag"),
            "judge_check": {k: (gate.get("judge_check") or {}).get(k) for k in ("n", "agreement", "auroc")}})
    return cycles


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
