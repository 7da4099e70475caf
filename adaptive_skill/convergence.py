"""Evolutionary Generality Loss and the run's stop conditions.

EGL = new skills created / tasks solved x 1000, per cycle. A library that keeps needing new
skills is still learning task-specific fixes; when EGL stays under the threshold for a window of
cycles, evolution has converged.
"""

from __future__ import annotations


def egl(new_skills_created: int, tasks_solved: int) -> float:
    return new_skills_created / tasks_solved * 1000 if tasks_solved else 0.0


def converged(history: list[float], threshold: float, window: int) -> bool:
    return len(history) >= window and all(value < threshold for value in history[-window:])
