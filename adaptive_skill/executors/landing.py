"""The driver's side of a remote attempt: put what a node sent back where a local attempt would
have left it (trajectory, skill draft, kept state), and charge its model calls to the run's Accounting (and so
to its cost journal, tagged with the attempt, as a local attempt's calls are)."""

from __future__ import annotations

import re
from pathlib import Path

from adaptive_skill.executors.base import AttemptJob
from adaptive_skill.executors.node import NodeOutcome
from adaptive_skill.files import write_bytes_atomic
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.llm.base import BudgetExceeded


def land(outcome: NodeOutcome, job: AttemptJob, accounting=None, task_id: str | None = None) -> AttemptResult:
    """The result, its trajectory_path now on this machine. Call before the result file is written:
    a result on disk means a finished attempt, so its trajectory must already be there. Raises
    BudgetExceeded, after charging the calls, when the budget stopped the attempt on its node.
    `task_id` names the attempt the calls are journalled under (its result file)."""
    if accounting is not None:
        task_id = task_id or (outcome.result.task_id if outcome.result is not None else None)
        charge(accounting, outcome, job.results_dir / f"{task_id}.json" if job.results_dir and task_id else None)
    if outcome.result is None:
        raise BudgetExceeded(outcome.budget_exceeded or "budget spent")
    result = outcome.result
    result.trajectory_path = None
    if outcome.trajectory is not None and job.trajectories_dir is not None:
        path = job.trajectories_dir / f"{result.task_id}.json"
        write_bytes_atomic(path, outcome.trajectory)
        result.trajectory_path = str(path)
    if outcome.draft is not None and job.drafts_dir is not None:
        write_bytes_atomic(job.drafts_dir / result.task_id / "SKILL.md", outcome.draft)
    if outcome.state is not None and job.state_dir is not None:
        land_state(outcome.state, job.state_dir / result.task_id)
    return result


def land_state(files: dict[str, bytes], dest: Path) -> None:
    """An attempt's kept state, as a node sent it, where a local attempt keeps it: the manifest and
    the tars it names, nothing else. A node's message is data: a name that is not the manifest or a
    `<n>.tar`, or more bytes than an attempt may keep, is left out (a state without its manifest is
    then no state: it agrees with nothing)."""
    from adaptive_skill.sandbox.state import MANIFEST, STATE_MAX_BYTES

    allowed = [name for name in files if name == MANIFEST or re.fullmatch(r"[0-9]{1,3}\.tar", name)]
    if sum(len(files[name]) for name in allowed) > STATE_MAX_BYTES + (1 << 20):
        allowed = []
    dest.mkdir(parents=True, exist_ok=True)
    for name in sorted(allowed, key=lambda n: n == MANIFEST):  # the manifest last: it names what is there
        write_bytes_atomic(dest / name, files[name])


def charge(accounting, outcome: NodeOutcome, attempt: Path | None = None) -> None:
    """Add a node's calls to the run's totals (per run, role, model and task), as if made here."""
    key = str(attempt) if attempt is not None else None
    for call in outcome.calls:
        accounting.record(role=call.role, model=call.model, task_id=call.task_id, usage=call.usage, cost=call.cost,
                          duration_sec=call.duration_sec, attempts=call.attempts, attempt=key)
    for role, model, task_id in outcome.failed_calls:
        accounting.record_failure(role=role, model=model, task_id=task_id, attempt=key)
