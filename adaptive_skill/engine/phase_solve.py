"""Solve: a batch from the rotating train pool, attempted with the accepted workspace. Also the attempt
runner every phase that attempts tasks goes through (explore's passes, the gate's rounds), and the
lookup of a task by its id."""

from __future__ import annotations

from pathlib import Path

from adaptive_skill.config import EvolveConfig
from adaptive_skill.engine.phase_propose import admitted_tasks
from adaptive_skill.engine.records import SolveResult
from adaptive_skill.engine.stopping import Stop, budget_stops, stopping_reason
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.tasks import Task, cycle_batch


def solve(engine, n: int) -> SolveResult:
    # The suite's rotation, untouched by proposals; admitted proposals rotate in slots of their own.
    admitted = [(a.task, a.cycle) for a in admitted_tasks(engine, n)]
    config = engine.config
    tasks = cycle_batch(engine.train, admitted, config.batch_size, config.task_proposal.batch_slots, config.seed, n)
    cycle_dir = engine.run_dir.cycle_dir(n)
    results = run_attempts(engine, tasks, engine.run_dir.workspace, cycle_dir / "solve", f"cycle {n} solve",
                           keep_state=True)
    return SolveResult(tasks=[t.id for t in tasks], results=results)


def run_attempts(engine, tasks: list[Task], workspace_dir: Path, out: Path, title: str,
                 config: EvolveConfig | None = None, notes: dict[str, str] | None = None,
                 keep_state: bool = False) -> list[AttemptResult]:
    """Each task once with the workspace in `workspace_dir`; results and trajectories under `out`,
    finished attempts reused. `keep_state`: each attempt's final state under `out`/state/<task> for
    the label-free estimate (its checks, judge.check_state; its vote, explore.agree; train attempts only)."""
    from adaptive_skill.executors import AttemptJob, make_executor

    config = config or engine.config  # gate rounds: the agent's sampling settings of the round
    # executor.kind: local threads here, or Ray nodes; results and trajectories land under `out` either way.
    executor = make_executor(config, engine.provider, engine.accounting, llm=lambda: engine.roles.agent_llm(config))
    job = AttemptJob(agent="llm", config=config, results_dir=out / "results",
                     trajectories_dir=out / "trajectories", workspace=workspace_dir,
                     drafts_dir=out.parent / "drafts" if engine.config.solver_proposed else None,
                     notes=notes or {}, state_dir=out / "state" if keep_state and engine.roles.keeps_state() else None)
    with engine.display.phase(title, len(tasks)) as progress, budget_stops(engine):
        results = executor.run(tasks, job, on_start=lambda t: progress.started(t.id), on_result=progress.attempt,
                               should_stop=lambda: stopping_reason(engine) is not None)
    if len(results) < len(tasks):
        raise Stop(stopping_reason(engine) or "stopped")
    return results


def find_task(engine, task_id: str | Task) -> Task:
    """A suite task, or a proposal admitted to the train pool, by its id."""
    if isinstance(task_id, Task):
        return task_id
    found = next((t for t in engine.suite if t.id == task_id), None)
    return found or next(a.task for a in admitted_tasks(engine, engine.state.cycle + 1) if a.task.id == task_id)
