"""Skill attribution: which attempts read a skill, and how they went against attempts of the same
tasks that did not read it.

An attempt's skills come from its trajectory through the kernel: the skills it was offered (the
workspace's, `metadata.skills`) and the ones it read (read_skill steps that returned the skill, not
an error, and the skill placed in its prompt, `metadata.inline_skill`). Its outcome is a number in
0..1: the judge's score / 10 for a train attempt, the verifier's pass for a holdout attempt. Per
skill (and per workspace version, a tag or a candidate) the table says how often it was offered and
read, the mean outcome when read, and the mean outcome of attempts of the same tasks, offered the
skill, that did not read it: "read but does not help" and "nobody reads it" are visible. The report
shows both sides; the evolver is given the train side only (judge scores: no holdout task and no
test result reaches it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from adaptive_skill.files import read_json
from adaptive_skill.skills import MAX_NAME, NAME_PATTERN
from adaptive_skill.trajectory import as_view


@dataclass(frozen=True)
class Use:
    """One attempt, as attribution sees it."""

    task: str
    version: str  # the workspace it ran with: a tag, or "rejected (cycle n)"
    offered: frozenset[str]
    read: frozenset[str]
    outcome: float | None  # 0..1, None when unknown


@dataclass(frozen=True)
class SkillRow:
    skill: str
    version: str
    offered: int  # attempts that had the skill in their workspace
    read: int  # of those, attempts that read it
    read_outcome: float | None  # mean outcome of the attempts that read it
    unread_same_tasks: int  # attempts of the same tasks, offered the skill, that did not read it
    unread_outcome: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def skills_of(trajectory: Any) -> tuple[frozenset[str], frozenset[str]]:
    """(skills offered, skills read) of one trajectory; a trajectory the kernel cannot read has neither."""
    try:
        view = as_view(trajectory)
    except ValueError:
        return frozenset(), frozenset()
    offered = view.metadata.get("skills") if isinstance(view.metadata, dict) else None
    offered_set = frozenset(s for s in offered if _skill_name(s)) if isinstance(offered, list) else frozenset()
    read = {step.argument.strip() for step in view.steps
            if step.tool == "read_skill" and not step.error and _skill_name(step.argument.strip())}
    inline = view.metadata.get("inline_skill") if isinstance(view.metadata, dict) else None
    if isinstance(inline, dict) and _skill_name(inline.get("name")):  # placed in the prompt: read for it
        read.add(inline["name"])
    return offered_set, frozenset(read)


def placed_skill(trajectory: Any) -> str | None:
    """The skill placed in the attempt's prompt (`metadata.inline_skill`), None when none was (or the
    trajectory cannot be read): the gate per skill judges a skill on the tasks it was placed for."""
    try:
        view = as_view(trajectory)
    except ValueError:
        return None
    inline = view.metadata.get("inline_skill") if isinstance(view.metadata, dict) else None
    name = inline.get("name") if isinstance(inline, dict) else None
    return name if _skill_name(name) else None


def _skill_name(value: Any) -> bool:
    """A name a skill can have: the trajectory is the agent's file, so a read_skill argument or a
    metadata entry that no skill could be named (a path, a paragraph) is no skill."""
    return isinstance(value, str) and len(value) <= MAX_NAME and bool(NAME_PATTERN.match(value))


def attribute(uses: Iterable[Use]) -> list[SkillRow]:
    """One row per (skill, version) that was offered, by skill then version."""
    by_version: dict[tuple[str, str], list[Use]] = defaultdict(list)
    for use in uses:
        for skill in use.offered | use.read:
            by_version[(skill, use.version)].append(use)
    rows = []
    for (skill, version), group in sorted(by_version.items()):
        offered = [u for u in group if skill in u.offered or skill in u.read]
        readers = [u for u in offered if skill in u.read]
        tasks = {u.task for u in readers}
        others = [u for u in offered if skill not in u.read and u.task in tasks]
        rows.append(SkillRow(skill, version, len(offered), len(readers), _mean(readers), len(others), _mean(others)))
    return rows


def evolver_lines(rows: Iterable[SkillRow], skills: Iterable[str]) -> list[str]:
    """What the evolver is told of each current skill, over every version it ran with: reads and
    judge scores (0-10) when read and when the same tasks did not read it."""
    totals: dict[str, list[SkillRow]] = defaultdict(list)
    for row in rows:
        totals[row.skill].append(row)
    lines = []
    for skill in sorted(skills):
        group = totals.get(skill, [])
        offered = sum(r.offered for r in group)
        read = sum(r.read for r in group)
        if not offered:
            lines.append(f"- {skill}: not offered to any attempt yet")
            continue
        line = f"- {skill}: read in {read} of {offered} attempts"
        when_read = _weighted([(r.read_outcome, r.read) for r in group])
        when_not = _weighted([(r.unread_outcome, r.unread_same_tasks) for r in group])
        if when_read is not None:
            line += f"; judge score {10 * when_read:.1f} when read"
            unread = sum(r.unread_same_tasks for r in group)
            if when_not is not None:
                line += f", {10 * when_not:.1f} when the same tasks did not read it ({unread} attempts)"
        lines.append(line)
    return lines


def _mean(uses: list[Use]) -> float | None:
    known = [u.outcome for u in uses if u.outcome is not None]
    return round(sum(known) / len(known), 3) if known else None


def _weighted(pairs: list[tuple[float | None, int]]) -> float | None:
    known = [(value, n) for value, n in pairs if value is not None and n]
    total = sum(n for _, n in known)
    return sum(value * n for value, n in known) / total if total else None


def solve_uses(solve_dir: Path, scores: dict[str, float | None], version: str) -> list[Use]:
    """The uses of a cycle's solve attempts (solve_dir/trajectories/<task>.json), their outcome the
    judge's score / 10 from `scores` (by task)."""
    uses = []
    for path in sorted((solve_dir / "trajectories").glob("*.json")):
        data = read_json(path, None)
        if not isinstance(data, dict):
            continue
        offered, read = skills_of(data)
        task = str(data.get("task_id") or path.stem)
        score = scores.get(task)
        uses.append(Use(task, version, offered, read,
                        score / 10 if isinstance(score, int | float) and not isinstance(score, bool) else None))
    return uses


def observed_scores(observe_json: Path) -> dict[str, float | None]:
    """task -> the judge's score, from a cycle's observe.json ({} when missing)."""
    data = read_json(observe_json, None)
    items = data.get("items") if isinstance(data, dict) else None
    return {str(item.get("task")): item["verdict"].get("score") if isinstance(item.get("verdict"), dict) else None
            for item in items if isinstance(item, dict)} if isinstance(items, list) else {}
