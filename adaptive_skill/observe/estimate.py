"""The label-free estimate of one attempt: the judge's verdict on its record, with what the checks of
its final state printed when it kept one (observe/checks.py). The engine's observe and explore phases,
`adaptive-skill run --estimate` and the estimate probe (benchmarks/probes/estimate_probe.py) all
estimate through here; the tests' result is never an input, only put beside the estimate afterwards
by a caller that measures it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from adaptive_skill.files import read_json, write_json_atomic
from adaptive_skill.observe.checks import CheckedState, Checker
from adaptive_skill.observe.judge import Judge, JudgeItem
from adaptive_skill.tasks.model import Task

CHECKS_FILE = "checks.json"  # beside the attempt's state: what its checks printed (and which were refused)


@dataclass
class AttemptEstimate:
    task: str
    score: float | None  # the judge's, 0-10; None when it could not judge
    likely_solved: bool | None
    outcome: str | None = None
    failure_reason: str | None = None
    checked: bool = False  # the verdict read checks of the final state
    checks: dict[str, Any] | None = None  # CheckedState.to_dict(), with the refused checks
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_state(checker: Checker | None, provider, task: Task, state_dir: Path | None) -> dict[str, Any] | None:
    """The checks of an attempt's state, run once: kept in state_dir/checks.json and read from there
    again (a resumed run does not check twice). None when there is no checker or no state."""
    if checker is None or state_dir is None or not state_dir.is_dir():
        return None
    path = state_dir / CHECKS_FILE
    saved = read_json(path, None)
    if isinstance(saved, dict):
        return saved
    plan = checker.plan(task.instruction)
    checked = checker.run(provider, task, state_dir, plan.commands)
    if plan.error and not checked.error:
        checked.error = plan.error
    record = {**checked.to_dict(), "refused": plan.refused}
    write_json_atomic(path, record)
    return record


def evidence_of(record: dict[str, Any] | None) -> str | None:
    return CheckedState.from_dict(record).evidence() if record else None


def estimate_attempt(judge: Judge, task: Task, trajectory: Any, *, checker: Checker | None = None,
                     provider=None, state_dir: Path | None = None) -> AttemptEstimate:
    """One attempt's estimate: its checks (when a checker and its state are given), then the judge."""
    record = check_state(checker, provider, task, state_dir)
    evidence = evidence_of(record)
    verdict = judge.judge_many([JudgeItem(task.instruction, trajectory, task.id, evidence=evidence)], workers=1)[0]
    threshold = judge.config.pass_threshold
    if getattr(verdict, "status", "") != "ok":
        return AttemptEstimate(task.id, None, None, checked=evidence is not None, checks=record,
                               error=getattr(verdict, "reason", "judge error"))
    return AttemptEstimate(task.id, float(verdict.score), verdict.score >= threshold, verdict.outcome,
                           verdict.failure_reason, checked=evidence is not None, checks=record)


def load_trajectory(path: str | None) -> Any:
    if not path:
        return None
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
