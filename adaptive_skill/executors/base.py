"""The seam between the engine and where task attempts run.

An `Executor` runs a batch of attempts described by an `AttemptJob` and returns their results in
task order, each written to the driver's run directory the moment it is known, so a re-run skips
what is already there. The job is plain data (it crosses process and machine boundaries): the
agent is named, not passed, and each executor builds it where the attempt runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from adaptive_skill.config import EvolveConfig
from adaptive_skill.harness.names import check_agent
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.tasks.model import Task


@dataclass(frozen=True)
class AttemptJob:
    """What every attempt of one batch runs, and where its output lands on the driver."""

    agent: str  # "llm" (the terminal agent over models.agent) or a harness agent: "oracle", "nop"
    config: EvolveConfig
    results_dir: Path | None  # <task>.json per finished attempt; None keeps results in memory only
    trajectories_dir: Path | None = None  # llm: <task>.json, the agent's trajectory
    workspace: Path | None = None  # llm: the skill workspace the agent reads
    drafts_dir: Path | None = None  # llm with solver_proposed: <task>/SKILL.md drafts
    labels: Mapping[str, str] = field(default_factory=dict)  # extra labels on every container
    # llm: task id -> a note placed after that task's instruction in the agent's first message
    # (explore.reflect, agent/reflect.py); the task, its judge and its verifier are unchanged
    notes: Mapping[str, str] = field(default_factory=dict)
    # <task>/: what each attempt left, for the label-free estimate (sandbox/state.py); None keeps
    # nothing. A Ray node keeps it in its scratch directory and sends it back (executors/landing.py)
    state_dir: Path | None = None

    def __post_init__(self) -> None:
        check_agent(self.agent, self.workspace, self.trajectories_dir)


def infrastructure_failure(task: Task, agent: str, detail: str) -> AttemptResult:
    """The result of an attempt that the machinery, not the task or the agent, could not run."""
    return AttemptResult(task_id=task.id, agent=agent, passed=False, reward=None, failure_mode="sandbox_error",
                         category=task.category, difficulty=task.difficulty, detail=detail[-4000:])
