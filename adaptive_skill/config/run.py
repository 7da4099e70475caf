"""EvolveConfig: the whole configuration of a run (the engine's switches, the run's shape, its paths)
and every part, with the redacted form that is printed and stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, PrivateAttr, model_validator

from adaptive_skill.config.base import REDACTED, _Strict, set_path
from adaptive_skill.config.curve import CurveConfig
from adaptive_skill.config.defaults import fill_defaults
from adaptive_skill.config.evolver import EvolverConfig, SkillRulesConfig
from adaptive_skill.config.explore import ExploreConfig
from adaptive_skill.config.gating import GatingConfig
from adaptive_skill.config.judging import JudgeConfig, ReviewConfig
from adaptive_skill.config.models import ModelsConfig
from adaptive_skill.config.proposals import NoveltyConfig, TaskProposalConfig
from adaptive_skill.config.sandbox import ExecutorConfig, LimitsConfig, SandboxConfig
from adaptive_skill.config.spiral import SpiralConfig


class PathsConfig(_Strict):
    """Relative paths are resolved against the directory of the config file."""

    workspace: Path = Path("workspace")  # the seed workspace copied into each run
    suite: Path = Path("benchmarks/terminal-core")
    runs_dir: Path = Path("runs")


class EvolveConfig(_Strict):
    # The engine's switches (seed table, defaults kept).
    trajectory_only: bool = True
    max_skills: int = Field(5, ge=0)
    evolve_skills: bool = True
    evolve_prompts: bool = True
    evolve_memory: bool = True
    memory_budget_tokens: int = Field(600, ge=0)  # memory entries in the agent's system prompt (docs/engine.md)
    # The best-matching skill's body placed in the agent's system prompt, within this many tokens
    # (0: none; the agent reads skills with read_skill). For models that rarely read skills (docs/engine.md).
    # No default of its own: left out, config/defaults.py sets it by evolver.mode (300 under distill, else
    # 0) before validation, as it does for every config, so a field default would never be used.
    skill_in_prompt_tokens: int = Field(ge=0)
    # A skill whose entries store their tasks (the distilling evolver's) is placed only where one entry's
    # task is at least this close to the task (agent/inline.py; 0: off). Measured on the family suite
    # (benchmarks/perf/bench_placement.py, docs/engine.md).
    skill_in_prompt_min_similarity: float = Field(0.3, ge=0.0, le=1.0)
    protect_skills: bool = False
    solver_proposed: bool = False
    prompt_only: bool = False
    batch_size: int = Field(10, gt=0)
    holdout_ratio: float = Field(0.2, ge=0.0, lt=1.0)
    # Keep each family of the suite's families.toml on one side of the split (docs/concepts.md#splits-and-families);
    # off by default, so the documented runs' splits stay as they were.
    split_by_family: bool = False
    # Hold out this many whole families and split every other family inside itself, so the holdout
    # has in-family instances (a sibling trained on) and out-of-family ones (docs/concepts.md); 0: off.
    # Excludes split_by_family.
    holdout_families: int = Field(0, ge=0)
    egl_threshold: float = Field(0.05, ge=0.0)
    egl_window: int = Field(3, gt=0)
    # Run shape.
    max_cycles: int = Field(10, gt=0)
    seed: int = 0
    workers: int = Field(2, gt=0)

    paths: PathsConfig = Field(default_factory=PathsConfig)
    models: ModelsConfig = Field(default_factory=ModelsConfig)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    gating: GatingConfig = Field(default_factory=GatingConfig)
    spiral: SpiralConfig = Field(default_factory=SpiralConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    skills: SkillRulesConfig = Field(default_factory=SkillRulesConfig)
    evolver: EvolverConfig = Field(default_factory=EvolverConfig)
    explore: ExploreConfig = Field(default_factory=ExploreConfig)
    novelty: NoveltyConfig = Field(default_factory=NoveltyConfig)
    task_proposal: TaskProposalConfig = Field(default_factory=TaskProposalConfig)
    executor: ExecutorConfig = Field(default_factory=ExecutorConfig)
    review: ReviewConfig = Field(default_factory=ReviewConfig)
    curve: CurveConfig = Field(default_factory=CurveConfig)  # adaptive-skill curve only (config/curve.py)

    # Key paths whose values came from secret-looking environment variables.
    _secret_paths: set[str] = PrivateAttr(default_factory=set)
    _source: Path | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _setup_defaults(cls, data: Any) -> Any:
        return fill_defaults(data)  # the keys whose default depends on others (config/defaults.py)

    @model_validator(mode="after")
    def _consistent(self) -> EvolveConfig:
        if self.prompt_only and not self.evolve_prompts:
            raise ValueError("prompt_only needs evolve_prompts: true")
        if self.gating.per_skill and not self.skill_in_prompt_tokens:
            raise ValueError("gating.per_skill needs skill_in_prompt_tokens > 0: a skill is judged on the holdout "
                             "tasks it is placed for in the prompt")
        if self.holdout_families and self.split_by_family:
            raise ValueError("holdout_families splits inside families and split_by_family keeps each whole: "
                             "set one of them")
        if self.evolver.samples > 1 and self.evolver.mode != "structured":
            raise ValueError("evolver.samples > 1 needs evolver.mode: structured (the other modes ask once)")
        if self.evolver.samples > 1 and self.models.evolver.temperature <= 0:
            raise ValueError("evolver.samples > 1 needs models.evolver.temperature > 0: at temperature 0 every "
                             "sample is the same reply")
        if self.evolver.lessons and self.evolver.mode != "distill":
            raise ValueError("evolver.lessons needs evolver.mode: distill (it states what distilled entries share)")
        if self.explore.reflect and not self.explore.passes:
            raise ValueError("explore.reflect needs explore.passes >= 1: it changes what the explore attempts are told")
        if (self.evolver.mode == "distill" and not self.skill_in_prompt_tokens
                and self.models.agent.model.startswith("local/")):
            raise ValueError("evolver.mode: distill with an embedded agent model needs skill_in_prompt_tokens > 0 "
                             "(300 measured): the embedded models read no skill by themselves, so the distilled "
                             "skills would never reach them (docs/log/results-runs.md, run 5)")
        if self.explore.agree and (not self.trajectory_only or not self.explore.passes
                                   or self.sandbox.kind != "docker"):
            raise ValueError("explore.agree needs trajectory_only: true (with labels the tests decide), "
                             "explore.passes >= 1 and sandbox.kind: docker (it compares the files attempts left)")
        if self.judge.check_state and self.sandbox.kind != "docker":
            raise ValueError("judge.check_state needs sandbox.kind: docker (the checks run in a container of the "
                             "task's image, on the files the attempt left)")
        if not self.explore.judge and not self.explore.agree:
            raise ValueError("explore.judge: false needs explore.agree: true (without the vote nothing counts a pass "
                             "but the judge)")
        if self.explore.confirm_model and not self.explore.agree:
            raise ValueError("explore.confirm_model needs explore.agree: true (it confirms the vote's counts)")
        if self.task_proposal.enabled and self.sandbox.kind != "docker":
            raise ValueError("task_proposal.enabled needs sandbox.kind: docker (proposals are written and "
                             "checked in containers)")
        return self

    @property
    def source(self) -> Path | None:
        """The file this config was loaded from, if any."""
        return self._source

    def redacted(self) -> dict[str, Any]:
        """A plain dict safe to print or store: api keys and secret env values replaced."""
        data = self.model_dump(mode="json")
        for path in self._secret_paths:
            set_path(data, path.split("."), REDACTED)
        for role in data["models"].values():
            if role.get("api_key"):
                role["api_key"] = REDACTED
        return data

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.redacted(), sort_keys=False)
