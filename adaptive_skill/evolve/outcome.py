"""What an evolver returns: the changes it made to the workspace, the rules they broke, and what was
repaired or undone. Plain data that imports nothing of the project: it crosses the Evolver seam
(adaptive_skill/protocols.py) to the engine, which records it and hands the changes to the gate."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Changes:
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    created_skills: list[str] = field(default_factory=list)
    deleted_skills: list[str] = field(default_factory=list)
    modified_skills: list[str] = field(default_factory=list)  # existed before, content changed

    @property
    def empty(self) -> bool:
        return not (self.added or self.modified or self.deleted)

    def paths(self) -> list[str]:
        return sorted(self.added + self.modified + self.deleted)

    def to_dict(self) -> dict:
        return self.__dict__.copy()


@dataclass
class Violation:
    rule: str  # outside | permission | protected | budget | quality | memory | prompt | load | pullback
    #          | observations | reply (the structured evolver refused its reply)
    message: str
    paths: list[str]  # what reverting this violation restores (files or whole skill directories)
    repairable: bool = True  # worth one more evolver turn; permission problems are simply undone

    def to_dict(self) -> dict:
        return self.__dict__.copy()


@dataclass
class EvolveOutcome:
    changes: Changes
    violations: list[Violation] = field(default_factory=list)  # found after the evolver's own turns
    repaired: list[str] = field(default_factory=list)  # fixed by the repair turn
    reverted: list[Violation] = field(default_factory=list)  # undone in code
    summary: str | None = None
    status: str = ""
    trajectories: list[str] = field(default_factory=list)

    @property
    def mutated(self) -> bool:
        return not self.changes.empty

    def to_dict(self) -> dict:
        return {"changes": self.changes.to_dict(), "violations": [v.to_dict() for v in self.violations],
                "repaired": self.repaired, "reverted": [v.to_dict() for v in self.reverted],
                "summary": self.summary, "status": self.status, "trajectories": self.trajectories,
                "mutated": self.mutated}
