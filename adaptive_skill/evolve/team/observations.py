"""What the team reads: the observations the engine wrote for the evolver, as one bounded text.

The team never runs a command, so it cannot browse /observations as the single evolver does;
instead it gets the index, then the failing tasks, lowest judge score first, until the budget
of characters is spent. The observations hold no labels (trajectory_only), so neither does this.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

INSTRUCTION_CHARS = 400
TRAJECTORY_CHARS = 1200
DRAFT_CHARS = 1500


@dataclass
class Digest:
    text: str
    failed: Counter[str] = field(default_factory=Counter)  # failing tasks per judge category
    failing: list[str] = field(default_factory=list)  # task ids, lowest score first


def read_observations(root: Path, *, pass_threshold: float, max_chars: int, drafts: Path | None = None) -> Digest:
    index = _read(root / "index.md")
    rows = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        verdict = _verdict(folder / "verdict.json")
        score = verdict.get("score")
        rows.append((score if isinstance(score, int | float) else -1.0, folder.name, verdict, folder))
    rows.sort(key=lambda row: (row[0], row[1]))
    failing = [row for row in rows if row[0] < pass_threshold]
    failed = Counter(str(row[2].get("category") or "other") for row in failing)
    parts = [_clip(index, max_chars // 3)]
    for score, task, verdict, folder in failing:
        shown = "n/a" if score < 0 else f"{score:g}"
        block = (f"### {task} (score {shown}, {verdict.get('category', 'unjudged')})\n"
                 f"Instruction: {_clip(_read(folder / 'instruction.md'), INSTRUCTION_CHARS)}\n"
                 f"Judge: {verdict.get('outcome') or verdict.get('error') or ''} "
                 f"{verdict.get('failure_reason') or ''}".rstrip() + "\n"
                 f"Trajectory (excerpt):\n{_clip(_read(folder / 'trajectory.txt'), TRAJECTORY_CHARS)}")
        if sum(len(p) for p in parts) + len(block) > max_chars:
            break
        parts.append(block)
    if drafts is not None and drafts.is_dir():
        for skill_md in sorted(drafts.glob("*/SKILL.md")):
            block = (f"### Draft proposed by the solver on {skill_md.parent.name}\n"
                     f"{_clip(_read(skill_md), DRAFT_CHARS)}")
            if sum(len(p) for p in parts) + len(block) > max_chars:
                break
            parts.append(block)
    return Digest("\n\n".join(p for p in parts if p), failed, [row[1] for row in failing])


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except (FileNotFoundError, IsADirectoryError):
        return ""


def _verdict(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + " [...]"
