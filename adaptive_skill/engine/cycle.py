"""AdaptiveSkillEngine: the run and its cycle, top to bottom. Each phase is a function of the engine in
a module of its own (the imports below name them); here they run in order, each as a unit whose output
is saved and recorded in the checkpoint, so a resumed run skips what is done."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from adaptive_skill.config import EvolveConfig
from adaptive_skill.config.resume import MAY_CHANGE, resume_changes
from adaptive_skill.engine.holdout import HoldoutRound, attempt_tasks, evaluate_holdout, holdout_rounds_dir
from adaptive_skill.engine.phase_commit import commit
from adaptive_skill.engine.phase_converge import converge
from adaptive_skill.engine.phase_evolve import evolve
from adaptive_skill.engine.phase_explore import explore
from adaptive_skill.engine.phase_gate import gate
from adaptive_skill.engine.phase_observe import observe
from adaptive_skill.engine.phase_propose import propose
from adaptive_skill.engine.phase_solve import solve
from adaptive_skill.engine.records import (
    Checkpoint,
    CommitResult,
    ConvergeResult,
    CycleRecord,
    EvolveResult,
    ExploreResult,
    GateResult,
    ObserveResult,
    ProposeResult,
    SolveResult,
)
from adaptive_skill.engine.roles import Roles
from adaptive_skill.engine.stopping import (
    RESUMABLE,
    Stop,
    limit_reason,
    raise_if_stopping,
    signals,
    stop_reason,
)
from adaptive_skill.errors import ConfigError, UserError
from adaptive_skill.evolve.loadable import load_problems
from adaptive_skill.evolve.rules import skill_names, workspace_hash
from adaptive_skill.files import read_json, write_json_atomic
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.llm.base import ModelUnavailable
from adaptive_skill.runs import RunDir
from adaptive_skill.tasks import Task, scale_timeouts, scan_suite, split_suite
from adaptive_skill.versioning import WorkspaceRepo
from adaptive_skill.workspace import Workspace, copy_workspace

Result = TypeVar("Result", SolveResult, ObserveResult, EvolveResult, GateResult, CommitResult, ConvergeResult,
                 ProposeResult)


class AdaptiveSkillEngine:
    def __init__(self, config: EvolveConfig, run: RunDir, *, provider=None,
                 evolver_sandbox_factory: Callable[[], Any] | None = None, log: Callable[[str], None] | None = None,
                 display=None):
        from adaptive_skill.harness.providers import make_provider
        from adaptive_skill.llm import Accounting
        from adaptive_skill.progress import Display

        self.config = config
        self.run_dir = run
        self.repo = WorkspaceRepo.open(run.workspace)
        self.state = Checkpoint.from_dict(run.load_checkpoint())
        self.display = display or Display()  # rich on a terminal, plain lines in a log
        # The cost journal is the record: a resumed run's totals are the sum of its lines (docs/engine.md).
        self.accounting = Accounting(config.limits, on_call=self.display.on_call, journal=run.costs_path)
        self.provider = provider or make_provider(config.sandbox)
        self.roles = Roles(config, self.accounting, run, self.provider, evolver_sandbox_factory)
        self.log = log or self.display.log
        scanned = scan_suite(config.paths.suite)  # broken tasks are refused; the others run
        self.refused = scanned.refused
        self.suite_warnings = scanned.warnings
        self.suite = [scale_timeouts(t, config.sandbox.timeout_multiplier) for t in scanned.tasks]
        try:
            self.train, self.holdout = split_suite(self.suite, config.holdout_ratio, config.seed,
                                                   config.split_by_family, config.holdout_families)
        except ValueError as exc:
            raise UserError(f"{config.paths.suite}: {exc}") from None
        self.stop_requested = threading.Event()  # set by the first SIGINT/SIGTERM (stopping.signals)
        self._session_started = time.monotonic()

    # -- creating and resuming ---------------------------------------------------------------

    @classmethod
    def start(cls, config: EvolveConfig, run_id: str | None = None, **kwargs) -> AdaptiveSkillEngine:
        Workspace(config.paths.workspace).require()
        unloadable = load_problems(config.paths.workspace)  # the agent must be able to load the seed
        if unloadable:
            more = f" (and {len(unloadable) - 1} more: adaptive-skill skills check PATH)" if len(unloadable) > 1 else ""
            raise UserError(f"{config.paths.workspace / unloadable[0].path}: {unloadable[0].message}{more}")
        scan_suite(config.paths.suite)  # a suite where nothing loads fails before anything is created
        run = RunDir.create(config.paths.runs_dir, config.to_yaml(), run_id)
        copy_workspace(config.paths.workspace, run.workspace)
        repo = WorkspaceRepo.init(run.workspace, "seed workspace")
        repo.tag("evo-0", {"cycle": 0, "skills": len(skill_names(run.workspace))}, summary="seed workspace")
        run.save_checkpoint(Checkpoint(cycle=1, done=[], status="running", accepted_commit=repo.head(),
                                       accepted_hash=workspace_hash(run.workspace)).to_dict())
        run.event("run_start", run=str(run.root), suite=str(config.paths.suite), workspace=str(config.paths.workspace))
        return cls(config, run, **kwargs)

    @classmethod
    def resume(cls, config: EvolveConfig, run_dir: Path, **kwargs) -> AdaptiveSkillEngine:
        # A resumed run keeps what it measures with: one record, one setup (config/resume.py). Checked
        # before RunDir.open, which repairs the events file: a refused resume leaves the run as it was.
        stored_at = RunDir(Path(run_dir))
        stored = stored_at.stored_config()
        refused, allowed = resume_changes(stored, config) if stored is not None else ([], [])
        if refused:
            more = f" and {len(refused) - 5} more" if len(refused) > 5 else ""
            raise ConfigError(f"{stored_at.config_path}: --resume with a config that differs from the run's in "
                              f"{', '.join(refused[:5])}{more}; only {', '.join(MAY_CHANGE)} may change on "
                              "resume: give the run's values, or start a new run")
        run = RunDir.open(run_dir)
        stop_file = run.root / "STOP"
        if stop_file.exists():
            stop_file.unlink()
        engine = cls(config, run, **kwargs)
        engine.state.status = "running"  # the stop conditions are checked afresh with this config
        run.event("run_resume", cycle=engine.state.cycle, done=engine.state.done, changed=allowed)
        return engine

    # -- the run -----------------------------------------------------------------------------

    def run(self) -> str:
        """Cycle until a stop condition; return the final status."""
        self.log(f"run {self.run_dir.root}: {len(self.train)} train / {len(self.holdout)} holdout tasks")
        for endpoint in self.roles.endpoints():  # before any attempt: a role with no usable reply stops here
            if endpoint.probed:
                self.log(endpoint.line())
        if self.refused:
            self.run_dir.event("tasks_refused", tasks=[r.to_dict() for r in self.refused])
            for refused in self.refused:
                self.log(refused.line())
        for warning in self.suite_warnings:
            self.log(f"warning: {warning}")
        with signals(self):
            while True:
                reason = stop_reason(self)
                if reason:
                    return self._finish(reason)
                try:
                    self._cycle(self.state.cycle)
                except Stop as stop:
                    return self._finish(str(stop))

    def _cycle(self, n: int) -> None:
        self.display.cycle(lambda: self.accounting.totals().cost)
        if not self.state.done:
            self.run_dir.event("cycle_start", cycle=n)
            self.log(f"cycle {n}")
        solved = self._phase(n, "solve", SolveResult, lambda c: solve(self, c))
        observed = self._phase(n, "observe", ObserveResult, lambda c: observe(self, c, solved))
        if self.config.explore.passes:
            self._phase(n, "explore", ExploreResult, lambda c: explore(self, c, solved, observed))
        evolved = self._phase(n, "evolve", EvolveResult, lambda c: evolve(self, c))
        gated = self._phase(n, "gate", GateResult, lambda c: gate(self, c, evolved))
        committed = self._phase(n, "commit", CommitResult, lambda c: commit(self, c, evolved, gated, observed))
        self._phase(n, "converge", ConvergeResult,
                    lambda c: converge(self, c, solved, observed, evolved, committed, gated))
        if self.config.task_proposal.enabled:
            self._phase(n, "propose", ProposeResult, lambda c: propose(self, c, observed))
        self.state.cycles.append(CycleRecord(cycle=n, tag=committed.tag, accepted=gated.accepted,
                                             mutated=evolved.mutated,
                                             created=gated.shipped(evolved.changes.created_skills),
                                             summary=evolved.summary))
        self.state.cycle, self.state.done = n + 1, []
        self._save()
        self.run_dir.event("cycle_end", cycle=n, tag=committed.tag, accepted=gated.accepted,
                           cost=self.accounting.snapshot()["run"])

    def _phase(self, n: int, name: str, kind: type[Result], work: Callable[[int], Result]) -> Result:
        """Run one phase unless the checkpoint says it is done; then save and honour stop requests."""
        path = self.run_dir.cycle_dir(n) / f"{name}.json"
        if name in self.state.done:
            saved = read_json(path)  # written (whole) before the checkpoint named the phase done
            if saved is None:
                raise UserError(f"{path}: missing or unreadable, but checkpoint.json says phase {name} is done")
            return kind.from_dict(saved)
        self.run_dir.event("phase_start", cycle=n, phase=name)
        self.accounting.where = {"cycle": n, "phase": name}  # each journal line says what it paid for
        started = time.monotonic()
        try:
            output = work(n)
        except ModelUnavailable as exc:  # a role's server went away: nothing of this phase is recorded
            self.run_dir.event("model_unavailable", cycle=n, phase=name, detail=str(exc))
            self.log(f"cycle {n} {name}: {exc}")
            raise Stop("model_unavailable") from None
        if limit_reason(self) == "budget":
            # Calls were refused inside this phase, so its output may be degraded: not recorded,
            # redone on resume (finished attempts and judge verdicts are reused, not paid twice).
            raise Stop("budget")
        write_json_atomic(path, output.to_dict())
        self.state.done.append(name)
        self._save()
        self.run_dir.event("phase_end", cycle=n, phase=name, seconds=round(time.monotonic() - started, 3),
                           summary=output.event_summary(), cost=self.accounting.snapshot()["run"])
        raise_if_stopping(self)
        return output

    def _finish(self, reason: str) -> str:
        self.state.status = reason
        self._save()
        self.run_dir.event("run_end", status=reason, cycle=self.state.cycle, cost=self.accounting.snapshot()["run"],
                           tags=[t.name for t in self.repo.tags()])
        note = " (resume with --resume)" if reason in RESUMABLE else ""
        self.log(f"run {self.run_dir.root}: {reason}{note}")
        return reason

    def elapsed(self) -> float:
        """Seconds the run has run, over every session (the wall-time limit)."""
        return self.state.elapsed_sec + (time.monotonic() - self._session_started)

    def _save(self) -> None:
        self.state.elapsed_sec = self.elapsed()
        self._session_started = time.monotonic()
        self.run_dir.save_checkpoint(self.state.to_dict())

    # -- evaluating a workspace on the holdout tasks (holdout.py): the gate, replay, benchmarks ------

    def evaluate_holdout(self, workspace_dir: Path, out: Path, title: str, round_index: int) -> HoldoutRound:
        return evaluate_holdout(self, workspace_dir, out, title, round_index)

    def attempt_tasks(self, tasks: list[Task], workspace_dir: Path, out: Path, title: str,
                      round_index: int, temperature: float | None = None) -> list[AttemptResult]:
        return attempt_tasks(self, tasks, workspace_dir, out, title, round_index, temperature)

    def holdout_rounds_dir(self, workspace_hash: str) -> Path:
        return holdout_rounds_dir(self, workspace_hash)
