"""The skills a proposal is compared with: the current library, every earlier version in the
workspace's git history, and the skills that were rejected (by gating, or discarded by the team).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from adaptive_skill.errors import VersioningError
from adaptive_skill.skills import DRAFTS_DIR, NAME_PATTERN
from adaptive_skill.versioning import WorkspaceRepo

MAX_COMMITS = 300  # history walked for past skills; older versions matter less than the cost


@dataclass(frozen=True)
class SkillText:
    name: str
    text: str  # the whole SKILL.md
    source: str  # "current", "commit <sha>", "rejected <sha>", "discarded <task>"


@dataclass
class SkillHistory:
    current: list[SkillText] = field(default_factory=list)
    past: list[SkillText] = field(default_factory=list)  # earlier versions no longer in the library
    rejected: list[SkillText] = field(default_factory=list)

    def current_text(self, name: str) -> str | None:
        return next((s.text for s in self.current if s.name == name), None)

    def names(self) -> list[str]:
        return [s.name for s in self.current]


def current_skills(root: Path) -> list[SkillText]:
    skills = root / "skills"
    found = []
    for folder in sorted(skills.iterdir()) if skills.is_dir() else []:
        skill_md = folder / "SKILL.md"
        if folder.name == DRAFTS_DIR or folder.is_symlink() or not NAME_PATTERN.match(folder.name):
            continue
        if skill_md.is_file() and not skill_md.is_symlink():
            found.append(SkillText(folder.name, skill_md.read_text(encoding="utf-8", errors="replace"), "current"))
    return found


def load_history(workspace: Path, *, rejected_commits: list[str] = (), discarded: Path | None = None) -> SkillHistory:
    """`rejected_commits`: candidates the gate rejected (from the run's events); `discarded`: the
    team's own JSONL of drafts it dropped or the rules reverted."""
    history = SkillHistory(current=current_skills(workspace))
    try:
        repo = WorkspaceRepo.open(workspace)
        repo.head()
    except (VersioningError, ValueError):  # not versioned (or no commit yet): no history to compare with
        repo = None
    if repo is not None:
        seen = {s.text for s in history.current}
        for commit in repo.history("HEAD", max_count=MAX_COMMITS):
            for name, text in _skills_at(repo, commit).items():
                if text not in seen:
                    seen.add(text)
                    history.past.append(SkillText(name, text, f"commit {commit[:10]}"))
        history.rejected += _rejected(repo, rejected_commits)
    if discarded is not None and discarded.is_file():
        for line in discarded.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                history.rejected.append(SkillText(str(row["name"]), str(row["text"]), f"discarded {row['task']}"))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue  # a torn last line after a crash
    return history


def rejected_skills(workspace: Path, commits: list[str]) -> list[SkillText]:
    """The skills the rejected candidates `commits` created or changed, without walking the history."""
    try:
        repo = WorkspaceRepo.open(workspace)
        repo.head()
    except (VersioningError, ValueError):
        return []
    return _rejected(repo, commits)


def _rejected(repo: WorkspaceRepo, commits: list[str]) -> list[SkillText]:
    return [skill for sha in commits for skill in _changed_skills(repo, sha)]


def rejected_commits(run) -> list[str]:
    """The candidates the gate rejected in this run (`run`: a RunDir, or None), from its events."""
    if run is None:
        return []
    return [e["rejected_commit"] for e in run.events()
            if e.get("event") == "mutation_rejected" and e.get("rejected_commit")]


def record_discarded(path: Path, *, name: str, text: str, reason: str, task: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"name": name, "text": text, "reason": reason, "task": task}) + "\n")


def _skills_at(repo: WorkspaceRepo, ref: str) -> dict[str, str]:
    found = {}
    for name in repo.list_dir(ref, "skills"):
        if name == DRAFTS_DIR or not NAME_PATTERN.match(name):
            continue
        try:
            found[name] = repo.read_file(ref, f"skills/{name}/SKILL.md")
        except VersioningError:
            continue
    return found


def _changed_skills(repo: WorkspaceRepo, sha: str) -> list[SkillText]:
    """The skills a rejected candidate created or changed, compared with its parent."""
    try:
        parents = repo.parents(sha)
    except VersioningError:
        return []
    before = _skills_at(repo, parents[0]) if parents else {}
    return [SkillText(name, text, f"rejected {sha[:10]}") for name, text in _skills_at(repo, sha).items()
            if before.get(name) != text]
