"""The default executor: a thread pool on this machine, the harness's run_batch as it always was."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from adaptive_skill.executors.base import AttemptJob
from adaptive_skill.harness.agents import build_agent
from adaptive_skill.harness.batch import run_batch
from adaptive_skill.harness.providers import SandboxProvider
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.protocols import ResultCallback, StartCallback
from adaptive_skill.tasks.model import Task


class LocalExecutor:
    kind = "local"

    def __init__(self, provider: SandboxProvider, workers: int, accounting=None,
                 llm: Callable[[], object] | None = None):
        """`llm` is called only for an llm job, so a batch of oracle runs never loads a model."""
        self.provider, self.workers, self.accounting, self.llm = provider, workers, accounting, llm

    def run(self, tasks: Sequence[Task], job: AttemptJob, *, on_start: StartCallback | None = None,
            on_result: ResultCallback | None = None,
            should_stop: Callable[[], bool] | None = None) -> list[AttemptResult]:
        model = self.llm() if self.llm is not None and job.agent == "llm" else None
        agent = build_agent(job.agent, job.config, accounting=self.accounting, workspace=job.workspace,
                            trajectories_dir=job.trajectories_dir, drafts_dir=job.drafts_dir, llm=model,
                            notes=job.notes)
        return run_batch(tasks, agent, self.provider, job.results_dir, workers=self.workers, on_result=on_result,
                         on_start=on_start, should_stop=should_stop, labels=dict(job.labels),
                         state_dir=job.state_dir)
