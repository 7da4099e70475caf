"""The task x workspace outcome matrix: for each task, how it went with each tag (and with each
rejected candidate, which shows why it was rejected)."""

from __future__ import annotations

from dataclasses import dataclass

from adaptive_skill.report.attempts import Attempt
from adaptive_skill.report.cycles import CycleRow


@dataclass
class Matrix:
    tasks: list[str]
    columns: list[str]
    cells: dict[tuple[str, str], list[Attempt]]

    def summary(self, task: str, column: str) -> str:
        """'1/2 passed, score 7.0' style text for one cell ('' when never run)."""
        attempts = self.cells.get((task, column), [])
        if not attempts:
            return ""
        passed = sum(1 for a in attempts if a.passed)
        scores = [a.score for a in attempts if a.score is not None]
        text = f"{passed}/{len(attempts)}"
        return f"{text} · {sum(scores) / len(scores):.1f}" if scores else text


def build(attempts: list[Attempt], rows: list[CycleRow], seed: str) -> Matrix:
    columns = [seed]
    for row in rows:
        if row.tag:
            columns.append(row.tag)
        elif row.mutated and row.gated:
            columns.append(f"rejected (cycle {row.n})")
    cells: dict[tuple[str, str], list[Attempt]] = {}
    for attempt in attempts:
        if attempt.phase == "evolve":
            continue
        if attempt.workspace not in columns:
            columns.append(attempt.workspace)
        cells.setdefault((attempt.task, attempt.workspace), []).append(attempt)
    tasks = sorted({task for task, _ in cells})
    return Matrix(tasks, [c for c in columns if any((t, c) in cells for t in tasks)], cells)
