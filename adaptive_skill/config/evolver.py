"""What changes the workspace: the evolver (single, structured, distill, team and the team's roster)
and the rules a skill is held to (the explore phase that feeds it is in explore.py)."""

from __future__ import annotations

from importlib.resources import files
from typing import Literal

import yaml
from pydantic import Field, model_validator

from adaptive_skill.config.base import _Strict
from adaptive_skill.config.sandbox import PullbackConfig

_ROSTER_FILE = "team_roster.yaml"  # the team evolver's default members, packaged in adaptive_skill/


class SkillRulesConfig(_Strict):
    max_body_chars: int = Field(2000, gt=0)
    require_verification: bool = True


class TeamMemberConfig(_Strict):
    """One profile of the team evolver's roster (docs/team.md)."""

    name: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=40)
    expertise: str = Field(min_length=1, max_length=300)
    background: str = Field("", max_length=1000)
    areas: list[str] = Field(default_factory=list)  # judge categories: choose the leader, measure diversity


def _default_roster() -> list[TeamMemberConfig]:
    """The six profiles of team_roster.yaml, checked like a config's own `members:` list."""
    rows = yaml.safe_load((files("adaptive_skill") / _ROSTER_FILE).read_text(encoding="utf-8"))
    return [TeamMemberConfig.model_validate(row) for row in rows]


class TeamConfig(_Strict):
    """The team evolver (evolver.mode: team, docs/team.md). None for a threshold: the embedder's own level."""

    size: int = Field(4, ge=2)  # leader included
    turns: int = Field(3, ge=1, le=10)  # K: the ceiling of discussion, idea and writing turns
    min_turn_novelty: float | None = Field(None, ge=0.0, le=1.0)  # a turn below this ends the stage
    duplicate_similarity: float | None = Field(None, gt=0.0, le=1.0)  # cosine at which a skill repeats another
    freshness: float | None = Field(0.5, ge=0.0, le=1.0)  # share of collaborators new to the leader
    diversity: float | None = Field(0.5, ge=0.0, le=1.0)  # share of collaborators from other areas
    invite: bool = True  # consult one non-member for one discussion turn
    top_ideas: int = Field(3, ge=1)  # candidates kept for the novelty review
    idea_rounds: int = Field(2, ge=1)  # idea generation restarts after a discarded draft
    digest_chars: int = Field(8000, ge=1000)  # observations shown to the team
    members: list[TeamMemberConfig] = Field(default_factory=_default_roster)

    @model_validator(mode="after")
    def _roster(self) -> TeamConfig:
        names = [m.name for m in self.members]
        if len(set(names)) != len(names):
            raise ValueError("team member names must be unique")
        if self.size > len(self.members):
            raise ValueError(f"team size {self.size} exceeds the roster of {len(self.members)} members")
        return self


class EvolverConfig(_Strict):
    # docs/engine.md, "The evolver"; distill calls no model: it writes the passed attempts' worked commands
    mode: Literal["single", "team", "structured", "distill"] = "distill"
    max_turns: int = Field(30, gt=0)
    # mode structured: independent questions (seeded sampling) asked in turn until a reply passes the
    # rules; for a small model whose replies the rules mostly refuse (docs/engine.md, "The evolver")
    samples: int = Field(1, ge=1, le=8)
    # mode distill: above each kind's entries, the rules they share (evolve/lessons.py): "run git inside
    # the repository", "write the result into the file"; stated by code, only where 2 entries show one
    lessons: bool = False
    # mode distill: what a skill gathers, the entries of one task category (the documented runs) or of
    # one declared family (the suite's families.toml; a task in none goes by its category), or of
    # one category's tasks with alike instructions (similar, where no family is declared:
    # evolve/grouping.py): one recipe per skill, so the gate per skill can drop a wrong one alone
    group: Literal["category", "family", "similar"] = "category"
    pullback: PullbackConfig = Field(default_factory=PullbackConfig)
    team: TeamConfig = Field(default_factory=TeamConfig)
