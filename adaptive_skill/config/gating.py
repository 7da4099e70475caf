"""The holdout gate's settings (engine/phase_gate.py runs the gate, engine/sequential.py holds its rule)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from adaptive_skill.config.base import _Strict


class GatingConfig(_Strict):
    """The holdout gate: a sequential paired test on task-level differences (engine/sequential.py; the
    defaults come from benchmarks/perf/bench_gating.py, figures in docs/engine.md)."""

    enabled: bool = True
    # verifier: the tests' reward (the judge only for tasks without tests, or when a verifier gave
    # none); judge: the label-free judge score for every task.
    score: Literal["judge", "verifier"] = "verifier"
    effect: float = Field(0.10, gt=0.0, le=1.0)  # the improvement told apart from the same-size regression (0-1)
    # The gate per skill (gating.per_skill): the effect each skill's test tells from its opposite, on the
    # tasks it is placed for; a recipe for a family's slip moves its instances far more than a whole
    # library moves a holdout (benchmarks/perf/bench_skill_gate.py).
    skill_effect: float = Field(0.3, gt=0.0, le=1.0)
    # Judge each created or modified skill on the holdout tasks it was placed for (the skill in the
    # prompt), keep those whose own test accepts, drop the others (engine/sequential.py,
    # skill_decisions); the candidate is accepted with the skills kept, if any. Needs
    # skill_in_prompt_tokens > 0.
    per_skill: bool = False
    # The gate per skill's own cap on rounds: a skill still undecided when the whole candidate's rounds
    # end (max_rounds, or earlier once every skill is decided) gets more rounds, run only on the holdout
    # tasks placed for the undecided skills, on both sides, until each is decided or this many rounds in
    # all. A family's recipe is placed for a few tasks: 2 rounds rarely tell +30 points on 5 tasks from
    # noise, and 2 more rounds on those 5 tasks cost 20 attempts, not 2 x the holdout. None: max_rounds.
    skill_max_rounds: int | None = Field(None, ge=1)
    accept_at: float = Field(2.5, gt=0.0)  # log-likelihood ratio at which the change is accepted
    reject_at: float = Field(2.25, gt=0.0)  # ... rejected at -reject_at, rising to 0 at max_rounds
    min_task_sd: float = Field(0.10, gt=0.0, le=1.0)  # floor on the between-task sd of the change's effect
    min_rounds: int = Field(2, ge=1)
    max_rounds: int = Field(30, ge=1)  # the cap: no decision by then is a rejection
    identical_rounds: int = Field(3, ge=2)  # every pair repeated this often unchanged: more rounds add nothing
    temperature: float = Field(0.7, ge=0.0, le=2.0)  # the agent's sampling temperature in gate rounds (seeded)
    # The judge is scored against the verifier on holdout; a warning when it disagrees on more than
    # this share of at least `judge_min_attempts` labelled attempts in a cycle.
    judge_max_disagreement: float = Field(0.3, ge=0.0, le=1.0)
    judge_min_attempts: int = Field(12, ge=1)
    # false: holdout attempts the verifier scored are not judged (no judge check), which halves a gate
    # round's cost with an embedded judge; the judge still scores what the verifier could not.
    judge_check: bool = True

    @model_validator(mode="after")
    def _rounds(self) -> GatingConfig:
        if self.min_rounds > self.max_rounds:
            raise ValueError("min_rounds must not exceed max_rounds")
        if self.skill_max_rounds is not None and not self.per_skill:
            raise ValueError("skill_max_rounds needs per_skill: true (the rounds it adds judge each skill on its own)")
        if self.skill_max_rounds is not None and self.skill_max_rounds < self.max_rounds:
            raise ValueError("skill_max_rounds must not be below max_rounds: it adds rounds for the skills "
                             "still undecided, it does not cut the whole candidate's")
        return self

    @property
    def skill_rounds(self) -> int:
        """The rounds a skill may be judged on in all (gating.per_skill): skill_max_rounds, or max_rounds."""
        return self.skill_max_rounds if self.skill_max_rounds is not None else self.max_rounds

