"""Converge: the cycle's Evolutionary Generality Loss and whether the run has converged (the other
reasons a run stops are in stopping.py).

EGL = new skills created / tasks solved x 1000, per cycle (the seed's definition). New skills are
those of an accepted mutation; a task is solved when the verifier passed it on the cycle's batch,
or, for a task without tests (failure mode "unverified"), when the judge scored it at or above
judge.pass_threshold. With nothing solved the divisor counts as 1: EGL = new skills x 1000, so a
cycle that adds skills while solving nothing is far from converged, and one that adds none is 0.
A library that keeps needing new skills is still learning task-specific fixes; when EGL stays under
the threshold for a window of cycles, evolution has converged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from adaptive_skill.engine.records import (
    CommitResult,
    ConvergeResult,
    EvolveResult,
    GateResult,
    ObserveResult,
    SolveResult,
)


def egl(new_skills_created: int, tasks_solved: int) -> float:
    return new_skills_created / max(tasks_solved, 1) * 1000


def tasks_solved(results: Iterable[Mapping[str, Any]], judged: Iterable[Mapping[str, Any]],
                 pass_threshold: float) -> int:
    """`results`: the batch's attempt results (dicts); `judged`: the observe phase's items
    ({task, verdict: {score} | None}). Verifier-passed, or judge-passed where there is no verifier."""
    scores = {item.get("task"): (item.get("verdict") or {}).get("score") for item in judged}
    solved = 0
    for result in results:
        if result.get("failure_mode") == "unverified":
            score = scores.get(result.get("task_id"))
            solved += isinstance(score, int | float) and score >= pass_threshold
        else:
            solved += bool(result.get("passed"))
    return solved


def converged(history: list[float], threshold: float, window: int) -> bool:
    return len(history) >= window and all(value < threshold for value in history[-window:])


def converge(engine, n: int, solved: SolveResult, observed: ObserveResult, evolved: EvolveResult,
             committed: CommitResult, gated: GateResult) -> ConvergeResult:
    """The cycle's EGL (its new skills count only when the gate accepted them, and not those the gate
    per skill dropped), appended to the
    checkpoint's history, and whether the window says the run has converged (stopping.stop_reason
    reads it before the next cycle)."""
    created = len(gated.shipped(evolved.changes.created_skills)) if committed.tag else 0
    count = tasks_solved([r.to_dict() for r in solved.results], [i.to_dict() for i in observed.items],
                         engine.config.judge.pass_threshold)
    value = egl(created, count)
    engine.state.egl.append(round(value, 6))
    done = converged(engine.state.egl, engine.config.egl_threshold, engine.config.egl_window)
    engine.state.converged = done
    return ConvergeResult(egl=value, new_skills=created, tasks=len(solved.results), solved=count, converged=done)
