"""AdaptiveSkillEngine: the overnight cycle, top to bottom.

    Solve    a batch from the rotating train pool, N workers; labels stored apart
    Observe  signals, compression and the label-free judge; calibration against labels
    Evolve   the evolver in a sandbox on a copy of the workspace; rules enforced in code
    Gate     holdout tasks, mutated vs accepted workspace, paired
    Commit   accepted: commit + tag evo-N; rejected: rollback commit (history kept)
    Converge EGL window, max cycles, budgets, stop file, signals

Every phase is a unit: its output is written to runs/<id>/cycles/<n>/<phase>.json and the
checkpoint records it, so `--resume` skips finished phases, and inside Solve and Gate the batch
runner skips finished attempts.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import signal
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from adaptive_skill.config import EvolveConfig
from adaptive_skill.convergence import converged, egl, tasks_solved
from adaptive_skill.errors import UserError
from adaptive_skill.evolve.evolver import EVOLVER_USER
from adaptive_skill.evolve.loadable import load_problems
from adaptive_skill.evolve.rules import skill_names, workspace_hash
from adaptive_skill.files import building_dir, read_json, write_json_atomic
from adaptive_skill.gating import Round, SequentialDecision, sequential_decision
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.observe.observations import ObservedItem, write_observations
from adaptive_skill.phases import (
    Checkpoint,
    CommitResult,
    ConvergeResult,
    CycleRecord,
    EvolveResult,
    ExploreAttempt,
    ExploreResult,
    GateResult,
    GateStatistic,
    ObserveResult,
    ProposeResult,
    SolveResult,
)
from adaptive_skill.progress import printable_line
from adaptive_skill.runs import RunDir
from adaptive_skill.tasks import Task, cycle_batch, scale_timeouts, scan_suite, split_suite
from adaptive_skill.trajectory.worked import worked_commands
from adaptive_skill.versioning import EVO_TAG, WorkspaceRepo
from adaptive_skill.workspace import Workspace, copy_workspace

if TYPE_CHECKING:
    from adaptive_skill.proposals import AdmittedTask
    from adaptive_skill.ratings import HumanVerdicts

Result = TypeVar("Result", SolveResult, ObserveResult, EvolveResult, GateResult, CommitResult, ConvergeResult,
                 ProposeResult)
RESUMABLE = ("stopped",)  # statuses a plain --resume continues; finished runs continue if limits allow


class Stop(Exception):
    """Leave the cycle after the current unit; the checkpoint lets --resume go on."""


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
        self.evolver_sandbox_factory = evolver_sandbox_factory
        self.log = log or self.display.log
        scanned = scan_suite(config.paths.suite)  # broken tasks are refused; the others run
        self.refused = scanned.refused
        self.suite_warnings = scanned.warnings
        self.suite = [scale_timeouts(t, config.sandbox.timeout_multiplier) for t in scanned.tasks]
        self.train, self.holdout = split_suite(self.suite, config.holdout_ratio, config.seed)
        self._llms: dict[str, Any] = {}
        self._judge_instance = None
        self._checker = None
        self._signal = threading.Event()
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
        run = RunDir.open(run_dir)
        stop_file = run.root / "STOP"
        if stop_file.exists():
            stop_file.unlink()
        engine = cls(config, run, **kwargs)
        engine.state.status = "running"  # the stop conditions are checked afresh with this config
        run.event("run_resume", cycle=engine.state.cycle, done=engine.state.done)
        return engine

    # -- the run -----------------------------------------------------------------------------

    def run(self) -> str:
        """Cycle until a stop condition; return the final status."""
        self.log(f"run {self.run_dir.root}: {len(self.train)} train / {len(self.holdout)} holdout tasks")
        if self.refused:
            self.run_dir.event("tasks_refused", tasks=[r.to_dict() for r in self.refused])
            for refused in self.refused:
                self.log(refused.line())
        for warning in self.suite_warnings:
            self.log(f"warning: {warning}")
        with self._signals():
            while True:
                reason = self._stop_reason()
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
        solved = self._phase(n, "solve", SolveResult, self._solve)
        observed = self._phase(n, "observe", ObserveResult, lambda c: self._observe(c, solved))
        if self.config.explore.passes:
            self._phase(n, "explore", ExploreResult, lambda c: self._explore(c, solved, observed))
        evolved = self._phase(n, "evolve", EvolveResult, self._evolve)
        gated = self._phase(n, "gate", GateResult, lambda c: self._gate(c, evolved))
        committed = self._phase(n, "commit", CommitResult, lambda c: self._commit(c, evolved, gated, observed))
        self._phase(n, "converge", ConvergeResult, lambda c: self._converge(c, solved, observed, evolved, committed))
        if self.config.task_proposal.enabled:
            self._phase(n, "propose", ProposeResult, lambda c: self._propose(c, observed))
        self.state.cycles.append(CycleRecord(cycle=n, tag=committed.tag, accepted=gated.accepted,
                                             mutated=evolved.mutated,
                                             created=evolved.changes.created_skills if gated.accepted else [],
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
        output = work(n)
        if self._limit_reason() == "budget":
            # Calls were refused inside this phase, so its output may be degraded: not recorded,
            # redone on resume (finished attempts and judge verdicts are reused, not paid twice).
            raise Stop("budget")
        write_json_atomic(path, output.to_dict())
        self.state.done.append(name)
        self._save()
        self.run_dir.event("phase_end", cycle=n, phase=name, seconds=round(time.monotonic() - started, 3),
                           summary=output.event_summary(), cost=self.accounting.snapshot()["run"])
        self._raise_if_stopping()
        return output

    # -- phases ------------------------------------------------------------------------------

    def _solve(self, n: int) -> SolveResult:
        # The suite's rotation, untouched by proposals; admitted proposals rotate in slots of their own.
        admitted = [(a.task, a.cycle) for a in self._admitted(n)]
        tasks = cycle_batch(self.train, admitted, self.config.batch_size, self.config.task_proposal.batch_slots,
                            self.config.seed, n)
        cycle_dir = self.run_dir.cycle_dir(n)
        results = self._attempts(tasks, self.run_dir.workspace, cycle_dir / "solve", f"cycle {n} solve",
                                 keep_state=True)
        return SolveResult(tasks=[t.id for t in tasks], results=results)

    def _observe(self, n: int, solved: SolveResult) -> ObserveResult:
        from adaptive_skill.observe import JudgeItem, extract_signals
        from adaptive_skill.observe.calibration import calibrate_results

        results = solved.results
        people = None
        if self.config.review.human_verdicts:  # people's ratings of escalated trajectories outrank the judge
            from adaptive_skill.ratings import HumanVerdicts

            people = HumanVerdicts.load(self.run_dir.root, n, results, self.config.judge.pass_threshold)
            if people.unrated and self.config.review.wait_for_review:
                self.run_dir.event("review_wait", cycle=n, tasks=people.unrated)
                self.log(f"cycle {n}: waiting for people to rate {', '.join(people.unrated)} "
                         f"(adaptive-skill review {self.run_dir.root}), then evolve --resume")
                raise Stop("stopped")
        items: list[ObservedItem] = []
        to_judge: list[tuple[ObservedItem, JudgeItem]] = []
        judge = self._judge()
        for result in results:
            task = self._task(result.task_id)
            item = ObservedItem(task=task.id, programs=result.programs)
            trajectory = read_json(Path(result.trajectory_path), None) if result.trajectory_path else None
            if trajectory is None:
                item.judge_error = f"no trajectory ({result.failure_mode})"
            else:
                item.signals = extract_signals(trajectory).to_dict()
                item.compressed = judge.compress(trajectory).text  # once: the judge and the evolver read it
                item.category, item.worked = task.category, worked_commands(trajectory)
                evidence = self._state_evidence(task, self.run_dir.cycle_dir(n) / "solve" / "state" / task.id)
                to_judge.append((item, JudgeItem(task.instruction, trajectory, task.id, item.compressed, evidence)))
            items.append(item)
        with self.display.phase(f"cycle {n} judge", len(to_judge), role="judge") as progress:
            verdicts = judge.judge_many([question for _, question in to_judge], workers=self.config.workers)
            progress.verdicts(verdicts, self.config.judge.pass_threshold)
        for (item, _), verdict in zip(to_judge, verdicts, strict=True):
            if verdict.status == "ok":
                item.verdict = verdict.to_dict()
            else:
                item.judge_error = verdict.reason
        if people:
            items = [self._human_verdict(n, people, item) for item in items]
        # For calibration only, never shown to the evolver; a task without tests has no label.
        labels = {r.task_id: r.passed for r in results if r.failure_mode != "unverified"}
        write_observations(self.run_dir.cycle_dir(n) / "observations", items,
                           {task_id: self._task(task_id).instruction for task_id in solved.tasks},
                           labels=None if self.config.trajectory_only else labels,
                           skill_use=self._skill_use(n, {item.task: item.score for item in items}))
        scores = [item.score for item in items if item.score is not None]
        return ObserveResult(items=items, mean_score=round(sum(scores) / len(scores), 3) if scores else None,
                             judge_errors=sum(1 for item in items if item.judge_error),
                             calibration=calibrate_results(labels, verdicts,
                                                           threshold=self.config.judge.pass_threshold))

    def _explore(self, n: int, solved: SolveResult, observed: ObserveResult) -> ExploreResult:
        """Each batch task that did not pass (as the evolver counts a pass), attempted again with the
        agent sampling at explore.temperature, each pass at its own seed, until one attempt passes or
        explore.passes are spent; judged like the batch, except where the evolver sees the tests
        (trajectory_only off): a verified attempt is then decided by its tests, with no verdict. What
        each task's attempts did is written beside its observations (explored.json): the worked
        commands of a passed one, the scores. With explore.reflect each attempt is told what the
        task's attempt before it (the batch's, then the last pass's) did wrong (agent/reflect.py)."""
        from adaptive_skill.agent.reflect import reflection
        from adaptive_skill.observe import JudgeItem
        from adaptive_skill.observe.observations import EXPLORED, passed
        from adaptive_skill.sandbox.programs import Programs

        c = self.config
        labels = {} if c.trajectory_only else {r.task_id: bool(r.passed) for r in solved.results
                                               if r.failure_mode != "unverified"}
        todo = [item.task for item in observed.items
                if not passed(item.score, labels.get(item.task), c.judge.pass_threshold)]
        attempts: list[ExploreAttempt] = []
        found: set[str] = set()
        judge = self._judge()
        before = {r.task_id: r for r in solved.results}  # each task's attempt before
        for index in range(c.explore.passes):
            tasks = [self._task(task_id) for task_id in todo if task_id not in found]
            if not tasks:
                break
            notes = {t.id: note for t in tasks if c.explore.reflect and (last := before.get(t.id))
                     and last.trajectory_path
                     and (note := reflection(last.trajectory_path, Programs.from_dict(last.programs)))}
            config = c.model_copy(deep=True)
            config.models.agent.temperature = c.explore.temperature
            config.models.agent.seed = explore_seed(c.seed, n, index)
            title = f"cycle {n} explore {index + 1}/{c.explore.passes} at temperature {c.explore.temperature:g}"
            folder = self.run_dir.cycle_dir(n) / "explore" / f"p{index + 1}"
            results = self._attempts(tasks, self.run_dir.workspace, folder, title, config=config, notes=notes,
                                     keep_state=True)
            before.update({r.task_id: r for r in results})
            loaded = [(r, read_json(Path(r.trajectory_path), None) if r.trajectory_path else None,
                       None if c.trajectory_only or r.failure_mode == "unverified" else bool(r.passed))
                      for r in results]
            # Where the tests decide (labelled, verified), a verdict would change nothing: not asked
            # (run 19 spent 10 of its 26 explore minutes on verdicts only the report read).
            questions = [JudgeItem(self._task(r.task_id).instruction, t, r.task_id,
                                   evidence=self._state_evidence(self._task(r.task_id), folder / "state" / r.task_id))
                         for r, t, label in loaded if t is not None and label is None]
            judged = []
            if questions:  # labelled: none, and no empty judge phase on the screen
                with self.display.phase(f"{title}: judge", len(questions), role="judge") as progress:
                    judged = judge.judge_many(questions, workers=c.workers)
                    progress.verdicts(judged, c.judge.pass_threshold)
            verdicts = iter(judged)
            for result, trajectory, label in loaded:
                verdict = next(verdicts) if trajectory is not None and label is None else None
                score = float(verdict.score) if verdict is not None and verdict.status == "ok" else None
                ok = trajectory is not None and passed(score, label, c.judge.pass_threshold)
                attempts.append(ExploreAttempt(task=result.task_id, attempt=index + 1,
                                               temperature=c.explore.temperature, score=score, passed=ok,
                                               commands=worked_commands(trajectory) if ok else [],
                                               trajectory=result.trajectory_path))
                if ok:
                    found.add(result.task_id)
        explored = ExploreResult(tasks=todo, attempts=attempts)
        observations = self.run_dir.cycle_dir(n) / "observations"
        for task_id in todo:
            if (observations / task_id).is_dir():
                write_json_atomic(observations / task_id / EXPLORED,
                                  [{k: v for k, v in a.to_dict().items() if k != "trajectory"}
                                   for a in attempts if a.task == task_id])
        self.log(f"cycle {n} explore: {len(explored.found())} of {len(todo)} unpassed task(s) passed at temperature "
                 f"{c.explore.temperature:g}" + (f" ({', '.join(explored.found())})" if explored.found() else ""))
        return explored

    def _checks_on(self) -> bool:
        return self.config.judge.check_state and self.config.sandbox.kind == "docker"

    def _state_evidence(self, task: Task, state_dir: Path) -> str | None:
        """What the checks of the attempt's final state printed, for its judge (judge.check_state;
        observe/checks.py); kept as state_dir/checks.json, which a resumed run reads instead of
        checking again. None when the checks are off or nothing could be checked."""
        if not self._checks_on() or not state_dir.is_dir():
            return None
        from adaptive_skill.observe.checks import CheckedState, Checker

        path = state_dir / "checks.json"
        saved = read_json(path, None)
        if isinstance(saved, dict):
            return CheckedState.from_dict(saved).evidence()
        if self._checker is None:  # the judge's model writes the checks, cached by instruction
            self._checker = Checker(self._llm("judge"), self.run_dir.judge_cache / "checks",
                                    timeout=self.config.judge.check_timeout_sec)
        plan = self._checker.plan(task.instruction)
        checked = self._checker.run(self.provider, task, state_dir, plan.commands)
        if plan.error and not checked.error:
            checked.error = plan.error
        write_json_atomic(path, {**checked.to_dict(), "refused": plan.refused})
        return checked.evidence()

    def _skill_use(self, n: int, scores: dict[str, float | None]) -> list[str]:
        """How the agent used each current skill in the train attempts of cycles 1..n (judge scores
        only: the evolver sees no holdout task and no test result through it)."""
        from adaptive_skill.observe.attribution import attribute, evolver_lines, observed_scores, solve_uses

        uses = []
        for cycle in range(1, n + 1):
            folder = self.run_dir.cycle_dir(cycle)
            known = scores if cycle == n else observed_scores(folder / "observe.json")
            uses += solve_uses(folder / "solve", known, "train")
        return evolver_lines(attribute(uses), Workspace(self.run_dir.workspace).skill_names())

    def _human_verdict(self, n: int, people: HumanVerdicts, item: ObservedItem) -> ObservedItem:
        """People's rating in place of the judge's verdict (the judge's stays beside it, for the report)."""
        data = item.to_dict()
        human = people.replace(data)
        if not human:
            return item
        self.run_dir.event("human_verdict", cycle=n, task=item.task, score=human["score"], raters=human["raters"])
        replaced = ObservedItem.from_dict(data)
        replaced.compressed = item.compressed
        return replaced

    def _evolve(self, n: int) -> EvolveResult:
        from adaptive_skill.evolve import make_evolver

        c = self.config
        if not (c.evolve_skills or c.evolve_prompts or c.evolve_memory):
            return EvolveResult(mutated=False, skipped="evolution is switched off")
        self._reset_workspace()  # a resumed evolve starts again from the accepted workspace
        cycle_dir = self.run_dir.cycle_dir(n)
        drafts = cycle_dir / "drafts" if c.solver_proposed else None
        evolver = make_evolver(c, self._llm("evolver"), sandbox_factory=self._evolver_sandbox, run=self.run_dir,
                               accounting=self.accounting, sampler=self._evolver_at)
        with self.display.phase(f"cycle {n} evolve", 1, role="evolver") as progress:
            outcome = evolver.evolve(self.run_dir.workspace, cycle_dir / "observations", cycle_dir / "evolve",
                                     history=self._history(), drafts=drafts, task_id=f"evolve-{n}")
            progress.finished("evolver", "done", outcome.status)
        output = EvolveResult.from_dict({**outcome.to_dict(), "candidate": None, "candidate_hash": None})
        if outcome.mutated:
            output.candidate = self.repo.snapshot(f"cycle {n}: candidate mutation\n\n{outcome.summary or ''}")
            output.candidate_hash = workspace_hash(self.run_dir.workspace)
        changed = ", ".join(outcome.changes.paths()) if outcome.mutated else "no change"
        reverted = f"; reverted {len(outcome.reverted)} violation(s)" if outcome.reverted else ""
        self.log(f"cycle {n} evolve: {changed}{reverted}")
        if outcome.summary:
            self.log(f"  evolver: {printable_line(outcome.summary)}")
        for violation in outcome.violations:  # why a change was refused or undone, as the rules said it
            self.log(f"  {violation.rule}: {printable_line(violation.message)}")
        return output

    def _gate(self, n: int, evolved: EvolveResult) -> GateResult:
        if not evolved.mutated:
            return GateResult(accepted=False, reason="no mutation to gate", gated=False)
        if not self.config.gating.enabled:
            return GateResult(accepted=True, reason="gating is switched off", gated=False)
        if not self.holdout:
            return GateResult(accepted=False, reason="no holdout tasks (holdout_ratio is 0)", gated=False)
        cycle_dir = self.run_dir.cycle_dir(n)
        baseline_dir = self.run_dir.baseline_dir(self.state.accepted_hash)
        export_baseline(self.repo, self.state.accepted_commit, baseline_dir / "workspace", self.state.accepted_hash)
        g = self.config.gating
        # Round r of the mutated side is paired with round r of the accepted workspace (same tasks,
        # same seed). The accepted workspace's rounds are kept by its hash and the sampling settings:
        # while it stays accepted, later gates reuse them and run only the rounds they lack.
        baseline_rounds = self.holdout_rounds_dir(self.state.accepted_hash)
        reused = sum(1 for r in range(g.max_rounds) if (baseline_rounds / f"r{r}" / "results").is_dir())
        rounds: list[Round] = []
        judged: list[tuple[float, bool]] = []  # (judge score, verifier passed) of every labelled gate attempt
        decision: SequentialDecision | None = None
        for r in range(g.max_rounds):
            title = f"cycle {n} gate round {r + 1}"
            mutated = self.evaluate_holdout(self.run_dir.workspace, cycle_dir / "gate-mutated", f"{title} (mutated)", r)
            baseline = self.evaluate_holdout(baseline_dir / "workspace", baseline_rounds, f"{title} (baseline)", r)
            rounds.append({task: (baseline.scores.get(task), mutated.scores.get(task))
                           for task in sorted(set(mutated.scores) | set(baseline.scores))})
            judged += mutated.judged + baseline.judged
            decision = sequential_decision(rounds, g)
            stat = decision.statistic
            self.run_dir.event("gate_round", cycle=n, round=r + 1, verdict=decision.verdict, llr=round(stat.llr, 4),
                               delta=_round(stat.delta), se=_round(stat.se), tasks=stat.tasks, pairs=stat.pairs)
            if decision.final:
                break
        assert decision is not None  # max_rounds >= 1
        stat = decision.statistic
        check = self._judge_check(n, judged)
        per_task = [{"task": task, "baseline": _round(_mean([r[task][0] for r in rounds if task in r])),
                     "mutated": _round(_mean([r[task][1] for r in rounds if task in r])),
                     "difference": _round(difference)} for task, difference in stat.per_task.items()]
        scored = [row for row in per_task if row["baseline"] is not None and row["mutated"] is not None]
        mutated_mean = _mean([row["mutated"] for row in scored])
        baseline_mean = _mean([row["baseline"] for row in scored])
        rollouts = 2 * len(self.holdout) * len(rounds)
        self.run_dir.event("gate_decision", cycle=n, verdict=decision.verdict, rounds=len(rounds), rollouts=rollouts,
                           baseline_rounds_reused=min(reused, len(rounds)), llr=round(stat.llr, 4),
                           delta=_round(stat.delta), reason=decision.reason)
        result = GateResult(accepted=decision.accepted, verdict=decision.verdict, reason=decision.reason, gated=True,
                            score=g.score, rounds=len(rounds), rollouts=rollouts,
                            baseline_rounds_reused=min(reused, len(rounds)),
                            statistic=GateStatistic(llr=round(stat.llr, 4), delta=_round(stat.delta),
                                                    se=_round(stat.se), tasks=stat.tasks, pairs=stat.pairs,
                                                    identical=stat.identical),
                            mutated_mean=_round(mutated_mean), baseline_mean=_round(baseline_mean),
                            delta=_round(stat.delta), per_task=per_task,
                            unscored=sorted(t.id for t in self.holdout if t.id not in stat.per_task),
                            round_scores=[{task: list(pair) for task, pair in one.items()} for one in rounds],
                            judge_check=check, temperature=g.temperature,
                            mutated_commit=evolved.candidate, baseline_commit=self.state.accepted_commit)
        for line in result.evidence():
            self.log(f"cycle {n} gate: {line}")
        return result

    def _judge_check(self, n: int, judged: list[tuple[float, bool]]) -> dict:
        """The judge against the verifier's labels on this cycle's holdout attempts (labels the
        evolver never sees); loud when it disagrees too often."""
        from adaptive_skill.observe.calibration import metrics

        threshold = self.config.judge.pass_threshold
        check = {"threshold": threshold, **metrics([s for s, _ in judged], [p for _, p in judged], threshold)}
        check["agreement"] = check.pop("accuracy")
        check["pairs"] = [[round(score, 3), passed] for score, passed in judged]  # pooled per run by the report
        g = self.config.gating
        disagreement = None if check["agreement"] is None else 1 - check["agreement"]
        check["warning"] = bool(check["n"] >= g.judge_min_attempts and disagreement is not None
                                and disagreement > g.judge_max_disagreement)
        self.run_dir.event("gate_judge_check", cycle=n, n=check["n"], agreement=check["agreement"],
                           auroc=check["auroc"], warning=check["warning"])
        if check["warning"]:
            self.run_dir.event("judge_disagrees", cycle=n, n=check["n"], disagreement=round(disagreement, 4),
                               limit=g.judge_max_disagreement, auroc=check["auroc"])
            self.log(f"WARNING cycle {n}: the judge disagrees with the verifier on {disagreement:.0%} of "
                     f"{check['n']} holdout attempts (limit {g.judge_max_disagreement:.0%}, AUROC {check['auroc']}): "
                     f"its scores steer the evolver and cannot be trusted on this suite")
        return check

    def _commit(self, n: int, evolved: EvolveResult, gated: GateResult, observed: ObserveResult) -> CommitResult:
        candidate = evolved.candidate
        if not candidate:
            return CommitResult(tag=None, commit=self.state.accepted_commit, rolled_back=False)
        if gated.accepted:
            # A crash between tagging and the checkpoint left the tag: find it instead of tagging twice.
            tag = next((t.name for t in self.repo.tags() if t.commit == candidate and EVO_TAG.match(t.name)), None)
            if tag is None:
                tag = self.repo.next_evo_tag()
                self.repo.tag(tag, {
                    "cycle": n, "holdout_mutated": gated.mutated_mean, "holdout_baseline": gated.baseline_mean,
                    "delta": gated.delta, "batch_mean_score": observed.mean_score,
                    "skills": len(skill_names(self.run_dir.workspace)), "created": evolved.changes.created_skills,
                    "modified": evolved.changes.modified_skills,
                    "cost": round(self.accounting.totals().cost, 6)},
                    summary=f"cycle {n}: accepted ({gated.reason})", ref=candidate)
            self.state.accepted_commit, self.state.accepted_hash = candidate, evolved.candidate_hash
            keep_rounds(self.run_dir.cycle_dir(n) / "gate-mutated", self.holdout_rounds_dir(evolved.candidate_hash))
            self.run_dir.event("mutation_accepted", cycle=n, tag=tag, commit=candidate)
            return CommitResult(tag=tag, commit=candidate, rolled_back=False)
        if self.repo.head() == candidate:
            message = f"cycle {n}: roll back rejected mutation {candidate[:10]}"
            self.repo.rollback(self.state.accepted_commit, message)
        self.run_dir.event("mutation_rejected", cycle=n, rejected_commit=candidate, reason=gated.reason)
        return CommitResult(tag=None, commit=self.repo.head(), rolled_back=True, rejected_commit=candidate)

    def _converge(self, n: int, solved: SolveResult, observed: ObserveResult, evolved: EvolveResult,
                  committed: CommitResult) -> ConvergeResult:
        created = len(evolved.changes.created_skills) if committed.tag else 0
        count = tasks_solved([r.to_dict() for r in solved.results], [i.to_dict() for i in observed.items],
                             self.config.judge.pass_threshold)
        value = egl(created, count)
        self.state.egl.append(round(value, 6))
        done = converged(self.state.egl, self.config.egl_threshold, self.config.egl_window)
        self.state.converged = done
        return ConvergeResult(egl=value, new_skills=created, tasks=len(solved.results), solved=count, converged=done)

    def _propose(self, n: int, observed: ObserveResult) -> ProposeResult:
        """Seed the novelty loop with this cycle's failures; the proposer writes its best ideas as whole
        tasks, and the sound ones, most novel first, join the train pool from the next cycle on."""
        from adaptive_skill.embed import make_embedder
        from adaptive_skill.proposals import TaskProposer, failure_seed

        seed = failure_seed([i.to_dict() for i in observed.items], self.config.judge.pass_threshold)
        if seed is None:
            return ProposeResult(seed=None, proposed=[], reason="no failure to start from")
        proposer = TaskProposer(self.config, self._llm("proposer"), make_embedder(self.config.models.embedder),
                                root=self.run_dir.root / "proposals", sandbox_factory=self._proposer_sandbox,
                                provider=self.provider, accounting=self.accounting,
                                feasibility=self._feasibility_agent if self.config.task_proposal.feasibility else None)
        pool = self.suite + [a.task for a in self._admitted(n)]  # holdout too: no near copy of it may train
        with self._budget_stops():
            proposed = proposer.run(n, seed, pool, self.run_dir.cycle_dir(n) / "propose")
        for record in proposed.records:
            self.run_dir.event("task_proposed", cycle=n, task=record.id, category=record.category,
                               status=record.status, reason=record.reason, rejected_check=record.rejected_check,
                               novelty=record.novelty)
        nothing = None if proposed.records else f"the novelty loop gave no task ({proposed.ideas_stop})"
        result = ProposeResult(seed=seed, proposed=proposed.records, ideas_stop=proposed.ideas_stop, reason=nothing)
        counts = result.counts()
        self.log(f"cycle {n} propose: {counts['proposed']} proposed, {counts['built']} built, {counts['sound']} sound, "
                 f"{counts['admitted']} join the train pool")
        return result

    def _admitted(self, n: int) -> list[AdmittedTask]:
        """The proposed tasks admitted before cycle `n` (train only, never holdout; none unless enabled)."""
        from adaptive_skill.proposals import load_admitted

        admitted = load_admitted(self.run_dir.root / "proposals", n, self.config.task_proposal.build_timeout_sec)
        multiplier = self.config.sandbox.timeout_multiplier
        return [replace(a, task=scale_timeouts(a.task, multiplier)) for a in admitted]

    # -- pieces ------------------------------------------------------------------------------

    def _attempts(self, tasks: list[Task], workspace_dir: Path, out: Path, title: str,
                  config: EvolveConfig | None = None, notes: dict[str, str] | None = None,
                  keep_state: bool = False) -> list[AttemptResult]:
        """`keep_state`: each attempt's final state under `out`/state/<task> for the checks of the
        label-free estimate (judge.check_state; train attempts only)."""
        from adaptive_skill.executors import AttemptJob, make_executor

        config = config or self.config  # gate rounds: the agent's sampling settings of the round
        # executor.kind: local threads here, or Ray nodes; results and trajectories land under `out` either way.
        executor = make_executor(config, self.provider, self.accounting, llm=lambda: self._agent_llm(config))
        job = AttemptJob(agent="llm", config=config, results_dir=out / "results",
                         trajectories_dir=out / "trajectories", workspace=workspace_dir,
                         drafts_dir=out.parent / "drafts" if self.config.solver_proposed else None,
                         notes=notes or {}, state_dir=out / "state" if keep_state and self._checks_on() else None)
        with self.display.phase(title, len(tasks)) as progress, self._budget_stops():
            results = executor.run(tasks, job, on_start=lambda t: progress.started(t.id), on_result=progress.attempt,
                                   should_stop=self._stopping)
        if len(results) < len(tasks):
            raise Stop(self._stopping_reason() or "stopped")
        return results

    def evaluate_holdout(self, workspace_dir: Path, out: Path, title: str, round_index: int) -> HoldoutRound:
        """One gate round: every holdout task once with the workspace in `workspace_dir`, the agent
        sampling at gating.temperature with this round's seed. Scores 0-1 per task (None when
        neither the verifier nor the judge could score it); finished attempts under `out` are reused."""
        return self._score_round(self.attempt_tasks(self.holdout, workspace_dir, out, title, round_index))

    def attempt_tasks(self, tasks: list[Task], workspace_dir: Path, out: Path, title: str,
                      round_index: int, temperature: float | None = None) -> list[AttemptResult]:
        """Each task once with the workspace in `workspace_dir`, sampled as gate round `round_index`
        (the holdout's rounds, and a benchmark's runs over other tasks) at gating.temperature, or at
        `temperature` (a benchmark exploring; its attempts are kept apart, under `out`/t<T>);
        finished attempts are reused."""
        config = self._gate_config(round_index)
        folder = out / f"r{round_index}"
        if temperature is not None and temperature != config.models.agent.temperature:
            config.models.agent.temperature = temperature
            folder = out / f"t{temperature:g}" / f"r{round_index}"
        return self._attempts(tasks, workspace_dir, folder, title, config=config)

    def holdout_rounds_dir(self, workspace_hash: str) -> Path:
        """Where the holdout rounds of the workspace with this hash are kept, by the sampling settings:
        the gate's baseline side, and anything else that evaluates a workspace (benchmarks/evolution)."""
        return self.run_dir.baseline_dir(workspace_hash) / _sampling_key(self.config)

    def _gate_config(self, round_index: int) -> EvolveConfig:
        """The run's config with the agent sampling at the gate temperature and this round's seed,
        the same on both sides: runs vary between rounds and replay exactly."""
        config = self.config.model_copy(deep=True)
        config.models.agent.temperature = self.config.gating.temperature
        config.models.agent.seed = gate_seed(self.config.seed, round_index)
        return config

    def _score_round(self, results: list[AttemptResult]) -> HoldoutRound:
        """Every attempt is judged (cached) for the judge check, unless gating.judge_check is false; the
        gate's score is the verifier's reward with gating.score verifier, the judge's where there is no
        verifier or it gave none."""
        from adaptive_skill.observe.judge import JudgeItem

        items, judgeable = [], []
        for result in results:
            if not self.config.gating.judge_check and verifier_score(result, self.config.gating.score) is not None:
                continue  # scored by its tests, and no judge check asked for
            trajectory = read_json(Path(result.trajectory_path), None) if result.trajectory_path else None
            if trajectory is not None:
                task = self._task(result.task_id)
                items.append(JudgeItem(task.instruction, trajectory, task.id))
                judgeable.append(result)
        verdicts = self._judge().judge_many(items, workers=self.config.workers) if items else []
        judge_scores = {r.task_id: float(v.score) for r, v in zip(judgeable, verdicts, strict=True)
                        if v.status == "ok"}
        scores: dict[str, float | None] = {}
        judged: list[tuple[float, bool]] = []
        for result in results:
            judge = judge_scores.get(result.task_id)
            labelled = result.failure_mode != "unverified" and isinstance(result.reward, int | float)
            if labelled and judge is not None:
                judged.append((judge, bool(result.passed)))
            scores[result.task_id] = self._score(result, judge)
        return HoldoutRound(scores, judged)

    def _score(self, result: AttemptResult, judge_score: float | None) -> float | None:
        """0-1: the verifier's reward (gating.score verifier, where the task has tests and they gave
        one), else the judge's score / 10."""
        verified = verifier_score(result, self.config.gating.score)
        if verified is not None:
            return verified
        return None if judge_score is None else judge_score / 10.0

    def _judge(self):
        if self._judge_instance is None:
            from adaptive_skill.observe.judge import Judge

            self._judge_instance = Judge(self._llm("judge"), self.config.judge, self.run_dir.judge_cache)
        return self._judge_instance

    def _llm(self, role: str):
        if role not in self._llms:
            from adaptive_skill.llm import make_llm

            self._llms[role] = make_llm(getattr(self.config.models, role), self.accounting, role=role)
        return self._llms[role]

    def _evolver_at(self, seed: int):
        """The evolver's model at sampling seed `seed` (the structured evolver's further samples)."""
        from adaptive_skill.llm import make_llm

        return make_llm(self.config.models.evolver.model_copy(update={"seed": seed}), self.accounting, role="evolver")

    def _agent_llm(self, config: EvolveConfig):
        agent = config.models.agent
        if agent == self.config.models.agent:
            return self._llm("agent")
        key = f"agent@{agent.temperature:g}/{agent.seed}"
        if key not in self._llms:
            from adaptive_skill.llm import make_llm

            self._llms[key] = make_llm(agent, self.accounting, role="agent")
        return self._llms[key]

    def _evolver_sandbox(self):
        if self.evolver_sandbox_factory is not None:
            return self.evolver_sandbox_factory()
        if self.config.sandbox.kind != "docker":
            raise UserError("the evolver runs only in a Docker sandbox (sandbox.kind: docker)")
        from adaptive_skill.sandbox.untrusted import untrusted_sandbox

        return untrusted_sandbox(self.provider.client, "evolver", EVOLVER_USER)

    def _proposer_sandbox(self):
        from adaptive_skill.proposals import PROPOSER_USER
        from adaptive_skill.sandbox.untrusted import untrusted_sandbox

        return untrusted_sandbox(self.provider.client, "proposer", PROPOSER_USER)  # docker: the config requires it

    def _feasibility_agent(self, trajectories: Path):
        """The agent model with the accepted workspace, for one attempt on an admitted proposal."""
        from adaptive_skill.harness.agents import build_agent

        return build_agent("llm", self.config, workspace=self.run_dir.workspace, trajectories_dir=trajectories,
                           llm=self._agent_llm(self.config))

    def _task(self, task_id: str | Task) -> Task:
        if isinstance(task_id, Task):
            return task_id
        found = next((t for t in self.suite if t.id == task_id), None)
        return found or next(a.task for a in self._admitted(self.state.cycle + 1) if a.task.id == task_id)

    def _history(self) -> list[str]:
        """Each earlier change and the gate's decision on it, with its evidence: rounds, the mean
        difference and how many holdout tasks got better or worse. Counts only, never a holdout task's
        name or result: what the evolver learns of the holdout is whether its change helped."""
        lines = []
        for cycle in self.state.cycles:
            if not cycle.mutated:
                continue
            verdict = f"accepted as {cycle.tag}" if cycle.accepted else "rejected by gating"
            saved = read_json(self.run_dir.cycle_dir(cycle.cycle) / "gate.json")
            gate = GateResult.from_dict(saved) if saved is not None else None
            if gate is not None and gate.rounds:
                delta = gate.statistic.delta if gate.statistic else None
                better, worse, same = gate.moved()  # the count the engine's log and skills log show
                verdict += (f" (holdout: {gate.rounds} round(s), mean difference {delta or 0:+.2f}; "
                            f"{better} task(s) better, {worse} worse, {same} unchanged)")
            lines.append(f"cycle {cycle.cycle}: {cycle.summary or 'a change'} -> {verdict}")
        return lines

    def _reset_workspace(self) -> None:
        """Work tree = the accepted workspace, history untouched: uncommitted edits are dropped, and a
        candidate committed by a run that died before recording it is undone by a rollback commit."""
        self.repo.reset_to(self.state.accepted_commit, "discard an unrecorded mutation (resumed run)")

    # -- stopping ----------------------------------------------------------------------------

    def _stop_reason(self) -> str | None:
        """Checked before each cycle."""
        if self.state.converged:
            return "converged"
        if self.state.cycle - 1 >= self.config.max_cycles:
            return "max_cycles"
        return self._limit_reason() or self._stopping_reason()

    def _limit_reason(self) -> str | None:
        """Run-wide budgets; checked before each cycle and after every phase."""
        from adaptive_skill.llm import BudgetExceeded

        try:
            self.accounting.check_budget()
        except BudgetExceeded as exc:
            self.run_dir.event("budget_exceeded", detail=str(exc))
            return "budget"
        limit = self.config.limits.max_wall_time_sec
        if limit is not None and self._elapsed() >= limit:
            return "wall_time"
        return None

    def _stopping_reason(self) -> str | None:
        """A person asked to stop: a signal, or the STOP file."""
        if self._signal.is_set() or self.run_dir.stop_requested():
            return "stopped"
        return None

    @contextmanager
    def _budget_stops(self):
        """An attempt that ran out of budget is not a result: stop the run, redo it on resume."""
        from adaptive_skill.llm import BudgetExceeded

        try:
            yield
        except BudgetExceeded as exc:
            self.run_dir.event("budget_exceeded", detail=str(exc))
            raise Stop("budget") from None

    def _stopping(self) -> bool:
        return self._stopping_reason() is not None

    def _raise_if_stopping(self) -> None:
        reason = self._limit_reason() or self._stopping_reason()
        if reason:
            raise Stop(reason)

    def _finish(self, reason: str) -> str:
        self.state.status = reason
        self._save()
        self.run_dir.event("run_end", status=reason, cycle=self.state.cycle, cost=self.accounting.snapshot()["run"],
                           tags=[t.name for t in self.repo.tags()])
        note = " (resume with --resume)" if reason in RESUMABLE else ""
        self.log(f"run {self.run_dir.root}: {reason}{note}")
        return reason

    def _elapsed(self) -> float:
        return self.state.elapsed_sec + (time.monotonic() - self._session_started)

    def _save(self) -> None:
        self.state.elapsed_sec = self._elapsed()
        self._session_started = time.monotonic()
        self.run_dir.save_checkpoint(self.state.to_dict())

    @contextmanager
    def _signals(self):
        """First SIGINT/SIGTERM: finish the current unit, save, stop. A second one aborts."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def on_signal(signum, frame):
            if self._signal.is_set():
                raise KeyboardInterrupt
            self._signal.set()
            self.log("stopping after the current unit (send the signal again to abort)")

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def export_baseline(repo: WorkspaceRepo, commit: str, dest: Path, expected_hash: str) -> None:
    """The accepted workspace for the gate's baseline side, unless already there with the expected
    content. Exported under a temporary name and renamed when whole, so a kill mid-export leaves
    nothing a later cycle trusts; a folder whose content is not the accepted one is exported again."""
    if dest.is_dir() and workspace_hash(dest) == expected_hash:
        return
    with building_dir(dest) as tmp:
        repo.export(commit, tmp)


@dataclass
class HoldoutRound:
    scores: dict[str, float | None]  # task -> 0-1
    judged: list[tuple[float, bool]]  # (judge score 0-10, verifier passed) per labelled attempt


def keep_rounds(gate_mutated: Path, rounds_dir: Path) -> None:
    """The accepted candidate's gate rounds become the round cache of the new accepted workspace
    (same workspace, same round seeds): the next gate's baseline and any evaluation of its tag reuse
    them instead of running them again. Rounds already there are left; each copy lands whole (a
    temporary name, then a rename), so a crash and resume copy again. Only real directories and
    files are copied: a link (the host writes none there) is neither followed nor copied."""
    for round_dir in sorted(gate_mutated.glob("r*")):
        dest = rounds_dir / round_dir.name
        results = round_dir / "results"
        if dest.exists() or round_dir.is_symlink() or results.is_symlink() or not results.is_dir():
            continue
        rounds_dir.mkdir(parents=True, exist_ok=True)
        partial = rounds_dir / f".{round_dir.name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(round_dir, partial, symlinks=True, ignore=_links)
        partial.rename(dest)


def _links(directory: str, names: list[str]) -> list[str]:
    return [name for name in names if os.path.islink(os.path.join(directory, name))]


def verifier_score(result: AttemptResult, score: str) -> float | None:
    """The verifier's reward clipped to 0-1 when gating.score is verifier and the tests gave one."""
    reward = result.reward
    if (score == "verifier" and result.failure_mode != "unverified"
            and isinstance(reward, int | float) and math.isfinite(reward)):  # test.sh may write "nan"
        return max(0.0, min(1.0, float(reward)))
    return None


def explore_seed(run_seed: int, cycle: int, index: int) -> int:
    """The agent's sampling seed in explore pass `index` of cycle `cycle`: every pass its own."""
    digest = hashlib.sha256(f"explore-{run_seed}-{cycle}-{index}".encode()).hexdigest()
    return int(digest[:8], 16)


def gate_seed(run_seed: int, round_index: int) -> int:
    """The agent's sampling seed in gate round `round_index`: the same on both sides and in replay."""
    digest = hashlib.sha256(f"gate-{run_seed}-{round_index}".encode()).hexdigest()
    return int(digest[:8], 16)


def _sampling_key(config: EvolveConfig) -> str:
    """Names the baseline rounds by what decides an attempt besides the workspace: the agent model
    and its gate sampling; a changed setting runs fresh rounds instead of pairing stale ones."""
    agent = config.models.agent.model_dump(exclude={"api_key", "temperature", "seed"})
    for option in ("check_before_submit", "show_before_submit"):
        if not agent[option]:
            del agent[option]  # off, the key is the one runs kept before the option existed
    settings = {"agent": agent, "temperature": config.gating.temperature, "seed": config.seed,
                "max_steps": config.limits.max_steps}
    return "gate-" + hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[:12]


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)
