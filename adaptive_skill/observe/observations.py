"""What the evolver reads of a cycle: one typed item per solved task, and the folder written from
them (index.md, and per task instruction.md, trajectory.txt, signals.json, verdict.json, programs.json,
worked.json; explored.json when the explore phase ran)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adaptive_skill.files import building_dir
from adaptive_skill.sandbox.programs import Programs, sentence


@dataclass
class ObservedItem:
    """One attempt as the observe phase saw it. `compressed` is the view the judge read; it goes to
    the observations folder, not to observe.json. `judge_verdict` is set when people's verdict
    replaced the judge's (kept beside it for the report)."""

    task: str
    verdict: dict[str, Any] | None = None
    judge_error: str | None = None
    signals: dict[str, Any] | None = None
    compressed: str | None = None
    reviewed: bool = False  # people's verdict replaced the judge's
    judge_verdict: dict[str, Any] | None = None
    programs: dict[str, list[str]] | None = None  # which common programs the container had (sandbox/programs.py)
    category: str | None = None  # the task's category (its suite's metadata)
    family: str | None = None  # the task's declared family (its suite's families.toml), if any
    worked: list[str] | None = None  # the attempt's worked commands (trajectory/worked.py); None: no trajectory

    @property
    def score(self) -> float | None:
        return None if self.verdict is None else self.verdict["score"]

    def to_dict(self) -> dict[str, Any]:
        data = {"task": self.task, "verdict": self.verdict, "judge_error": self.judge_error, "signals": self.signals}
        if self.reviewed:
            data["judge_verdict"] = self.judge_verdict
        if self.programs is not None:
            data["programs"] = self.programs
        if self.worked is not None:
            data["category"], data["worked"] = self.category, self.worked
            if self.family:
                data["family"] = self.family
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ObservedItem:
        return cls(task=data["task"], verdict=data["verdict"], judge_error=data["judge_error"],
                   signals=data["signals"], reviewed="judge_verdict" in data,
                   judge_verdict=data["judge_verdict"] if "judge_verdict" in data else None,
                   programs=data.get("programs"), category=data.get("category"), family=data.get("family"),
                   worked=data.get("worked"))


SKILL_USE = "skills.md"  # how the agent used each skill (observe/attribution.py), when there are skills
TESTS = "tests.json"  # per task, with trajectory_only off: {"passed": bool}
WORKED = "worked.json"  # per task with a trajectory: {"category": str, "commands": [the worked commands]}
# (and "family": str where the suite declares the task's family)
EXPLORED = "explored.json"  # per task the explore phase re-attempted: its attempts (engine._explore)


def passed(score: float | None, tests: bool | None, pass_threshold: float) -> bool:
    """Whether an attempt counts as passed for the evolver: its tests' result where the evolver may
    see it (trajectory_only off), else the judge's score at or above the threshold."""
    if isinstance(tests, bool):
        return tests
    return score is not None and score >= pass_threshold
PROGRAMS = "programs.json"  # per task, where the probe ran: {"installed": [...], "missing": [...]}


def write_observations(root: Path, items: list[ObservedItem], instructions: dict[str, str],
                       labels: dict[str, bool] | None, skill_use: list[str] | None = None) -> None:
    """What the evolver reads, replaced as a whole (built under a temporary name, then renamed).
    With trajectory_only (labels=None) nothing from the tests is here. `skill_use`: lines on how the
    agent used each skill (train attempts, judge scores), written to skills.md and shown in index.md."""
    with building_dir(root) as tmp:
        _observations(tmp, items, instructions, labels, skill_use or [])


def _observations(root: Path, items: list[ObservedItem], instructions: dict[str, str],
                  labels: dict[str, bool] | None, skill_use: list[str]) -> None:
    root.mkdir(parents=True)
    rows = sorted(items, key=lambda i: (-1 if i.score is None else i.score, i.task))
    lines = ["# Observations", "", "Tasks sorted by judge score (0-10, estimated from behaviour), lowest first.", "",
             "| task | score | category | outcome | failure reason |" + (" tests |" if labels else ""),
             "| --- | --- | --- | --- | --- |" + (" --- |" if labels else "")]
    for item in rows:
        verdict = item.verdict or {}  # a verdict is the judge's (or people's) JSON, shown as it came
        cells = [item.task, str(verdict.get("score", "n/a")), verdict.get("category", ""),
                 (verdict.get("outcome") or item.judge_error or "").replace("|", "/"),
                 (verdict.get("failure_reason") or "").replace("|", "/")]
        if labels:  # as tests.json says it: a task without a label (no tests) has none
            cells.append("no tests" if item.task not in labels else "passed" if labels[item.task] else "failed")
        lines.append("| " + " | ".join(cells) + " |")
        folder = root / item.task
        folder.mkdir()
        (folder / "instruction.md").write_text(instructions[item.task], encoding="utf-8")
        if item.compressed:
            (folder / "trajectory.txt").write_text(item.compressed, encoding="utf-8")
        (folder / "signals.json").write_text(json.dumps(item.signals, indent=1), encoding="utf-8")
        (folder / "verdict.json").write_text(json.dumps(item.verdict or {"error": item.judge_error}, indent=1),
                                             encoding="utf-8")
        if item.programs is not None:
            (folder / PROGRAMS).write_text(json.dumps(item.programs), encoding="utf-8")
        if item.worked is not None:
            worked = {"category": item.category, "commands": item.worked, **({"family": item.family} if item.family
                                                                              else {})}
            (folder / WORKED).write_text(json.dumps(worked, indent=1), encoding="utf-8")
        if labels is not None and item.task in labels:
            (folder / TESTS).write_text(json.dumps({"passed": labels[item.task]}), encoding="utf-8")
    if programs := sentence([p for p in (Programs.from_dict(item.programs) for item in items) if p]):
        lines += ["", "## Programs in the containers", "", programs]
    if skill_use:
        use = ["How the agent used each skill (its train attempts so far; judge scores 0-10):", *skill_use]
        (root / SKILL_USE).write_text("\n".join(use) + "\n", encoding="utf-8")
        lines += ["", "## Skill use", "", *use]
    (root / "index.md").write_text("\n".join(lines) + "\n", encoding="utf-8")

