"""The driver's side of a remote attempt: put what a node sent back where a local attempt would
have left it (trajectory, skill draft), and charge its model calls to the run's Accounting."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from adaptive_skill.executors.base import AttemptJob
from adaptive_skill.executors.node import NodeOutcome
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.llm.base import BudgetExceeded


def land(outcome: NodeOutcome, job: AttemptJob, accounting=None) -> AttemptResult:
    """The result, its trajectory_path now on this machine. Call before the result file is written:
    a result on disk means a finished attempt, so its trajectory must already be there. Raises
    BudgetExceeded, after charging the calls, when the budget stopped the attempt on its node."""
    if accounting is not None:
        charge(accounting, outcome)
    if outcome.result is None:
        raise BudgetExceeded(outcome.budget_exceeded or "budget spent")
    result = outcome.result
    result.trajectory_path = None
    if outcome.trajectory is not None and job.trajectories_dir is not None:
        path = job.trajectories_dir / f"{result.task_id}.json"
        _write_atomic(path, outcome.trajectory)
        result.trajectory_path = str(path)
    if outcome.draft is not None and job.drafts_dir is not None:
        _write_atomic(job.drafts_dir / result.task_id / "SKILL.md", outcome.draft)
    return result


def charge(accounting, outcome: NodeOutcome) -> None:
    """Add a node's calls to the run's totals (per run, role, model and task), as if made here."""
    for call in outcome.calls:
        accounting.record(role=call.role, model=call.model, task_id=call.task_id, usage=call.usage, cost=call.cost,
                          duration_sec=call.duration_sec, attempts=call.attempts)
    for role, model, task_id in outcome.failed_calls:
        accounting.record_failure(role=role, model=model, task_id=task_id)


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
