"""A batch of attempts over N workers. Each result is written the moment it is known
(write-then-rename), and a re-run skips every task whose result is already on disk."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path

from adaptive_skill.files import write_json_atomic
from adaptive_skill.harness.attempt import run_attempt
from adaptive_skill.harness.providers import SandboxProvider
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.llm.accounting import attempt_scope
from adaptive_skill.protocols import Agent, ResultCallback, StartCallback
from adaptive_skill.tasks.model import Task


def load_result(path: Path) -> AttemptResult | None:
    """A finished result, or None if missing or unreadable (then the task runs again)."""
    try:
        return AttemptResult.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def split_finished(tasks: Sequence[Task], out_dir: Path | None, agent_name: str,
                   on_result: ResultCallback | None = None) -> tuple[dict[str, AttemptResult], list[Task]]:
    """(results already on disk by task id, tasks still to run). Every executor resumes this way."""
    results: dict[str, AttemptResult] = {}
    pending: list[Task] = []
    for task in tasks:
        done = load_result(out_dir / f"{task.id}.json") if out_dir else None
        if done is not None and done.agent == agent_name:
            results[task.id] = done
            if on_result:
                on_result(done, True)
        else:
            pending.append(task)
    return results, pending


def run_batch(tasks: Sequence[Task], agent: Agent, provider: SandboxProvider, out_dir: Path | None,
              workers: int = 1, on_result: ResultCallback | None = None,
              on_start: StartCallback | None = None,
              should_stop: Callable[[], bool] | None = None,
              labels: dict[str, str] | None = None, state_dir: Path | None = None) -> list[AttemptResult]:
    """Results in the order of `tasks`. With `out_dir`, results land in out_dir/<task>.json; with
    `state_dir`, what each attempt left in state_dir/<task>/ (sandbox/state.py).
    When `should_stop()` turns true, attempts not yet started are skipped (running ones finish):
    the list is then shorter than `tasks`. `labels` go on every container, beside the agent's."""
    results, pending = split_finished(tasks, out_dir, agent.name, on_result)
    container_labels = {**(labels or {}), "adaptive-skill.agent": agent.name}

    def attempt(task: Task) -> AttemptResult | None:
        if should_stop and should_stop():
            return None
        if on_start:
            on_start(task)
        # the model calls of this thread are journalled as this attempt's (llm/accounting.py)
        with attempt_scope(out_dir / f"{task.id}.json" if out_dir else None):
            return run_attempt(task, agent, provider, labels=container_labels,
                               state_dir=state_dir / task.id if state_dir else None)

    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="attempt")
    futures: dict[Future, Task] = {pool.submit(attempt, task): task for task in pending}
    try:
        remaining = set(futures)
        while remaining:
            finished, remaining = wait(remaining, return_when=FIRST_COMPLETED)
            for future in finished:
                result = future.result()
                if result is None:
                    continue
                if out_dir:
                    write_json_atomic(out_dir / f"{result.task_id}.json", result.to_dict())
                results[result.task_id] = result
                if on_result:
                    on_result(result, False)
    except BaseException:
        # Ctrl-C or a crash: drop queued attempts and close running sandboxes so the workers
        # return at once; finished results are already on disk.
        pool.shutdown(wait=False, cancel_futures=True)
        provider.close_all()
        raise
    pool.shutdown(wait=True)
    return [results[task.id] for task in tasks if task.id in results]
