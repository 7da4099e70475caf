"""What pruning changed that no round tried. The gate per skill judges each changed skill on the
holdout tasks it was placed for; when it drops a skill, the library that ships is the candidate
without it, and for the dropped skill's tasks another skill may now be the closest, a placement
neither side of the gate's rounds ran. Placement needs no model (agent/loop.py's placed_skill), so the
three libraries (the accepted one, the candidate, the pruned candidate) are placed on every holdout
task here, and the commit names each task whose prompt the rounds never saw."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from adaptive_skill.agent.loop import placed_skill
from adaptive_skill.harness.agents import memory_options, prompt_instruction
from adaptive_skill.workspace import Workspace

NONE = "(none)"  # no skill placed


def holdout_placements(engine, workspace_dir: Path) -> dict[str, str | None]:
    """task id -> the skill the library in `workspace_dir` places in that holdout task's prompt."""
    workspace = Workspace(workspace_dir)
    memory = memory_options(engine.config, workspace)
    out: dict[str, str | None] = {}
    for task in engine.holdout:
        instruction = prompt_instruction(task, drafts=engine.config.solver_proposed)
        inline = placed_skill(workspace, instruction, replace(memory, category=task.category))
        out[task.id] = inline.name if inline is not None else None
    return out


def untried(pruned: dict[str, str | None], candidate: dict[str, str | None], baseline: dict[str, str | None],
            kept: list[str], dropped: list[str]) -> dict[str, str]:
    """task -> the skill (or NONE) the pruned library places for it where no round did with that text.
    A kept skill has the candidate's text, so only the candidate's side tried it; a dropped one is
    back to the accepted workspace's text (or gone), so only the baseline's side did; any other skill
    is the same on both sides."""
    out: dict[str, str] = {}
    for task, skill in pruned.items():
        by_candidate = skill == candidate.get(task) and (skill is None or skill not in dropped)
        by_baseline = skill == baseline.get(task) and (skill is None or skill not in kept)
        if not (by_candidate or by_baseline):
            out[task] = skill or NONE
    return out


def untried_placements(engine, candidate: str, baseline_dir: Path, kept: list[str],
                       dropped: list[str]) -> dict[str, str]:
    """untried() for the pruned library now in the run's workspace, the candidate commit `candidate`
    (exported to a temporary directory) and the accepted workspace exported in `baseline_dir`."""
    with tempfile.TemporaryDirectory(prefix="adaptive-skill-candidate-") as tmp:
        candidate_dir = engine.repo.export(candidate, Path(tmp) / "workspace")
        placed_candidate = holdout_placements(engine, candidate_dir)
    return untried(holdout_placements(engine, engine.run_dir.workspace), placed_candidate,
                   holdout_placements(engine, baseline_dir), kept, dropped)
