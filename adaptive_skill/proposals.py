"""Proposed tasks in the engine: after a cycle, the novelty loop is seeded with the cycle's
failures, and its most novel tasks join the train pool.

A proposed task has an instruction but no tests: it runs in the environment of a suite task of
the same category (borrowed image), the judge scores it like any other trajectory, and its
verifier result is `unverified`, so it never counts in calibration. Proposals are stored in
`runs/<id>/proposals/<task-id>/` (instruction.md, proposal.json), so a resumed run finds them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from adaptive_skill.files import read_json, write_json_atomic
from adaptive_skill.tasks.model import Task

MAX_SEED_PATTERNS = 8


def failure_seed(items: list[dict[str, Any]], threshold: float) -> str | None:
    """The problem the proposer starts from: what the agent failed at this cycle, by category."""
    patterns: dict[str, list[str]] = {}
    for item in items:
        verdict = item.get("verdict")
        if verdict and verdict["score"] < threshold:
            reasons = patterns.setdefault(verdict["category"], [])
            if verdict.get("failure_reason") and verdict["failure_reason"] not in reasons:
                reasons.append(verdict["failure_reason"])
    if not patterns:
        return None
    parts = [f"{category} ({'; '.join(reasons[:2]) or 'failed'})"
             for category, reasons in list(patterns.items())[:MAX_SEED_PATTERNS]]
    return "Improve a terminal agent that fails at: " + ", ".join(parts)


def propose(cycle: int, seed: str, proposer, count: int, suite: list[Task], root: Path) -> list[dict[str, Any]]:
    """Run the novelty loop once and store its `count` most novel tasks; returns their records."""
    run = proposer.run(seed)
    ranked = sorted(run.proposals, key=lambda it: -it.novelty.score)[:count]
    records = []
    for rank, iteration in enumerate(ranked, 1):
        task = iteration.task
        environment = environment_for(task.category, suite)
        task_id = f"proposed-c{cycle:03d}-{rank}-{_slug(task.title)}"
        record = {"id": task_id, "cycle": cycle, "title": task.title, "instruction": task.instruction,
                  "category": task.category, "difficulty": task.difficulty, "rationale": task.rationale,
                  "environment": environment.id, "novelty": round(iteration.novelty.score, 4),
                  "perspective": iteration.perspective.to_dict(), "seed": seed}
        folder = root / task_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "instruction.md").write_text(task.instruction + "\n", encoding="utf-8")
        write_json_atomic(folder / "proposal.json", record)
        records.append(record)
    return records


def load_proposed(root: Path, suite: list[Task], before_cycle: int) -> list[Task]:
    """Proposed tasks made in cycles before `before_cycle`, as runnable tasks."""
    if not root.is_dir():
        return []
    by_id = {t.id: t for t in suite}
    tasks = []
    for path in sorted(root.glob("*/proposal.json")):
        record = read_json(path)
        if not isinstance(record, dict) or record.get("cycle", before_cycle) >= before_cycle:
            continue
        environment = by_id.get(record.get("environment")) or environment_for(record.get("category", ""), suite)
        tasks.append(replace(
            environment, id=record["id"], path=path.parent, instruction=record["instruction"],
            category=record.get("category", environment.category),
            difficulty=record.get("difficulty", environment.difficulty), tags=("proposed",),
            tests_dir=path.parent / "tests", solution_script=None))  # no tests: judged, never verified
    return tasks


def environment_for(category: str, suite: list[Task]) -> Task:
    """The suite task whose environment a proposal borrows: the same category if one exists."""
    same = sorted((t for t in suite if t.category == category), key=lambda t: t.id)
    return same[0] if same else sorted(suite, key=lambda t: t.id)[0]


def _slug(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug[:40].rstrip("-") or "task"
