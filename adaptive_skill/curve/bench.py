"""The curve's parts, run once each and resumable: the seed workspace (evo-0), the evolve run, each
accepted tag, the expert, other workspaces; every one on the run's holdout tasks with the gate's seeds.

Everything lives under the output directory DIR. The evolve run is DIR/runs/evolve (the engine's
resume); each evaluation goes through AdaptiveSkillEngine.evaluate_holdout into that run's round
cache per workspace (runs/evolve/baselines/<hash>/gate-<key>/r<repeat>), whose finished attempts are
reused and which the gate itself reuses: the seed's repeats are cycle 1's gate baseline rounds, and
an accepted tag's gate rounds are its evaluation. DIR/state.json records the settings and each
finished part; a re-run skips what is done, and other settings with the same DIR are refused."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from adaptive_skill.config import EvolveConfig
from adaptive_skill.config.resume import changed_keys
from adaptive_skill.errors import UserError
from adaptive_skill.files import read_json, write_json_atomic

RUN_ID = "evolve"


def describe(config: EvolveConfig) -> dict:
    """The settings results.json shows, in the keys benchmarks/evolution/run.py has always written
    (readers of results.json and results.md use them)."""
    agent, curve = config.models.agent, config.curve
    return {"model": agent.model, "quick": False, "seed": config.seed, "suite": str(config.paths.suite),
            "cycles": config.max_cycles, "repeats": curve.repeats, "max_steps": config.limits.max_steps,
            "holdout_tasks": curve.holdout_tasks, "temperature": config.gating.temperature,
            "evolver": config.evolver.mode, "gate_rounds": config.gating.max_rounds,
            **({"skill_rounds": config.gating.skill_max_rounds} if config.gating.skill_max_rounds else {}),
            "labels": not config.trajectory_only, "skill_in_prompt": config.skill_in_prompt_tokens,
            "holdout_ratio": config.holdout_ratio, "judge_check": config.gating.judge_check,
            **({"check_before_submit": True} if agent.check_before_submit else {}),
            **({"show_before_submit": True} if agent.show_before_submit else {}),
            **({"evolver_samples": config.evolver.samples} if config.evolver.samples > 1 else {}),
            "batch_size": config.batch_size,
            **({"explore": config.explore.passes, "explore_temperature": config.explore.temperature}
               if config.explore.passes else {}),
            **({"explore_reflect": True} if config.explore.reflect else {}),
            **({"explore_agree": True} if config.explore.agree else {})}


def identity(config: EvolveConfig) -> dict:
    """What a directory's measurements depend on: the whole config but where the run directory sits
    (always DIR/runs), which parts run (a directory re-run with other parts keeps the ones it has) and
    which split the expert came from (read only when summarising)."""
    data = config.redacted()
    data["paths"].pop("runs_dir", None)
    for part in ("evolve", "expert", "workspaces", "expert_written_from"):
        data["curve"].pop(part, None)
    return {"config": data}


def upgraded(settings: dict) -> dict:
    """Settings a directory recorded, as this version's identity() gives them: a key added to the config
    since compares as its default, so a directory of an older version resumes (the engine's own resume
    does the same, config/resume.py). A recorded config this version cannot read is returned as it is."""
    from pydantic import ValidationError

    stored = settings.get("config") if isinstance(settings, dict) else None
    if not isinstance(stored, dict):
        return settings
    try:
        config = EvolveConfig.model_validate(stored)
    except (ValidationError, ValueError, TypeError):
        return settings
    return {**settings, **identity(config)}


def check_models(config: EvolveConfig) -> None:
    """An embedded model this install does not know fails here, in one line, before any work."""
    from adaptive_skill.llm.local import MODELS

    for role in ("agent", "judge", "evolver", "proposer"):
        model = getattr(config.models, role).model
        if not model.startswith("local/") or model.endswith(".gguf"):
            continue
        if model.removeprefix("local/") not in MODELS:
            raise UserError(f"models.{role}.model {model}: not an embedded model of this install (known: "
                            f"{', '.join('local/' + m for m in sorted(MODELS))}, or local/PATH.gguf)")


def check_workspaces(config: EvolveConfig) -> None:
    """Each workspace to evaluate is one (one line naming the directory when not), and none twice."""
    from adaptive_skill.workspace import Workspace

    paths = ([config.curve.expert] if config.curve.expert else []) + list(config.curve.workspaces)
    for path in paths:
        Workspace(path.resolve()).require()
    resolved = [str(p.resolve()) for p in config.curve.workspaces]
    if len(set(resolved)) != len(resolved):
        raise UserError("curve.workspaces: the same directory twice")


class Bench:
    """One output directory's curve. `settings`: what state.json records and compares (a directory
    run with other settings is refused); `shown`: the settings results.json shows (describe(config)
    when None); `expert_split`: see summary.summarise."""

    def __init__(self, out: Path, config: EvolveConfig, settings: dict, *, shown: dict | None = None,
                 log: Callable[[str], None] | None = None, display=None, name: str = "curve"):
        self.out, self.s, self.config = out, settings, config
        self.shown = shown if shown is not None else describe(config)
        self.name, self.display = name, display
        self._log = log
        self.state_path = out / "state.json"
        self.state = read_json(self.state_path, None) or {"settings": settings, "parts": {}}
        # Which parts run is not a setting; directories of runs before 2026-11-29 stored
        # --no-expert in their settings: dropped, so they resume with or without it.
        self.state["settings"].pop("expert", None)
        if self.state["settings"] != settings and upgraded(self.state["settings"]) != settings:
            changed = changed_keys(upgraded(self.state["settings"]), settings)
            more = f" and {len(changed) - 6} more" if len(changed) > 6 else ""
            raise UserError(f"{self.state_path}: this directory was run with other settings "
                            f"({', '.join(changed[:6])}{more}); use another --out")
        self.engine = None
        self.load_interval = 60.0  # seconds between samples of the load average while a part runs

    @property
    def repeats(self) -> int:
        return self.config.curve.repeats

    def save(self) -> None:
        write_json_atomic(self.state_path, self.state)

    def log(self, line: str) -> None:
        if self._log is not None:
            self._log(line)
        else:
            print(f"[{self.name} {time.strftime('%H:%M:%S')}] {line}", flush=True)

    # -- the engine --------------------------------------------------------------------------

    def open_engine(self):
        from adaptive_skill.engine import AdaptiveSkillEngine
        from adaptive_skill.runs import RunDir

        run_dir = self.out / "runs" / RUN_ID
        # A STOP file asked the last session to stop; this one was asked to go on (as the engine's resume).
        (run_dir / "STOP").unlink(missing_ok=True)
        if not (run_dir / "config.yaml").exists():
            AdaptiveSkillEngine.start(self.config, run_id=RUN_ID, **self._engine_kwargs())
        self.engine = AdaptiveSkillEngine(self.config, RunDir.open(run_dir), **self._engine_kwargs())
        self._trim_holdout(self.engine)
        return self.engine

    def _engine_kwargs(self) -> dict:
        return {"display": self.display} if self.display is not None else {}

    def _trim_holdout(self, engine) -> None:
        if self.config.curve.holdout_tasks:  # a smoke check: the first tasks of the same split
            engine.holdout = engine.holdout[: self.config.curve.holdout_tasks]

    # -- parts -------------------------------------------------------------------------------

    def part(self, key: str, work) -> dict:
        """Run `work` unless recorded as done; time it and attribute the cost journal's lines of its
        time windows to it (windows add up across resumed sessions). Each session also records the
        code, the machine and the load it ran beside (curve/provenance.py)."""
        from adaptive_skill.curve.provenance import LoadSampler, code_version, machine, session

        done = self.state["parts"].get(key)
        if done and done.get("done"):
            self.log(f"{key}: done before, skipped")
            return done
        record = done or {"windows": []}
        self.state["parts"][key] = record
        code, host = code_version(), machine()
        start = time.time()
        sampler = LoadSampler(self.load_interval)
        from adaptive_skill.engine.stopping import Stop

        try:
            with sampler:
                record.update(work(), done=True)
        except Stop as stop:  # a signal, the STOP file or a budget, between attempts of an evaluation
            raise UserError(f"{key}: stopped ({stop}); run the same command again to resume") from None
        finally:  # an interrupted session's time and tokens still count when the part is resumed
            end = time.time()
            record["windows"].append([start, end])
            record.setdefault("sessions", []).append(session(start, end, code, host, sampler.summary()))
            self.save()
        return record

    def evaluate(self, label: str, workspace_dir: Path) -> dict:
        from adaptive_skill.curve.stats import pass_rate
        from adaptive_skill.evolve.rules import workspace_hash

        engine = self.engine
        rounds_dir = engine.holdout_rounds_dir(workspace_hash(workspace_dir))
        scores: dict[str, list[float | None]] = {t.id: [] for t in engine.holdout}
        first = self.config.curve.first_round
        for r in range(self.repeats):
            held = engine.evaluate_holdout(workspace_dir, rounds_dir, f"{label} repeat {r + 1}/{self.repeats}",
                                           first + r)
            for task in scores:
                scores[task].append(held.scores.get(task))
            passed = sum(1 for v in held.scores.values() if v is not None and v >= 1.0)
            self.log(f"{label} repeat {r + 1}/{self.repeats}: {passed}/{len(held.scores)} holdout tasks passed")
        rate = pass_rate(scores, seed=self.config.seed)
        self.log(f"{label}: pass rate {pct(rate.mean)} [{pct(rate.low)}, {pct(rate.high)}] over {rate.n} tasks")
        return {"scores": scores, "attempts_dir": str(rounds_dir.relative_to(self.out))}

    def evolve(self) -> dict:
        from adaptive_skill.engine import RESUMABLE, AdaptiveSkillEngine

        engine = AdaptiveSkillEngine.resume(self.config, self.out / "runs" / RUN_ID, **self._engine_kwargs())
        self._trim_holdout(engine)
        status = engine.run()
        if status in RESUMABLE:  # a signal or the STOP file: not finished, not recorded as done
            raise UserError(f"evolve run {status}; run the same command again to resume")
        accepted = [t.name for t in engine.repo.tags() if t.name != "evo-0" and t.name.startswith("evo-")]
        self.log(f"evolve: {status}; accepted tags: {', '.join(accepted) or 'none'}")
        self.engine = engine
        return {"status": status, "accepted": accepted}

    def run(self) -> dict:
        from adaptive_skill.curve.summary import summarise

        self.out.mkdir(parents=True, exist_ok=True)
        engine = self.open_engine()
        curve = self.config.curve
        self.log(f"{len(engine.holdout)} holdout tasks x {self.repeats} repeats, {self.config.max_cycles} cycle(s), "
                 f"model {self.config.models.agent.model}")
        with tempfile.TemporaryDirectory(prefix="adaptive-skill-curve-") as scratch:
            seed_ws = engine.repo.export("evo-0", Path(scratch) / "evo-0")
            self.part("seed", lambda: self.evaluate("(a) seed", seed_ws))
            if curve.evolve:
                evolved = self.part("evolve", self.evolve)
                engine = self.engine  # the resumed engine when the evolve part ran in this session
                for tag in evolved["accepted"]:
                    tag_ws = engine.repo.export(tag, Path(scratch) / tag)
                    self.part(f"tag:{tag}", lambda tag=tag, ws=tag_ws: self.evaluate(f"(c) {tag}", ws))
            # The reference after: the curve (seed, cycles, tags) is what the run is for, and is
            # complete on disk before the expert's attempts start.
            if curve.expert is not None:
                self.part("expert", lambda: self.evaluate("(b) expert", curve.expert))
            for path in curve.workspaces:
                key = str(path.resolve())
                self.part(f"workspace:{key}", lambda key=key: self.evaluate(f"(d) {Path(key).name}", Path(key)))
        split = curve.expert_written_from.model_dump() if curve.expert_written_from else None
        rounds = {"first": curve.first_round, "gate_rounds": self.config.gating.max_rounds}
        results = summarise(self.state, self.out / "runs" / RUN_ID, engine, self.shown, expert_split=split,
                            rounds=rounds)
        write_outputs(results, self.out)
        from adaptive_skill.curve.attempts import FILE, write_attempts

        count = write_attempts(self.out)
        self.log(f"wrote {self.out / 'results.json'}, results.md, curve.html, {FILE} ({count} attempts)")
        return results


def write_outputs(results: dict, out: Path) -> None:
    """results.json, then results.md and curve.html from it; each written whole (then renamed)."""
    write_json_atomic(out / "results.json", results)
    render(results, out)


def render(results: dict, out: Path) -> None:
    """results.md and curve.html from results (as read from a results.json), nothing run."""
    from adaptive_skill.curve.markdown import markdown
    from adaptive_skill.curve.page import render_page
    from adaptive_skill.curve.summary import twins_of
    from adaptive_skill.files import write_text_atomic

    if "twins" not in results:  # written before the suite declared its families
        results = {**results, "twins": twins_of(results)}

    write_text_atomic(out / "results.md", markdown(results))
    write_text_atomic(out / "curve.html", render_page(results))


def pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"
