"""A curve's attempts, compact: every attempt the curve ran (the workspaces' holdout repeats, and the
evolve run's solve, explore and gate attempts) as one line of attempts.jsonl.gz beside results.json:
where it ran, its task, whether its tests passed, and its steps (each command and its exit code, and
the command's output clipped). So a record kept in the repository still says what each attempt did,
and a distilled entry can be traced to the attempt it came from (its commands are in that line).

Read through the one trajectory reader (trajectory.as_view). The files are the run's own; a
trajectory the reader cannot read gives an attempt with no steps, never an error. An attempt kept in
two places (an accepted candidate's gate rounds are copied as its tag's rounds, engine/holdout.py's
keep_rounds) is one line, its other places listed in `copies`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

from adaptive_skill.files import read_json

FILE = "attempts.jsonl.gz"
COMMAND_CHARS = 300
OUTPUT_CHARS = 300


def compact_attempts(root: Path) -> list[dict[str, Any]]:
    """One row per attempt under `root` (a curve's output directory): each results/<task>.json with
    its trajectory, in path order; a copy (the same result and trajectory, byte for byte) adds its
    place to the row's `copies` instead of a row of its own. The row's `where` is the evolve run's own
    cycle folder when one of the places is (the gate's rounds; a round cache holds the copy), else
    the first in path order. Links are never followed."""
    rows: list[dict[str, Any]] = []
    first: dict[str, dict[str, Any]] = {}
    for result_path in sorted(root.rglob("results/*.json")):
        inside = [result_path, *(p for p in result_path.parents if root in p.parents)]
        if any(part.is_symlink() for part in inside):
            continue
        where = result_path.parent.parent.relative_to(root).as_posix()
        key = _fingerprint(result_path)
        if key in first:
            row = first[key]
            if _own_cycle(where) and not _own_cycle(row["where"]):
                row["where"], where = where, row["where"]
            row.setdefault("copies", []).append(where)
            continue
        row = _row(result_path, where)
        if row is not None:
            first[key] = row
            rows.append(row)
    return rows


def _own_cycle(where: str) -> bool:
    return "/cycles/" in f"/{where}/"


def _fingerprint(result_path: Path) -> str:
    digest = hashlib.sha256(result_path.read_bytes())
    trajectory = _trajectory_path(result_path)
    digest.update(b"\0" + (trajectory.read_bytes() if trajectory is not None else b""))
    return digest.hexdigest()


def _row(result_path: Path, where: str) -> dict[str, Any] | None:
    from adaptive_skill.trajectory import as_view

    result = read_json(result_path, None)
    if not isinstance(result, dict) or "task_id" not in result:
        return None
    steps: list[list[Any]] = []
    trajectory = _trajectory(result_path)
    try:
        view = as_view(trajectory) if trajectory is not None else None
    except ValueError:
        view = None
    for step in view.steps if view is not None else []:
        steps.append([step.tool, step.argument[:COMMAND_CHARS], step.exit_code, step.output[:OUTPUT_CHARS]])
    return {"where": where, "task": result["task_id"],
            "passed": bool(result.get("passed")), "failure_mode": result.get("failure_mode"), "steps": steps}


def _trajectory_path(result_path: Path) -> Path | None:
    """The attempt's trajectory file: beside its results folder (trajectories/<task>.json), where every
    attempt of a run keeps it; the result's own trajectory_path is not followed (it may point anywhere)."""
    path = result_path.parent.parent / "trajectories" / result_path.name
    return None if path.is_symlink() or path.parent.is_symlink() or not path.is_file() else path


def _trajectory(result_path: Path) -> Any:
    path = _trajectory_path(result_path)
    return None if path is None else read_json(path, None)


def write_attempts(root: Path) -> int:
    """attempts.jsonl.gz in `root`, written whole (then renamed); the number of attempts."""
    target = root / FILE
    partial = root / (FILE + ".partial")
    count = 0
    with gzip.open(partial, "wt", encoding="utf-8") as out:
        for row in compact_attempts(root):
            out.write(json.dumps(row, sort_keys=True) + "\n")
            count += 1
    partial.replace(target)
    return count


def read_attempts(root: Path) -> list[dict[str, Any]]:
    with gzip.open(root / FILE, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
