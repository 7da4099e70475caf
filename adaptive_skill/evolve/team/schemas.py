"""What each team member replies, validated by pydantic (the LLM layer repairs a bad reply once)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from adaptive_skill.skills import NAME_PATTERN

SKILL_NAME = NAME_PATTERN.pattern


class Statement(BaseModel):
    message: str = Field(min_length=1, max_length=3000, description="your contribution to this turn")


class TopicSummary(BaseModel):
    pattern: str = Field(min_length=1, max_length=2000, description="the failure pattern(s) the team will address")
    evidence: list[str] = Field(default_factory=list, description="task ids that show the pattern")
    focus: str = Field(min_length=1, max_length=600, description="one sentence: what a skill should teach")


class Idea(BaseModel):
    action: Literal["create", "edit"]
    target: str = Field(pattern=SKILL_NAME, max_length=64, description="skill name (kebab-case)")
    description: str = Field(min_length=1, max_length=1024, description="what the skill is for and when to use it")
    steps: list[str] = Field(min_length=1, max_length=12)
    verification: list[str] = Field(min_length=1, max_length=8, description="how the agent checks its result")
    confidence: float = Field(ge=0.0, le=1.0, description="your estimate that this change helps the agent")


class Ballot(BaseModel):
    choice: int = Field(ge=1, description="the number of the candidate you vote for")
    reason: str = Field(min_length=1, max_length=1500)


class SkillDraft(BaseModel):
    content: str = Field(min_length=1, max_length=20_000, description="the complete SKILL.md")


class SkillRevision(BaseModel):
    assessment: str = Field(min_length=1, max_length=2000, description="what the draft lacks, against the criteria")
    content: str = Field(min_length=1, max_length=20_000, description="the complete revised SKILL.md")


class SelfReview(BaseModel):
    novel: bool = Field(description="true if the draft teaches something the listed skills do not")
    duplicates: list[str] = Field(default_factory=list, description="names of skills the draft repeats")
    feedback: str = Field(min_length=1, max_length=2000, description="what to change to make it distinct")


class SkillChange(BaseModel):
    action: Literal["create", "edit"]
    target: str = Field(pattern=SKILL_NAME, max_length=64)
    content: str = Field(min_length=1, max_length=20_000, description="the complete SKILL.md")
