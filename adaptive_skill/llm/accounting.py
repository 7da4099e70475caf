"""Token and cost accounting for one run, shared by every role's model.

One `Accounting` is created per run and handed to each LLM. It keeps totals per run, per role,
per task and per model, enforces the budgets of `LimitsConfig` before each call, and owns the
semaphore that caps concurrent model calls across all roles and worker threads.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from adaptive_skill.config import LimitsConfig
from adaptive_skill.llm.base import BudgetExceeded, Usage

log = logging.getLogger(__name__)


@dataclass
class Totals:
    calls: int = 0
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, usage: Usage, cost: float) -> None:
        self.calls += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.cost += cost

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "total_tokens": self.total_tokens}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Totals:
        return cls(**{k: data.get(k, 0) for k in ("calls", "failed_calls", "prompt_tokens", "completion_tokens")},
                   cost=float(data.get("cost", 0.0)))


@dataclass(frozen=True)
class CallRecord:
    """One completed model call, as handed to the `on_call` listener (e.g. to write an event)."""

    role: str
    model: str
    task_id: str | None
    usage: Usage
    cost: float
    duration_sec: float
    attempts: int = 1


@dataclass
class _Ledger:
    run: Totals = field(default_factory=Totals)
    roles: dict[str, Totals] = field(default_factory=dict)
    tasks: dict[str, Totals] = field(default_factory=dict)
    models: dict[str, Totals] = field(default_factory=dict)


class Accounting:
    """Thread-safe totals, budgets and the concurrency limit for every model call of a run."""

    def __init__(self, limits: LimitsConfig | None = None, *,
                 on_call: Callable[[CallRecord], None] | None = None):
        self.limits = limits or LimitsConfig()
        self._on_call = on_call
        self._lock = threading.Lock()
        self._ledger = _Ledger()
        self._slots = threading.BoundedSemaphore(self.limits.max_concurrent_llm_calls)
        self._cost_warned: set[str] = set()

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the `max_concurrent_llm_calls` slots for the duration of a call."""
        with self._slots:
            yield

    def check_budget(self, task_id: str | None = None) -> None:
        """Raise BudgetExceeded if the run's (or this task's) tokens or cost are spent."""
        limits = self.limits
        with self._lock:
            run = self._ledger.run
            task = self._ledger.tasks.get(task_id) if task_id is not None else None
            problems = _over("run", run, limits.max_tokens_per_run, limits.max_cost_per_run)
            if task is not None:
                problems += _over(f"task {task_id}", task, limits.max_tokens_per_task, limits.max_cost_per_task)
        if problems:
            raise BudgetExceeded("; ".join(problems))

    def record(self, *, role: str, model: str, task_id: str | None, usage: Usage, cost: float,
               duration_sec: float = 0.0, attempts: int = 1) -> CallRecord:
        call = CallRecord(role=role, model=model, task_id=task_id, usage=usage, cost=cost,
                          duration_sec=duration_sec, attempts=attempts)
        with self._lock:
            for totals in self._buckets(role, model, task_id):
                totals.add(usage, cost)
        if self._on_call is not None:
            self._on_call(call)
        return call

    def record_failure(self, *, role: str, model: str, task_id: str | None) -> None:
        with self._lock:
            for totals in self._buckets(role, model, task_id):
                totals.failed_calls += 1

    def warn_unknown_cost(self, model: str, reason: str) -> None:
        """Log once per model that its cost is unknown and counted as 0 (budgets then see tokens only)."""
        with self._lock:
            if model in self._cost_warned:
                return
            self._cost_warned.add(model)
        log.warning("no price known for model %s (%s): its cost counts as 0", model, reason)

    def totals(self, *, role: str | None = None, task_id: str | None = None) -> Totals:
        """A copy of the run totals, or of one role's or one task's."""
        with self._lock:
            if role is not None:
                found = self._ledger.roles.get(role)
            elif task_id is not None:
                found = self._ledger.tasks.get(task_id)
            else:
                found = self._ledger.run
            return Totals(**asdict(found)) if found else Totals()

    def snapshot(self) -> dict[str, Any]:
        """Plain data for events and checkpoints; `restore()` reads it back on resume."""
        with self._lock:
            ledger = self._ledger
            return {
                "run": ledger.run.as_dict(),
                "roles": {k: v.as_dict() for k, v in ledger.roles.items()},
                "tasks": {k: v.as_dict() for k, v in ledger.tasks.items()},
                "models": {k: v.as_dict() for k, v in ledger.models.items()},
            }

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Continue from a checkpoint's snapshot so budgets keep counting across `--resume`."""
        ledger = _Ledger(
            run=Totals.from_dict(snapshot.get("run", {})),
            roles={k: Totals.from_dict(v) for k, v in snapshot.get("roles", {}).items()},
            tasks={k: Totals.from_dict(v) for k, v in snapshot.get("tasks", {}).items()},
            models={k: Totals.from_dict(v) for k, v in snapshot.get("models", {}).items()},
        )
        with self._lock:
            self._ledger = ledger

    def _buckets(self, role: str, model: str, task_id: str | None) -> list[Totals]:
        ledger = self._ledger
        buckets = [ledger.run, ledger.roles.setdefault(role, Totals()), ledger.models.setdefault(model, Totals())]
        if task_id is not None:
            buckets.append(ledger.tasks.setdefault(task_id, Totals()))
        return buckets


def _over(scope: str, totals: Totals, max_tokens: int | None, max_cost: float | None) -> list[str]:
    problems = []
    if max_tokens is not None and totals.total_tokens >= max_tokens:
        problems.append(f"{scope} token budget spent ({totals.total_tokens} of {max_tokens})")
    if max_cost is not None and totals.cost >= max_cost:
        problems.append(f"{scope} cost budget spent (${totals.cost:.4f} of ${max_cost:.4f})")
    return problems
