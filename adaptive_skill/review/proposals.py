"""Proposed tasks of a run: the output files of `adaptive-skill novelty ... -o RUN/proposals/NAME.json`.
Each iteration that produced a task is one item; a file that is missing, torn or of another shape
is skipped, so a proposal run still being written never breaks the queue."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adaptive_skill.files import read_json

PROPOSALS_DIR = "proposals"


def proposed_tasks(run_root: Path) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(key, what the rater sees, what only the agreement figures see) per proposed task."""
    found = []
    for path in sorted((Path(run_root) / PROPOSALS_DIR).glob("*.json")):
        data = read_json(path, None)
        if not isinstance(data, dict) or not isinstance(data.get("iterations"), list):
            continue
        for iteration in data["iterations"]:
            task = iteration.get("task") if isinstance(iteration, dict) else None
            if not isinstance(task, dict) or not task.get("instruction"):
                continue
            novelty = iteration.get("novelty") if isinstance(iteration.get("novelty"), dict) else {}
            body = {name: str(task.get(name) or "") for name in ("title", "instruction", "category", "difficulty")}
            facts = {"file": path.name, "iteration": iteration.get("index"), "novelty": novelty.get("score"),
                     "breakthrough": bool(iteration.get("breakthrough")), "seed": data.get("seed")}
            found.append((f"task:{path.stem}:{iteration.get('index')}", body, facts))
    return found
