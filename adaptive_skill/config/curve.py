"""The `curve:` section: what `adaptive-skill curve` measures besides the run itself (docs/curve.md).

Every workspace is evaluated on the run's holdout tasks with the gate's seeds (gating.temperature,
gate round first_round + r's seed for repeat r), so the rows are paired by task and by repeat. Paths resolve
against the config file's directory, like `paths.*`."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from adaptive_skill.config.base import _Strict


class ExpertSplitConfig(_Strict):
    """The split whose train tasks the expert workspace was written from: the results add every row
    again on the holdout tasks outside them (on another split some holdout tasks are among them)."""

    seed: int = 0
    holdout_ratio: float = Field(0.5, gt=0.0, lt=1.0)


class CurveConfig(_Strict):
    repeats: int = Field(2, ge=1)  # seeded repeats per workspace: gate rounds first_round..first_round+repeats-1
    # The gate round whose seed the first repeat samples with. 0: the gate's own rounds, so the seed's
    # repeats are cycle 1's baseline and a tag's figures are the rounds that accepted it. At or above
    # gating.max_rounds: fresh sampling seeds no gate decided on (the seed is evaluated again for them).
    first_round: int = Field(0, ge=0)
    evolve: bool = True  # the evolve run (the config's cycles), then each accepted tag evo-N
    expert: Path | None = None  # a hand-written workspace: the headroom (expert - seed)
    expert_written_from: ExpertSplitConfig | None = None
    workspaces: list[Path] = Field(default_factory=list)  # more workspaces, each paired with the seed
    holdout_tasks: int | None = Field(None, ge=1)  # only the first N holdout tasks: a smoke check
